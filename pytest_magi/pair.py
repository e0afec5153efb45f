"""`CompiledPair`: one model compiled twice, baseline and candidate, provably apart.

``CompiledPair.build(model, *example_inputs)`` compiles ``model`` with plain Inductor (the baseline)
and with the magi passes (the candidate), runs each once on the example inputs, and keeps what each
side generated: ``pair.code``, ``pair.graphs``, ``pair.kernel_counts``, ``pair.candidate_results``.
``pair.assert_close()`` compares both sides with eager, ``pair.benchmark()`` times them
(``pytest_magi.timing.measure_pair``), ``pair.profile()`` breaks each side down per kernel.

Isolation, and why it needs care: two ``torch.compile`` wrappers of the same module share Dynamo's
frame cache (cache entries hang on the code object of ``forward``). A candidate compiled with other
Inductor config (or another post-grad pass) after a baseline silently reuses the baseline's compiled
code: a 1.25x pair re-measured that way gave 1.00x (DESIGN.md, Facts). Here each side gets

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
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import math
import re
import types
import unittest.mock as mock
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch._inductor.custom_graph_pass import CustomGraphPass

from magi_passes import MagiBackend, PassConfig, PassResult

from .timing import Speedup, measure_pair

SIDES: tuple[str, str] = ("baseline", "candidate")

# (rtol, atol) per dtype, compiled vs eager. torch.testing's defaults, loosened where compiled
# code legitimately reassociates: Inductor splits and reorders reductions (GroupNorm statistics,
# sums) and the candidate may pick another conv algorithm (channels-last), so fp32 gets rtol 1e-4
# (torch.testing: 1.3e-6) and atol 1e-5; fp16/bf16 keep torch.testing's rtol and get an atol of one
# to two ulps near 1 (torch.testing's 1e-5 is below a bf16 ulp for any value above 2e-3).
DEFAULT_TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float64: (1e-7, 1e-7),
    torch.float32: (1e-4, 1e-5),
    torch.float16: (1e-3, 1e-3),
    torch.bfloat16: (1.6e-2, 1e-2),
    torch.complex64: (1e-4, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}
# bf16/fp16 outputs whose elementwise check fails pass when the relative L2 error of the whole
# output is within these bounds (bf16 keeps 8 mantissa bits: ~4e-3 per rounding; a few layers of
# accumulated rounding stay under 1e-2). Explicit rtol/atol turn this off.
LOW_PRECISION_NORM_TOLERANCE: dict[torch.dtype, float] = {torch.bfloat16: 1e-2, torch.float16: 2e-3}
# a candidate in low precision may be this much further from eager than the compiled baseline is
BASELINE_NOISE_FACTOR = 1.5
# CUDA fp32 with TF32 matmul/conv allowed: the precision of the math is ~1e-3
TF32_TOLERANCES: tuple[float, float] = (2e-3, 1e-3)

_TRITON_KERNEL_RE = re.compile(r"@triton\.jit\s*\n\s*def\s+(\w+)\s*\(")
_CPP_KERNEL_RE = re.compile(r"^\s*(\w+)\s*=\s*async_compile\.cpp(?:_pybinding)?\(", re.MULTILINE)

_GRAPH_CACHES_OFF = {"fx_graph_cache": False, "fx_graph_remote_cache": False}
_AUTOGRAD_CACHES_OFF = {"enable_autograd_cache": False, "enable_remote_autograd_cache": False}


# --------------------------------------------------------------------------- helpers
def count_kernels(code: str) -> int:
    """Generated kernels defined in Inductor output code: Triton ``@triton.jit`` functions (GPU)
    plus C++ kernels (``cpp_fused_* = async_compile.cpp_pybinding(...)``, CPU)."""
    return len(_TRITON_KERNEL_RE.findall(code)) + len(_CPP_KERNEL_RE.findall(code))


def kernel_names(code: str) -> list[str]:
    """Names of the kernels ``count_kernels`` counts, in order of definition."""
    return _TRITON_KERNEL_RE.findall(code) + _CPP_KERNEL_RE.findall(code)


def default_tolerances(
    dtype: torch.dtype, device: str | torch.device = "cpu"
) -> tuple[float, float]:
    """``(rtol, atol)`` used by ``assert_close`` for outputs of ``dtype`` (see DEFAULT_TOLERANCES)."""
    if dtype == torch.float32 and torch.device(device).type == "cuda":
        if torch.backends.cuda.matmul.allow_tf32 or torch.backends.cudnn.allow_tf32:
            return TF32_TOLERANCES
    if dtype in DEFAULT_TOLERANCES:
        return DEFAULT_TOLERANCES[dtype]
    if dtype.is_floating_point:  # float8 and friends
        return (1.25e-1, 1e-1)
    return (0.0, 0.0)


def _config_keys(module: Any) -> set[str]:
    return set(module.get_config_copy())


def _existing(module: Any, patches: dict[str, Any]) -> dict[str, Any]:
    keys = _config_keys(module)
    return {k: v for k, v in patches.items() if k in keys}


def validate_dynamic_dims(
    dynamic_dims: Mapping[int, int | Sequence[int]] | None, inputs: Sequence[Any]
) -> dict[int, tuple[int, ...]]:
    """``{input_index: dims}`` normalised (non-negative dims), or ValueError saying the fix."""
    if dynamic_dims is None:
        return {}
    example = "e.g. dynamic_dims={0: [3, 4]} marks dims 3 and 4 of the first input dynamic"
    if not isinstance(dynamic_dims, Mapping):
        raise ValueError(
            f"dynamic_dims={dynamic_dims!r}: expected None or a dict {{input_index: dim or "
            f"dims}}; {example}"
        )
    result: dict[int, tuple[int, ...]] = {}
    for index, dims in dynamic_dims.items():
        if isinstance(index, bool) or not isinstance(index, int):
            raise ValueError(
                f"dynamic_dims key {index!r} is not an input index: keys are positions of the "
                f"example inputs (0..{len(inputs) - 1}); {example}"
            )
        if not 0 <= index < len(inputs):
            raise ValueError(
                f"dynamic_dims key {index} is out of range: the pair has {len(inputs)} example "
                f"input(s), valid keys are 0..{len(inputs) - 1}"
            )
        tensor = inputs[index]
        if not isinstance(tensor, torch.Tensor):
            raise ValueError(
                f"dynamic_dims key {index} names example input {index}, a "
                f"{type(tensor).__name__}, not a tensor; only tensor dims can be dynamic"
            )
        if isinstance(dims, bool) or not isinstance(dims, (int, Sequence)) or isinstance(dims, str):
            raise ValueError(
                f"dynamic_dims[{index}]={dims!r}: expected a dim (int) or a sequence of dims; "
                f"{example}"
            )
        dim_list = [dims] if isinstance(dims, int) else list(dims)
        if not dim_list:
            raise ValueError(f"dynamic_dims[{index}]={dims!r} is empty: name at least one dim")
        normalized: list[int] = []
        for dim in dim_list:
            if isinstance(dim, bool) or not isinstance(dim, int):
                raise ValueError(
                    f"dynamic_dims[{index}] contains {dim!r}, which is not an int dim; {example}"
                )
            if not -tensor.dim() <= dim < tensor.dim():
                raise ValueError(
                    f"dynamic_dims[{index}] contains dim {dim}, out of range for input {index} of "
                    f"shape {tuple(tensor.shape)} (valid dims: {-tensor.dim()}..{tensor.dim() - 1})"
                )
            dim %= tensor.dim()
            if dim in normalized:
                raise ValueError(f"dynamic_dims[{index}]={dims!r} names dim {dim} twice")
            if tensor.shape[dim] < 2:
                raise ValueError(
                    f"dynamic_dims[{index}] marks dim {dim} of input {index} dynamic, but its size "
                    f"is {tensor.shape[dim]}: Dynamo specialises sizes 0 and 1. Give an example "
                    f"input whose dim {dim} has size >= 2"
                )
            normalized.append(dim)
        result[index] = tuple(normalized)
    return result


def _validate_inductor_patches(side: str, patches: Mapping[str, Any]) -> dict[str, Any]:
    known = _config_keys(torch._inductor.config)
    for key in patches:
        if not isinstance(key, str) or key not in known:
            close = difflib.get_close_matches(str(key), sorted(known), n=3)
            raise ValueError(
                f"{side}={dict(patches)!r}: {key!r} is not a torch._inductor.config key"
                + (f"; did you mean {', '.join(close)}?" if close else "")
                + " (a dict side is plain Inductor compiled with these config patches)"
            )
    return dict(patches)


# --------------------------------------------------------------------------- capture
class GraphRecorder(CustomGraphPass):
    """A ``post_grad_custom_post_pass`` that runs ``inner`` (if any), then records ``str(graph)``.

    ``uuid()`` is deterministic: a fixed tag and the inner pass's uuid.
    """

    TAG = "pytest_magi.pair.GraphRecorder/1"

    def __init__(self, inner: Any, sink: Callable[[str], None]) -> None:
        self.inner = inner
        self.sink = sink

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        if self.inner is not None:
            self.inner(graph)
        self.sink(str(graph))

    def uuid(self) -> str:
        inner: Any = None
        if self.inner is not None:
            get = getattr(self.inner, "uuid", None)
            inner = (
                get()
                if callable(get)
                else f"{type(self.inner).__module__}.{type(self.inner).__qualname__}"
            )
        if isinstance(inner, bytes):
            inner = inner.hex()
        return hashlib.sha256(f"{self.TAG}:{inner}".encode()).hexdigest()

    def __deepcopy__(self, memo: dict[int, Any]) -> GraphRecorder:
        # Inductor deep-copies config values when it snapshots its config; the recorder is an
        # identity (its sink is this side's list), not a value
        return self


@contextlib.contextmanager
def capture_output_code(sink: Callable[[str], None]) -> Iterator[None]:
    """Send every Inductor output module's source to ``sink`` while the block runs.

    The hook is ``GraphLowering.save_output_code`` (what ``torch._inductor.utils.run_and_get_code``
    uses, called on fresh compiles and on FX-graph-cache hits); a hook installed before is chained.
    """
    from torch._inductor.graph import GraphLowering

    previous = GraphLowering.save_output_code

    def save_output_code(code: str) -> None:
        sink(code)
        if previous is not None:
            previous(code)

    with mock.patch.object(GraphLowering, "save_output_code", save_output_code):
        yield


@contextlib.contextmanager
def _compile_scope(sink: Callable[[str], None]) -> Iterator[None]:
    """Around one side's backend call: capture code, graph caches off, backward generated now."""
    functorch = torch._functorch.config
    with contextlib.ExitStack() as stack:
        stack.enter_context(capture_output_code(sink))
        stack.enter_context(
            torch._inductor.config.patch(_existing(torch._inductor.config, _GRAPH_CACHES_OFF))
        )
        stack.enter_context(
            functorch.patch(
                _existing(
                    functorch, {**_AUTOGRAD_CACHES_OFF, "force_non_lazy_backward_lowering": True}
                )
            )
        )
        yield


# --------------------------------------------------------------------------- sides
@dataclass(frozen=True)
class SideSpec:
    """How one side compiles: ``kind`` is "inductor" (with ``patches``), "magi" or "backend"."""

    kind: str
    description: str
    patches: Mapping[str, Any] | None = None
    backend: Any = None


def resolve_side(side: str, spec: Any) -> SideSpec:
    """Turn a ``baseline=`` / ``candidate=`` argument into a ``SideSpec``.

    None: baseline = plain Inductor, candidate = magi (``MagiBackend``, config from the env).
    A ``PassConfig``: the magi passes with that config. A ``MagiBackend``: that backend.
    A dict: plain Inductor with those ``torch._inductor.config`` patches, for this side only.
    "inductor" or another registered backend name, or a callable ``(gm, example_inputs)`` backend.
    """
    if spec is None:
        if side == "baseline":
            return SideSpec("inductor", "inductor", patches={})
        return SideSpec("magi", "magi", backend=MagiBackend(None, {}))
    if isinstance(spec, PassConfig):
        changed = {
            k: getattr(spec, k)
            for k in PassConfig.field_names()
            if getattr(spec, k) != getattr(PassConfig(), k)
        }
        desc = "magi" + (
            f"({', '.join(f'{k}={v!r}' for k, v in changed.items())})" if changed else ""
        )
        return SideSpec("magi", desc, backend=MagiBackend(spec, {}))
    if isinstance(spec, MagiBackend):
        return SideSpec("magi", "magi", backend=spec)
    if isinstance(spec, Mapping):
        patches = _validate_inductor_patches(side, spec)
        shown = ", ".join(
            f"{k}={v!r}" if not callable(v) else f"{k}={type(v).__name__}"
            for k, v in patches.items()
        )
        return SideSpec("inductor", f"inductor({shown})" if shown else "inductor", patches=patches)
    if isinstance(spec, str):
        if spec == "inductor":
            return SideSpec("inductor", "inductor", patches={})
        from torch._dynamo.backends.registry import lookup_backend

        try:
            backend = lookup_backend(spec)
        except Exception as exc:
            raise ValueError(
                f"{side}={spec!r} is not a registered dynamo backend ({exc}); see "
                f"torch._dynamo.list_backends()"
            ) from exc
        return SideSpec("backend", spec, backend=backend)
    if callable(spec):
        name = getattr(spec, "__name__", None) or type(spec).__name__
        return SideSpec("backend", name, backend=spec)
    raise TypeError(
        f"{side}={spec!r}: expected None (default), a magi_passes.PassConfig, a dict of "
        f"torch._inductor.config patches, a backend name, or a callable dynamo backend"
    )


class SideBackend:
    """The dynamo backend of one side: compiles, counts its invocations, captures what it made."""

    def __init__(self, side: str, spec: SideSpec) -> None:
        self.side = side
        self.spec = spec
        self.invocations = 0
        self.code: list[str] = []
        self.recorded_graphs: list[str] = []

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Any:
        from torch._inductor.compile_fx import compile_fx

        self.invocations += 1
        with _compile_scope(self.code.append):
            if self.spec.kind == "inductor":
                patches = dict(self.spec.patches or {})
                user_pass = patches.pop(
                    "post_grad_custom_post_pass",
                    torch._inductor.config.post_grad_custom_post_pass,
                )
                patches.update(_existing(torch._inductor.config, _GRAPH_CACHES_OFF))
                patches["post_grad_custom_post_pass"] = GraphRecorder(
                    user_pass, self.recorded_graphs.append
                )
                return compile_fx(gm, list(example_inputs), config_patches=patches)
            return self.spec.backend(gm, list(example_inputs))

    @property
    def magi(self) -> MagiBackend | None:
        return self.spec.backend if self.spec.kind == "magi" else None

    @property
    def graphs(self) -> list[str]:
        magi = self.magi
        if magi is not None:
            return [g for m in magi.managers for g in m.graphs]
        return list(self.recorded_graphs)

    @property
    def results(self) -> list[PassResult]:
        magi = self.magi
        if magi is None:
            return []
        return [r for m in magi.managers for rs in m.history for r in rs]

    def __repr__(self) -> str:
        return (
            f"SideBackend({self.side!r}, {self.spec.description}, invocations={self.invocations})"
        )


def _entry_for(fn: Callable[..., Any], side: str) -> Callable[..., Any]:
    """A function calling ``fn`` with a code object of its own, named after the side."""

    def entry(*args: Any) -> Any:
        return fn(*args)

    # unique per build: dynamo keys automatic-dynamic state (and PGO) by code name, file and line,
    # so a shared name would let an earlier dynamic pair make a later static pair dynamic
    name = f"_magi_pair_{side}_{uuid.uuid4().hex[:12]}"
    code = entry.__code__.replace(co_name=name, co_qualname=name)
    return types.FunctionType(code, entry.__globals__, name, None, entry.__closure__)


class SideCallable:
    """``pair.baseline`` / ``pair.candidate`` / ``pair.eager``: call with the model's inputs."""

    def __init__(
        self, side: str, fn: Callable[..., Any], backend: SideBackend | None, inference: bool
    ) -> None:
        self.side = side
        self.fn = fn
        self.backend = backend
        self.inference = inference

    def __call__(self, *args: Any) -> Any:
        if self.inference:
            with torch.no_grad():
                return self.fn(*args)
        return self.fn(*args)

    def __repr__(self) -> str:
        what = self.backend.spec.description if self.backend is not None else "eager"
        return f"<{self.side}: {what}>"


def _marked_copies(inputs: Sequence[Any], dims: Mapping[int, tuple[int, ...]]) -> list[Any]:
    """Copies of the dynamic inputs with ``mark_dynamic`` applied (the user's tensors stay unmarked)."""
    out: list[Any] = []
    for i, x in enumerate(inputs):
        if i in dims:
            copy = x.detach().clone().requires_grad_(x.requires_grad)
            torch._dynamo.mark_dynamic(copy, list(dims[i]))
            x = copy
        out.append(x)
    return out


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


# --------------------------------------------------------------------------- comparisons
def _compare_tensors(
    actual: torch.Tensor, expected: torch.Tensor, rtol: float, atol: float
) -> tuple[bool, str]:
    if actual.shape != expected.shape:
        return False, f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    if actual.dtype != expected.dtype:
        return False, f"dtype {actual.dtype} != {expected.dtype}"
    n = expected.numel()
    if n == 0:
        return True, "empty"
    a = actual.detach()
    e = expected.detach().to(a.device)
    if not (e.is_floating_point() or e.is_complex()):
        differs = a != e
        count = int(differs.sum())
        if count == 0:
            return True, "exactly equal"
        first = _unravel(int(differs.flatten().to(torch.uint8).argmax()), e.shape)
        return False, (
            f"{count} of {n} elements differ (exact comparison for {e.dtype}); first at index "
            f"{first}: {a[first].item()!r} vs {e[first].item()!r}"
        )
    wide = torch.complex128 if e.is_complex() else torch.float64
    af, ef = a.to(wide), e.to(wide)
    zeros = torch.zeros(e.shape, dtype=torch.float64, device=af.device)
    diff = (af - ef).abs()
    same = (af == ef) | (af.isnan() & ef.isnan())  # equal (also equal infs) or both NaN
    diff = torch.where(same, zeros, diff)
    diff = torch.where(diff.isnan(), torch.full_like(diff, math.inf), diff)  # one side NaN
    mag = ef.abs()
    rel = torch.where(diff == 0, zeros, diff / mag)
    rel = torch.where(rel.isnan() | diff.isinf(), torch.full_like(rel, math.inf), rel)
    score = torch.where(diff == 0, zeros, diff / (atol + rtol * mag))
    score = torch.where(score.isnan() | diff.isinf(), torch.full_like(score, math.inf), score)
    mismatched = int((score > 1).sum())
    worst = _unravel(int(score.flatten().argmax()), e.shape)
    stats = (
        f"max abs error {float(diff.max()):.3g}, max rel error {float(rel.max()):.3g}; worst "
        f"element at index {worst}: {_fmt(a[worst].item())} vs {_fmt(e[worst].item())}"
    )
    if mismatched == 0:
        return True, f"within rtol={rtol:g}, atol={atol:g} ({stats})"
    return False, (
        f"{mismatched} of {n} elements ({mismatched / n:.2%}) outside rtol={rtol:g}, "
        f"atol={atol:g}; {stats}"
    )


def _fmt(value: Any) -> str:
    return f"{value:.6g}" if isinstance(value, float) else repr(value)


def _unravel(flat: int, shape: torch.Size) -> tuple[int, ...]:
    index: list[int] = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def _relative_l2(actual: torch.Tensor, expected: torch.Tensor) -> float:
    a, e = actual.detach().double(), expected.detach().double().to(actual.device)
    denom = float(torch.linalg.vector_norm(e))
    diff = float(torch.linalg.vector_norm(a - e))
    return diff / denom if denom > 0 else diff


def _max_low_precision_l2(actual: Any, expected: Any) -> float:
    """Largest relative L2 error over the bf16/fp16 tensor leaves (0 when there are none)."""
    from torch.utils._pytree import tree_leaves

    worst = 0.0
    for a, e in zip(tree_leaves(actual), tree_leaves(expected), strict=False):
        if (
            isinstance(a, torch.Tensor)
            and isinstance(e, torch.Tensor)
            and e.dtype in LOW_PRECISION_NORM_TOLERANCE
            and a.shape == e.shape
        ):
            worst = max(worst, _relative_l2(a, e))
    return worst


def compare_outputs(
    actual: Any,
    expected: Any,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    device: str | torch.device = "cpu",
    norm_floor: float = 0.0,
) -> tuple[bool, list[str]]:
    """Compare two (nested) outputs leaf by leaf; ``(ok, one line per leaf)``.

    bf16/fp16 leaves that fail elementwise pass when their relative L2 error is within
    ``max(LOW_PRECISION_NORM_TOLERANCE[dtype], norm_floor)``.
    """
    from torch.utils._pytree import tree_flatten

    a_leaves, a_spec = tree_flatten(actual)
    e_leaves, e_spec = tree_flatten(expected)
    if a_spec != e_spec:
        return False, [f"output structure differs: {a_spec} vs {e_spec}"]
    ok = True
    lines: list[str] = []
    for i, (a, e) in enumerate(zip(a_leaves, e_leaves, strict=True)):
        where = f"output[{i}]: " if len(e_leaves) > 1 else ""
        if isinstance(e, torch.Tensor) and isinstance(a, torch.Tensor):
            d_rtol, d_atol = default_tolerances(e.dtype, device)
            good, text = _compare_tensors(
                a, e, d_rtol if rtol is None else rtol, d_atol if atol is None else atol
            )
            norm_tol = LOW_PRECISION_NORM_TOLERANCE.get(e.dtype)
            if norm_tol is not None:
                norm_tol = max(norm_tol, norm_floor)
            if not good and norm_tol is not None and rtol is None and atol is None:
                # bf16/fp16: a deep network's elementwise worst case is rounding noise; the
                # criterion is the relative L2 error ||a - e|| / ||e||
                rel = _relative_l2(a, e)
                good = rel <= norm_tol
                text += (
                    f"; relative L2 error {rel:.2e} ({'<=' if good else '>'} {norm_tol:.3g} for "
                    f"{e.dtype}{', the baseline noise floor' if norm_tol == norm_floor else ''})"
                )
        else:
            good = a == e if not isinstance(a, torch.Tensor) else False
            text = "equal" if good else f"{a!r} != {e!r}"
        ok = ok and bool(good)
        lines.append(where + text)
    return ok, lines


# --------------------------------------------------------------------------- the pair
class CompiledPair:
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

    @classmethod
    def build(
        cls,
        model: Any,
        *example_inputs: Any,
        dynamic_dims: Mapping[int, int | Sequence[int]] | None = None,
        baseline: Any = None,
        candidate: Any = None,
        label: str | None = None,
        inference: bool = True,
    ) -> CompiledPair:
        """Compile ``model`` twice, run each side once on ``example_inputs``, prove isolation.

        ``dynamic_dims``: ``{input_index: dim or dims}`` marked with ``torch._dynamo.mark_dynamic``
        on copies of the inputs used for the compiling calls. ``baseline`` / ``candidate``: see
        ``resolve_side``. ``inference``: run every call under ``torch.no_grad()``.
        """
        if not callable(model):
            raise TypeError(
                f"CompiledPair.build: model must be an nn.Module or callable, got {model!r}"
            )
        if not example_inputs:
            raise ValueError(
                "CompiledPair.build(model, *example_inputs) needs at least one example input "
                "(the sides are compiled by calling them); e.g. CompiledPair.build(model, x)"
            )
        dims = validate_dynamic_dims(dynamic_dims, example_inputs)
        specs = {
            "baseline": resolve_side("baseline", baseline),
            "candidate": resolve_side("candidate", candidate),
        }
        if baseline is candidate and callable(baseline) and not isinstance(baseline, str):
            raise ValueError(
                f"baseline and candidate are the same backend object ({baseline!r}): its state "
                f"(a MagiBackend's PassManagers and results) would mix both sides. Give each side "
                f"its own backend object (or PassConfig)"
            )
        backends = {side: SideBackend(side, specs[side]) for side in SIDES}
        compiled = {
            side: torch.compile(_entry_for(model, side), backend=backends[side]) for side in SIDES
        }
        pair = cls(
            model,
            tuple(example_inputs),
            backends,
            compiled,
            dynamic_dims=dims,
            label=label or _default_label(model, specs),
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
            callables[side](*_marked_copies(self.example_inputs, self.dynamic_dims))
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
            magi = self.backends[side].magi
            if magi is not None:
                if not magi.managers or not all(m.history for m in magi.managers):
                    raise RuntimeError(
                        f"CompiledPair {self.label!r}: the {side}'s MagiBackend compiled, but its "
                        f"PassManager never ran on the post-grad graph (a cached graph?), so the "
                        f"magi passes did not run; managers: {magi.managers!r}"
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

    @property
    def kernel_counts(self) -> dict[str, int]:
        """Generated kernels in each side's captured code (Triton on GPU, C++ on CPU)."""
        return {side: count_kernels(text) for side, text in self.code.items()}

    @property
    def results(self) -> dict[str, list[PassResult]]:
        """The magi ``PassResult``s of each side (every compiled graph, in order; [] if not magi)."""
        return {side: b.results for side, b in self.backends.items()}

    @property
    def candidate_results(self) -> list[PassResult]:
        return self.backends["candidate"].results

    def fired(self, name: str, side: str = "candidate") -> bool:
        """Whether the magi pass ``name`` applied to any graph of ``side``."""
        return any(r.name == name and r.applied for r in self.backends[side].results)

    # ------------------------------------------------------------------ numerics
    def assert_close(
        self, *inputs: Any, rtol: float | None = None, atol: float | None = None
    ) -> None:
        """Run eager, baseline and candidate on ``inputs`` (default: the example inputs) and
        compare baseline vs eager, candidate vs eager and candidate vs baseline.

        Default tolerances per dtype: ``default_tolerances`` / ``DEFAULT_TOLERANCES``. The
        failure message gives, per comparison, the mismatch count, max abs and rel errors and
        the index and values of the worst element.
        """
        args = inputs or self.example_inputs
        eager = self.eager(*args)
        outputs = {"baseline": self.baseline(*args), "candidate": self.candidate(*args)}
        lines: list[str] = []
        failed = False
        # low precision: the compiled baseline's own distance from eager is the noise floor a
        # candidate is held to (x1.5), never looser than the dtype's fixed bound
        floor = BASELINE_NOISE_FACTOR * _max_low_precision_l2(outputs["baseline"], eager)
        for name, actual, expected, norm_floor in (
            ("baseline vs eager", outputs["baseline"], eager, floor),
            ("candidate vs eager", outputs["candidate"], eager, floor),
            ("candidate vs baseline", outputs["candidate"], outputs["baseline"], 0.0),
        ):
            ok, details = compare_outputs(
                actual, expected, rtol=rtol, atol=atol, device=self.device, norm_floor=norm_floor
            )
            failed = failed or not ok
            verdict = "ok" if ok else "MISMATCH"
            lines.extend(f"  {name}: {verdict}: {d}" for d in details)
        if failed:
            raise AssertionError(
                f"CompiledPair {self.label!r}: outputs differ\n" + "\n".join(lines)
            )

    # ------------------------------------------------------------------ speed
    def timing_callables(self) -> tuple[Callable[[], Any], Callable[[], Any]]:
        """Zero-argument callables of each side on the example inputs (for ``measure_pair``)."""
        args = self.example_inputs
        baseline, candidate = self.baseline, self.candidate
        return (lambda: baseline(*args)), (lambda: candidate(*args))

    def benchmark(self, rounds: int = 8, threshold: float | None = None, **kwargs: Any) -> Speedup:
        """``measure_pair(self, rounds=rounds, threshold=threshold, **kwargs)``; kept as ``last_speedup``."""
        self.last_speedup = measure_pair(self, rounds=rounds, threshold=threshold, **kwargs)
        return self.last_speedup

    def profile(self, top: int = 10, *, iterations: int = 5) -> str:
        """Per-kernel breakdown of each side with ``torch.profiler``: the ``top`` entries by self
        device time (CUDA kernels) or self CPU time (CPU), with their share of the side's total."""
        from torch.profiler import ProfilerActivity
        from torch.profiler import profile as torch_profile

        cuda = torch.device(self.device).type == "cuda"
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
        out: list[str] = [f"profile of {self.label} ({iterations} calls per side)"]
        for side, fn in self._callables_by_side().items():
            fn()  # a warm call outside the profile
            if cuda:
                torch.cuda.synchronize()
            with torch_profile(activities=activities) as prof:
                for _ in range(iterations):
                    fn()
                if cuda:
                    torch.cuda.synchronize()
            rows = _profile_rows(prof.key_averages(), cuda)
            total = sum(t for _, t, _ in rows) or 1.0
            unit = "self CUDA" if cuda else "self CPU"
            out.append(f"{side}: {unit} total {total / 1e3 / iterations:.4f} ms per call")
            out.append(f"  {'share':>6}  {'ms/call':>9}  {'calls':>6}  name")
            for name, t, calls in rows[:top]:
                out.append(
                    f"  {t / total:6.1%}  {t / 1e3 / iterations:9.4f}  {calls // iterations:>6}  {name}"
                )
        return "\n".join(out)

    def _callables_by_side(self) -> dict[str, Callable[[], Any]]:
        baseline, candidate = self.timing_callables()
        return {"baseline": baseline, "candidate": candidate}

    def __repr__(self) -> str:
        return (
            f"CompiledPair({self.label!r}, device={self.device!r}, "
            f"kernels={self.kernel_counts}, compiles={self.compiles})"
        )


def _profile_rows(events: Any, cuda: bool) -> list[tuple[str, float, int]]:
    """``(name, self time in us, calls)`` sorted by time, for kernels (CUDA) or ops (CPU)."""
    rows: list[tuple[str, float, int]] = []
    for evt in events:
        if cuda:
            device_type = getattr(evt, "device_type", None)
            if device_type is not None and "CUDA" not in str(device_type):
                continue
            t = getattr(evt, "self_device_time_total", None)
            if t is None:
                t = getattr(evt, "self_cuda_time_total", 0.0)
        else:
            t = evt.self_cpu_time_total
        if t and t > 0:
            rows.append((str(evt.key), float(t), int(evt.count)))
    rows.sort(key=lambda r: r[1], reverse=True)
    return rows
