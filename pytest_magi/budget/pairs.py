"""The budgets of both sides of a compiled pair, and the CPU gate on their estimated speedup.

``pair_budget(pair)`` (what ``CompiledPair.budget()`` calls) generates each side's CUDA code the way
that side compiles (plain Inductor with its config patches and passes, or the magi passes with its
``PassConfig``) and returns a :class:`PairBudget`; ``zoo_pair_budget(pair)`` (``ZooPair.budget()``)
does the same for a zoo model's whole call. A side compiled by a dynamo backend of its own
cannot be generated without running it and is refused, naming the side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .profiles import Profile
from .result import Budget

SIDES = ("baseline", "candidate")


class PairBudget:
    """``baseline`` and ``candidate`` :class:`Budget`; ``estimated_speedup`` is baseline over
    candidate estimated time on the same profile (an estimate, not a measurement)."""

    def __init__(self, baseline: Budget, candidate: Budget, label: str = "") -> None:
        self.baseline = baseline
        self.candidate = candidate
        self.label = label

    @property
    def estimated_speedup(self) -> float:
        return self.baseline.estimated_ms / self.candidate.estimated_ms

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "estimated_speedup": round(self.estimated_speedup, 6),
            "baseline": self.baseline.to_dict(),
            "candidate": self.candidate.to_dict(),
        }

    def summary(self) -> str:
        rows = []
        for side, b in (("baseline", self.baseline), ("candidate", self.candidate)):
            rows.append(
                f"  {side:<9} {b.kernels:>3} kernels {b.launches:>4} launches "
                f"{b.bytes:>14,} bytes  estimated {b.estimated_ms:.4f} ms"
            )
        return "\n".join(rows)

    def assert_estimated_speedup(self, ratio: float) -> None:
        """Fail unless the candidate's estimated speedup over the baseline is >= ``ratio``."""
        if isinstance(ratio, bool) or not isinstance(ratio, int | float) or ratio <= 0:
            raise ValueError(f"ratio={ratio!r}: expected a positive number, e.g. 1.1")
        speedup = self.estimated_speedup
        if speedup < ratio:
            raise AssertionError(
                f"pair {self.label!r}: estimated speedup {speedup:.3f}x < required {ratio}x on "
                f"profile {self.candidate.profile.name} (estimated from generated code, not "
                f"measured):\n{self.summary()}"
            )

    def __str__(self) -> str:
        return (
            f"pair budget {self.label!r} on {self.candidate.profile.name}: estimated speedup "
            f"{self.estimated_speedup:.3f}x\n{self.summary()}"
        )

    def __repr__(self) -> str:
        return f"<PairBudget {self.label!r}: estimated speedup {self.estimated_speedup:.3f}x>"


def _magi_split(backend: Any) -> tuple[Any, dict[str, Any]]:
    """A magi backend's `PassConfig` and Inductor patches: its own options over its config, as
    it splits them for each graph."""
    from magi_passes.compile.options import split_options

    return split_options(
        dict(getattr(backend, "inductor_config_patches", None) or {}),
        getattr(backend, "config", None),
    )


def _side_arguments(side: str, spec: Any) -> dict[str, Any]:
    """The ``budget()`` arguments that generate what ``spec`` (a ``SideSpec``) compiles."""
    if spec.kind == "inductor":
        return {"inductor_config": dict(spec.patches or {}), "passes": list(spec.passes) or None}
    if spec.kind == "magi":
        config, patches = _magi_split(spec.backend)
        return {
            "config": config,
            "inductor_config": {**patches, **dict(spec.patches or {})},
            "passes": list(spec.passes) or None,
        }
    raise ValueError(
        f"pair.budget(): the {side} compiles with the dynamo backend {spec.description!r}, "
        f"whose code can only be had by running it; a budget generates Inductor's code for "
        f"plain Inductor (a dict of config patches, passes=...) or the magi passes (a PassConfig)"
    )


def pair_budget(pair: Any, profile: str | Profile | Mapping[str, Any] = "h200") -> PairBudget:
    """Both sides' budgets of ``pair`` (a ``CompiledPair``) on ``profile``."""
    from .api import budget

    sides: dict[str, Budget] = {}
    for side in SIDES:
        spec = pair.backends[side].spec
        sides[side] = budget(
            pair.model,
            *pair.example_inputs,
            profile=profile,
            dynamic_dims=dict(pair.dynamic_dims) or None,
            backward=not pair.inference,
            label=f"{pair.label} {side}",
            **_side_arguments(side, spec),
        )
    return PairBudget(sides["baseline"], sides["candidate"], label=pair.label)


def _zoo_side_arguments(
    side: str, backend: Any, compile_kwargs: Mapping[str, Any]
) -> dict[str, Any]:
    """The ``budget()`` arguments of one `ZooPair` side compiled with ``backend``."""
    from magi_passes import MagiBackend

    given = sorted(k for k in ("mode", "options") if compile_kwargs.get(k) is not None)
    if backend == "inductor" and not given:
        return {}
    if isinstance(backend, MagiBackend) and not given:
        config, patches = _magi_split(backend)
        return {"config": config, "inductor_config": patches}
    how = f"torch.compile({', '.join(f'{k}=...' for k in given)})" if given else repr(backend)
    raise ValueError(
        f"ZooPair.budget(): the {side} compiles with {how}, whose code a budget does not "
        f"generate; it generates plain Inductor (backend='inductor' without mode= or "
        f"options=) and the magi passes (a MagiBackend or 'magi')"
    )


def zoo_pair_budget(pair: Any, profile: str | Profile | Mapping[str, Any] = "h200") -> PairBudget:
    """Both sides' budgets of ``pair`` (a ``ZooPair``) on ``profile``: each side's code for the
    model's whole call (``ZooModel.as_module()``, one trace: the candidate's frames a module
    are not split apart, so the code is what one graph of the whole call generates)."""
    from .api import budget

    kwargs = pair.compile_kwargs
    if kwargs.get("dynamic"):
        raise ValueError(
            "ZooPair.budget(): the pair compiles with dynamic=True; a zoo budget generates the "
            "model's first call at its example shapes (leave dynamic unset or False)"
        )
    sides: dict[str, Budget] = {}
    for side in SIDES:
        sides[side] = budget(
            pair.model.as_module(),
            *pair.model.inputs,
            profile=profile,
            label=f"{pair.label} {side}",
            **_zoo_side_arguments(side, pair.side_backends[side], kwargs),
        )
    return PairBudget(sides["baseline"], sides["candidate"], label=pair.label)
