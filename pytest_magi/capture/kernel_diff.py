"""`kernel_diff`: the kernels only one of two programs has, and those both have, matched by what
they compute (`KernelInfo.computes`: the kernel's normalised body without its name), not by name:
``triton_poi_fused_add_0`` and ``triton_poi_fused_add_3`` with the same body match."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from .kernels import KernelInfo, parse_output_code


# --------------------------------------------------------------------------- diff
@dataclasses.dataclass(frozen=True)
class KernelDiff:
    """The kernels of two programs, matched by what they compute (:func:`kernel_diff`).

    ``only_baseline``: kernels the candidate no longer has; ``only_candidate``: kernels it added
    (a kernel whose body changed counts as one removed and one added); ``shared``:
    ``(baseline kernel, candidate kernel)`` pairs computing the same thing. ``times_ms``:
    milliseconds per call by side and kernel name, when the pair was profiled on a GPU.
    """

    only_baseline: tuple[KernelInfo, ...]
    only_candidate: tuple[KernelInfo, ...]
    shared: tuple[tuple[KernelInfo, KernelInfo], ...]
    times_ms: Mapping[str, Mapping[str, float]] = dataclasses.field(default_factory=dict)

    @property
    def changed(self) -> bool:
        """Whether the candidate removed or added any kernel."""
        return bool(self.only_baseline or self.only_candidate)

    def _time(self, side: str, name: str) -> str:
        value = self.times_ms.get(side, {}).get(name)
        return "" if value is None else f"  {value:.4f} ms"

    def _line(self, mark: str, side: str, k: KernelInfo) -> str:
        ops = "+".join(k.fused_ops) or "-"
        return (
            f"  {mark} {k.name} [{k.graph} {k.kind}: {ops}; loads={k.num_loads} "
            f"stores={k.num_stores}]{self._time(side, k.name)}"
        )

    @property
    def changed_pairs(self) -> tuple[tuple[KernelInfo, KernelInfo], ...]:
        """Removed/added kernels of the same kind fusing the same ops: one kernel whose body
        changed (index math, layout, tiling) rather than a kernel removed and another added."""
        pairs: list[tuple[KernelInfo, KernelInfo]] = []
        added = list(self.only_candidate)
        for b in self.only_baseline:
            match = next(
                (
                    c
                    for c in added
                    if (c.kind, c.graph, c.fused_ops) == (b.kind, b.graph, b.fused_ops)
                ),
                None,
            )
            if match is not None:
                added.remove(match)
                pairs.append((b, match))
        return tuple(pairs)

    def __str__(self) -> str:
        pairs = self.changed_pairs
        in_pairs = {id(k) for pair in pairs for k in pair}
        lines = [
            f"kernel diff: {len(self.shared)} shared, {len(self.only_baseline)} only in the "
            f"baseline (removed), {len(self.only_candidate)} only in the candidate (added)"
            + (f"; {len(pairs)} of them the same fused ops with another body" if pairs else "")
        ]
        lines += [
            self._line("-", "baseline", k) for k in self.only_baseline if id(k) not in in_pairs
        ]
        lines += [
            self._line("+", "candidate", k) for k in self.only_candidate if id(k) not in in_pairs
        ]
        for b, c in pairs:
            lines.append(
                f"  ~ {b.name} -> {c.name} [{c.graph} {c.kind}: body changed; loads "
                f"{b.num_loads}->{c.num_loads}, stores {b.num_stores}->{c.num_stores}]"
                f"{self._time('candidate', c.name)}"
            )
        for b, c in self.shared:
            same = b.name if b.name == c.name else f"{b.name} == {c.name}"
            lines.append(f"  = {same}{self._time('candidate', c.name)}")
        return "\n".join(lines)


def _kernels_of(code: Any) -> list[KernelInfo]:
    if isinstance(code, str):
        return [k for g in parse_output_code([code]) for k in g.kernels]
    kernels = getattr(code, "kernels", None)
    if kernels is None and isinstance(code, Sequence):
        kernels = code
    if kernels is None or not all(isinstance(k, KernelInfo) for k in kernels):
        raise TypeError(
            f"kernel_diff: expected a GeneratedCode (what inductor_codegen returns), output code "
            f"(a str) or a list of KernelInfo, got {type(code).__name__} {code!r:.80}"
        )
    return list(kernels)


def kernel_diff(
    baseline: Any, candidate: Any, *, times_ms: Mapping[str, Mapping[str, float]] | None = None
) -> KernelDiff:
    """Diff the kernels of two programs (``GeneratedCode``, output code or ``KernelInfo`` lists)
    by what they compute (:attr:`KernelInfo.computes`); kernels keep their order."""
    base, cand = _kernels_of(baseline), _kernels_of(candidate)
    pool: dict[str, list[KernelInfo]] = {}
    for k in cand:
        pool.setdefault(k.computes, []).append(k)
    shared: list[tuple[KernelInfo, KernelInfo]] = []
    only_baseline: list[KernelInfo] = []
    for k in base:
        match = pool.get(k.computes)
        if match:
            shared.append((k, match.pop(0)))
        else:
            only_baseline.append(k)
    used = {id(c) for _, c in shared}
    only_candidate = [k for k in cand if id(k) not in used]
    return KernelDiff(
        tuple(only_baseline), tuple(only_candidate), tuple(shared), dict(times_ms or {})
    )
