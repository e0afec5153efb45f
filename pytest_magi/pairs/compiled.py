"""`CompiledPair`: one model compiled twice, baseline and candidate, provably apart.

``CompiledPair.build(model, *example_inputs)`` compiles ``model`` with plain Inductor (the baseline)
and with the magi passes (the candidate), runs each once on the example inputs, and keeps what each
side generated: ``pair.code``, ``pair.graphs``, ``pair.kernel_counts``, ``pair.candidate_results``.
``pair.assert_close()`` compares both sides with eager, ``pair.benchmark()`` times them
(``pytest_magi.timing.measure_pair``), ``pair.profile(side)`` says where a side's GPU time goes
per kernel class beside its floor (:mod:`pytest_magi.measure.profiling`).

Isolation, and why it needs care: two ``torch.compile`` wrappers of the same module share Dynamo's
frame cache (cache entries hang on the code object of ``forward``). A candidate compiled with other
Inductor config (or another post-grad pass) after a baseline silently reuses the baseline's compiled
code: a 1.25x pair re-measured that way gave 1.00x (docs/reliability.md, "Facts the design
rests on"). Here each side gets

1. its own entry function: a fresh, uniquely named code object (``_magi_pair_baseline_<id>``)
   that calls the model, so no cache entry of anyone else can exist on the frame Dynamo compiles;
2. its own backend object (``SideBackend``). Dynamo stores the backend in each cache entry and only
   reuses an entry for the same backend (its BACKEND_MATCH check), so even frames the sides share
   (the model's own code after a graph break) keep their compiled code apart, and every recompile
   (a new shape, a failed guard) goes to the backend of the side that was called;
3. its own Inductor config, passed to ``compile_fx(..., config_patches=...)`` (Inductor applies them
   around the compile and around the lazily compiled backward), never set ambiently;
4. fresh graph caches while it compiles: the FX graph cache and the AOTAutograd cache are off
   (``fx_graph_cache=False``, ``enable_autograd_cache=False``), so the post-grad passes really run
   and no side is served a graph compiled for the other. Kernel binary caches stay on: they are
   keyed by the kernel's source, so they cannot mix sides, and ``force_disable_caches`` would
   recompile every kernel from scratch into a temporary directory it never deletes.

Proof, checked by ``build`` and kept on the pair: each side's backend must have been invoked while
that side's own first call ran (``pair.compiles``); an invocation that never happened means Dynamo
reused someone else's code, and ``build`` raises. Each backend captures the output code of its own
compilations (``GraphLowering.save_output_code``, chained with any hook already installed) and its
post-pass FX graphs, so ``pair.code["candidate"]`` is what the candidate really runs. A magi side
must also show that its ``PassManager`` ran (``pair.candidate_results``); no pass *applying* is not
an error (the results say why each skipped).

Both sides compile through ``torch._functorch.config.force_non_lazy_backward_lowering`` (where the
torch version has it), so a training graph's backward is generated during the side's own compile
and captured with it.

Inference by default (``inference=True``): calls of ``pair.baseline`` / ``pair.candidate`` /
``pair.eager`` run under ``torch.no_grad()``, which is what a benchmark of a decoder wants (and lets
the magi backend convert conv weights to channels-last once, outside the graph).

Testing a pass of your own: ``passes=[MyPass()]`` makes the candidate plain Inductor running your
post-grad passes in order (``candidate=PassConfig(...)`` with ``passes=`` runs the magi passes,
then yours); ``pair.op_count(op, stage="before"|"after")`` and ``pair.assert_ops(...)`` read the
post-grad graphs recorded before and after the passes; ``pair.compile_stats[side]`` and
``pair.expect_compile(graph_breaks=0, ...)`` say what compiling took; ``pair.kernel_diff()`` which
kernels the candidate removed and added; ``pair.assert_close(reference="fp64")`` judges
low-precision pairs against a higher-precision run (see :mod:`pytest_magi.numerics`). The pieces
live in :mod:`pytest_magi.capture.sides` (the sides' backends), :mod:`pytest_magi.capture.core` (the capture
core), :mod:`pytest_magi.capture.compile_stats`, :mod:`pytest_magi.capture.kernels` and
:mod:`pytest_magi.numerics`; this module is the pair itself (its numerics in `compiled_numerics`,
its speed in `compiled_timing`). Docs: ``docs/testing-a-pass.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import torch

from magi_passes import PassResult
from magi_passes.compile.decisions import Decision

from ..capture.compile_stats import CompileStats, check_maximums, compile_health_note
from ..capture.core import (
    count_ops,
    fresh_entry,
    marked_copies,
    op_histogram,
    validate_bool,
    validate_dynamic_dims,
    validate_inductor_config,
    validate_label,
    validate_op,
    validate_passes,
)
from ..capture.kernel_diff import KernelDiff, kernel_diff
from ..capture.kernels import CapturedGraph, count_kernels
from ..capture.kernels import parse_output_code as _parse_output_code
from ..capture.sides import (
    SIDES,
    SideBackend,
    SideCallable,
    SideSpec,
    check_side_name,
    resolve_side,
)
from ..measure.timing import Speedup
from .compiled_numerics import PairNumerics
from .compiled_timing import PairTiming
from .protocol import Pair

if TYPE_CHECKING:
    from ..budget.pairs import PairBudget


def _infer_device(model: Any, inputs: Sequence[Any]) -> str:
    for x in inputs:
        if isinstance(x, torch.Tensor):
            return str(x.device)
    if isinstance(model, torch.nn.Module):
        for t in (*model.parameters(), *model.buffers()):
            return str(t.device)
    return "cpu"


def _default_label(model: Any, specs: Mapping[str, SideSpec]) -> str:
    name = (
        type(model).__name__
        if isinstance(model, torch.nn.Module)
        else getattr(model, "__name__", type(model).__name__)
    )
    return f"{name}[{specs['baseline'].description} vs {specs['candidate'].description}]"


def _check_build_args(
    model: Any, example_inputs: tuple[Any, ...], baseline: Any, candidate: Any
) -> None:
    if not callable(model):
        raise TypeError(
            f"CompiledPair.build: model must be an nn.Module or callable, got {model!r}"
        )
    if not example_inputs:
        raise ValueError(
            "CompiledPair.build(model, *example_inputs) needs at least one example input "
            "(the sides are compiled by calling them); e.g. CompiledPair.build(model, x)"
        )
    if baseline is candidate and callable(baseline) and not isinstance(baseline, str):
        raise ValueError(
            f"baseline and candidate are the same backend object ({baseline!r}): its state "
            f"(a MagiBackend's PassManagers and results) would mix both sides. Give each side "
            f"its own backend object (or PassConfig)"
        )


class CompiledPair(PairNumerics, PairTiming, Pair):
    """A model compiled as baseline and as candidate; build with ``CompiledPair.build``."""

    def __init__(
        self,
        model: Any,
        example_inputs: tuple[Any, ...],
        backends: dict[str, SideBackend],
        compiled: dict[str, Callable[..., Any]],
        *,
        dynamic_dims: dict[int, tuple[int, ...]],
        label: str,
        device: str,
        inference: bool,
    ) -> None:
        self.model = model
        self.example_inputs = example_inputs
        self.dynamic_dims = dynamic_dims
        self.label = label
        self.device = device
        self.inference = inference
        self.backends = backends
        self.baseline = SideCallable(
            "baseline", compiled["baseline"], backends["baseline"], inference
        )
        self.candidate = SideCallable(
            "candidate", compiled["candidate"], backends["candidate"], inference
        )
        self.eager = SideCallable("eager", model, None, inference)
        self.last_speedup: Speedup | None = None
        # the last assert_close's outcome in one line (`numerics_summary`), None before any:
        # the report's numerics column beside the pair's speedup
        self.numerics: str | None = None

    @classmethod
    def build(
        cls,
        model: Any,
        *example_inputs: Any,
        passes: Sequence[Any] | None = None,
        inductor_config: Mapping[str, Any] | None = None,
        dynamic_dims: Mapping[int, int | Sequence[int]] | None = None,
        backward: bool = False,
        baseline: Any = None,
        candidate: Any = None,
        label: str | None = None,
        inference: bool | None = None,
    ) -> CompiledPair:
        """Compile ``model`` twice, run each side once on ``example_inputs``, prove isolation.

        ``passes``: your post-grad passes (``CustomGraphPass``, ``MagiPass`` or a callable on
        the ``torch.fx.Graph``), run in order by the candidate instead of the magi passes (after
        them when ``candidate`` is a ``PassConfig``); ``passes=[]`` runs no pass at all (plain
        Inductor on both sides: an A/A pair), ``passes=None`` keeps the default candidate.
        ``inductor_config``: Inductor config patches of the candidate. ``dynamic_dims``: ``{input_index: dim or dims}`` marked with
        ``torch._dynamo.mark_dynamic`` on copies of the inputs used for the compiling calls.
        ``backward``: compile for training (calls run with grad; the backward graph is
        generated with the forward); default inference (calls under ``torch.no_grad()``).
        ``baseline`` / ``candidate``: see ``pytest_magi.capture.sides.resolve_side``. ``inference`` is
        the older spelling of ``not backward``.
        """
        example_inputs = tuple(example_inputs)
        _check_build_args(model, example_inputs, baseline, candidate)
        chain = validate_passes(passes)
        extra = validate_inductor_config("inductor_config", inductor_config)
        dims = validate_dynamic_dims(dynamic_dims, example_inputs)
        validate_bool("backward", backward)
        inference = (not backward) if inference is None else validate_bool("inference", inference)
        specs = {
            "baseline": resolve_side("baseline", baseline),
            "candidate": resolve_side(
                "candidate", candidate, chain if passes is not None else None, extra
            ),
        }
        backends = {side: SideBackend(side, specs[side]) for side in SIDES}
        entries = {side: fresh_entry(model, f"pair_{side}") for side in SIDES}
        for side in SIDES:
            backends[side].stats.entry_code = entries[side].__code__
        compiled = {side: torch.compile(entries[side], backend=backends[side]) for side in SIDES}
        pair = cls(
            model,
            example_inputs,
            backends,
            compiled,
            dynamic_dims=dims,
            label=validate_label(label) or _default_label(model, specs),
            device=_infer_device(model, example_inputs),
            inference=inference,
        )
        pair._compile_and_verify()
        return pair

    # ------------------------------------------------------------------ build checks
    def _compile_and_verify(self) -> None:
        """First call of each side, one after the other; each must compile through its own backend."""
        callables = {"baseline": self.baseline, "candidate": self.candidate}
        for side in SIDES:
            before = {s: b.invocations for s, b in self.backends.items()}
            callables[side](*marked_copies(self.example_inputs, self.dynamic_dims))
            after = {s: b.invocations for s, b in self.backends.items()}
            if after[side] == before[side]:
                raise RuntimeError(
                    f"CompiledPair {self.label!r}: the {side}'s first call did not invoke its own "
                    f"backend ({self.backends[side].spec.description}): Dynamo ran code compiled "
                    f"elsewhere or ran the model eagerly (a skipped frame). The pair cannot prove "
                    f"what the {side} runs; see TORCH_LOGS='recompiles,graph_breaks'"
                )
            other = SIDES[1 - SIDES.index(side)]
            if after[other] != before[other]:
                raise RuntimeError(
                    f"CompiledPair {self.label!r}: calling the {side} invoked the {other}'s "
                    f"backend: the sides are not isolated"
                )
            self._check_passes_ran(side)

    def _check_passes_ran(self, side: str) -> None:
        backend = self.backends[side]
        magi = backend.magi
        if magi is not None and (not magi.managers or not all(m.history for m in magi.managers)):
            raise RuntimeError(
                f"CompiledPair {self.label!r}: the {side}'s MagiBackend compiled, but its "
                f"PassManager never ran on the post-grad graph (a cached graph?), so the "
                f"magi passes did not run; managers: {magi.managers!r}"
            )
        if backend.spec.passes and len(backend.log.after) < backend.invocations:
            raise RuntimeError(
                f"CompiledPair {self.label!r}: the {side} compiled {backend.invocations} graph(s) "
                f"but its post-grad passes ran on {len(backend.log.after)}: a graph was served "
                f"from a cache or compiled elsewhere, so your passes did not run on it"
            )

    # ------------------------------------------------------------------ what each side made
    @property
    def compiles(self) -> dict[str, int]:
        """How many graphs each side's own backend compiled (build and later recompiles)."""
        return {side: b.invocations for side, b in self.backends.items()}

    @property
    def code(self) -> dict[str, str]:
        """The captured Inductor output code of each side (all its graphs, concatenated)."""
        return {side: "\n".join(b.code) for side, b in self.backends.items()}

    @property
    def graphs(self) -> dict[str, list[str]]:
        """The post-pass FX graph text of each compiled graph of each side."""
        return {side: b.graphs for side, b in self.backends.items()}

    def fx_graphs(self, side: str = "candidate", stage: str = "after") -> list[torch.fx.Graph]:
        """Copies of ``side``'s post-grad graphs ``"before"`` or ``"after"`` its passes."""
        check_side_name(side)
        return list(self.backends[side].log.stage(stage))

    @property
    def captured(self) -> dict[str, list[CapturedGraph]]:
        """Each side's output code parsed: one ``CapturedGraph`` (kernels, launches) per graph."""
        return {side: _parse_output_code(b.code) for side, b in self.backends.items()}

    @property
    def kernel_counts(self) -> dict[str, int]:
        """Generated kernels in each side's captured code (Triton on GPU, C++ on CPU)."""
        return {side: count_kernels(text) for side, text in self.code.items()}

    @property
    def results(self) -> dict[str, list[PassResult]]:
        """The ``PassResult``s of each side: magi passes and your MagiPasses, every graph."""
        return {side: b.results for side, b in self.backends.items()}

    @property
    def candidate_results(self) -> list[PassResult]:
        return self.backends["candidate"].results

    def fired(self, name: str, side: str = "candidate") -> bool:
        """Whether the pass ``name`` (a magi pass or your MagiPass) applied to a graph of ``side``."""
        check_side_name(side)
        return any(r.name == name and r.applied for r in self.backends[side].results)

    # ------------------------------------------------------------------ ops before/after
    def op_count(self, op: Any, side: str = "candidate", stage: str = "after") -> int:
        """How often ``op`` is called in ``side``'s post-grad graphs (all of them), ``"before"``
        or ``"after"`` the passes. ``op``: ``torch.ops.aten.clone`` (any overload),
        ``torch.ops.aten.clone.default``, or a name (``"aten.clone"``)."""
        validate_op(op)
        return count_ops(self.fx_graphs(side, stage), op)

    def assert_ops(
        self,
        before: Mapping[Any, int] | None = None,
        after: Mapping[Any, int] | None = None,
        side: str = "candidate",
    ) -> None:
        """Assert exact op counts before and after ``side``'s passes, e.g.
        ``assert_ops(before={aten.clone: 3}, after={aten.clone: 0})``. The failure lists each
        wrong count and every op present at that stage with its count."""
        check_side_name(side)
        problems: list[str] = []
        for stage, wanted in (("before", before), ("after", after)):
            if wanted is None:
                continue
            if not isinstance(wanted, Mapping):
                raise TypeError(f"{stage}={wanted!r}: expected a dict {{op: count}}")
            problems += self._op_problems(side, stage, wanted)
        if problems:
            raise AssertionError(f"CompiledPair {self.label!r}, {side}:\n" + "\n".join(problems))

    def _op_problems(self, side: str, stage: str, wanted: Mapping[Any, int]) -> list[str]:
        graphs = self.fx_graphs(side, stage)
        wrong = []
        for op, n in wanted.items():
            validate_op(op, f"{stage} key")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"{stage}[{op!r}]={n!r}: expected a count, an int >= 0")
            found = count_ops(graphs, op)
            if found != n:
                wrong.append(f"  {stage} the passes: {_show_op(op)} expected {n}, found {found}")
        if not wrong:
            return []
        present = op_histogram(graphs)
        listing = ", ".join(f"{k}={v}" for k, v in sorted(present.items())) or "(no ops)"
        absent = [_show_op(op) for op in wanted if count_ops(graphs, op) == 0]
        return wrong + [
            f"    ops present {stage} ({len(graphs)} graph(s)): {listing}",
            f"    absent {stage}: {', '.join(absent) or '-'}",
        ]

    # ------------------------------------------------------------------ compile health
    @property
    def decisions(self) -> dict[str, list[Decision]]:
        """``{side: [Decision, ...]}`` for each magi side: how each graph's variant was chosen
        (``magi_passes.decisions``: measured, cached, or the static rules and why)."""
        return {
            side: list(b.magi.decisions) for side, b in self.backends.items() if b.magi is not None
        }

    @property
    def compile_stats(self) -> dict[str, CompileStats]:
        """``{side: CompileStats}``: frames, graphs, breaks, recompiles (with reasons), ..."""
        return {side: b.stats.stats() for side, b in self.backends.items()}

    @property
    def compile_note(self) -> str | None:
        """``"candidate compiles more graphs than the baseline (4 > 3)"`` when it does, and for
        a magi side the graphs it compiled again after one of torch's sympy failures."""
        magi = {side: b.magi for side, b in self.backends.items() if b.magi is not None}
        return compile_health_note(self.compile_stats, magi)

    def expect_compile(self, *, side: str = "both", **maximums: int) -> None:
        """Fail naming each count over its maximum, e.g. ``expect_compile(graph_breaks=0,
        recompiles=0)``; counts: frames, graphs, graph_breaks, recompiles, eager_fallbacks,
        automatic_dynamic. ``side``: "baseline", "candidate" or "both" (default)."""
        check_side_name(side, allow_both=True)
        check_maximums(self.compile_stats, maximums, self.label, side=side)

    # ------------------------------------------------------------------ kernels
    def kernel_diff(self, *, timed: bool = False, iterations: int = 5) -> KernelDiff:
        """The kernels only the baseline has, only the candidate has, and those both have
        (matched by what they compute). ``timed=True`` on a GPU adds per-kernel ms per call
        from ``torch.profiler`` (as ``profile()`` measures them)."""
        validate_bool("timed", timed)
        captured = self.captured
        kernels = {s: [k for g in captured[s] for k in g.kernels] for s in SIDES}
        times: dict[str, dict[str, float]] = {}
        if timed:
            times = self.kernel_times(iterations=iterations)
        return kernel_diff(kernels["baseline"], kernels["candidate"], times_ms=times)

    def budget(self, profile: Any = "h200") -> PairBudget:
        """Both sides' perf budgets on ``profile`` (a name, a ``pytest_magi.budget.Profile`` or a
        dict of its fields), from each side's CUDA code generated without running it
        (``pytest_magi.budget``): ``.baseline``, ``.candidate``, ``.estimated_speedup`` and
        ``.assert_estimated_speedup(ratio)``, the CPU gate on the estimate."""
        from ..budget.pairs import pair_budget

        return pair_budget(self, profile)

    def __repr__(self) -> str:
        return (
            f"CompiledPair({self.label!r}, device={self.device!r}, "
            f"kernels={self.kernel_counts}, compiles={self.compiles})"
        )


def _show_op(op: Any) -> str:
    from ..capture.core import op_name

    return op if isinstance(op, str) else op_name(op)
