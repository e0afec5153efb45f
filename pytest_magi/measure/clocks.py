"""The GPU's SM clock and power while a block of code runs, sampled through NVML.

A kernel's time depends on the clock it ran at, and a GPU under a long stretch of dense tensor-core
work may hold a lower clock than one whose convolutions alternate with memory-bound kernels (its
power limit). Two sides of a pair can then run the same cuDNN kernel at different speeds, as the
Wan decode's profile showed (docs/results.md, "Wan 2.2 decode"), so
`pytest_magi.measure.profiling.profile` records the clock beside the kernel times:
``with GpuClocks() as clocks: ...; clocks.result()``.

NVML through ctypes (`pytest_magi.measure.gpus`): `nvmlDeviceGetClockInfo` / `nvmlDeviceGetMaxClockInfo`
(SM clock, MHz) and `nvmlDeviceGetPowerUsage` (mW), polled from a daemon thread every
``interval_s``. NVML creates no CUDA context. Without NVML (no NVIDIA driver, as on CI) the block
runs unobserved and ``result()`` is None. Usable without torch.
"""

from __future__ import annotations

import ctypes
import statistics
import threading
from dataclasses import dataclass
from types import TracebackType
from typing import Any

NVML_CLOCK_SM = 1
NVML_SUCCESS = 0


@dataclass(frozen=True)
class ClockReading:
    """What one `GpuClocks` block saw: the median and lowest SM clock, the GPU's maximum SM
    clock, the median power draw (None where NVML does not report it) and the sample count."""

    sm_mhz: float
    min_sm_mhz: float
    max_sm_mhz: float
    power_w: float | None
    samples: int

    @property
    def fraction(self) -> float:
        """The median SM clock as a fraction of the maximum (1.0: at full clock)."""
        return self.sm_mhz / self.max_sm_mhz if self.max_sm_mhz > 0 else float("nan")

    def describe(self) -> str:
        power = f", power {self.power_w:.0f} W" if self.power_w is not None else ""
        return (
            f"SM clock median {self.sm_mhz:.0f} MHz (lowest {self.min_sm_mhz:.0f}) of "
            f"{self.max_sm_mhz:.0f} max ({self.fraction:.0%}){power}; {self.samples} samples"
        )


class GpuClocks:
    """Context manager: sample GPU ``index``'s (NVML's numbering, PCI bus order) SM clock and
    power every ``interval_s`` seconds while the block runs. ``index=None``: the GPU the current
    torch device is (matched by PCI bus id; NVML index 0 where torch is not imported or has no
    CUDA). ``nvml``: the library handle (tests pass a stand-in)."""

    def __init__(
        self, index: int | None = None, *, interval_s: float = 0.02, nvml: Any = None
    ) -> None:
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise TypeError(f"GpuClocks(index={index!r}): expected an NVML GPU index (int)")
        if index is not None and index < 0:
            raise ValueError(f"GpuClocks(index={index}): expected an index >= 0, e.g. 0")
        if not isinstance(interval_s, (int, float)) or not 0 < interval_s <= 10:
            raise ValueError(
                f"GpuClocks(interval_s={interval_s!r}): expected seconds in (0, 10], e.g. 0.02"
            )
        self.index = index
        self.interval_s = float(interval_s)
        self._nvml = nvml
        self._handle: Any = None
        self._clocks: list[float] = []
        self._powers: list[float] = []
        self._max = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- NVML
    def _open(self) -> bool:
        if self._nvml is None:
            from .gpus import _nvml

            self._nvml = _nvml()
        nvml = self._nvml
        if nvml is None or nvml.nvmlInit_v2() != NVML_SUCCESS:
            self._nvml = None
            return False
        handle = ctypes.c_void_p()
        bus_id = None if self.index is not None else _current_pci_bus_id()
        if bus_id is not None:
            found = nvml.nvmlDeviceGetHandleByPciBusId_v2(bus_id.encode(), ctypes.byref(handle))
        else:
            found = nvml.nvmlDeviceGetHandleByIndex_v2(self.index or 0, ctypes.byref(handle))
        if found != NVML_SUCCESS:
            nvml.nvmlShutdown()
            self._nvml = None
            return False
        self._handle = handle
        top = ctypes.c_uint(0)
        if nvml.nvmlDeviceGetMaxClockInfo(handle, NVML_CLOCK_SM, ctypes.byref(top)) == 0:
            self._max = float(top.value)
        return True

    def _sample(self) -> None:
        clock, power = ctypes.c_uint(0), ctypes.c_uint(0)
        nvml, handle = self._nvml, self._handle
        if nvml.nvmlDeviceGetClockInfo(handle, NVML_CLOCK_SM, ctypes.byref(clock)) == 0:
            self._clocks.append(float(clock.value))
        if nvml.nvmlDeviceGetPowerUsage(handle, ctypes.byref(power)) == 0:
            self._powers.append(power.value / 1000.0)  # mW -> W

    def _run(self) -> None:
        while True:
            self._sample()
            if self._stop.wait(self.interval_s):
                return

    # ---------------------------------------------------------------- block
    def __enter__(self) -> GpuClocks:
        self._clocks.clear()
        self._powers.clear()
        self._stop.clear()
        if self._open():
            self._thread = threading.Thread(target=self._run, name="magi-gpu-clocks", daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
            self._sample()  # the block's last moment
        if self._nvml is not None:
            self._nvml.nvmlShutdown()

    def result(self) -> ClockReading | None:
        """What the last block saw; None without NVML or without a single clock sample."""
        if not self._clocks:
            return None
        return ClockReading(
            sm_mhz=statistics.median(self._clocks),
            min_sm_mhz=min(self._clocks),
            max_sm_mhz=self._max or max(self._clocks),
            power_w=statistics.median(self._powers) if self._powers else None,
            samples=len(self._clocks),
        )


def _current_pci_bus_id() -> str | None:
    """NVML's bus id ("00000000:18:00.0") of torch's current CUDA device, if torch is imported,
    has CUDA initialised and reports the PCI location; else None (NVML index 0 is used)."""
    import sys

    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available() or not torch.cuda.is_initialized():
        return None
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    parts = [getattr(props, f"pci_{k}_id", None) for k in ("domain", "bus", "device")]
    if any(p is None for p in parts):
        return None
    domain, bus, device = parts
    return f"{domain:08x}:{bus:02x}:{device:02x}.0"
