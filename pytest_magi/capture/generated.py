"""`GeneratedCode`: what Inductor generated for one function, all graphs, kernels and wrappers,
with the per-graph counts, a stable structural signature and the normalised text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .kernel_diff import KernelDiff, kernel_diff
from .kernels import CapturedGraph, KernelInfo


class GeneratedCode:
    """What Inductor generated for one function: all graphs, kernels and wrappers.

    ``kernels`` (all graphs, in order), ``forward`` (inference or forward kernels),
    ``backward``; ``wrapper`` / ``normalized()`` / ``raw`` texts; ``graphs`` the
    post-grad FX graphs (after the custom post pass); ``signature()`` a stable
    structural summary for assertions and snapshots; ``device`` ("fake-cuda" or the
    GPU's name); ``retried`` the bug of each graph compiled again after its first try raised
    one of torch's sympy failures (under a magi config: `magi_passes.workarounds`).
    """

    def __init__(
        self,
        captured: Sequence[CapturedGraph],
        device: str,
        *,
        log: Any = None,
        stats: Any = None,
        retried: Sequence[str] = (),
    ) -> None:
        self.captured: tuple[CapturedGraph, ...] = tuple(captured)
        self.device = device
        self.log = log  # pytest_magi.capture.core.GraphLog: graphs before/after the passes
        self.compile_stats = stats  # pytest_magi.capture.compile_stats.CompileStats of the call
        self.retried: tuple[str, ...] = tuple(retried)

    def fx_graphs(self, stage: str = "after") -> list[Any]:
        """Copies of the post-grad ``torch.fx.Graph``s ``"before"`` or ``"after"`` the passes."""
        if self.log is None:
            raise ValueError("this GeneratedCode was built without graphs (no GraphLog)")
        return list(self.log.stage(stage))

    def op_count(self, op: Any, stage: str = "after") -> int:
        """How often ``op`` is called in the post-grad graphs ``"before"``/``"after"`` the
        passes (see ``CompiledPair.op_count`` for the accepted ``op`` forms)."""
        from .core import count_ops, validate_op

        validate_op(op)
        return count_ops(self.fx_graphs(stage), op)

    def kernel_diff(self, candidate: Any) -> KernelDiff:
        """:func:`kernel_diff` with this code as the baseline."""
        return kernel_diff(self, candidate)

    # kernels
    @property
    def kernels(self) -> list[KernelInfo]:
        return [k for g in self.captured for k in g.kernels]

    @property
    def kernel_count(self) -> int:
        return len(self.kernels)

    @property
    def forward(self) -> list[KernelInfo]:
        """Kernels of the inference or forward graph(s)."""
        return [k for k in self.kernels if k.graph in ("inference", "forward")]

    @property
    def backward(self) -> list[KernelInfo]:
        return [k for k in self.kernels if k.graph == "backward"]

    def kernel(self, name: str) -> KernelInfo:
        """The kernel called ``name``; KeyError listing the names otherwise."""
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(f"no kernel {name!r}; generated: {[k.name for k in self.kernels]}")

    @property
    def extern_calls(self) -> list[str]:
        return [c for g in self.captured for c in g.extern_calls]

    # texts
    @property
    def raw(self) -> str:
        return "\n".join(_header(g, i) + g.raw for i, g in enumerate(self.captured))

    @property
    def wrapper(self) -> str:
        """The normalised wrapper(s), kernel bodies elided (they are in ``kernels[i].source``)."""
        return "\n".join(_header(g, i) + g.wrapper for i, g in enumerate(self.captured))

    def normalized(self) -> str:
        return "\n".join(_header(g, i) + g.normalized for i, g in enumerate(self.captured))

    @property
    def graphs(self) -> list[str]:
        """Normalised ``str(graph)`` of each graph after the post-grad custom pass."""
        return [g.fx_graph for g in self.captured if g.fx_graph is not None]

    @property
    def graph_kinds(self) -> list[str]:
        return [g.kind for g in self.captured]

    @property
    def pass_results(self) -> list[Any]:
        """The ``PassResult``s of the magi passes, per graph in order (empty without ``config``)."""
        return [r for g in self.captured for r in g.pass_results]

    def signature(self) -> str:
        """Stable structural summary: one line per kernel launch or extern call, in call order."""
        lines: list[str] = []
        for g in self.captured:
            by_name = {k.name: k for k in g.kernels}
            seen: set[str] = set()
            for call in g.calls:
                if call in by_name:
                    if call not in seen:
                        seen.add(call)
                        lines.append(by_name[call].signature())
                else:
                    lines.append(f"{g.kind} extern {call}")
            lines.extend(k.signature() for k in g.kernels if k.name not in seen)
        return "\n".join(lines)

    def __repr__(self) -> str:
        per_graph = ", ".join(
            f"{g.kind}={len(g.kernels)}"
            + (f"+{len(g.extern_calls)} extern" if g.extern_calls else "")
            for g in self.captured
        )
        return f"<GeneratedCode on {self.device}: {self.kernel_count} kernels ({per_graph})>"


def _header(g: CapturedGraph, index: int) -> str:
    return f"# ===== graph {index}: {g.kind} =====\n"
