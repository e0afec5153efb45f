"""A profiled call's kernels as events, each sorted into a class, an origin and a byte count.

``pytest_magi.measure.profiling.profile(fn)`` runs ``fn`` (a zero-argument callable: a compiled side, a zoo model's ``.run``)
under ``torch.profiler`` on a CUDA device and sorts every kernel it launched into a class:

``conv/matmul``
    cuDNN / cuBLAS / CUTLASS kernels (names with ``xmma``, ``gemm``, ``cutlass``, ``nvjet``,
    ``conv``, ``fprop``, ``dgrad``, ``wgrad``, ``winograd``...). Their floor is the call's FLOPs
    (``torch.utils.flop_counter`` on one more call of ``fn``, or ``flops=``) at ``peak_tflops``.
``triton``
    Inductor's kernels, one row per *pattern*: the kernel name without its trailing index
    (``triton_poi_fused_add_convolution_0`` and ``..._7`` are the pattern
    ``triton_poi_fused_add_convolution``, kind ``poi``; ``red``, ``per``, ``tem`` likewise).
``layout copy``
    kernels that only move data: Triton kernels whose fused ops are all copies (``clone``,
    ``_to_copy``, ``copy``), cuDNN's format transposes (``nchwToNhwc``...), ATen's copy and
    transpose kernels (``direct_copy_kernel_cuda``, ``copy_kernel``), ``Memcpy``.
``eager aten``
    every other kernel: ATen ops run eagerly between compiled graphs (``torch.cat``'s
    ``CatArrayBatchedCopy``, elementwise and reduction kernels, ``Memset``).
``launch gaps``
    the GPU idle while the call runs: the call's wall time under the profiler (the same calls
    the kernels come from) minus the union of its kernels' intervals (so concurrent kernels are
    not counted twice). Kernels run slower under the profiler, so the wall time without it
    (``wall_ms``, median of ``rounds``, synchronised) can be less than their union: on the Wan
    2.2 decode, 159.6 ms against 164.0 ms of kernels (H200, torch 2.11). Where the calls'
    ranges are known (``profile()`` marks each call), the gaps are split (``report.gaps``):
    *before the first kernel* (the host's work before the GPU has any: Python, dynamo's guards,
    the first launches, all slower under the profiler), *after the last kernel* (the
    synchronisation's return) and *between* each pair of consecutive kernels, one row per pair
    of patterns (``between A and B``), so that an idle GPU inside the call is located: which
    kernel it waited after and which launch it waited for.

Where each kernel was launched from (``KernelEvent.origin``): *graph* (inside a compiled graph's
call, Inductor's ``## Call CompiledFxGraph`` range), *frame* (inside a compiled frame, dynamo's
``Torch-Compiled Region`` range, but between its graphs: the frame's own bytecode around them,
and the code it runs without compiling, such as the rest of a function after a graph break
dynamo cannot resume from) or *eager* (outside every compiled frame: code dynamo did not compile, a skipped frame, the
caller's own work). ``report.origins`` lists, by origin, launching op and kernel pattern, every
layout copy and eager ATen kernel and every kernel launched outside a graph, with the op's input
shapes (``origin_table()``): so a per-frame ``nchwToNhwcKernel`` is traced to the op that asked
for it (``aten::cudnn_convolution`` in a graph, say), and an eager add to the frame it ran in.

Every kernel whose bytes are known gets a memory floor, bytes at ``hbm_gbps``, and its achieved
GB/s and share of ``hbm_gbps``. Where the bytes come from (the row's ``bytes from`` column):

``inductor``
    Inductor's own estimate (``estimate_kernel_num_bytes``: the kernel's in/out pointer args,
    in/out buffers counted twice, a sliced buffer counted by the slices read), which Inductor puts
    in a kernel's ``inductor_meta["kernel_num_gb"]`` when ``torch._inductor.config.benchmark_kernel``
    (or ``profile_bandwidth``) is on *while the kernel is generated*, and which every launch
    then hands to the profiler (``CachingAutotuner.get_profiler_kwargs``; checked on torch 2.11
    and 2.13). Compile under ``inductor_byte_counts()`` (a scoped ``config.patch``) to get it:
    it changes no kernel, only metadata and the benchmark harness appended to each kernel's file.
``args``
    otherwise, Inductor's runtime rule (``runtime_utils.get_num_bytes``, what ``benchmark_kernel``
    falls back to) applied to the launch's real arguments as ``record_shapes`` records them:
    every tensor argument's numel x element size, the ``in_out_ptr`` arguments (read from the
    kernel's file) twice. A kernel that reads a slice of a larger buffer is over-counted.
``aten``
    the first kernel of an eager ``aten::copy_``: its two tensors' bytes.

Other kernels (cuDNN's, reductions, ``cat``) have no bytes: no floor, shown as such.

The arithmetic is separate from the GPU: :func:`build_report` takes a list of
:class:`KernelEvent` (name, start and duration in microseconds, optional bytes) and returns the
report, and :func:`events_from_kineto` turns the profiler's raw events into that list; both run
anywhere. ``ProfileReport.minus(other, divide_by=n)`` is the difference of two reports per unit
(the cost of one more latent frame: the report at T=5 minus the report at T=2, divided by 3).
How to run it: docs/benchmarks.md (`benchmarks/zoo.py profile`).
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

CONV = "conv/matmul"
TRITON = "triton"
LAYOUT = "layout copy"
EAGER = "eager aten"
GAPS = "launch gaps"
GAP_LEAD = "before the first kernel"
GAP_TAIL = "after the last kernel"
GAP_PAIR_PREFIX = "between "
GAP_PAIRS_SHOWN = 8  # pairs of patterns listed under the gaps when every pattern is shown
CLASSES = (CONV, TRITON, LAYOUT, EAGER)
# where a kernel was launched from (`KernelEvent.origin`, `ProfileReport.origins`)
IN_GRAPH = "graph"  # inside a compiled graph's call (Inductor's `## Call CompiledFxGraph` range)
IN_FRAME = "frame"  # in a compiled frame (dynamo's `Torch-Compiled Region`), outside its graphs
OUTSIDE = "eager"  # outside every compiled frame: code dynamo did not compile
ORIGINS = (IN_GRAPH, IN_FRAME, OUTSIDE)
_GRAPH_RANGE = "## Call CompiledFxGraph"
_FRAME_RANGE = "Torch-Compiled Region"
# CUDA runtime activities that CUPTI reports as CPU events and may link a kernel to in place of
# the op that launched it (the launch loaded the kernel's module, or waited for the queue)
RUNTIME_ACTIVITIES = frozenset(
    {"Lazy Function Loading", "Command Buffer Full", "Activity Buffer Request"}
)
ORIGINS_SHOWN = 12  # origin rows listed when every pattern is shown

# H200 (and H100 SXM) bf16 dense matmul, measured ~790 TFLOP/s; HBM3e 4.8 TB/s (H200 spec)
DEFAULT_PEAK_TFLOPS = 790.0
DEFAULT_HBM_GBPS = 4800.0
MEASURE = "measure"
ROUND_MARK = "pytest_magi.profile.round"
BYTES_SOURCES = ("inductor", "args", "aten")

_TRITON_NAME_RE = re.compile(r"^triton_(?P<kind>[a-z]+)_(?P<body>.*?)(?:_(?P<n>\d+))?$")
_COPY_OPS = frozenset({"clone", "copy", "_to_copy", "to_copy", "copy_"})
_LAYOUT_MARKS = (
    "nchwtonhwc",
    "nhwctonchw",
    "ncdhwtondhwc",
    "ndhwctoncdhw",
    "transpose",
    "direct_copy",
    "copy_kernel",
    "memcpy",
)
_CONV_MARKS = (
    "xmma",
    "gemm",
    "gemv",
    "cutlass",
    "nvjet",
    "cublas",
    "conv",
    "fprop",
    "dgrad",
    "wgrad",
    "winograd",
    "implicit",
    "cudnn",
    "sm90_",
    "sm80_",
    "sm100_",
)
_EAGER_FIRST = ("catarray",)  # eager kernels whose names contain a layout mark ("Copy")
_GENERIC_WRAPPERS = frozenset(
    {
        "gpu_kernel_impl",
        "gpu_kernel_impl_nocast",
        "launch_vectorized_kernel",
        "launch_legacy_kernel",
        "unrolled_elementwise_kernel",
        "elementwise_kernel",
        "vectorized_elementwise_kernel",
        "memory",
        "detail",
        "ReduceOp",
        "OpaqueType",
    }
)
_DTYPE_SIZES = {
    "float": 4,
    "double": 8,
    "c10::Half": 2,
    "c10::BFloat16": 2,
    "bool": 1,
    "unsigned char": 1,
    "signed char": 1,
    "short int": 2,
    "short": 2,
    "int": 4,
    "long int": 8,
    "long": 8,
    "long long": 8,
    "c10::Float8_e4m3fn": 1,
    "c10::Float8_e5m2": 1,
    "c10::Float8_e4m3fnuz": 1,
    "c10::Float8_e5m2fnuz": 1,
    "c10::complex<c10::Half>": 4,
    "c10::complex<float>": 8,
    "c10::complex<double>": 16,
}
_NOT_TENSORS = frozenset({"", "Scalar", "ScalarList", "TensorList", "GenericList", "None"})


# --------------------------------------------------------------------------- events
@dataclass(frozen=True)
class KernelEvent:
    """One kernel launch on the GPU: ``name``, ``start_us``/``dur_us`` on the profiler's clock,
    ``bytes`` it moved when known and where that number came from (``bytes_source``: one of
    ``BYTES_SOURCES``), ``op``, the CPU op that launched it (``triton_...``, ``aten::copy_``),
    ``origin``, where that op ran (one of ``ORIGINS``: in a compiled graph, in a compiled frame
    between its graphs, or outside compiled frames; "" when unknown), and ``op_shapes``, the
    op's input shapes as recorded (``"1x512x4x68x120, 512"``; "" when not recorded)."""

    name: str
    start_us: float
    dur_us: float
    bytes: int | None = None
    bytes_source: str | None = None
    op: str = ""
    origin: str = ""
    op_shapes: str = ""


def classify(name: str) -> tuple[str, str, str]:
    """``(class, pattern, kind)`` of a kernel name; see the module docstring for the classes.

    ``classify("triton_poi_fused_add_convolution_0")`` is
    ``("triton", "triton_poi_fused_add_convolution", "poi")``.
    """
    match = _TRITON_NAME_RE.match(name)
    if match:
        pattern = name[: match.start("n") - 1] if match.group("n") else name
        kind = match.group("kind")
        from ..capture.kernels import split_fused_ops

        ops = split_fused_ops(match.group("body"))
        copies_only = bool(ops) and all(op in _COPY_OPS for op in ops)
        return (LAYOUT if copies_only else TRITON), pattern, kind
    pattern = kernel_pattern(name)
    lowered = name.lower()
    if any(mark in lowered for mark in _EAGER_FIRST):
        return EAGER, pattern, ""
    if any(mark in lowered for mark in _LAYOUT_MARKS):
        return LAYOUT, pattern, ""
    if any(mark in lowered for mark in _CONV_MARKS):
        return CONV, pattern, ""
    return EAGER, pattern, ""


def kernel_pattern(name: str, width: int = 72) -> str:
    """A short name for a CUDA kernel: the C++ name without ``void``, namespaces, template
    arguments and parameters, plus the first specific ATen functor in its template
    arguments (``vectorized_elementwise_kernel[CUDAFunctor_add]``,
    ``elementwise_kernel[direct_copy_kernel_cuda]``); at most ``width`` characters."""
    text = name.strip().replace("(anonymous namespace)::", "")
    if text.startswith("void "):
        text = text[len("void ") :]
    cut = min((i for i in (text.find("<"), text.find("(")) if i >= 0), default=len(text))
    base = text[:cut].split("::")[-1].strip() or text[:cut].strip()
    rest = text[cut:]
    functor = next(
        (
            ident
            for ident in re.findall(r"at::native::(\w+)", rest)
            if ident not in _GENERIC_WRAPPERS and ident != base
        ),
        "",
    )
    short = f"{base}[{functor}]" if functor else base
    return short if len(short) <= width else short[: width - 3] + "..."


def args_bytes(shapes: Sequence[Any], dtypes: Sequence[str], in_out_args: int = 0) -> int | None:
    """Bytes of a launch's tensor arguments by Inductor's runtime rule (``get_num_bytes``):
    numel x element size of each tensor, the first ``in_out_args`` counted twice (read and
    written). ``shapes``/``dtypes`` as ``record_shapes`` records them (``[1024, 1024]`` /
    ``"float"``; scalars are ``"Scalar"``). None when a tensor's dtype is unknown or no
    argument is a tensor."""
    total = 0
    tensors = 0
    for i, (shape, dtype) in enumerate(zip(shapes, dtypes, strict=False)):
        if dtype in _NOT_TENSORS or not isinstance(shape, (list, tuple)):
            continue
        if any(isinstance(s, (list, tuple)) for s in shape):
            return None  # a tensor list: dtype of its members unknown
        size = _DTYPE_SIZES.get(dtype)
        if size is None:
            return None
        numel = math.prod(int(s) for s in shape)
        total += numel * size * (2 if i < in_out_args else 1)
        tensors += 1
    return total if tensors else None


@functools.lru_cache(maxsize=4096)
def _in_out_args(kernel_file: str, kernel_name: str) -> int:
    """How many ``in_out_ptr`` arguments the kernel's ``def`` in its file has (0 if unreadable)."""
    try:
        with open(kernel_file, encoding="utf-8") as f:
            source = f.read()
    except OSError:
        return 0
    match = re.search(rf"def {re.escape(kernel_name)}\((?P<args>[^)]*)\)", source)
    if not match:
        return 0
    return sum(1 for a in match.group("args").split(",") if a.strip().startswith("in_out_ptr"))


def _call(event: Any, method: str, default: Any) -> Any:
    fn = getattr(event, method, None)
    if fn is None:
        return default
    try:
        return fn()
    except (RuntimeError, TypeError, ValueError):
        return default


def _launch_bytes(op: Any) -> tuple[int | None, str | None]:
    """Bytes of the kernel launched by CPU op ``op`` (a kineto event), and their source."""
    name = op.name()
    kwargs = _call(op, "kwinputs", None) or {}
    shapes = _call(op, "shapes", []) or []
    dtypes = _call(op, "dtypes", []) or []
    if name.startswith("triton") or kwargs.get("kernel_backend") == "triton":
        gb = kwargs.get("kernel_num_gb")
        if isinstance(gb, (int, float)) and not isinstance(gb, bool) and gb > 0:
            return round(gb * 1e9), "inductor"
        kernel_file = kwargs.get("kernel_file")
        kernel_name = kwargs.get("kernel_name", name)
        in_out = _in_out_args(kernel_file, kernel_name) if isinstance(kernel_file, str) else 0
        nbytes = args_bytes(shapes, dtypes, in_out)
        return (nbytes, "args") if nbytes else (None, None)
    if name == "aten::copy_":
        nbytes = args_bytes(shapes, dtypes)
        return (nbytes, "aten") if nbytes else (None, None)
    return None, None


def events_from_kineto(
    raw_events: Iterable[Any],
) -> tuple[list[KernelEvent], list[tuple[float, float]]]:
    """The GPU kernels of a profile, and the CPU ranges named ``ROUND_MARK`` (``(start_us,
    end_us)``), from ``prof.profiler.kineto_results.events()`` (torch's ``_KinetoEvent``s).

    A GPU event is a kernel (or a memcpy/memset) unless it is a user annotation: a CPU range
    (``record_function``, Inductor's ``## Call CompiledFxGraph``) mirrored on the GPU timeline,
    recognised by ``is_user_annotation()`` or by having no launching op and the correlation id
    and name of a CPU range. A kernel's launching op is the CPU op its
    ``linked_correlation_id`` names (the innermost range open at the launch: the Triton
    kernel's own ``record_function``, or ``aten::copy_``...); bytes come from it
    (:func:`_launch_bytes`), given to the op's first kernel only. Where that id names a CUDA
    runtime activity instead (``RUNTIME_ACTIVITIES``: the launch loaded the kernel's module, or
    waited for a full queue), the launching op is the innermost CPU op running at that moment.
    Each kernel is placed by its op's start (``origin``, module docstring).
    """
    from torch.autograd import DeviceType

    events = list(raw_events)
    ops: dict[int, Any] = {}
    rounds: list[tuple[float, float]] = []
    graph_ranges: list[tuple[float, float]] = []
    frame_ranges: list[tuple[float, float]] = []
    for e in events:
        if e.device_type() != DeviceType.CPU or e.linked_correlation_id() != 0:
            continue  # runtime calls (cuLaunchKernel) link to their op; ops link to nothing
        ops[e.correlation_id()] = e
        span = (e.start_ns() / 1e3, (e.start_ns() + e.duration_ns()) / 1e3)
        name = e.name()
        if name == ROUND_MARK:
            rounds.append(span)
        elif name.startswith(_GRAPH_RANGE):
            graph_ranges.append(span)
        elif name.startswith(_FRAME_RANGE):
            frame_ranges.append(span)
    graphs, frames = _Spans(graph_ranges), _Spans(frame_ranges)
    launchers = _Launchers(ops.values())
    kernels: list[KernelEvent] = []
    charged: set[int] = set()
    for e in events:
        if e.device_type() != DeviceType.CUDA or _call(e, "is_user_annotation", False):
            continue
        linked = e.linked_correlation_id()
        if linked == 0:
            mirror = ops.get(e.correlation_id())
            if mirror is not None and mirror.name() == e.name():
                continue
        op = ops.get(linked) if linked else None
        if op is not None and op.name() in RUNTIME_ACTIVITIES:
            op = launchers.around(op.start_ns()) or op
        nbytes: int | None = None
        source: str | None = None
        origin = shapes = ""
        if op is not None:
            if op.correlation_id() not in charged:
                nbytes, source = _launch_bytes(op)
                if nbytes is not None:
                    charged.add(op.correlation_id())
            launched = op.start_ns() / 1e3
            origin = (
                IN_GRAPH
                if graphs.cover(launched)
                else IN_FRAME
                if frames.cover(launched)
                else OUTSIDE
            )
            shapes = shapes_text(_call(op, "shapes", []) or [])
        kernels.append(
            KernelEvent(
                name=e.name(),
                start_us=e.start_ns() / 1e3,
                dur_us=e.duration_ns() / 1e3,
                bytes=nbytes,
                bytes_source=source,
                op=op.name() if op is not None else "",
                origin=origin,
                op_shapes=shapes,
            )
        )
    return kernels, sorted(rounds)


class _Launchers:
    """The CPU ops that can launch a kernel (not a runtime activity, not a range torch or
    `profile()` marks), to find the op a runtime activity happened inside: ``around(t_ns)`` is
    the innermost one running at ``t_ns`` (the latest to start among those not yet ended)."""

    def __init__(self, ops: Iterable[Any]) -> None:
        spans = sorted(
            (op.start_ns(), op.start_ns() + op.duration_ns(), i, op)
            for i, op in enumerate(ops)
            if op.name() not in RUNTIME_ACTIVITIES
            and op.name() != ROUND_MARK
            and not op.name().startswith((_GRAPH_RANGE, _FRAME_RANGE))
        )
        self._starts = [s[0] for s in spans]
        self._spans = spans

    def around(self, t_ns: int) -> Any | None:
        i = bisect.bisect_right(self._starts, t_ns) - 1
        # ops nest, so the innermost running op is among the latest to start; a few steps back
        # cover ops that ended just before t (an op and its nested calls)
        for start, end, _, op in reversed(self._spans[max(0, i - 64) : i + 1]):
            if start <= t_ns <= end:
                return op
        return None


class _Spans:
    """The union of CPU ranges ``(start_us, end_us)``; ``cover(t)``: does one contain ``t``."""

    def __init__(self, ranges: Iterable[tuple[float, float]]) -> None:
        merged = merged_intervals(ranges)
        self._starts = [start for start, _ in merged]
        self._ends = [end for _, end in merged]

    def cover(self, t: float) -> bool:
        i = bisect.bisect_right(self._starts, t) - 1
        return i >= 0 and t <= self._ends[i]


def shapes_text(shapes: Sequence[Any], limit: int = 3) -> str:
    """An op's recorded input shapes, short: tensors as ``1x512x4x68x120`` (a 0-d tensor as
    ``scalar``), the first ``limit`` of them, non-tensor arguments left out.
    ``shapes_text([[1, 8, 2], [], [8]])`` is ``"1x8x2, scalar, 8"``."""
    out: list[str] = []
    for shape in shapes:
        if not isinstance(shape, (list, tuple)) or any(
            not isinstance(d, int) or isinstance(d, bool) for d in shape
        ):
            continue
        out.append("x".join(str(d) for d in shape) if shape else "scalar")
    more = f", +{len(out) - limit}" if len(out) > limit else ""
    return ", ".join(out[:limit]) + more


_KERNEL_NUM_GB_RE = re.compile(r"'kernel_num_gb':\s*([0-9.eE+-]+)")


def kernel_bytes(code: str | Iterable[Any]) -> dict[str, int]:
    """``{kernel name: bytes}`` from Inductor's generated code compiled under
    :func:`inductor_byte_counts` (each kernel's ``inductor_meta["kernel_num_gb"]``): what
    ``profile`` reads per launch, readable without a GPU (``inductor_codegen(...,
    inductor_config={"benchmark_kernel": True})``). ``code``: output code (str) or kernels
    (``GeneratedCode.kernels``, ``KernelInfo``s). Kernels without the field are left out; a
    name that two graphs give to kernels of different sizes raises ``ValueError``."""
    from ..capture.kernels import KernelInfo, parse_wrapper

    kernels: Iterable[Any] = (
        parse_wrapper(code, "profile").kernels if isinstance(code, str) else code
    )
    out: dict[str, int] = {}
    for kernel in kernels:
        if not isinstance(kernel, KernelInfo):
            raise TypeError(f"kernel_bytes: expected output code or KernelInfo, got {kernel!r}")
        match = _KERNEL_NUM_GB_RE.search(kernel.source)
        if not match:
            continue
        nbytes = round(float(match.group(1)) * 1e9)
        if out.setdefault(kernel.name, nbytes) != nbytes:
            raise ValueError(
                f"kernel_bytes: {kernel.name!r} moves {out[kernel.name]} bytes in one graph and "
                f"{nbytes} in another (Inductor numbers kernels per graph); pass one graph's "
                f"kernels, e.g. [k for k in code.kernels if k.graph == ...]"
            )
    return out


def merged_intervals(intervals: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of ``(start, end)`` intervals as disjoint intervals, in order (intervals that
    overlap or touch become one)."""
    merged: list[list[float]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def union_us(intervals: Iterable[tuple[float, float]]) -> float:
    """Total length of the union of ``(start, end)`` intervals (overlaps counted once)."""
    return sum(end - start for start, end in merged_intervals(intervals) if end > start)


# --------------------------------------------------------------------------- checks
def torch_version() -> str:
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a dependency
        return ""
    return str(torch.__version__)


# --------------------------------------------------------------------------- validation
def bad_value(name: str, value: Any, expected: str) -> ValueError:
    return ValueError(f"{name}={value!r}: expected {expected}")


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_positive(name: str, value: Any, example: str) -> None:
    if not is_number(value) or not math.isfinite(value) or value <= 0:
        raise bad_value(name, value, f"a finite number > 0 ({example})")


def check_non_negative(name: str, value: Any, what: str) -> None:
    if not is_number(value) or not math.isfinite(value) or value < 0:
        raise bad_value(name, value, f"a finite number >= 0 ({what})")


def check_count(name: str, value: Any, minimum: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise bad_value(name, value, f"an int >= {minimum} ({what})")


def check_peak(name: str, value: Any, example: str) -> None:
    if value == MEASURE:
        return
    if not is_number(value) or not math.isfinite(value) or value <= 0:
        raise bad_value(name, value, f"a finite number > 0 ({example}) or {MEASURE!r}")


# --------------------------------------------------------------------------- on the GPU
