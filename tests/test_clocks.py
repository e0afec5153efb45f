"""`pytest_magi.measure.clocks`: the GPU's SM clock and power while a block runs, through NVML. CPU: a
stand-in NVML gives the readings; the real library (absent or without a GPU here) gives None and
never gets in the block's way."""

from __future__ import annotations

import ctypes
import itertools
import threading
import time

import pytest

from pytest_magi.measure.clocks import ClockReading, GpuClocks
from pytest_magi.measure.profiling import ProfileReport


class FakeNvml:
    """NVML's calls as ctypes makes them (out-parameters by reference), with scripted values."""

    def __init__(self, clocks: list[int], power_mw: int | None = 650_000, init: int = 0) -> None:
        self.clocks = itertools.chain(clocks, itertools.repeat(clocks[-1]))
        self.power_mw, self.init = power_mw, init
        self.opened = self.closed = 0
        self.indices: list[int] = []

    def nvmlInit_v2(self) -> int:  # noqa: N802 - NVML's names
        self.opened += 1
        return self.init

    def nvmlShutdown(self) -> int:  # noqa: N802
        self.closed += 1
        return 0

    def nvmlDeviceGetHandleByIndex_v2(self, index: int, handle: object) -> int:  # noqa: N802
        self.indices.append(index)
        return 0

    def nvmlDeviceGetHandleByPciBusId_v2(self, bus: bytes, handle: object) -> int:  # noqa: N802
        raise AssertionError("no torch CUDA device here: the index is used")

    def nvmlDeviceGetMaxClockInfo(self, handle: object, kind: int, out: object) -> int:  # noqa: N802
        ctypes.cast(out, ctypes.POINTER(ctypes.c_uint)).contents.value = 1980
        return 0

    def nvmlDeviceGetClockInfo(self, handle: object, kind: int, out: object) -> int:  # noqa: N802
        assert kind == 1  # NVML_CLOCK_SM
        ctypes.cast(out, ctypes.POINTER(ctypes.c_uint)).contents.value = next(self.clocks)
        return 0

    def nvmlDeviceGetPowerUsage(self, handle: object, out: object) -> int:  # noqa: N802
        if self.power_mw is None:
            return 3  # NVML_ERROR_NOT_SUPPORTED
        ctypes.cast(out, ctypes.POINTER(ctypes.c_uint)).contents.value = self.power_mw
        return 0


def _alive() -> bool:
    return any(t.name == "magi-gpu-clocks" for t in threading.enumerate())


def test_a_block_is_sampled_and_summarised() -> None:
    nvml = FakeNvml([1980, 1700, 1600, 1650, 1700])
    with GpuClocks(1, interval_s=0.005, nvml=nvml) as clocks:
        time.sleep(0.1)
    reading = clocks.result()
    assert reading is not None and reading.samples >= 5
    assert reading.max_sm_mhz == 1980 and reading.min_sm_mhz == 1600
    assert reading.sm_mhz == 1700  # the median; the clock stays at 1700 after the script
    assert reading.power_w == 650.0  # mW -> W
    assert nvml.indices == [1] and nvml.opened == nvml.closed == 1
    assert not _alive(), "the sampling thread outlived its block"
    text = reading.describe()
    assert "SM clock median 1700 MHz (lowest 1600) of 1980 max (86%)" in text
    assert "power 650 W" in text


def test_power_nvml_does_not_report_is_left_out() -> None:
    with GpuClocks(0, interval_s=0.005, nvml=FakeNvml([1500], power_mw=None)) as clocks:
        time.sleep(0.02)
    reading = clocks.result()
    assert reading is not None and reading.power_w is None
    assert "power" not in reading.describe()


def test_without_nvml_the_block_runs_unobserved() -> None:
    nvml = FakeNvml([1500], init=9)  # NVML_ERROR_DRIVER_NOT_LOADED
    ran = []
    with GpuClocks(nvml=nvml) as clocks:
        ran.append(1)
    assert ran and clocks.result() is None and not _alive()
    with GpuClocks() as real:  # this machine's own NVML: absent, or no GPU behind it
        pass
    assert real.result() is None or isinstance(real.result(), ClockReading)


def test_an_exception_in_the_block_stops_the_sampler() -> None:
    nvml = FakeNvml([1500])
    with pytest.raises(RuntimeError, match="boom"), GpuClocks(0, interval_s=0.005, nvml=nvml):
        raise RuntimeError("boom")
    assert not _alive() and nvml.opened == nvml.closed == 1


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"index": -1}, ValueError, r"index=-1\): expected an index >= 0"),
        ({"index": True}, TypeError, r"index=True\): expected an NVML GPU index"),
        ({"interval_s": 0}, ValueError, r"interval_s=0\): expected seconds in \(0, 10\]"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match) -> None:
    with pytest.raises(error, match=match):
        GpuClocks(**kwargs)


def test_a_profile_report_shows_and_keeps_the_clock() -> None:
    from tests.test_profiling import _report

    report = _report()
    assert "SM clock" not in report.summary()  # no NVML reading: no line
    report.sm_clock_mhz, report.max_sm_clock_mhz, report.power_w = 1650.0, 1980.0, 690.0
    assert "SM clock (median, timed calls) 1650 MHz of 1980 max, power 690 W" in report.summary()
    back = ProfileReport.from_dict(report.to_dict())
    assert (back.sm_clock_mhz, back.max_sm_clock_mhz, back.power_w) == (1650.0, 1980.0, 690.0)
