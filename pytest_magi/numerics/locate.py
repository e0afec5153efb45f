"""Where a compiled model's numbers go wrong, and what cures it: ``locate(model, *inputs)``.

The mechanism is a dynamo backend, :class:`LocatingBackend`, that compiles every graph dynamo
hands it with the side's own compiler (a :class:`pytest_magi.capture.sides.SideBackend`: plain Inductor
with the side's config patches and passes, the magi backend, or any backend) and returns a
wrapper. Each call of the wrapper

1. copies the graph's inputs with :func:`strided_clone` (same sizes, strides, storage offsets and
   aliasing among them: Inductor's code depends on layout, so the eager run must see the same),
2. runs the compiled code on the real inputs (what the model gets back, unchanged),
3. runs the *same* dynamo FX graph eagerly on the copies (a structural copy of ``gm`` taken
   before the compile, so nothing a compiler does to ``gm`` shows in the reference; it shares
   ``gm``'s attributes, no weight is copied), from the RNG state the compiled run started from
   (random ops draw the same numbers where the compiler calls the same random ops), and
4. measures each output's relative L2 distance from the eager graph's
   (``numerics._relative_l2``; a NaN/inf where eager is finite is infinitely far).

An output is wrong when its distance exceeds the tolerance of its dtype
(:data:`DEFAULT_TOLERANCE`). Per graph the backend keeps the call count and each output's worst
distance, shape and dtype, and the FX node that produced it: its module path (the innermost
``nn_module_stack`` entry) and its source line (the last frame of ``stack_trace``). Memory stays
bounded: only the first call that has a wrong output keeps its inputs (strided copies) and RNG
state, for the cures, until :meth:`LocatingBackend.report` has run them.

First, the replay: the code compiled in the run is called again on the saved inputs, with no
compile (``LocateReport.replayed``). Wrong again: that code itself is wrong on those inputs.
Right: the wrong output needed the live run around it.

Cures, on that first wrong graph *alone* (recompiled from the saved copy, run on the saved
inputs, compared with the eager graph; a retry "clears" when no output is wrong), in this order:

0. the control: the graph recompiled exactly as the side compiles it. When that is right, the
   fault is not reproduced alone (it needs what ran before the graph in the process: state a
   compile reads, Triton's autotuning, the live inputs' memory), every retry below would "clear"
   it too, and the report names no cure (``LocateReport.reproduced`` is False). A dynamic graph
   is recompiled from its symbolic examples, as dynamic as the run's compile. The replay and the
   control
   record the Triton kernels they launch (:mod:`pytest_magi.capture.launches`), and the report lists
   the kernels whose config (after autotuning) or source differs between the two
   (``LocateReport.kernels``): where a wrong replay and a right control part, below the graph;
1. ``fp32_rerun=True``: the graph recompiled with every bf16/fp16 input cast to fp32, against
   the eager graph in fp32: still wrong there is a *logic* error, right there a *precision* one;
2. each of the side's passes removed in turn (a magi side: each enabled ``PassConfig.enable_*``
   field turned off, skipped where that pass did not apply to the graph; user passes: each
   dropped);
3. each entry of a settings table (:data:`DEFAULT_SETTINGS`, or ``settings=``) applied on top
   of the side's config, skipped where the side already has it.

Each retry really recompiles (FX graph and AOTAutograd caches off, as for a pair's sides; kernel
caches stay on). ``budget_s`` (counted from the backend's creation) stops the retries before
one that would end past it, judged by the longest retry so far; the rest are reported untried.

Scope: nothing leaks. Config patches are applied around each compile only, :func:`locate`
compiles through a fresh entry function with its own backend object (dynamo reuses no one
else's code and nobody reuses its code: cache entries are matched by backend), and an
``nn.Module`` gets ``forward`` code objects of its own while it runs
(``magi_passes.frames.isolate_forward_code(per="class")``, removed afterwards), so the graph-break
frames it compiles leave no cache entries, recompile counts or automatic-dynamic sizes on the
model's own code. Inference only: calls run under ``torch.no_grad()`` and no backward is checked.
Docs: ``docs/locate.md``.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import torch

from ..capture.core import (
    fresh_entry,
)
from .judgment import (
    REFERENCE_DTYPES,
    _non_finite,
    _relative_l2,
    bound_for,
    reference_outputs,
)
from .locate_backend import LocatingBackend
from .locate_report import LocateReport, ReferenceCheck
from .locate_tensors import _flatten, _validate_reference


# --------------------------------------------------------------------------- locate
def check_reference(
    model: Callable[..., Any],
    inputs: Sequence[Any],
    compiled_output: Any,
    reference: str,
    *,
    eager_output: Any = None,
    inference: bool = True,
) -> ReferenceCheck | None:
    """The compiled model's final output and eager's against ``model`` run at ``reference``
    ("fp32"/"fp64", ``numerics.reference_outputs``); None when no output is floating."""
    dtype = REFERENCE_DTYPES[_validate_reference(reference) or "fp32"]
    if eager_output is None:
        with torch.no_grad() if inference else contextlib.nullcontext():
            eager_output = model(*inputs)
    ref = reference_outputs(model, tuple(inputs), dtype, inference)
    found: ReferenceCheck | None = None
    leaves = zip(_flatten(compiled_output), _flatten(eager_output), _flatten(ref), strict=False)
    for i, (c, e, r) in enumerate(leaves):
        if not all(isinstance(t, torch.Tensor) and t.is_floating_point() for t in (c, e, r)):
            continue
        if c.shape != r.shape or e.shape != r.shape:
            continue
        compiled = math.inf if _non_finite(c) else _relative_l2(c, r)
        eager = math.inf if _non_finite(e) else _relative_l2(e, r)
        bound = bound_for(eager, c.dtype)
        if found is None or not compiled <= found.compiled:
            found = ReferenceCheck(reference, compiled, eager, bound, i)
    return found


@contextlib.contextmanager
def _own_frames(model: Any) -> Iterator[None]:
    """Give an ``nn.Module``'s (sub)modules ``forward`` code of their own while the block
    runs (``isolate_forward_code(per="class")``), unless some already have a per-instance
    ``forward`` (``magi_compile``'s, or another library's hook), which are left alone."""
    from magi_passes.compile.frames import isolate_forward_code, restore_forward_code

    if not isinstance(model, torch.nn.Module) or any("forward" in vars(m) for m in model.modules()):
        yield
        return
    isolate_forward_code(model, "class")
    try:
        yield
    finally:
        restore_forward_code(model)


def check_calls(where: str, calls: Any) -> None:
    """``calls`` must be an int >= 1."""
    if isinstance(calls, bool) or not isinstance(calls, int) or calls < 1:
        raise ValueError(
            f"{where}(calls={calls!r}): expected an int >= 1, the number of calls of the compiled "
            f"model (2 for a model whose second call compiles other graphs)"
        )


def _check_model(model: Any, inputs: tuple[Any, ...]) -> None:
    if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
        raise TypeError(
            "locate(model=<a torch.compile'd module>): give the eager model, locate compiles "
            "it itself (e.g. locate(compiled._orig_mod, x))"
        )
    if not callable(model):
        raise TypeError(
            f"locate(model_or_fn={model!r:.100}): expected an nn.Module or a callable to "
            f"compile, e.g. locate(model, x)"
        )
    if not inputs:
        raise ValueError(
            "locate(model_or_fn, *inputs) needs the inputs of one call (the graphs are checked "
            "while it runs); e.g. locate(model, x)"
        )


def locate(
    model_or_fn: Any,
    *inputs: Any,
    backend: Any = None,
    passes: Sequence[Any] | None = None,
    inductor_config: Mapping[str, Any] | None = None,
    reference: str | None = None,
    settings: Sequence[Mapping[str, Any]] | None = None,
    fp32_rerun: bool = False,
    tolerance: Any = None,
    budget_s: float | None = None,
    label: str | None = None,
    calls: int = 1,
) -> LocateReport:
    """Compile ``model_or_fn`` with ``backend``, call it ``calls`` times on ``inputs`` under
    ``torch.no_grad()``, check every graph's outputs against the same graph run eagerly, and
    try cures on the first wrong graph. See the module docstring and ``docs/locate.md``.

    ``backend``: as ``baseline=``/``candidate=`` of ``CompiledPair`` (None: plain Inductor;
    "magi", a ``PassConfig``, a ``MagiBackend``, a dict of Inductor patches, a backend name or
    callable); ``passes``/``inductor_config``: the side's post-grad passes and Inductor
    patches. ``reference``: "fp32"/"fp64" also runs the whole model at that precision and
    reports the final output's distance (compiled and eager). ``settings``: the Inductor
    settings to retry (:data:`DEFAULT_SETTINGS`). ``fp32_rerun``: logic or precision.
    ``tolerance``: a relative L2 distance, or ``{dtype: distance}`` (:data:`DEFAULT_TOLERANCE`).
    ``budget_s``: stop retrying before the total would pass this many seconds.
    ``calls``: how many times to call the compiled model (a model whose later calls compile
    other graphs, such as a video VAE's decode on its second call, needs 2); the final output
    checked against ``reference`` is the last call's.
    """
    inputs = tuple(inputs)
    _check_model(model_or_fn, inputs)
    check_calls("locate", calls)
    reference = _validate_reference(reference)
    name = getattr(model_or_fn, "__name__", None) or type(model_or_fn).__name__
    locating = LocatingBackend(
        backend,
        passes=passes,
        inductor_config=inductor_config,
        tolerance=tolerance,
        settings=settings,
        fp32_rerun=fp32_rerun,
        budget_s=budget_s,
        label=label,
    )
    if label is None:
        locating.label = f"{name}[{locating.spec.description}]"
    entry = fresh_entry(model_or_fn, "locate")
    with _own_frames(model_or_fn), torch.no_grad():
        compiled = torch.compile(entry, backend=locating)
        for _ in range(calls):
            output = compiled(*inputs)
    report = locating.report()
    if reference is not None:
        report.reference = check_reference(model_or_fn, inputs, output, reference)
        report.seconds = time.perf_counter() - locating._start
    return report
