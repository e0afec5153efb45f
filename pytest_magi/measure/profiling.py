"""Where a call's GPU time goes, beside its floor: ``profile(fn) -> ProfileReport``.

``profile(fn)`` runs ``fn`` (a zero-argument callable: a compiled side, a zoo model's ``.run``)
under ``torch.profiler`` on a CUDA device; its kernels become `profile_events.KernelEvent`s
(class, origin, bytes: that module says how each is decided) and `profile_build.build_report`
turns them into a `profile_report.ProfileReport` with a FLOP floor (``flops=``, or
``torch.utils.flop_counter`` on one more call) at ``peak_tflops`` and a memory floor at
``hbm_gbps``. Here too: the hardware peaks measured (`measure_peak_tflops`, `measure_hbm_gbps`),
`count_flops`, `kernel_times` and `inductor_byte_counts`.
"""

from __future__ import annotations

import contextlib
import statistics
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from .profile_build import build_report
from .profile_events import (
    CONV,
    DEFAULT_HBM_GBPS,
    DEFAULT_PEAK_TFLOPS,
    MEASURE,
    ROUND_MARK,
    KernelEvent,
    bad_value,
    check_count,
    check_non_negative,
    check_peak,
    check_positive,
    classify,
    events_from_kineto,
)
from .profile_report import ProfileReport


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
            f"kernel events you have with pytest_magi.measure.profiling.build_report(events, ...)"
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
    check_count("rounds", rounds, 1, "profiled calls, e.g. rounds=3")
    check_count("warmup", warmup, 0, "calls before profiling, e.g. warmup=1")
    check_peak("peak_tflops", peak_tflops, "e.g. 790 for an H200's bf16 matmul")
    check_peak("hbm_gbps", hbm_gbps, "e.g. 4800 for an H200's HBM3e")
    if flops is not None:
        check_non_negative("flops", flops, "one call's FLOPs, or None to count them")
    check_positive("divide_by", divide_by, "e.g. divide_by=21 for per latent frame")
    if not isinstance(unit, str) or not unit:
        raise bad_value("unit", unit, 'a non-empty str, e.g. "latent frame"')
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
    check_count("calls", calls, 1, "profiled calls, e.g. calls=3")
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
