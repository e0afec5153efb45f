"""Where a call's GPU time goes, beside its floor: ``profile(fn) -> ProfileReport``.

``profile(fn)`` runs ``fn`` (a zero-argument callable: a compiled side, a zoo model's ``.run``)
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
Docs: docs/benchmarks.md ("Profiling a pass").
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import functools
import json
import math
import re
import statistics
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
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
        from .kernels import split_fused_ops

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
    from .kernels import KernelInfo, parse_wrapper

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


# --------------------------------------------------------------------------- report
@dataclass
class ProfileRow:
    """One kernel pattern (or, from ``ProfileReport.classes()``, one class) per unit.

    ``launches`` and ``ms`` per unit; ``bytes`` moved by the launches whose bytes are known,
    ``bytes_ms`` their time; ``floor_ms`` the time at the floor (None: unknown); ``unit_peak``
    the peak it is measured against ("TFLOP/s" rows: FLOPs at peak; "GB/s" rows: bytes at
    HBM bandwidth)."""

    klass: str
    pattern: str
    kind: str = ""
    launches: float = 0.0
    ms: float = 0.0
    bytes: float | None = None
    bytes_ms: float = 0.0
    flops: float | None = None
    floor_ms: float | None = None
    bytes_source: str = ""
    example: str = ""

    @property
    def achieved(self) -> float | None:
        """TFLOP/s for a row with FLOPs, GB/s for a row with bytes, else None."""
        if self.flops is not None and self.ms > 0:
            return self.flops / (self.ms * 1e-3) / 1e12
        if self.bytes is not None and self.bytes_ms > 0:
            return self.bytes / (self.bytes_ms * 1e-3) / 1e9
        return None

    @property
    def achieved_unit(self) -> str:
        return "TFLOP/s" if self.flops is not None else "GB/s" if self.bytes is not None else ""

    @property
    def of_peak(self) -> float | None:
        """Floor over time: the share of the peak the row ran at (1.0 = at the floor)."""
        if self.floor_ms is None or self.ms <= 0:
            return None
        timed = self.ms if self.flops is not None else self.bytes_ms
        return self.floor_ms / timed if timed > 0 else None


@dataclass
class ProfileReport:
    """Where one call's GPU time goes, per unit (``unit``: "call" by default). See the module
    docstring. ``wall_ms``: the call timed without the profiler (median); ``busy_ms``: the union
    of its kernels' intervals; ``kernel_ms``: their sum (more than ``busy_ms`` when kernels ran
    concurrently); ``gap_ms`` = the wall time under the profiler (``profiled_wall_ms``, where
    known, else ``wall_ms``) ``- busy_ms``. ``flops``: the call's FLOPs (the
    ``conv/matmul`` floor); ``rows``: one per kernel pattern."""

    label: str
    device: str
    torch: str
    unit: str
    rounds: int
    wall_ms: float
    busy_ms: float
    kernel_ms: float
    peak_tflops: float
    hbm_gbps: float
    flops: float | None
    rows: list[ProfileRow] = field(default_factory=list)
    profiled_wall_ms: float | None = None
    # the launch gaps located (`gap_rows`): before the first kernel, after the last, and one
    # row per pair of consecutive kernel patterns between them; empty where the calls' ranges
    # were not known
    gaps: list[ProfileRow] = field(default_factory=list)
    # where the kernels that are not Inductor's own work were launched from (`origin_rows`):
    # one row per (origin, launching op, kernel pattern), `klass` the origin (one of ORIGINS,
    # "unknown" without a launching op), `kind` the kernel's class, `example` the op's input
    # shapes; every layout copy and eager ATen kernel, and any kernel launched outside a
    # compiled graph. Empty where origins were not recorded (every origin "")
    origins: list[ProfileRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # the GPU's SM clock while the wall time was taken (`pytest_magi.clocks`; None without NVML)
    sm_clock_mhz: float | None = None
    max_sm_clock_mhz: float | None = None
    power_w: float | None = None

    # ---------------------------------------------------------------- derived
    @property
    def gap_ms(self) -> float:
        # both terms from the profiled calls: unprofiled wall time minus profiled kernel time
        # came out negative on a GPU-bound decode
        wall = self.profiled_wall_ms if self.profiled_wall_ms is not None else self.wall_ms
        return wall - self.busy_ms

    @property
    def overlap_ms(self) -> float:
        return self.kernel_ms - self.busy_ms

    def _gap(self, pattern: str) -> float | None:
        rows = [g for g in self.gaps if g.pattern == pattern]
        return rows[0].ms if rows else None

    @property
    def lead_ms(self) -> float | None:
        """GPU idle from the call's start to its first kernel (None: not located)."""
        return self._gap(GAP_LEAD)

    @property
    def tail_ms(self) -> float | None:
        """GPU idle from the call's last kernel to its end (None: not located)."""
        return self._gap(GAP_TAIL)

    @property
    def between_ms(self) -> float | None:
        """GPU idle between the call's kernels, all pairs together (None: not located)."""
        if not self.gaps:
            return None
        return sum(g.ms for g in self.gaps if g.pattern not in (GAP_LEAD, GAP_TAIL))

    def gap_pairs(self) -> list[ProfileRow]:
        """The ``between A and B`` rows, the longest first."""
        pairs = [g for g in self.gaps if g.pattern not in (GAP_LEAD, GAP_TAIL)]
        return sorted(pairs, key=lambda g: (-g.ms, g.pattern))

    def classes(self) -> list[ProfileRow]:
        """One row per class (``CLASSES`` order, classes without kernels left out unless
        ``conv/matmul`` has FLOPs), with the class's floor."""
        out: list[ProfileRow] = []
        for klass in CLASSES:
            rows = [r for r in self.rows if r.klass == klass]
            if not rows and not (klass == CONV and self.flops):
                continue
            known = [r for r in rows if r.bytes is not None]
            total = ProfileRow(
                klass=klass,
                pattern=f"(all {len(rows)} patterns)",
                launches=sum(r.launches for r in rows),
                ms=sum(r.ms for r in rows),
                bytes=sum(r.bytes for r in known if r.bytes is not None) if known else None,
                bytes_ms=sum(r.bytes_ms for r in known),
                bytes_source=",".join(sorted({r.bytes_source for r in known if r.bytes_source})),
            )
            if klass == CONV and self.flops is not None:
                total.flops = self.flops
                total.bytes = None
                total.floor_ms = self.flops / (self.peak_tflops * 1e12) * 1e3
            elif known:
                total.floor_ms = sum(r.floor_ms for r in known if r.floor_ms is not None)
            out.append(total)
        return out

    @property
    def floor_ms(self) -> float:
        """The call at its floor: FLOPs at the peak plus every known byte at HBM bandwidth."""
        return sum(c.floor_ms for c in self.classes() if c.floor_ms is not None)

    @property
    def unknown_ms(self) -> float:
        """Kernel time with no floor (kernels whose bytes are unknown, outside conv/matmul)."""
        return sum(r.ms - r.bytes_ms for r in self.rows if r.klass != CONV)

    # ---------------------------------------------------------------- text
    def summary(self) -> str:
        conv = next((c for c in self.classes() if c.klass == CONV), None)
        conv_floor = conv.floor_ms if conv is not None and conv.floor_ms is not None else 0.0
        memory_floor = self.floor_ms - conv_floor
        flops = f"{self.flops / 1e12:.3f} TFLOP" if self.flops is not None else "FLOPs unknown"
        lines = [
            f"profile of {self.label} on {self.device} (torch {self.torch}), per {self.unit}, "
            f"{self.rounds} profiled rounds",
            f"wall {self.wall_ms:.3f} ms = kernels {self.kernel_ms:.3f} ms"
            + (f" - concurrent {self.overlap_ms:.3f} ms" if self.overlap_ms > 5e-4 else "")
            + f" + launch gaps {self.gap_ms:.3f} ms",
            f"floor {self.floor_ms:.3f} ms = {flops} at {self.peak_tflops:g} TFLOP/s "
            f"({conv_floor:.3f} ms) + known bytes at {self.hbm_gbps:g} GB/s "
            f"({memory_floor:.3f} ms); wall / floor "
            + (f"{self.wall_ms / self.floor_ms:.2f}x" if self.floor_ms > 0 else "-")
            + f"; kernel time without a floor {self.unknown_ms:.3f} ms",
        ]
        if self.profiled_wall_ms is not None:
            lines.append(f"wall under the profiler {self.profiled_wall_ms:.3f} ms")
        if self.gaps:
            pairs = self.gap_pairs()
            longest = (
                f"; the longest: {pairs[0].pattern} ({pairs[0].ms:.3f} ms over "
                f"{_num(pairs[0].launches, 1)} gaps)"
                if pairs and pairs[0].ms > 0
                else ""
            )
            lines.append(
                f"launch gaps located: before the first kernel {self.lead_ms or 0.0:.3f} ms, "
                f"between kernels {self.between_ms or 0.0:.3f} ms, after the last "
                f"{self.tail_ms or 0.0:.3f} ms{longest}"
            )
        if self.sm_clock_mhz is not None:
            top = f" of {self.max_sm_clock_mhz:.0f} max" if self.max_sm_clock_mhz else ""
            power = f", power {self.power_w:.0f} W" if self.power_w is not None else ""
            lines.append(f"SM clock (median, timed calls) {self.sm_clock_mhz:.0f} MHz{top}{power}")
        return "\n".join(lines + [f"note: {n}" for n in self.notes])

    def table(self, top: int | None = None) -> str:
        """Markdown table: each class's total row, then its patterns by time (the first
        ``top`` of each class, the rest folded into one row), then launch gaps and wall."""
        if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
            raise ValueError(f"top={top!r}: expected None (every pattern) or an int >= 1")
        head = (
            "| class | kernel pattern | kind | launches | ms | % of wall | floor ms | achieved "
            "| % of peak | bytes from |\n"
            "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
        )
        out = [head]
        for total in self.classes():
            out.append(self._line(total, bold=True))
            rows = sorted(
                (r for r in self.rows if r.klass == total.klass), key=lambda r: (-r.ms, r.pattern)
            )
            shown = rows if top is None else rows[:top]
            out.extend(self._line(r) for r in shown)
            rest = rows[len(shown) :]
            if rest:
                out.append(
                    f"| {total.klass} | ({len(rest)} more patterns) | | "
                    f"{_num(sum(r.launches for r in rest), 1)} | {sum(r.ms for r in rest):.3f} | "
                    f"{self._share(sum(r.ms for r in rest))} | | | | |"
                )
        out.append(
            f"| **{GAPS}** | wall minus the union of kernel intervals | | | "
            f"**{self.gap_ms:.3f}** | {self._share(self.gap_ms)} | 0.000 | | | |"
        )
        out.extend(self._gap_lines(top))
        if self.overlap_ms > 5e-4:
            out.append(
                f"| concurrent | kernels overlapping others (counted above) | | | "
                f"-{self.overlap_ms:.3f} | {self._share(-self.overlap_ms)} | | | | |"
            )
        out.append(
            f"| **wall** | per {self.unit} | | "
            f"{_num(sum(r.launches for r in self.rows), 1)} | **{self.wall_ms:.3f}** | 100% | "
            f"**{self.floor_ms:.3f}** | | "
            + (f"{self.floor_ms / self.wall_ms:.0%}" if self.wall_ms > 0 else "")
            + " | |"
        )
        return "\n".join(out)

    def _gap_lines(self, top: int | None) -> list[str]:
        """The located gaps under the total: before, the longest pairs between (``top``, or
        ``GAP_PAIRS_SHOWN`` when every pattern is shown, the rest folded), after."""
        if not self.gaps:
            return []

        def line(pattern: str, launches: float | None, ms: float) -> str:
            count = " " if launches is None else f" {_num(launches, 1)} "
            return f"| {GAPS} | {_cell(pattern)} | |{count}| {ms:.3f} | {self._share(ms)} | | | | |"

        pairs = self.gap_pairs()
        shown = pairs[: top if top is not None else GAP_PAIRS_SHOWN]
        lines = [line(GAP_LEAD, None, self.lead_ms or 0.0)]
        lines.extend(line(g.pattern, g.launches, g.ms) for g in shown)
        rest = pairs[len(shown) :]
        if rest:
            lines.append(
                line(
                    f"(gaps between {len(rest)} more pairs of patterns)",
                    sum(g.launches for g in rest),
                    sum(g.ms for g in rest),
                )
            )
        lines.append(line(GAP_TAIL, None, self.tail_ms or 0.0))
        return lines

    def origin_table(self, top: int | None = None) -> str:
        """Markdown table of ``origins``: where the layout copies, the eager ATen kernels and
        every kernel launched outside a compiled graph came from (the origin, the launching
        op and its input shapes), the longest first (``top`` rows, or ``ORIGINS_SHOWN`` when
        None; the rest folded). "" when no origin was recorded."""
        if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
            raise ValueError(f"top={top!r}: expected None or an int >= 1")
        if not self.origins:
            return ""
        rows = sorted(self.origins, key=lambda r: (-r.ms, r.klass, r.pattern))
        shown = rows[: top if top is not None else ORIGINS_SHOWN]
        out = [
            "| launched from | op > kernel pattern | class | launches | ms | % of wall | op's "
            "input shapes |",
            "| --- | --- | --- | ---: | ---: | ---: | --- |",
        ]
        for r in shown:
            out.append(
                f"| {r.klass} | {_cell(r.pattern)} | {r.kind} | {_num(r.launches, 1)} | "
                f"{r.ms:.3f} | {self._share(r.ms)} | {_cell(r.example)} |"
            )
        rest = rows[len(shown) :]
        if rest:
            out.append(
                f"| | ({len(rest)} more) | | {_num(sum(r.launches for r in rest), 1)} | "
                f"{sum(r.ms for r in rest):.3f} | {self._share(sum(r.ms for r in rest))} | |"
            )
        for origin in (*ORIGINS, "unknown"):
            ms = sum(r.ms for r in self.origins if r.klass == origin)
            if ms:
                out.append(f"| **{origin}** | (all) | | | **{ms:.3f}** | {self._share(ms)} | |")
        return "\n".join(out)

    def _share(self, ms: float) -> str:
        return f"{ms / self.wall_ms:.1%}" if self.wall_ms > 0 else ""

    def _line(self, row: ProfileRow, bold: bool = False) -> str:
        achieved = row.achieved
        achieved_text = f"{achieved:,.0f} {row.achieved_unit}" if achieved is not None else ""
        of_peak = row.of_peak
        floor = "" if row.floor_ms is None else f"{row.floor_ms:.3f}"
        if row.floor_ms is not None and row.flops is None and row.bytes_ms < row.ms - 5e-4:
            floor += " (part)"
        klass = f"**{row.klass}**" if bold else row.klass
        ms = f"**{row.ms:.3f}**" if bold else f"{row.ms:.3f}"
        return (
            f"| {klass} | {_cell(row.pattern)} | {row.kind} | {_num(row.launches, 1)} | {ms} | "
            f"{self._share(row.ms)} | {floor} | {achieved_text} | "
            f"{'' if of_peak is None else f'{of_peak:.0%}'} | {row.bytes_source} |"
        )

    def __str__(self) -> str:
        origins = self.origin_table()
        return f"{self.summary()}\n\n{self.table()}" + (f"\n\n{origins}" if origins else "")

    # ---------------------------------------------------------------- data
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every field, plus the derived numbers (``gap_ms``, ``floor_ms``, each
        row's ``achieved``) for readers that do not rebuild the report."""
        data = dataclasses.asdict(self)
        data["gap_ms"] = self.gap_ms
        data["floor_ms"] = self.floor_ms
        data["classes"] = [
            {**dataclasses.asdict(c), "achieved": c.achieved, "achieved_unit": c.achieved_unit}
            for c in self.classes()
        ]
        for row, out in zip(self.rows, data["rows"], strict=True):
            out["achieved"] = row.achieved
            out["achieved_unit"] = row.achieved_unit
        return data

    def to_json(self, **dumps_options: Any) -> str:
        return json.dumps(self.to_dict(), **dumps_options)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ProfileReport:
        """The report ``to_dict`` wrote (derived keys ignored)."""
        names = {f.name for f in dataclasses.fields(cls)}
        row_names = {f.name for f in dataclasses.fields(ProfileRow)}
        values = {k: v for k, v in data.items() if k in names}
        values["rows"] = [
            ProfileRow(**{k: v for k, v in r.items() if k in row_names})
            for r in data.get("rows", [])
        ]
        values["notes"] = list(data.get("notes", []))
        for key in ("gaps", "origins"):
            values[key] = [
                ProfileRow(**{k: v for k, v in r.items() if k in row_names})
                for r in data.get(key, [])
            ]
        return cls(**values)

    # ---------------------------------------------------------------- arithmetic
    def minus(
        self, other: ProfileReport, *, divide_by: float = 1.0, unit: str | None = None
    ) -> ProfileReport:
        """``(self - other) / divide_by`` row by row (matched by class and pattern): the cost of
        what ``self``'s call does beyond ``other``'s, e.g. per further latent frame,
        ``report_t5.minus(report_t2, divide_by=3, unit="further latent frame")``. Both must
        be per-call reports with the same peaks. Differences of noisy numbers can be
        negative; floors are recomputed from the differences of FLOPs and bytes."""
        if not isinstance(other, ProfileReport):
            raise TypeError(f"minus(other={other!r}): expected a ProfileReport")
        _check_positive("divide_by", divide_by, "e.g. divide_by=3 for three more latent frames")
        if (self.peak_tflops, self.hbm_gbps) != (other.peak_tflops, other.hbm_gbps):
            raise ValueError(
                f"minus: the reports were made with different peaks ({self.peak_tflops:g} "
                f"TFLOP/s, {self.hbm_gbps:g} GB/s vs {other.peak_tflops:g}, "
                f"{other.hbm_gbps:g}); profile both with the same peak_tflops and hbm_gbps"
            )
        n = float(divide_by)
        keyed = {(r.klass, r.pattern): r for r in other.rows}
        rows: list[ProfileRow] = []
        for row in self.rows:
            base = keyed.pop((row.klass, row.pattern), None)
            rows.append(_row_difference(row, base, n, self.hbm_gbps))
        for base in keyed.values():
            rows.append(_row_difference(None, base, n, self.hbm_gbps))
        # a pair (an origin row) absent from one side had no gap (no such kernel) there
        gaps = _rows_difference(self.gaps, other.gaps, n, self.hbm_gbps)
        origins = _rows_difference(self.origins, other.origins, n, self.hbm_gbps)
        flops = (
            (self.flops - other.flops) / n
            if self.flops is not None and other.flops is not None
            else None
        )
        prof_wall = (
            (self.profiled_wall_ms - other.profiled_wall_ms) / n
            if self.profiled_wall_ms is not None and other.profiled_wall_ms is not None
            else None
        )
        return ProfileReport(
            label=f"{self.label} minus {other.label}",
            device=self.device,
            torch=self.torch,
            unit=unit or f"{n:g} {self.unit}(s) of difference",
            rounds=min(self.rounds, other.rounds),
            wall_ms=(self.wall_ms - other.wall_ms) / n,
            busy_ms=(self.busy_ms - other.busy_ms) / n,
            kernel_ms=(self.kernel_ms - other.kernel_ms) / n,
            peak_tflops=self.peak_tflops,
            hbm_gbps=self.hbm_gbps,
            flops=flops,
            rows=rows,
            profiled_wall_ms=prof_wall,
            notes=[
                f"difference of two profiles divided by {n:g}",
                *_clock_notes(self, other),
                *self.notes,
            ],
            gaps=gaps,
            origins=origins,
        )


def _clock_notes(longer: ProfileReport, shorter: ProfileReport) -> list[str]:
    """The SM clock each of a difference's two runs held (a difference has no clock of its own):
    where the longer run held a lower clock, part of a cost per further unit may be the clock's
    (kernels of the same FLOPs take longer), which the conv rows cannot show."""
    runs = [(r.label, r.sm_clock_mhz, r.power_w) for r in (longer, shorter)]
    if all(mhz is None for _, mhz, _ in runs):
        return []
    parts = []
    for label, mhz, power in runs:
        watts = f", {power:.0f} W" if power is not None else ""
        parts.append(f"{label} {mhz:.0f} MHz{watts}" if mhz is not None else f"{label} not read")
    return [f"SM clock (median, timed calls): {'; '.join(parts)}"]


def _num(value: float, digits: int) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.{digits}f}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row_difference(
    row: ProfileRow | None, base: ProfileRow | None, n: float, hbm_gbps: float
) -> ProfileRow:
    ref = row if row is not None else base
    assert ref is not None
    zero = ProfileRow(ref.klass, ref.pattern)
    a, b = row or zero, base or zero
    nbytes = (
        None if a.bytes is None and b.bytes is None else ((a.bytes or 0.0) - (b.bytes or 0.0)) / n
    )
    out = ProfileRow(
        klass=ref.klass,
        pattern=ref.pattern,
        kind=ref.kind,
        launches=(a.launches - b.launches) / n,
        ms=(a.ms - b.ms) / n,
        bytes=nbytes,
        bytes_ms=(a.bytes_ms - b.bytes_ms) / n,
        bytes_source=",".join(sorted({s for s in (a.bytes_source, b.bytes_source) if s})),
        example=ref.example,
    )
    if nbytes is not None:
        out.floor_ms = nbytes / (hbm_gbps * 1e9) * 1e3
    return out


def _rows_difference(
    rows: Sequence[ProfileRow], others: Sequence[ProfileRow], n: float, hbm_gbps: float
) -> list[ProfileRow]:
    """``(rows - others) / n`` matched by class and pattern; [] unless both sides have rows
    (a report without them did not record them)."""
    if not rows or not others:
        return []
    keyed = {(r.klass, r.pattern): r for r in others}
    out = [_row_difference(r, keyed.pop((r.klass, r.pattern), None), n, hbm_gbps) for r in rows]
    out.extend(_row_difference(None, r, n, hbm_gbps) for r in keyed.values())
    return out


def origin_rows(kernels: Sequence[KernelEvent], per: float) -> list[ProfileRow]:
    """Where the kernels that are not Inductor's own work were launched from, per unit:
    every layout copy and eager ATen kernel, and every kernel launched outside a compiled
    graph, one row per (origin, launching op, kernel pattern); see ``ProfileReport.origins``.
    [] when no kernel has an origin (the profile did not record the launching ops)."""
    if not any(k.origin for k in kernels):
        return []
    rows: dict[tuple[str, str], ProfileRow] = {}
    for k in kernels:
        klass, pattern, _ = classify(k.name)
        if klass not in (LAYOUT, EAGER) and k.origin == IN_GRAPH:
            continue
        origin = k.origin or "unknown"
        key = (origin, f"{k.op or '(no op)'} > {pattern}")
        row = rows.get(key)
        if row is None:
            row = rows[key] = ProfileRow(origin, key[1], klass, example=k.op_shapes)
        row.launches += 1 / per
        row.ms += k.dur_us / 1e3 / per
    return sorted(rows.values(), key=lambda r: (-r.ms, r.klass, r.pattern))


def gap_rows(
    kernels: Sequence[KernelEvent], rounds_us: Sequence[tuple[float, float]], per: float
) -> list[ProfileRow]:
    """The launch gaps of the calls whose ranges are ``rounds_us`` (``(start_us, end_us)``,
    e.g. ``profile()``'s ``ROUND_MARK`` ranges), per unit (``per``: calls x units a call):
    before each call's first kernel, after its last, and between consecutive kernels, one row
    per pair of patterns ``between A and B`` (A: the kernel that ended last before the GPU went
    idle, B: the next to start; ``launches`` counts the gaps). Concurrent kernels are merged
    first, so only time with no kernel running counts. A call without kernels counts whole as
    the time before its first kernel. Kernels outside every range are left out."""
    lead = tail = 0.0
    pairs: dict[str, ProfileRow] = {}
    ordered = sorted(kernels, key=lambda k: k.start_us)
    for start, end in rounds_us:
        inside = [k for k in ordered if start <= k.start_us <= end]
        if not inside:
            lead += max(0.0, end - start)
            continue
        lead += max(0.0, inside[0].start_us - start)
        last = inside[0]
        reach = last.start_us + last.dur_us
        for k in inside[1:]:
            if k.start_us > reach:
                name = f"{GAP_PAIR_PREFIX}{classify(last.name)[1]} and {classify(k.name)[1]}"
                row = pairs.get(name)
                if row is None:
                    row = pairs[name] = ProfileRow(GAPS, name, example=f"{last.name} | {k.name}")
                row.launches += 1 / per
                row.ms += (k.start_us - reach) / 1e3 / per
            if k.start_us + k.dur_us >= reach:
                last, reach = k, k.start_us + k.dur_us
        tail += max(0.0, end - reach)
    return [
        ProfileRow(GAPS, GAP_LEAD, ms=lead / 1e3 / per),
        *sorted(pairs.values(), key=lambda g: (-g.ms, g.pattern)),
        ProfileRow(GAPS, GAP_TAIL, ms=tail / 1e3 / per),
    ]


def build_report(
    events: Iterable[KernelEvent],
    *,
    calls: int = 1,
    wall_ms: float | None = None,
    flops: float | None = None,
    peak_tflops: float = DEFAULT_PEAK_TFLOPS,
    hbm_gbps: float = DEFAULT_HBM_GBPS,
    divide_by: float = 1.0,
    unit: str = "call",
    label: str = "",
    device: str = "",
    profiled_wall_ms: float | None = None,
    rounds_us: Sequence[tuple[float, float]] | None = None,
) -> ProfileReport:
    """The report of ``calls`` calls' kernel events, per unit (per call / ``divide_by``).

    ``wall_ms``: one call's wall time (default: the events' span divided by ``calls``).
    ``flops``: one call's FLOPs (the conv/matmul floor; None: no floor for that class).
    ``rounds_us``: each call's ``(start_us, end_us)`` on the events' clock, one per call:
    the launch gaps are then located (:func:`gap_rows`, ``report.gaps``).
    """
    _check_count("calls", calls, 1, "the number of calls the events cover")
    _check_positive("peak_tflops", peak_tflops, "e.g. 790 for an H200's bf16 matmul")
    _check_positive("hbm_gbps", hbm_gbps, "e.g. 4800 for an H200's HBM3e")
    _check_positive("divide_by", divide_by, "e.g. 1 for per-call numbers")
    if flops is not None:
        _check_non_negative("flops", flops, "the FLOPs of one call, or None")
    if wall_ms is not None:
        _check_non_negative("wall_ms", wall_ms, "one call's wall time in ms")
    kernels = list(events)
    for k in kernels:
        if not isinstance(k, KernelEvent):
            raise TypeError(f"build_report: events must be KernelEvent, got {k!r}")
        if k.dur_us < 0:
            raise ValueError(f"build_report: {k.name!r} has dur_us={k.dur_us!r}; expected >= 0")
    per = calls * float(divide_by)
    if rounds_us is not None:
        rounds_us = [(float(a), float(b)) for a, b in rounds_us]
        if len(rounds_us) != calls or any(b < a for a, b in rounds_us):
            raise ValueError(
                f"build_report: rounds_us={rounds_us!r}: expected one (start_us, end_us) range "
                f"per call ({calls}), each with end_us >= start_us"
            )
    intervals = [(k.start_us, k.start_us + k.dur_us) for k in kernels]
    busy_us = union_us(intervals)
    if wall_ms is None:
        span = (max(e for _, e in intervals) - min(s for s, _ in intervals)) if kernels else 0.0
        wall = span / 1e3 / calls
    else:
        wall = float(wall_ms)
    rows: dict[tuple[str, str], ProfileRow] = {}
    for k in kernels:
        klass, pattern, kind = classify(k.name)
        row = rows.get((klass, pattern))
        if row is None:
            row = rows[(klass, pattern)] = ProfileRow(klass, pattern, kind, example=k.name)
        row.launches += 1 / per
        row.ms += k.dur_us / 1e3 / per
        if k.bytes is not None:
            row.bytes = (row.bytes or 0.0) + k.bytes / per
            row.bytes_ms += k.dur_us / 1e3 / per
            if k.bytes_source and k.bytes_source not in row.bytes_source.split(","):
                row.bytes_source = ",".join(filter(None, [row.bytes_source, k.bytes_source]))
    for row in rows.values():
        if row.bytes is not None:
            row.floor_ms = row.bytes / (hbm_gbps * 1e9) * 1e3
    return ProfileReport(
        label=label,
        device=device,
        torch=_torch_version(),
        unit=unit,
        rounds=calls,
        wall_ms=wall / float(divide_by),
        busy_ms=busy_us / 1e3 / per,
        kernel_ms=sum(k.dur_us for k in kernels) / 1e3 / per,
        peak_tflops=float(peak_tflops),
        hbm_gbps=float(hbm_gbps),
        flops=None if flops is None else float(flops) / float(divide_by),
        rows=sorted(rows.values(), key=lambda r: (CLASSES.index(r.klass), -r.ms, r.pattern)),
        profiled_wall_ms=None if profiled_wall_ms is None else profiled_wall_ms / divide_by,
        gaps=gap_rows(kernels, rounds_us, per) if rounds_us is not None else [],
        origins=origin_rows(kernels, per),
    )


def _torch_version() -> str:
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a dependency
        return ""
    return str(torch.__version__)


# --------------------------------------------------------------------------- validation
def _bad(name: str, value: Any, expected: str) -> ValueError:
    return ValueError(f"{name}={value!r}: expected {expected}")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_positive(name: str, value: Any, example: str) -> None:
    if not _is_number(value) or not math.isfinite(value) or value <= 0:
        raise _bad(name, value, f"a finite number > 0 ({example})")


def _check_non_negative(name: str, value: Any, what: str) -> None:
    if not _is_number(value) or not math.isfinite(value) or value < 0:
        raise _bad(name, value, f"a finite number >= 0 ({what})")


def _check_count(name: str, value: Any, minimum: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _bad(name, value, f"an int >= {minimum} ({what})")


def _check_peak(name: str, value: Any, example: str) -> None:
    if value == MEASURE:
        return
    if not _is_number(value) or not math.isfinite(value) or value <= 0:
        raise _bad(name, value, f"a finite number > 0 ({example}) or {MEASURE!r}")


# --------------------------------------------------------------------------- on the GPU
@contextlib.contextmanager
def inductor_byte_counts() -> Iterator[None]:
    """Compile under this to have Inductor record each Triton kernel's bytes
    (``inductor_meta["kernel_num_gb"]``), which ``profile`` then reads per launch: a scoped
    ``torch._inductor.config.patch(benchmark_kernel=True)``. Kernels are unchanged; each
    kernel's file gains Inductor's benchmark harness, and Inductor prints each compiled
    module's path to stderr. Wrap the calls that compile (the first call, and any call that
    may recompile), not only ``torch.compile(...)``, which compiles lazily."""
    from torch._inductor import config

    with config.patch(benchmark_kernel=True):
        yield


def measure_peak_tflops(n: int = 8192, repeats: int = 10) -> float:
    """A bf16 ``n x n x n`` matmul's rate on the current GPU (TFLOP/s, mean of ``repeats``
    after 3 warm-ups): the ``conv/matmul`` floor's peak when ``peak_tflops="measure"``."""
    import torch

    require_cuda("measure_peak_tflops()")
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    ms = _time_cuda(lambda: a @ b, repeats)
    return 2 * n**3 / (ms * 1e-3) / 1e12


def measure_hbm_gbps(nbytes: int = 2 << 30, repeats: int = 10) -> float:
    """A device-to-device copy of ``nbytes`` on the current GPU, counting the bytes read and
    written (GB/s): the memory floor's bandwidth when ``hbm_gbps="measure"``."""
    import torch

    require_cuda("measure_hbm_gbps()")
    src = torch.empty(nbytes, device="cuda", dtype=torch.uint8)
    dst = torch.empty_like(src)
    ms = _time_cuda(lambda: dst.copy_(src), repeats)
    return 2 * nbytes / (ms * 1e-3) / 1e9


def _time_cuda(fn: Callable[[], Any], repeats: int) -> float:
    import torch

    for _ in range(3):
        fn()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(repeats):
        fn()
    end.record()
    torch.cuda.synchronize()
    return float(start.elapsed_time(end)) / repeats


def require_cuda(what: str) -> None:
    """RuntimeError naming ``what`` and the way out when there is no CUDA device."""
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError(
            f"{what} requires a CUDA device; torch.cuda.is_available() is False here "
            f"(torch {torch.__version__}). Run it on a GPU machine; on a CPU, build a report from "
            f"kernel events you have with pytest_magi.profiling.build_report(events, ...)"
        )


def count_flops(fn: Callable[[], Any]) -> int:
    """FLOPs of one call of ``fn`` (``torch.utils.flop_counter``: matmuls, convolutions,
    attention), counted on an eager run: under ``torch.compiler.set_stance("force_eager")``,
    so a compiled ``fn`` runs its Python code eagerly once and its compiled code stays in use.
    Without the stance, a compiled frame entered under ``FlopCounterMode`` falls back to eager
    for good (seen on torch 2.11 on the GPU and 2.13 on CPU: every later call ran eagerly);
    a torch without ``set_stance`` raises, and ``flops=`` must be given."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    set_stance = getattr(torch.compiler, "set_stance", None)
    if set_stance is None:
        raise RuntimeError(
            f"count_flops: torch {torch.__version__} has no torch.compiler.set_stance, so FLOPs "
            f"cannot be counted without making a compiled fn run eagerly from then on; pass "
            f"flops= (e.g. from torch.utils.flop_counter on the eager model)"
        )
    counter = FlopCounterMode(display=False)
    with warnings.catch_warnings():
        # FlopCounterMode's module hooks make torch.compile warn about global hooks
        warnings.simplefilter("ignore", UserWarning)
        with set_stance("force_eager"), counter:
            fn()
    return int(counter.get_total_flops())


def profile(
    fn: Callable[[], Any],
    *,
    rounds: int = 3,
    warmup: int = 1,
    peak_tflops: float | str = DEFAULT_PEAK_TFLOPS,
    hbm_gbps: float | str = DEFAULT_HBM_GBPS,
    flops: float | None = None,
    divide_by: float = 1.0,
    unit: str = "call",
    label: str | None = None,
) -> ProfileReport:
    """Profile ``fn()`` on the GPU: every kernel, by class and Triton pattern, beside its floor.

    ``warmup`` calls first (a compiled ``fn`` compiles in them), then ``rounds`` calls timed
    without the profiler (the wall time: median, synchronised) and ``rounds`` calls under
    ``torch.profiler`` (``record_shapes=True``: each Triton launch's arguments), each in a
    ``record_function(ROUND_MARK)`` range. ``peak_tflops`` / ``hbm_gbps``: the floors' rates
    (defaults: H200), or ``"measure"`` (:func:`measure_peak_tflops`, :func:`measure_hbm_gbps`).
    ``flops``: one call's FLOPs; None counts them on one more call, run eagerly
    (:func:`count_flops`).
    ``divide_by`` / ``unit``: report per unit, e.g. ``divide_by=21, unit="latent frame"``.
    Triton kernels' bytes are Inductor's own when ``fn`` was compiled under
    :func:`inductor_byte_counts`, else counted from the launch's arguments (module docstring).
    """
    if not callable(fn):
        raise TypeError(f"profile(fn={fn!r}): expected a zero-argument callable")
    _check_count("rounds", rounds, 1, "profiled calls, e.g. rounds=3")
    _check_count("warmup", warmup, 0, "calls before profiling, e.g. warmup=1")
    _check_peak("peak_tflops", peak_tflops, "e.g. 790 for an H200's bf16 matmul")
    _check_peak("hbm_gbps", hbm_gbps, "e.g. 4800 for an H200's HBM3e")
    if flops is not None:
        _check_non_negative("flops", flops, "one call's FLOPs, or None to count them")
    _check_positive("divide_by", divide_by, "e.g. divide_by=21 for per latent frame")
    if not isinstance(unit, str) or not unit:
        raise _bad("unit", unit, 'a non-empty str, e.g. "latent frame"')
    require_cuda("profile()")
    import torch

    from .timing import device_name

    peak = measure_peak_tflops() if peak_tflops == MEASURE else float(peak_tflops)
    hbm = measure_hbm_gbps() if hbm_gbps == MEASURE else float(hbm_gbps)
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    call_flops = count_flops(fn) if flops is None else flops
    from .clocks import GpuClocks

    walls: list[float] = []
    with GpuClocks() as clocks:
        for _ in range(rounds):
            torch.cuda.synchronize()
            start = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            walls.append((time.perf_counter() - start) * 1e3)
    kernels, marks = _profiled(fn, rounds)
    report = build_report(
        kernels,
        calls=rounds,
        wall_ms=statistics.median(walls),
        flops=call_flops,
        peak_tflops=peak,
        hbm_gbps=hbm,
        divide_by=divide_by,
        unit=unit,
        label=label if label is not None else getattr(fn, "__qualname__", repr(fn)),
        device=device_name("cuda"),
        profiled_wall_ms=statistics.median(e - s for s, e in marks) / 1e3 if marks else None,
        rounds_us=marks if len(marks) == rounds else None,
    )
    reading = clocks.result()
    if reading is not None:
        report.sm_clock_mhz, report.max_sm_clock_mhz = reading.sm_mhz, reading.max_sm_mhz
        report.power_w = reading.power_w
    if peak_tflops == MEASURE or hbm_gbps == MEASURE:
        report.notes.append(f"measured peaks: {peak:.0f} TFLOP/s bf16 matmul, {hbm:.0f} GB/s copy")
    unknown = sum(1 for k in kernels if k.bytes is None and classify(k.name)[0] != CONV)
    if unknown:
        report.notes.append(
            f"{unknown / rounds:g} launches per call outside conv/matmul have no bytes (no floor)"
        )
    return report


def kernel_times(fn: Callable[[], Any], calls: int = 3) -> dict[str, tuple[float, float]]:
    """``{full kernel name: (launches, ms)}`` per call of ``fn()``, from ``calls`` profiled calls
    (GPU time; names uncut, so a cuDNN engine's tile sizes tell two choices apart). Filter by
    :func:`classify` for one class, e.g. conv/matmul: ``classify(name)[0] == CONV``."""
    if not callable(fn):
        raise TypeError(f"kernel_times(fn={fn!r}): expected a zero-argument callable")
    _check_count("calls", calls, 1, "profiled calls, e.g. calls=3")
    require_cuda("kernel_times()")
    kernels, _ = _profiled(fn, calls)
    out: dict[str, tuple[float, float]] = {}
    for k in kernels:
        n, ms = out.get(k.name, (0.0, 0.0))
        out[k.name] = (n + 1 / calls, ms + k.dur_us / 1e3 / calls)
    return out


def _profiled(
    fn: Callable[[], Any], rounds: int
) -> tuple[list[KernelEvent], list[tuple[float, float]]]:
    import torch
    from torch.profiler import ProfilerActivity, record_function
    from torch.profiler import profile as torch_profile

    activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Profiler clears events at the end..."
        with torch_profile(activities=activities, record_shapes=True) as prof:
            for _ in range(rounds):
                with record_function(ROUND_MARK):
                    fn()
                    torch.cuda.synchronize()
    results = prof.profiler.kineto_results if prof.profiler is not None else None
    if results is None:
        raise RuntimeError("profile(): torch.profiler returned no kineto results")
    return events_from_kineto(results.events())
