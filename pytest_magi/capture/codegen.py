"""Capture the code Inductor generates for a function: generated, never compiled or launched.

``inductor_codegen(model, x)`` returns a :class:`GeneratedCode`: the Triton kernels
(:class:`KernelInfo`, parsed), the wrapper code, the post-grad FX graphs and a stable
structural :meth:`GeneratedCode.signature`. It works without a GPU (fake CUDA, see
:mod:`pytest_magi.capture.fake_cuda`) and uses the real GPU when there is one.

How (and why this way):

* Dynamo traces ``fn`` through a backend that calls Inductor's ``compile_fx`` with an
  ``inner_compile`` of ours. It runs Inductor's real ``compile_fx_inner`` with
  ``GraphLowering.compile_to_module`` replaced by a function that generates the
  wrapper and kernels and returns a dummy (what ``torch._inductor.utils.get_code``
  does). The backend then returns the FX graph itself, so running the traced
  function executes the graph on fake (or real) tensors and never a kernel.
  Going through dynamo keeps the code identical to what ``torch.compile(fn)``
  generates (same graph, node names, guards on ``dynamic_dims``).
* Isolation without ``torch._dynamo.reset()``: a reset would throw away every
  compiled function of the caller's process. Instead each call compiles a fresh
  entry function (a new code object, so no cache entry exists for it) with a new
  backend object (dynamo's BACKEND_MATCH keeps any other frame's cache entries
  apart), automatic dynamic shapes off (dynamic exactly as ``dynamic_dims`` says,
  not as the shapes of earlier calls suggest), recompile limits raised (frames
  after a graph break are shared code objects), and Inductor's caches disabled
  (``force_disable_caches``). Two calls therefore never share compiled code.
* ``backward=True`` without a GPU: AOTAutograd traces forward+backward on fake
  *cpu* tensors (autograd on fake cuda tensors aborts a CPU-only build) with
  Inductor's decompositions and min-cut partitioner (that is ``compile_fx``'s own
  pipeline); each partitioned graph is then moved to fake cuda (device arguments
  rewritten, ``meta["val"]`` re-propagated on fake cuda inputs) and generated.
  The backward graph is lowered eagerly (``force_non_lazy_backward_lowering``).
* Scoped state: every Inductor config change is a ``config.patch`` applied around
  each graph's compilation (so what a pass sets for one graph cannot leak into the
  next), the module's parameters are swapped for fake/cuda copies and put back,
  and ``torch._inductor.config`` is verified equal before and after.
* ``passes=[...]``: the user's own post-grad passes run in order instead of the magi passes
  (after them when ``config`` is given too); the graphs before and after them are kept
  (``GeneratedCode.op_count(op, stage=...)``).

The shared pieces (fresh entry functions, generate-only capture, the recording pass, argument
checks) are the capture core, :mod:`pytest_magi.capture.core`; parsing and the result types are in
:mod:`pytest_magi.capture.kernels` and :mod:`pytest_magi.capture.generated`. A wrapper that launches a kernel the parser did
not find raises :class:`KernelParseError` naming the torch version.
"""

from __future__ import annotations

import contextlib
import dataclasses
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.symbolic_shapes import ConstraintViolationError

from .codegen_inputs import (
    _channels_last_weights,
    _copy_nested,
    _copy_to_device,
    _move_graph_to_cuda,
    _swapped_module_state,
)
from .compile_stats import CompileStatsCollector
from .core import (
    GraphLog,
    PassChain,
    RecordingGraphPass,
    declared_config,
    fresh_entry,
    generate_only,
    inductor_config_restored,
    validate_bool,
    validate_dynamic_dims,
    validate_inductor_config,
    validate_passes,
)
from .fake_cuda import FORCE_DISABLED_WARNING, fake_cuda, real_cuda_available
from .generated import GeneratedCode
from .inductor_bugs import known_bug
from .kernels import CapturedGraph, KernelCounts, KernelParseError, parse_wrapper
from .normalize import normalize_fx_graph


# --------------------------------------------------------------------------- capture
class _Recorder:
    """Per-call capture state: which graph is being compiled, what came out."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.sources: list[str] = []
        self.fx_graph: str | None = None
        self.captured: list[CapturedGraph] = []
        self.log = GraphLog()
        # the bug (`magi_passes.workarounds.sympy_failure`) of each graph compiled again
        self.retried: list[str] = []

    @contextlib.contextmanager
    def graph(self, kind: str) -> Iterator[None]:
        self.kind, self.sources, self.fx_graph = kind, [], None
        try:
            yield
        finally:
            self.kind = None

    def sink_fx(self, text: str) -> None:
        self.fx_graph = normalize_fx_graph(text)

    def finish(self, pass_results: Sequence[Any]) -> None:
        if not self.sources:
            return
        code = "\n".join(self.sources)
        assert self.kind is not None
        captured = parse_wrapper(code, self.kind, self.fx_graph)
        self.captured.append(dataclasses.replace(captured, pass_results=tuple(pass_results)))


def _graph_kind(kwargs: Mapping[str, Any]) -> str:
    if kwargs.get("is_backward"):
        return "backward"
    if kwargs.get("is_inference"):
        return "inference"
    return "forward"


def _make_inner_compile(
    recorder: _Recorder,
    patches: dict[str, Any],
    move_to_cuda: bool,
    results: Callable[[], list[Any]],
) -> Callable[..., Any]:
    def inner_compile(
        gm: torch.fx.GraphModule, example_inputs: Sequence[Any], **kwargs: Any
    ) -> Any:
        from torch._inductor import compile_fx as compile_fx_module

        kind = _graph_kind(kwargs)
        if move_to_cuda:
            gm, example_inputs = _move_graph_to_cuda(gm, example_inputs)
        with recorder.graph(kind), torch._inductor.config.patch(patches):
            output = compile_fx_module.compile_fx_inner(gm, example_inputs, **kwargs)
            recorder.finish(results())
        return output

    return inner_compile


def _run_graph_eagerly(gm: torch.fx.GraphModule, fake_mode: Any) -> Callable[..., Any]:
    """What the backend returns: the graph itself, run on the (fake) inputs, never a kernel.

    Under the fake mode, so that factory calls inside composite ops (``batch_norm``'s
    reserve buffer, ``empty`` in decompositions) make fake cuda tensors too.
    """

    def run(*args: Any) -> Any:
        with fake_mode if fake_mode is not None else contextlib.nullcontext():
            return gm.forward(*args)

    return run


def _dynamo_patches() -> dict[str, Any]:
    """Dynamic exactly as ``dynamic_dims`` says; never give up recompiling a shared frame."""
    existing = torch._dynamo.config.get_config_copy()
    patches: dict[str, Any] = {"automatic_dynamic_shapes": False, "assume_static_by_default": True}
    for names in (
        ("recompile_limit", "cache_size_limit"),
        ("accumulated_recompile_limit", "accumulated_cache_size_limit"),
    ):
        name = next((n for n in names if n in existing), None)
        if name is not None:
            patches[name] = 1_000_000
    return {k: v for k, v in patches.items() if k in existing}


def _magi_patches(config: Any) -> tuple[dict[str, Any], Any]:
    try:
        from magi_passes.backend import inductor_options
    except ImportError as exc:  # pragma: no cover - magi_passes ships with this package
        raise ImportError(
            f"config={config!r} asks for the magi passes, but magi_passes.backend.inductor_options "
            f"cannot be imported ({exc}); install pytest-magi with its magi_passes package"
        ) from exc
    options = dict(inductor_options(config))
    return options, options.get("post_grad_custom_post_pass")


# --------------------------------------------------------------------------- arguments
def _check_config(config: Any, where: str) -> Any:
    """A ``PassConfig`` or None; a dict (``inductor_options()``'s result) fails naming the fix."""
    from magi_passes.config import check_pass_config

    return check_pass_config(where, config)


@dataclasses.dataclass
class _Call:
    """The checked arguments of one ``inductor_codegen`` call."""

    fn: Callable[..., Any]
    inputs: tuple[Any, ...]
    dims: dict[int, tuple[int, ...]]
    dynamic_dims: Any
    backward: bool
    config: Any
    extra: dict[str, Any]
    passes: tuple[Any, ...]


def _check_call(
    fn: Any,
    inputs: tuple[Any, ...],
    dynamic_dims: Any,
    backward: Any,
    config: Any,
    inductor_config: Any,
    passes: Any,
    where: str = "inductor_codegen",
) -> _Call:
    if not callable(fn):
        raise TypeError(f"inductor_codegen: fn must be an nn.Module or a callable, got {fn!r}")
    call = _Call(
        fn=fn,
        inputs=inputs,
        dims=validate_dynamic_dims(dynamic_dims, inputs),
        dynamic_dims=dynamic_dims,
        backward=validate_bool("backward", backward),
        config=_check_config(config, where),
        extra=validate_inductor_config("inductor_config", inductor_config),
        passes=validate_passes(passes),
    )
    if call.backward and not _anything_requires_grad(fn, inputs):
        raise ValueError(
            "backward=True but nothing requires grad: no parameter of fn and no input has "
            "requires_grad=True; set requires_grad=True on an input (or pass a module with "
            "trainable parameters), or use backward=False for the inference graph"
        )
    return call


def _anything_requires_grad(fn: Any, inputs: Sequence[Any]) -> bool:
    module_grads = isinstance(fn, torch.nn.Module) and any(p.requires_grad for p in fn.parameters())
    return module_grads or any(isinstance(x, torch.Tensor) and x.requires_grad for x in inputs)


# --------------------------------------------------------------------------- the passes
def _post_grad_passes(call: _Call, recorder: _Recorder) -> tuple[dict[str, Any], Any, Any]:
    """``(patches, manager, chain)``: the config patches installing the recorder around the
    passes this call runs (the installed user pass, the magi passes if ``config``, ``passes``)."""
    extra = dict(call.extra)
    installed = extra.pop("post_grad_custom_post_pass", None) or getattr(
        torch._inductor.config, "post_grad_custom_post_pass", None
    )
    chain = PassChain(call.passes) if call.passes else None
    user_pass: Any = installed
    if chain is not None:
        user_pass = chain if installed is None else PassChain([installed, chain])
    magi_options: dict[str, Any] = {}
    manager: Any = None
    if call.config is not None:
        # the PassManager chains whatever pass is installed when it is built
        with torch._inductor.config.patch(post_grad_custom_post_pass=user_pass):
            magi_options, manager = _magi_patches(call.config)
        user_pass = magi_options.pop("post_grad_custom_post_pass", None) or user_pass
    patches: dict[str, Any] = {
        **declared_config([installed, *call.passes]),
        **magi_options,
        **extra,
        "force_disable_caches": True,
        "compile_threads": 1,
        "post_grad_custom_post_pass": RecordingGraphPass(
            user_pass, recorder.sink_fx, log=recorder.log
        ),
    }
    return patches, manager, chain


def _results_of(manager: Any, chain: Any) -> Callable[[], list[Any]]:
    def results() -> list[Any]:
        own = list(getattr(manager, "results", None) or []) if manager is not None else []
        if chain is not None:
            own += chain.results[-len(chain.passes) :] if chain.results else []
        return own

    return results


# --------------------------------------------------------------------------- public API
def _make_backend(
    call: _Call,
    recorder: _Recorder,
    patches: dict[str, Any],
    results: Callable[[], list[Any]],
    fake_mode: Any,
    stats: CompileStatsCollector,
    manager: Any,
) -> Callable[..., Any]:
    move = call.backward and fake_mode is not None
    inner = _make_inner_compile(recorder, patches, move_to_cuda=move, results=results)

    def backend(gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Callable[..., Any]:
        from torch._inductor.compile_fx import compile_fx

        from magi_passes.compile.options import compile_scope
        from magi_passes.compile.stack_room import call_with_stack_room
        from magi_passes.compile.sympy_retry import compile_working_around, truncating_to_now

        stats.on_compile()
        # as the magi backend compiles: with the fixed configs of GroupNorm's kernels, torch's
        # Min / Max in index propagation, on a fresh chunk of Python's frame stack (the same
        # code, a shorter compile; a capture without magi's passes too), and a compile that
        # raised on one of torch's sympy bugs (2.13's; magi's KVAE-3D graph on 2.11 too)
        # compiled again around them, without the failed try's graphs in the log or its records
        # in the manager, or around them from the first try (`work_around_sympy_first`)
        fix = manager is not None and manager.config.work_around_inductor_bugs
        first = manager is not None and manager.config.work_around_sympy_first
        room = manager is None or manager.config.compile_on_fresh_stack
        log = recorder.log
        records: list[list[Any]] = [log.before, log.after, log.texts, log.owners]
        if manager is not None:
            records += [manager.history, manager.graphs]
        with torch._inductor.config.patch(patches), compile_scope(manager):
            compile_working_around(
                lambda: call_with_stack_room(
                    lambda: compile_fx(gm, example_inputs, inner_compile=inner), room
                ),
                fix,
                before_retry=truncating_to_now(*records),
                on_retry=recorder.retried.append,
                first_in_scopes=first,
            )
        return _run_graph_eagerly(gm, fake_mode)

    return backend


def _call_inputs(
    call: _Call, stack: contextlib.ExitStack, fake_mode: Any, trace_device: str
) -> list[Any]:
    """The inputs (and module state) as fake/real ``trace_device`` tensors, dynamic dims marked."""
    # what magi_backend does in inference: conv weights are converted to channels-last once,
    # outside the graph (inductor_options alone re-lays them out on every call)
    weights_once = _channels_last_weights(call.fn, call.config, call.backward)

    def convert(t: torch.Tensor, is_param: bool) -> torch.Tensor:
        grad = call.backward and t.requires_grad and (is_param or t.is_floating_point())
        fmt = weights_once.get(id(t))
        if fmt is not None:
            t = t.detach().contiguous(memory_format=fmt)
        return _copy_to_device(t, fake_mode, trace_device, grad)

    call_inputs = [_copy_nested(x, lambda t: convert(t, False)) for x in call.inputs]
    for i, dims in call.dims.items():
        torch._dynamo.mark_dynamic(call_inputs[i], list(dims))
    if isinstance(call.fn, torch.nn.Module):
        stack.enter_context(_swapped_module_state(call.fn, convert))
    return call_inputs


def _parse_error_in(exc: BaseException) -> KernelParseError | None:
    """The ``KernelParseError`` that dynamo/Inductor wrapped (BackendCompilerFailed, ...)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KernelParseError):
            return current
        seen.add(id(current))
        current = getattr(current, "inner_exception", None) or current.__cause__
    return None


def _run(call: _Call, compiled: Callable[..., Any], inputs: Sequence[Any]) -> None:
    try:
        compiled(*inputs)
    except KernelParseError:
        raise
    except ConstraintViolationError as exc:
        raise ValueError(
            f"inductor_codegen: dynamic_dims={call.dynamic_dims!r} cannot stay dynamic: while "
            f"compiling, torch {torch.__version__} specialised a marked dim to its example "
            "size (torch.compile with torch._dynamo.mark_dynamic fails the same way; "
            "convolution_backward specialises its input's spatial sizes, for example). "
            "Remove that dim from dynamic_dims (the batch dim often stays dynamic) or "
            "generate the inference graph (backward=False). torch said: "
            + str(exc).strip().splitlines()[-1].strip()
        ) from exc
    except Exception as exc:
        parse_error = _parse_error_in(exc)
        if parse_error is not None:
            raise parse_error from None
        bug = known_bug(exc, call.config)
        if bug is not None:
            raise RuntimeError(bug) from exc
        raise


def _generate(call: _Call, recorder: _Recorder, stats: CompileStatsCollector) -> str:
    """Trace and generate under fake CUDA (or the real GPU); returns the device's name."""
    real_gpu = real_cuda_available()
    with contextlib.ExitStack() as stack:
        stack.enter_context(inductor_config_restored())
        env = stack.enter_context(fake_cuda())
        stack.enter_context(warnings.catch_warnings())
        warnings.filterwarnings("ignore", message=FORCE_DISABLED_WARNING)
        # inputs, parameters and every op run on them (dynamo runs the graphs we return
        # between graph breaks) live in this one fake mode; none on a real GPU
        fake_mode = None if real_gpu else FakeTensorMode(allow_non_fake_inputs=True)
        # autograd through fake *cuda* tensors aborts a CPU-only build: trace on fake cpu
        trace_device = "cuda" if (real_gpu or not call.backward) else "cpu"
        patches, manager, chain = _post_grad_passes(call, recorder)
        backend = _make_backend(
            call, recorder, patches, _results_of(manager, chain), fake_mode, stats, manager
        )
        inputs = _call_inputs(call, stack, fake_mode, trace_device)
        stack.enter_context(torch._dynamo.config.patch(_dynamo_patches()))
        stack.enter_context(torch._inductor.config.patch(patches))
        if call.backward:
            stack.enter_context(
                torch._functorch.config.patch(force_non_lazy_backward_lowering=True)
            )
        else:
            stack.enter_context(torch.no_grad())
        stack.enter_context(generate_only(lambda text: recorder.sources.append(text)))
        entry = fresh_entry(call.fn, "codegen")
        stats.entry_code = entry.__code__
        try:
            with stats.watch():
                _run(call, torch.compile(entry, backend=backend, fullgraph=False), inputs)
        finally:
            # the entry is never called again: drop dynamo's cache of it and the backend, which
            # would otherwise keep the generated graphs alive (docs/reliability.md, "Memory")
            from .lifetime import release_compiled

            release_compiled([entry], [backend])
        return env.device


def inductor_codegen(
    fn: Callable[..., Any],
    *inputs: Any,
    dynamic_dims: Mapping[int, int | Sequence[int]] | None = None,
    backward: bool = False,
    config: Any = None,
    inductor_config: Mapping[str, Any] | None = None,
    passes: Sequence[Any] | None = None,
) -> GeneratedCode:
    """Generate (never compile, never run) Inductor's CUDA code for ``fn(*inputs)``.

    ``fn``: an ``nn.Module`` or callable. ``inputs``: example tensors on any device
    (turned into fake cuda tensors of the same shape, dtype and strides, inside lists, tuples
    and dicts too, in new containers; other values are passed as they are). The module's
    parameters and buffers are swapped for fake cuda
    tensors (``requires_grad=False`` unless ``backward``) and put back afterwards.

    ``dynamic_dims``: ``{input_index: dim or dims}`` marked dynamic as
    ``torch._dynamo.mark_dynamic`` does; everything else is static.
    ``backward=True``: generate the forward and backward graphs of training (inputs keep
    their ``requires_grad``, parameters theirs); otherwise the inference graph.
    ``config``: a ``magi_passes.PassConfig`` to compile with the magi passes installed
    (``magi_passes.backend.inductor_options(config)``), or None for plain Inductor.
    ``inductor_config``: extra ``torch._inductor.config`` patches for this call only.
    ``passes``: your post-grad passes, run in order (after the magi passes with ``config``).

    On a machine with a CUDA GPU the real GPU is used (real tensors, same capture).
    See the module docstring for how the call is isolated from the rest of the process.
    """
    call = _check_call(fn, inputs, dynamic_dims, backward, config, inductor_config, passes)
    return _generate_code(call)


def _generate_code(call: _Call) -> GeneratedCode:
    recorder = _Recorder()
    stats = CompileStatsCollector()
    device = _generate(call, recorder, stats)
    if not recorder.captured:
        raise RuntimeError(
            "inductor_codegen: dynamo compiled no graph for fn (it may have run fn eagerly: "
            "a skipped frame, or no tensor operations). Check that fn calls torch operations on "
            "its inputs, and see TORCH_LOGS='graph_breaks' for why dynamo skipped it"
        )
    return GeneratedCode(
        recorder.captured, device, log=recorder.log, stats=stats.stats(), retried=recorder.retried
    )


def kernel_counts(
    fn: Callable[..., Any],
    *inputs: Any,
    dynamic_dims: Mapping[int, int | Sequence[int]] | None = None,
    backward: bool = False,
    config: Any = None,
    inductor_config: Mapping[str, Any] | None = None,
    passes: Sequence[Any] | None = None,
) -> KernelCounts:
    """Triton kernel counts of ``fn(*inputs)`` (see :func:`inductor_codegen` for arguments).

    Raises :class:`KernelParseError` when the generated code launches kernels the parser did
    not find (a count is never silently too small)."""
    call = _check_call(
        fn, inputs, dynamic_dims, backward, config, inductor_config, passes, "kernel_counts"
    )
    code = _generate_code(call)
    return KernelCounts(
        forward=len(code.forward),
        backward=len(code.backward) if backward else None,
    )
