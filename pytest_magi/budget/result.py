"""`Budget`: what one call of generated CUDA code costs, per graph and in total, with the time it
would take on a device profile, a readable table, a JSON-safe `to_dict()` and `assert_within`.

Each launch (a Triton kernel launch or an extern call the wrapper makes) is estimated as
``max(FLOPs / peak, bytes / bandwidth) + launch cost``: the matmul peak for bf16/fp16 extern calls,
the fp32 peak otherwise; Triton kernels are timed by their bytes unless Inductor counted their
FLOPs. A bf16/fp16 convolution whose input is channels-first moves its bytes
``profile.channels_first_conv_traffic`` times: cuDNN's tensor-core kernels run channels-last, so
it converts the operands and the result, in kernels of their own whose time adds to the
convolution's. No torch import.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from .profiles import Profile, get_profile

_HALF = ("bfloat16", "float16")


@dataclasses.dataclass(frozen=True)
class LaunchCost:
    """One launch of one call: a Triton kernel (``kind`` its heuristic, e.g. ``"pointwise"``) or
    an extern call (``kind="extern"``, ``dtype`` its output dtype). ``bytes``: read + written
    (None: Inductor gave no count); ``flops``: None where not counted."""

    name: str
    kind: str
    bytes: int | None
    flops: int | None
    dtype: str | None = None
    layout: str | None = None  # a convolution's input layout (channels_last / channels_first)
    # a Triton kernel's divisions and remainders by run-time sizes (`kernel_index_divmods`)
    index_divmods: int = 0

    def estimated_s(self, profile: Profile) -> float:
        compute = 0.0
        if self.flops:
            peak = profile.matmul_flop_per_s if self.dtype in _HALF else profile.fp32_flop_per_s
            compute = self.flops / peak
        memory = float(self.bytes or 0) / profile.bytes_per_s
        # a dynamic shape's index arithmetic: integer divisions by run-time sizes, each a
        # software routine on the GPU, can outlast the kernel's memory traffic
        indexing = self.index_divmods / profile.index_divmod_per_s
        converting = 0.0  # the layout conversions run as kernels of their own, after each other
        if self.layout == "channels_first" and self.dtype in _HALF:
            converting = (profile.channels_first_conv_traffic - 1.0) * memory
        return max(compute, memory, indexing) + converting + profile.launch_s

    def to_dict(self, profile: Profile) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "bytes": self.bytes,
            "flops": self.flops,
            "dtype": self.dtype,
            **({"layout": self.layout} if self.layout else {}),
            **({"index_divmods": self.index_divmods} if self.index_divmods else {}),
            "estimated_us": round(self.estimated_s(profile) * 1e6, 4),
        }

    @property
    def is_kernel(self) -> bool:
        return self.kind != "extern"


@dataclasses.dataclass(frozen=True)
class GraphBudget:
    """One compiled graph: its ``kind`` (inference/forward/backward), its Triton kernels
    (defined) and its launches in call order."""

    kind: str
    kernels: tuple[str, ...]
    launches: tuple[LaunchCost, ...]

    @property
    def bytes(self) -> int:
        return sum(launch.bytes or 0 for launch in self.launches)

    @property
    def flops(self) -> int:
        return sum(launch.flops or 0 for launch in self.launches)

    def estimated_ms(self, profile: Profile) -> float:
        return sum(launch.estimated_s(profile) for launch in self.launches) * 1e3

    def to_dict(self, profile: Profile) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "kernels": len(self.kernels),
            "launches": len(self.launches),
            "bytes": self.bytes,
            "flops": self.flops,
            "estimated_ms": round(self.estimated_ms(profile), 6),
            "calls": [launch.to_dict(profile) for launch in self.launches],
        }


class Budget:
    """The cost of one call of a function's generated CUDA code (see :func:`pytest_magi.budget`).

    ``graphs``: one :class:`GraphBudget` per compiled graph; totals ``kernels`` (Triton kernels
    generated), ``launches`` (kernel launches and extern calls per call), ``bytes``, ``flops``,
    ``estimated_ms`` on ``profile``; ``unaccounted`` names the launches without a byte count.
    """

    def __init__(
        self,
        graphs: Sequence[GraphBudget],
        profile: Profile,
        *,
        label: str = "",
        device: str = "fake-cuda",
        torch_version: str = "",
    ) -> None:
        self.graphs: tuple[GraphBudget, ...] = tuple(graphs)
        self.profile = profile
        self.label = label
        self.device = device
        self.torch_version = torch_version

    # totals
    @property
    def kernels(self) -> int:
        return sum(len(g.kernels) for g in self.graphs)

    @property
    def launches(self) -> int:
        return sum(len(g.launches) for g in self.graphs)

    @property
    def bytes(self) -> int:
        return sum(g.bytes for g in self.graphs)

    @property
    def flops(self) -> int:
        return sum(g.flops for g in self.graphs)

    @property
    def estimated_ms(self) -> float:
        return sum(g.estimated_ms(self.profile) for g in self.graphs)

    @property
    def forward(self) -> list[GraphBudget]:
        return [g for g in self.graphs if g.kind in ("inference", "forward")]

    @property
    def backward(self) -> list[GraphBudget]:
        return [g for g in self.graphs if g.kind == "backward"]

    @property
    def unaccounted(self) -> list[str]:
        return [launch.name for g in self.graphs for launch in g.launches if launch.bytes is None]

    def kernel_bytes(self) -> dict[str, int | None]:
        """``{kernel name: bytes}`` of every Triton kernel (first launch of each)."""
        out: dict[str, int | None] = {}
        for g in self.graphs:
            for launch in g.launches:
                if launch.is_kernel:
                    out.setdefault(launch.name, launch.bytes)
        return out

    def on(self, profile: str | Profile | Mapping[str, Any]) -> Budget:
        """The same budget estimated on another profile (no code is generated again)."""
        return Budget(
            self.graphs,
            get_profile(profile),
            label=self.label,
            device=self.device,
            torch_version=self.torch_version,
        )

    # output
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe and deterministic: the same code gives the same dict."""
        return {
            "label": self.label,
            "device": self.device,
            "torch": self.torch_version,
            "profile": self.profile.to_dict(),
            "total": {
                "kernels": self.kernels,
                "launches": self.launches,
                "bytes": self.bytes,
                "flops": self.flops,
                "estimated_ms": round(self.estimated_ms, 6),
            },
            "graphs": [g.to_dict(self.profile) for g in self.graphs],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Budget:
        """The budget a ``to_dict()`` describes (a snapshot's, for example)."""
        graphs = []
        for g in data["graphs"]:
            launches = tuple(
                LaunchCost(
                    c["name"],
                    c["kind"],
                    c["bytes"],
                    c["flops"],
                    c.get("dtype"),
                    c.get("layout"),
                    int(c.get("index_divmods", 0)),
                )
                for c in g["calls"]
            )
            kernels = tuple(dict.fromkeys(c.name for c in launches if c.is_kernel))
            if len(kernels) != g["kernels"]:  # a kernel defined but not launched: keep the count
                kernels += tuple(f"<unlaunched {i}>" for i in range(g["kernels"] - len(kernels)))
            graphs.append(GraphBudget(g["kind"], kernels, launches))
        return cls(
            graphs,
            get_profile(data["profile"]),
            label=data.get("label", ""),
            device=data.get("device", ""),
            torch_version=data.get("torch", ""),
        )

    def __str__(self) -> str:
        header = (
            f"budget of {self.label or 'fn'} on {self.profile.name} ({self.device}, torch "
            f"{self.torch_version}): {self.kernels} Triton kernels, {self.launches} launches, "
            f"{_fmt_bytes(self.bytes)}, {self.flops / 1e9:.3f} GFLOP, estimated "
            f"{self.estimated_ms:.4f} ms"
        )
        rows = [("graph", "launch", "kind", "bytes", "FLOPs", "est. us")]
        for g in self.graphs:
            for launch in g.launches:
                rows.append(
                    (
                        g.kind,
                        launch.name,
                        launch.kind + (f" {launch.dtype}" if launch.dtype else ""),
                        "?" if launch.bytes is None else f"{launch.bytes:,}",
                        "-" if launch.flops is None else f"{launch.flops:,}",
                        f"{launch.estimated_s(self.profile) * 1e6:.2f}",
                    )
                )
            rows.append(
                (
                    g.kind,
                    f"= {len(g.kernels)} kernels, {len(g.launches)} launches",
                    "",
                    f"{g.bytes:,}",
                    f"{g.flops:,}",
                    f"{g.estimated_ms(self.profile) * 1e3:.2f}",
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [header]
        for row in rows:
            cells = [
                cell.rjust(widths[i]) if i >= 3 else cell.ljust(widths[i])
                for i, cell in enumerate(row)
            ]
            lines.append("  ".join(cells).rstrip())
        if self.unaccounted:
            lines.append(f"no byte count from Inductor for: {', '.join(self.unaccounted)}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<Budget {self.label or 'fn'} on {self.profile.name}: {self.kernels} kernels, "
            f"{self.launches} launches, {self.bytes:,} bytes, {self.estimated_ms:.4f} ms>"
        )

    # checks
    def assert_within(
        self,
        *,
        max_bytes: int | None = None,
        max_launches: int | None = None,
        max_kernels: int | None = None,
        max_estimated_ms: float | None = None,
    ) -> None:
        """Fail naming each total over its maximum (and the largest launches by bytes)."""
        limits = {
            "max_bytes": (max_bytes, self.bytes),
            "max_launches": (max_launches, self.launches),
            "max_kernels": (max_kernels, self.kernels),
            "max_estimated_ms": (max_estimated_ms, self.estimated_ms),
        }
        if all(limit is None for limit, _ in limits.values()):
            raise ValueError(
                "assert_within() needs at least one of max_bytes, max_launches, max_kernels, "
                "max_estimated_ms"
            )
        excesses = []
        for key, (limit, value) in limits.items():
            if limit is None:
                continue
            if isinstance(limit, bool) or not isinstance(limit, int | float) or limit < 0:
                raise ValueError(f"{key}={limit!r}: expected a number >= 0")
            if value > limit:
                what = key[len("max_") :]
                shown = f"{value:.4f}" if isinstance(value, float) else f"{value:,}"
                over = f" (+{(value - limit) / limit:.1%})" if limit else ""
                excesses.append(f"  {what} {shown} > {key}={limit:,}{over}")
        if excesses:
            largest = sorted(
                (launch for g in self.graphs for launch in g.launches),
                key=lambda launch: -(launch.bytes or 0),
            )[:5]
            top = ", ".join(f"{launch.name} {launch.bytes or 0:,} B" for launch in largest)
            raise AssertionError(
                f"budget of {self.label or 'fn'} on {self.profile.name} exceeded:\n"
                + "\n".join(excesses)
                + f"\n  largest launches by bytes: {top}"
            )


def _fmt_bytes(n: int) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            return f"{n / size:.2f} {unit}"
    return f"{n} B"
