"""What times one side's repetitions: `CudaTimer` (L2 flushed outside the timed region, a spin
kernel while the host enqueues, CUDA events around each call) and `CpuTimer` (`perf_counter_ns`),
and the device they run on (`resolve_device`, `device_name`)."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import torch


L2_FLUSH_BYTES = 256 * 1024 * 1024
SPIN_HOST_FACTOR = 1.5
SPIN_SLACK_MS = 0.05
MAX_SPIN_MS = 50.0
MAX_REPETITIONS = 10_000


def resolve_device(device: str | torch.device | None) -> torch.device:
    """``device`` as a ``torch.device``; None means CUDA when available, else CPU."""
    import torch

    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dev = torch.device(device)
    if dev.type not in ("cuda", "cpu"):
        raise ValueError(
            f"measure_pair times on 'cuda' or 'cpu' devices, got device={device!r}; "
            f"pass device='cuda' or device='cpu'"
        )
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(
            f"device={device!r} but torch.cuda.is_available() is False; pass device='cpu' to "
            f"time on the CPU"
        )
    return dev


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def device_name(device: str | torch.device | None = None) -> str:
    """The GPU's name (``torch.cuda.get_device_name``) or the CPU model, for reports."""
    import torch

    dev = resolve_device(device)
    if dev.type == "cuda":
        index = dev.index if dev.index is not None else torch.cuda.current_device()
        return torch.cuda.get_device_name(index)
    return f"{_cpu_model()} ({os.cpu_count()} CPUs)"


# --------------------------------------------------------------------------- timers
class BlockTimer(Protocol):
    """Times ``repetitions`` calls of ``fn``; returns one duration in ms per call."""

    def __call__(self, fn: Callable[[], Any], repetitions: int) -> list[float]: ...


class CpuTimer:
    """``time.perf_counter_ns`` around each call."""

    def __call__(self, fn: Callable[[], Any], repetitions: int) -> list[float]:
        out: list[float] = []
        clock = time.perf_counter_ns
        for _ in range(repetitions):
            start = clock()
            fn()
            out.append((clock() - start) / 1e6)
        return out


class CudaTimer:
    """CUDA events around each call, with an L2 flush (256 MiB ``zero_()``) before each, untimed.

    ``hide_host`` (default on): between the flush and the start event the stream also gets a spin
    kernel (``torch.cuda._sleep``) that lasts longer than the host takes to enqueue one call, so
    the call's kernels are all queued when the start event fires and the events time the device's
    work, not the Python that launches it (module docstring, step 3). The spin's length comes
    from two untimed calls of each callable (``SPIN_HOST_FACTOR`` times the faster, plus
    ``SPIN_SLACK_MS``, at most ``MAX_SPIN_MS``); those calls' host times are kept in ``host_ms``
    (per callable) for the report. They are taken with the GPU idle: a call timed behind the spin
    can block in a launch or a synchronisation until the spin ends, which would count the spin.
    """

    def __init__(self, device: torch.device, flush_l2: bool = True, hide_host: bool = True) -> None:
        import torch

        self.device = device
        self.flush = (
            torch.empty(L2_FLUSH_BYTES // 4, dtype=torch.int32, device=device) if flush_l2 else None
        )
        self.hide_host = bool(hide_host)
        self.host_ms: dict[Callable[[], Any], list[float]] = {}
        self._spin_cycles: dict[Callable[[], Any], int] = {}
        self._cycles_per_ms: float | None = None

    def cycles_per_ms(self) -> float:
        """GPU clock cycles of ``torch.cuda._sleep`` per millisecond, measured once."""
        import torch

        if self._cycles_per_ms is None:
            cycles = 2_000_000
            start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
            torch.cuda._sleep(cycles)  # the first spin loads the kernel
            start.record()
            torch.cuda._sleep(cycles)
            end.record()
            torch.cuda.synchronize(self.device)
            self._cycles_per_ms = cycles / max(start.elapsed_time(end), 1e-3)
        return self._cycles_per_ms

    def spin_cycles(self, fn: Callable[[], Any]) -> int:
        """The spin that hides ``fn``'s host time (cycles), learned from two untimed calls."""
        import torch

        if fn not in self._spin_cycles:
            host: list[float] = []
            for _ in range(2):
                torch.cuda.synchronize(self.device)
                begin = time.perf_counter()
                fn()
                host.append((time.perf_counter() - begin) * 1e3)
            torch.cuda.synchronize(self.device)
            self.host_ms[fn] = host
            spin_ms = min(MAX_SPIN_MS, SPIN_HOST_FACTOR * min(host) + SPIN_SLACK_MS)
            self._spin_cycles[fn] = int(spin_ms * self.cycles_per_ms())
        return self._spin_cycles[fn]

    def host_ms_per_call(self, fn: Callable[[], Any]) -> float | None:
        """``fn``'s host time per call, the faster of its two untimed calls on an idle GPU (None:
        not timed with ``hide_host``)."""
        samples = self.host_ms.get(fn)
        return min(samples) if samples else None

    def __call__(self, fn: Callable[[], Any], repetitions: int) -> list[float]:
        import torch

        spin = self.spin_cycles(fn) if self.hide_host else 0
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(repetitions)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(repetitions)]
        torch.cuda.synchronize(self.device)
        for start, end in zip(starts, ends, strict=True):
            if self.flush is not None:
                self.flush.zero_()
            if spin:
                torch.cuda._sleep(spin)
            start.record()
            fn()
            end.record()
        torch.cuda.synchronize(self.device)
        return [s.elapsed_time(e) for s, e in zip(starts, ends, strict=True)]
