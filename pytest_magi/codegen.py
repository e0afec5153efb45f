"""Capture the code Inductor generates for a function: generated, never compiled or launched.

``inductor_codegen(model, x)`` returns a :class:`GeneratedCode`: the Triton kernels
(:class:`KernelInfo`, parsed), the wrapper code, the post-grad FX graphs and a stable
structural :meth:`GeneratedCode.signature`. It works without a GPU (fake CUDA, see
:mod:`pytest_magi.fake_cuda`) and uses the real GPU when there is one.

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
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import re
import types
import unittest.mock as mock
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import torch
from torch._inductor.custom_graph_pass import CustomGraphPass
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.symbolic_shapes import ConstraintViolationError

from .fake_cuda import fake_cuda, real_cuda_available
from .normalize import normalize_code, normalize_fx_graph

_KERNEL_DEF_RE = re.compile(
    r"^(?P<var>\w+) = async_compile\.triton\(\s*'(?P<name>[^']+)',\s*'''(?P<src>.*?)'''",
    re.MULTILINE | re.DOTALL,
)
_DECORATOR_RE = re.compile(r"@triton_heuristics\.(\w+)\(")
_SIZE_HINTS_RE = re.compile(r"size_hints=(\{[^}]*\})")
_NUMEL_ARG_RE = re.compile(r"\b([xyz]numel|r\d*_numel|rnumel)\b")
_META_INT_RE = r"'{key}':\s*(\d+)"
_GRID_TYPE_RE = re.compile(r"'grid_type':\s*'(\w+)'")
_KERNEL_NAME_RE = re.compile(r"^triton_(?P<kind>[a-z]+)_(?P<body>.*?)(?:_(?P<n>\d+))?$")
_CALL_RE = re.compile(
    r"\b(?:(?P<kernel>triton_\w+)\.run\(|extern_kernels\.(?P<extern>\w+)\("
    r"|(?:torch\.ops\.)?(?P<aten>aten\.\w+)(?:\.\w+)?\()"
)
_REDUCTION_CALL_RE = re.compile(
    r"\btl\.(?:sum|max|min|reduce|argmax|argmin|xor_sum|cumsum|cumprod|associative_scan)\("
    r"|\btriton_helpers\.(?:max2|min2|prod|any|welford\w*)\("
)


# --------------------------------------------------------------------------- results
@dataclasses.dataclass(frozen=True)
class KernelInfo:
    """One generated Triton kernel, parsed from its source.

    ``kind`` comes from the ``@triton_heuristics.<kind>`` decorator ("pointwise",
    "reduction", "persistent_reduction", "template", "foreach", or what else the
    decorator says). ``numels`` are the kernel's size parameters in signature order
    (``("ynumel", "xnumel")``, ``("xnumel", "r0_numel")``); ``tile_dims`` the
    non-reduction ones (``("y", "x")``); ``nd_tiling`` is true when there is more than
    one. Loads/stores are ``tl.load``/``tl.store`` calls; ``reductions`` is
    Inductor's own count (``num_reduction``) or the reduction calls in the source.
    ``fused_ops`` are the aten op names in the kernel name.
    """

    name: str
    kind: str
    graph: str
    source: str
    size_hints: dict[str, Any] = dataclasses.field(hash=False)
    numels: tuple[str, ...]
    tile_dims: tuple[str, ...]
    nd_tiling: bool
    grid_type: str | None
    num_loads: int
    num_stores: int
    num_reductions: int
    fused_ops: tuple[str, ...]

    @property
    def num_tile_dims(self) -> int:
        return len(self.tile_dims)

    @property
    def reduction_dims(self) -> tuple[str, ...]:
        return tuple(n[: -len("numel")].rstrip("_") for n in self.numels if n.startswith("r"))

    def signature(self) -> str:
        """One line: graph, kind, fused ops, size hints, tiles, loads/stores/reductions."""
        hints = ",".join(f"{k}:{v}" for k, v in self.size_hints.items())
        ops = "+".join(self.fused_ops) or "-"
        tiles = ",".join(self.tile_dims) or "-"
        red = ",".join(self.reduction_dims)
        return (
            f"{self.graph} {self.kind} {ops} size_hints={{{hints}}} tiles={tiles}"
            + (f" reduce={red}" if red else "")
            + f" loads={self.num_loads} stores={self.num_stores}"
            f" reductions={self.num_reductions}"
        )


@dataclasses.dataclass(frozen=True)
class CapturedGraph:
    """One compiled graph: its kind, the wrapper (raw), its kernels, the post-pass FX graph."""

    kind: str
    raw: str
    kernels: tuple[KernelInfo, ...]
    extern_calls: tuple[str, ...]
    calls: tuple[str, ...]
    fx_graph: str | None
    pass_results: tuple[Any, ...] = ()

    @property
    def normalized(self) -> str:
        return normalize_code(self.raw)

    @property
    def wrapper(self) -> str:
        """The normalised wrapper with each kernel's body elided (see ``kernels``)."""
        return _elide_kernel_bodies(self.normalized)


class GeneratedCode:
    """What Inductor generated for one function: all graphs, kernels and wrappers.

    ``kernels`` (all graphs, in order), ``forward`` (inference or forward kernels),
    ``backward``; ``wrapper`` / ``normalized()`` / ``raw`` texts; ``graphs`` the
    post-grad FX graphs (after the custom post pass); ``signature()`` a stable
    structural summary for assertions and snapshots; ``device`` ("fake-cuda" or the
    GPU's name).
    """

    def __init__(self, captured: Sequence[CapturedGraph], device: str) -> None:
        self.captured: tuple[CapturedGraph, ...] = tuple(captured)
        self.device = device

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


def _elide_kernel_bodies(text: str) -> str:
    return _KERNEL_DEF_RE.sub(
        lambda m: (
            f"{m.group('var')} = async_compile.triton('{m.group('name')}', '''<kernel body>'''"
        ),
        text,
    )


@dataclasses.dataclass(frozen=True)
class KernelCounts:
    """Triton kernel counts of the forward (or inference) and backward graphs."""

    forward: int
    backward: int | None

    @property
    def total(self) -> int:
        return self.forward + (self.backward or 0)

    def __repr__(self) -> str:
        if self.backward is None:
            return f"KernelCounts(forward={self.forward})"
        return f"KernelCounts(forward={self.forward}, backward={self.backward}, total={self.total})"


# --------------------------------------------------------------------------- parsing
def _parse_size_hints(source: str) -> dict[str, Any]:
    match = _SIZE_HINTS_RE.search(source)
    if not match:
        return {}
    hints: dict[str, Any] = {}
    for key, value in re.findall(r"'(\w+)':\s*([^,}]+)", match.group(1)):
        value = value.strip()
        hints[key] = int(value) if value.isdigit() else normalize_code(value)
    return hints


def _kernel_signature_args(source: str, name: str) -> list[str]:
    match = re.search(rf"def {re.escape(name)}\((?P<args>[^)]*)\)", source)
    if not match:
        return []
    return [a.split(":")[0].strip() for a in match.group("args").split(",") if a.strip()]


@functools.cache
def _aten_op_names() -> frozenset[str]:
    names = set()
    for qualified in torch._C._dispatch_get_all_op_names():
        namespace, _, op = qualified.partition("::")
        if namespace in ("aten", "prims", "inductor", "quantized_decomposed"):
            names.add(op.split(".")[0])
    return frozenset(names)


def split_fused_ops(body: str) -> tuple[str, ...]:
    """``"native_group_norm_silu"`` -> ``("native_group_norm", "silu")`` (longest known op names)."""
    if body.startswith("fused_"):
        body = body[len("fused_") :]
    elif body == "fused":
        return ()
    tokens = body.split("_")
    known = _aten_op_names()
    n = len(tokens)
    # best[i] = fewest ops covering tokens[i:], with unknown single tokens as a last resort
    best: list[tuple[int, int, list[str]] | None] = [None] * (n + 1)
    best[n] = (0, 0, [])
    for i in range(n - 1, -1, -1):
        for j in range(n, i, -1):
            piece = "_".join(tokens[i:j])
            if not piece:
                # leading underscore of an op name such as "_to_copy"
                continue
            tail = best[j]
            if tail is None:
                continue
            unknown = 0 if piece in known or ("_" + piece) in known else 1
            if unknown and j - i > 1:
                continue
            candidate = (tail[0] + unknown, tail[1] + 1, [piece, *tail[2]])
            if best[i] is None or candidate[:2] < best[i][:2]:  # type: ignore[index]
                best[i] = candidate
    result = best[0]
    return tuple(result[2]) if result else (body,)


def _fused_ops(name: str) -> tuple[str, ...]:
    match = _KERNEL_NAME_RE.match(name)
    if not match:
        return ()
    return split_fused_ops(match.group("body"))


def parse_kernel(name: str, source: str, graph: str) -> KernelInfo:
    """Parse one Triton kernel's source (as it appears inside ``async_compile.triton``)."""
    decorator = _DECORATOR_RE.search(source)
    kind = decorator.group(1) if decorator else "unknown"
    args = _kernel_signature_args(source, name)
    numels = tuple(a for a in args if _NUMEL_ARG_RE.fullmatch(a))
    tile_dims = tuple(a[0] for a in numels if not a.startswith("r"))

    def meta_int(key: str) -> int | None:
        m = re.search(_META_INT_RE.format(key=key), source)
        return int(m.group(1)) if m else None

    body = source[decorator.start() :] if decorator else source
    loads = len(re.findall(r"\btl\.load\(", body))
    stores = len(re.findall(r"\btl\.store\(", body))
    reductions = meta_int("num_reduction")
    if reductions is None:
        reductions = len(_REDUCTION_CALL_RE.findall(body))
    grid = _GRID_TYPE_RE.search(source)
    return KernelInfo(
        name=name,
        kind=kind,
        graph=graph,
        source=normalize_code(source),
        size_hints=_parse_size_hints(source),
        numels=numels,
        tile_dims=tile_dims,
        nd_tiling=len(tile_dims) > 1,
        grid_type=grid.group(1) if grid else None,
        num_loads=loads,
        num_stores=stores,
        num_reductions=reductions,
        fused_ops=_fused_ops(name),
    )


def _call_section(code: str) -> str:
    """The part of a wrapper that runs kernels (``def call`` onwards, without the benchmark)."""
    start = code.find("def call(")
    end = code.find("def get_args(", start) if start >= 0 else -1
    if end < 0:
        end = code.find("def benchmark_compiled_module", start if start >= 0 else 0)
    return code[start if start >= 0 else 0 : end if end >= 0 else len(code)]


def parse_wrapper(code: str, graph: str, fx_graph: str | None = None) -> CapturedGraph:
    """Parse one graph's generated wrapper (kernels inline, Python wrapper)."""
    kernels = tuple(
        parse_kernel(m.group("name"), m.group("src"), graph) for m in _KERNEL_DEF_RE.finditer(code)
    )
    calls: list[str] = []
    externs: list[str] = []
    known = {k.name for k in kernels}
    for line in _call_section(code).splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        for m in _CALL_RE.finditer(stripped):
            if m.group("kernel") and m.group("kernel") in known:
                calls.append(m.group("kernel"))
            elif m.group("extern"):
                calls.append(m.group("extern"))
                externs.append(m.group("extern"))
            elif m.group("aten") and "assert" not in stripped[: m.start()]:
                op = m.group("aten").split(".", 1)[1]
                calls.append(op)
                externs.append(op)
    return CapturedGraph(
        kind=graph,
        raw=code,
        kernels=kernels,
        extern_calls=tuple(externs),
        calls=tuple(calls),
        fx_graph=fx_graph,
    )


# --------------------------------------------------------------------------- validation
def _validate_dynamic_dims(
    dynamic_dims: Mapping[int, int | Sequence[int]] | None, inputs: Sequence[Any]
) -> dict[int, tuple[int, ...]]:
    if dynamic_dims is None:
        return {}
    example = "dynamic_dims={0: [2, 3]} marks dims 2 and 3 of the first input dynamic"
    if not isinstance(dynamic_dims, Mapping):
        raise ValueError(
            f"dynamic_dims must be None or a dict {{input_index: dim or dims}}, got "
            f"{type(dynamic_dims).__name__} {dynamic_dims!r}; e.g. {example}"
        )
    result: dict[int, tuple[int, ...]] = {}
    for index, dims in dynamic_dims.items():
        if isinstance(index, bool) or not isinstance(index, int):
            raise ValueError(
                f"dynamic_dims key {index!r} is not an input index: keys are positions of "
                f"the tensors passed after fn (0..{len(inputs) - 1}); e.g. {example}"
            )
        if not 0 <= index < len(inputs):
            raise ValueError(
                f"dynamic_dims key {index} is out of range: there are {len(inputs)} inputs, "
                f"valid keys are 0..{len(inputs) - 1}"
            )
        tensor = inputs[index]
        if not isinstance(tensor, torch.Tensor):
            raise ValueError(
                f"dynamic_dims key {index} names input {index}, which is a "
                f"{type(tensor).__name__}, not a tensor; only tensor dims can be dynamic"
            )
        dim_list = [dims] if isinstance(dims, int) else dims
        if (
            isinstance(dims, bool)
            or not isinstance(dim_list, Sequence)
            or isinstance(dim_list, str)
        ):
            raise ValueError(
                f"dynamic_dims[{index}] = {dims!r}: expected a dim (int) or a sequence of "
                f"dims; e.g. {example}"
            )
        normalized: list[int] = []
        for dim in dim_list:
            if isinstance(dim, bool) or not isinstance(dim, int):
                raise ValueError(
                    f"dynamic_dims[{index}] contains {dim!r}, which is not an int dim; e.g. {example}"
                )
            if not -tensor.dim() <= dim < tensor.dim():
                raise ValueError(
                    f"dynamic_dims[{index}] contains dim {dim}, out of range for input {index} "
                    f"of shape {tuple(tensor.shape)} (valid: {-tensor.dim()}..{tensor.dim() - 1})"
                )
            dim %= tensor.dim()
            if dim in normalized:
                raise ValueError(f"dynamic_dims[{index}] names dim {dim} twice: {dims!r}")
            if tensor.shape[dim] < 2:
                raise ValueError(
                    f"dynamic_dims[{index}] marks dim {dim} of input {index} dynamic, but its "
                    f"size is {tensor.shape[dim]}; dynamo specialises sizes 0 and 1, so give an "
                    f"example input with size >= 2 in that dim"
                )
            normalized.append(dim)
        if not normalized:
            raise ValueError(f"dynamic_dims[{index}] is empty: {dims!r}; name at least one dim")
        result[index] = tuple(normalized)
    return result


# --------------------------------------------------------------------------- capture
class _Recorder:
    """Per-call capture state: which graph is being compiled, what came out."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.sources: list[str] = []
        self.fx_graph: str | None = None
        self.captured: list[CapturedGraph] = []

    @contextlib.contextmanager
    def graph(self, kind: str) -> Iterator[None]:
        self.kind, self.sources, self.fx_graph = kind, [], None
        try:
            yield
        finally:
            self.kind = None

    def finish(self, pass_results: Sequence[Any]) -> None:
        if not self.sources:
            return
        code = "\n".join(self.sources)
        assert self.kind is not None
        captured = parse_wrapper(code, self.kind, self.fx_graph)
        self.captured.append(dataclasses.replace(captured, pass_results=tuple(pass_results)))


class RecordingGraphPass(CustomGraphPass):
    """A ``post_grad_custom_post_pass`` that runs ``inner`` (if any) and records ``str(graph)``.

    Its ``uuid()`` is deterministic: a fixed tag plus the inner pass's uuid.
    """

    _TAG = "pytest_magi.codegen.RecordingGraphPass/1"

    def __init__(self, inner: Any, sink: Callable[[str], None]) -> None:
        self.inner = inner
        self._sink = sink

    def __call__(self, graph: torch.fx.Graph) -> None:
        if self.inner is not None:
            self.inner(graph)
        self._sink(normalize_fx_graph(str(graph)))

    def uuid(self) -> str:
        inner_uuid: Any = None
        if self.inner is not None:
            get = getattr(self.inner, "uuid", None)
            inner_uuid = get() if callable(get) else repr(type(self.inner))
        if isinstance(inner_uuid, bytes):
            inner_uuid = inner_uuid.hex()
        return hashlib.sha256(f"{self._TAG}:{inner_uuid}".encode()).hexdigest()


@contextlib.contextmanager
def _generate_only(recorder: _Recorder) -> Iterator[None]:
    """Make ``GraphLowering`` generate code into ``recorder`` instead of compiling it."""
    from torch._inductor.graph import GraphLowering

    class _NotCompiled:
        """Stands in for the compiled module; nothing was compiled."""

        __file__ = "<not compiled: pytest_magi.codegen>"

        def call(self, *args: Any, **kwargs: Any) -> None:
            return None

    def compile_to_module(self: Any) -> Any:
        wrapper_code, kernel_code = (
            self.codegen_with_cpp_wrapper() if self.cpp_wrapper else self.codegen()
        )
        recorder.sources.append(wrapper_code.value)
        if kernel_code is not None and getattr(kernel_code, "value", None):
            recorder.sources.append(kernel_code.value)
        return _NotCompiled()

    with (
        mock.patch.object(GraphLowering, "compile_to_module", compile_to_module),
        mock.patch.object(GraphLowering, "save_output_code", lambda code: None),
    ):
        yield


def _to_cuda_device(value: Any) -> Any:
    if isinstance(value, torch.device) and value.type == "cpu":
        return torch.device("cuda", 0)
    if isinstance(value, str) and value == "cpu":
        return torch.device("cuda", 0)
    if isinstance(value, (list, tuple)):
        return type(value)(_to_cuda_device(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_cuda_device(v) for k, v in value.items()}
    return value


def _fake_cuda_like(value: Any, fake_mode: Any) -> Any:
    if isinstance(value, torch.Tensor) and value.device.type == "cpu":
        with fake_mode:
            return torch.empty_strided(
                value.shape, value.stride(), dtype=value.dtype, device="cuda"
            )
    return value


def _move_graph_to_cuda(
    gm: torch.fx.GraphModule, example_inputs: Sequence[Any]
) -> tuple[torch.fx.GraphModule, list[Any]]:
    """Rewrite a graph traced on fake cpu tensors to run on fake cuda tensors."""
    from torch._guards import detect_fake_mode
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp

    fake_mode = detect_fake_mode(example_inputs)
    if fake_mode is None:
        raise RuntimeError("pytest_magi: no fake mode found for the graph's inputs")
    inputs = [_fake_cuda_like(x, fake_mode) for x in example_inputs]
    for node in gm.graph.nodes:
        if node.op == "call_function":
            node.args = _to_cuda_device(node.args)
            node.kwargs = _to_cuda_device(node.kwargs)
    gm.recompile()
    with fake_mode:
        FakeTensorProp(gm, mode=fake_mode).propagate_dont_convert_inputs(*inputs)
    return gm, inputs


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
    manager: Any,
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
            results = list(getattr(manager, "results", None) or []) if manager is not None else []
            recorder.finish(results)
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


def _fresh_entry(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A wrapper around ``fn`` with a code object of its own (no dynamo cache entry can exist)."""

    def entry(*args: Any) -> Any:
        return fn(*args)

    code = entry.__code__.replace(co_name="_magi_codegen_entry")
    return types.FunctionType(code, entry.__globals__, code.co_name, None, entry.__closure__)


# --------------------------------------------------------------------------- inputs
def _copy_to_device(
    t: torch.Tensor, fake_mode: Any, device: str, requires_grad: bool
) -> torch.Tensor:
    """Same shape/dtype/strides on ``device``: fake when ``fake_mode`` is given, else a real copy."""
    if fake_mode is not None:
        with fake_mode:
            out = torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device=device)
    else:
        with torch.no_grad():
            out = torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device=device)
            out.copy_(t.detach())
    if requires_grad:
        out.requires_grad_(True)
    return out


@contextlib.contextmanager
def _swapped_module_state(
    module: torch.nn.Module, convert: Callable[[torch.Tensor, bool], torch.Tensor]
) -> Iterator[None]:
    """Replace every parameter and buffer of ``module`` by ``convert(t)``; put them back after."""
    memo: dict[int, torch.Tensor] = {}
    saved: list[tuple[dict[str, Any], str, Any]] = []
    try:
        for sub in module.modules():
            stores: tuple[tuple[dict[str, Any], bool], ...] = (
                (sub._parameters, True),
                (sub._buffers, False),
            )
            for store, is_param in stores:
                for name, value in list(store.items()):
                    if value is None:
                        continue
                    saved.append((store, name, value))
                    if id(value) not in memo:
                        new = convert(value, is_param)
                        memo[id(value)] = (
                            torch.nn.Parameter(new, requires_grad=new.requires_grad)
                            if is_param
                            else new
                        )
                    store[name] = memo[id(value)]
        yield
    finally:
        for store, name, value in reversed(saved):
            store[name] = value


def _channels_last_weights(fn: Any, config: Any, backward: bool) -> dict[int, torch.memory_format]:
    """`{id(weight): format}` for the conv weights `magi_backend` would convert once, else `{}`."""
    if (
        backward
        or config is None
        or not isinstance(fn, torch.nn.Module)
        or not getattr(config, "enable_conv_channels_last", False)
        or not getattr(config, "channels_last_weights_once", False)
    ):
        return {}
    formats = {torch.nn.Conv2d: torch.channels_last, torch.nn.Conv3d: torch.channels_last_3d}
    return {
        id(m.weight): formats[type(m)]
        for m in fn.modules()
        if type(m) in formats and m.weight is not None
    }


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


@contextlib.contextmanager
def _inductor_config_unchanged() -> Iterator[None]:
    """Guarantee ``torch._inductor.config`` is the same after the block as before it."""
    before = torch._inductor.config.get_config_copy()
    try:
        yield
    finally:
        after = torch._inductor.config.get_config_copy()
        changed = {
            k: v for k, v in before.items() if after.get(k, v) is not v and after.get(k) != v
        }
        if changed:
            torch._inductor.config.load_config(changed)


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


# --------------------------------------------------------------------------- public API
def inductor_codegen(
    fn: Callable[..., Any],
    *inputs: Any,
    dynamic_dims: Mapping[int, int | Sequence[int]] | None = None,
    backward: bool = False,
    config: Any = None,
    inductor_config: Mapping[str, Any] | None = None,
) -> GeneratedCode:
    """Generate (never compile, never run) Inductor's CUDA code for ``fn(*inputs)``.

    ``fn``: an ``nn.Module`` or callable. ``inputs``: example tensors on any device
    (turned into fake cuda tensors of the same shape, dtype and strides; non-tensors are
    passed as they are). The module's parameters and buffers are swapped for fake cuda
    tensors (``requires_grad=False`` unless ``backward``) and put back afterwards.

    ``dynamic_dims``: ``{input_index: dim or dims}`` marked dynamic as
    ``torch._dynamo.mark_dynamic`` does; everything else is static.
    ``backward=True``: generate the forward and backward graphs of training (inputs keep
    their ``requires_grad``, parameters theirs); otherwise the inference graph.
    ``config``: a ``magi_passes.PassConfig`` to compile with the magi passes installed
    (``magi_passes.backend.inductor_options(config)``), or None for plain Inductor.
    ``inductor_config``: extra ``torch._inductor.config`` patches for this call only.

    On a machine with a CUDA GPU the real GPU is used (real tensors, same capture).
    See the module docstring for how the call is isolated from the rest of the process.
    """
    if not callable(fn):
        raise TypeError(f"inductor_codegen: fn must be an nn.Module or a callable, got {fn!r}")
    dims = _validate_dynamic_dims(dynamic_dims, inputs)
    if inductor_config is not None and not isinstance(inductor_config, Mapping):
        raise TypeError(
            f"inductor_config must be a dict of torch._inductor.config patches, got {inductor_config!r}"
        )
    extra = dict(inductor_config or {})
    known = torch._inductor.config.get_config_copy()
    unknown = [k for k in extra if k not in known]
    if unknown:
        import difflib

        hints = {k: difflib.get_close_matches(k, list(known), n=3) for k in unknown}
        raise ValueError(
            f"inductor_config has unknown torch._inductor.config keys {unknown!r}; "
            f"close matches: {hints}"
        )

    real_gpu = real_cuda_available()
    if backward:
        module_grads = isinstance(fn, torch.nn.Module) and any(
            p.requires_grad for p in fn.parameters()
        )
        input_grads = any(isinstance(x, torch.Tensor) and x.requires_grad for x in inputs)
        if not (module_grads or input_grads):
            raise ValueError(
                "backward=True but nothing requires grad: no parameter of fn and no input has "
                "requires_grad=True; set requires_grad=True on an input (or pass a module with "
                "trainable parameters), or use backward=False for the inference graph"
            )

    recorder = _Recorder()
    with contextlib.ExitStack() as stack:
        stack.enter_context(_inductor_config_unchanged())
        env = stack.enter_context(fake_cuda())
        stack.enter_context(warnings.catch_warnings())
        warnings.filterwarnings("ignore", message=".*force disabled by .*force_disable_caches")
        # inputs, parameters and every op run on them (dynamo runs the graphs we return
        # between graph breaks) live in this one fake mode; none on a real GPU
        fake_mode = None if real_gpu else FakeTensorMode(allow_non_fake_inputs=True)
        # autograd through fake *cuda* tensors aborts a CPU-only build: trace on fake cpu
        trace_device = "cuda" if (real_gpu or not backward) else "cpu"

        # the caller's own post-grad pass: given in inductor_config, else the installed one
        user_pass = extra.pop("post_grad_custom_post_pass", None) or getattr(
            torch._inductor.config, "post_grad_custom_post_pass", None
        )
        magi_options: dict[str, Any] = {}
        manager: Any = None
        if config is not None:
            # the PassManager chains whatever pass is installed when it is built
            with torch._inductor.config.patch(post_grad_custom_post_pass=user_pass):
                magi_options, manager = _magi_patches(config)
            user_pass = magi_options.pop("post_grad_custom_post_pass", None) or user_pass

        def sink(text: str) -> None:
            recorder.fx_graph = text

        patches: dict[str, Any] = {
            **magi_options,
            **extra,
            "force_disable_caches": True,
            "compile_threads": 1,
            "post_grad_custom_post_pass": RecordingGraphPass(user_pass, sink),
        }
        inner = _make_inner_compile(
            recorder, patches, move_to_cuda=trace_device == "cpu" and not real_gpu, manager=manager
        )

        def backend(gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Callable[..., Any]:
            from torch._inductor.compile_fx import compile_fx

            with torch._inductor.config.patch(patches):
                compile_fx(gm, example_inputs, inner_compile=inner)
            return _run_graph_eagerly(gm, fake_mode)

        # what magi_backend does in inference: conv weights are converted to channels-last once,
        # outside the graph (inductor_options alone re-lays them out on every call)
        weights_once = _channels_last_weights(fn, config, backward)

        def convert(t: torch.Tensor, is_param: bool) -> torch.Tensor:
            grad = backward and t.requires_grad and (is_param or t.is_floating_point())
            fmt = weights_once.get(id(t))
            if fmt is not None:
                t = t.detach().contiguous(memory_format=fmt)
            return _copy_to_device(t, fake_mode, trace_device, grad)

        call_inputs: list[Any] = []
        for i, x in enumerate(inputs):
            if isinstance(x, torch.Tensor):
                x = convert(x, False)
                if i in dims:
                    torch._dynamo.mark_dynamic(x, list(dims[i]))
            call_inputs.append(x)

        if isinstance(fn, torch.nn.Module):
            stack.enter_context(_swapped_module_state(fn, convert))
        stack.enter_context(torch._dynamo.config.patch(_dynamo_patches()))
        stack.enter_context(torch._inductor.config.patch(patches))
        if backward:
            stack.enter_context(
                torch._functorch.config.patch(force_non_lazy_backward_lowering=True)
            )
        else:
            stack.enter_context(torch.no_grad())
        stack.enter_context(_generate_only(recorder))

        compiled = torch.compile(_fresh_entry(fn), backend=backend, fullgraph=False)
        try:
            compiled(*call_inputs)
        except ConstraintViolationError as exc:
            raise ValueError(
                f"inductor_codegen: dynamic_dims={dynamic_dims!r} cannot stay dynamic: while "
                f"compiling, torch {torch.__version__} specialised a marked dim to its example "
                "size (torch.compile with torch._dynamo.mark_dynamic fails the same way; "
                "convolution_backward specialises its input's spatial sizes, for example). "
                "Remove that dim from dynamic_dims (the batch dim often stays dynamic) or "
                "generate the inference graph (backward=False). torch said: "
                + str(exc).strip().splitlines()[-1].strip()
            ) from exc

    if not recorder.captured:
        raise RuntimeError(
            "inductor_codegen: dynamo compiled no graph for fn (it may have run fn eagerly: "
            "a skipped frame, or no tensor operations). Check that fn calls torch operations on "
            "its inputs, and see TORCH_LOGS='graph_breaks' for why dynamo skipped it"
        )
    return GeneratedCode(recorder.captured, env.device)


def kernel_counts(
    fn: Callable[..., Any],
    *inputs: Any,
    dynamic_dims: Mapping[int, int | Sequence[int]] | None = None,
    backward: bool = False,
    config: Any = None,
) -> KernelCounts:
    """Triton kernel counts of ``fn(*inputs)`` (see :func:`inductor_codegen` for arguments)."""
    code = inductor_codegen(
        fn, *inputs, dynamic_dims=dynamic_dims, backward=backward, config=config
    )
    return KernelCounts(
        forward=len(code.forward),
        backward=len(code.backward) if backward else None,
    )
