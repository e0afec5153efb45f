"""The speed of a `CompiledPair`: its timing callables, `benchmark` (`measure_pair`),
`kernel_times`, `budget` (estimated without a GPU) and `profile` (where a side's GPU time goes,
`pytest_magi.measure.profiling`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, overload

import torch

from ..capture.sides import (
    SideCallable,
    check_side_name,
)
from ..measure.timing import Speedup, measure_pair

if TYPE_CHECKING:
    from ..budget.pairs import PairBudget
    from ..measure.profile_report import ProfileReport


class PairTiming:
    """`CompiledPair`'s speed (a base class of it)."""

    example_inputs: tuple[Any, ...]
    label: str
    device: str
    inference: bool
    baseline: SideCallable
    candidate: SideCallable
    last_speedup: Speedup | None

    @property
    def compiles(self) -> dict[str, int]:
        raise NotImplementedError

    @property
    def kernel_counts(self) -> dict[str, int]:
        raise NotImplementedError

    def timing_callables(self) -> tuple[Callable[[], Any], Callable[[], Any]]:
        """Zero-argument callables of each side on the example inputs (for ``measure_pair``);
        they call the compiled functions directly (no compile-health bookkeeping per call)."""
        args = self.example_inputs
        inference = self.inference

        def side(fn: Callable[..., Any]) -> Callable[[], Any]:
            def call() -> Any:
                if inference:
                    with torch.no_grad():
                        return fn(*args)
                return fn(*args)

            return call

        return side(self.baseline.fn), side(self.candidate.fn)

    def benchmark(self, rounds: int = 8, threshold: float | None = None, **kwargs: Any) -> Speedup:
        """``measure_pair(self, rounds=rounds, threshold=threshold, **kwargs)``; kept as ``last_speedup``."""
        self.last_speedup = measure_pair(self, rounds=rounds, threshold=threshold, **kwargs)
        return self.last_speedup

    def _profile_side(
        self, fn: Callable[[], Any], iterations: int
    ) -> tuple[list[tuple[str, float, int]], bool]:
        from torch.profiler import ProfilerActivity
        from torch.profiler import profile as torch_profile

        cuda = torch.device(self.device).type == "cuda"
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
        fn()  # a warm call outside the profile
        if cuda:
            torch.cuda.synchronize()
        with torch_profile(activities=activities) as prof:
            for _ in range(iterations):
                fn()
            if cuda:
                torch.cuda.synchronize()
        return _profile_rows(prof.key_averages(), cuda), cuda

    def kernel_times(self, iterations: int = 5) -> dict[str, dict[str, float]]:
        """``{side: {kernel name: ms per call}}`` from ``torch.profiler`` (self device time on a
        GPU, self CPU time on CPU)."""
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations={iterations!r}: expected an int >= 1")
        times: dict[str, dict[str, float]] = {}
        for side, fn in self._callables_by_side().items():
            rows, _ = self._profile_side(fn, iterations)
            times[side] = {name: t / 1e3 / iterations for name, t, _ in rows}
        return times

    @overload
    def profile(self, *, top: int, iterations: int = ...) -> str: ...

    @overload
    def profile(self, *, iterations: int, top: int = ...) -> str: ...

    @overload
    def profile(self, side: str | None = None, **options: Any) -> ProfileReport: ...

    def profile(
        self,
        side: str | None = None,
        *,
        top: int | None = None,
        iterations: int | None = None,
        **options: Any,
    ) -> ProfileReport | str:
        """Where ``side``'s GPU time goes (default the candidate): ``pytest_magi.measure.profiling.
        profile`` on that side's call of the example inputs, a ``ProfileReport`` (per kernel
        class and Triton pattern, beside the FLOP and bandwidth floors; ``.table()``).
        ``options``: ``rounds``, ``warmup``, ``peak_tflops``, ``hbm_gbps``, ``flops``,
        ``divide_by``, ``unit``, ``label`` (docs/benchmarks.md, the profile mode). Needs a
        CUDA device.

        The older form ``profile(top=10, iterations=5)`` (either keyword given) returns text:
        both sides' ``top`` kernels by self time (device time on a GPU, CPU time on a CPU)."""
        if top is not None or iterations is not None:
            if side is not None or options:
                given = ", ".join([*(["side"] if side is not None else []), *options])
                raise TypeError(
                    f"profile(top=..., iterations=...) lists both sides' kernels as text and "
                    f"takes no {given}; for one side's ProfileReport call profile(side, **options) "
                    f"without top/iterations"
                )
            return self._kernel_listing(
                10 if top is None else top, 5 if iterations is None else iterations
            )
        side = "candidate" if side is None else side
        check_side_name(side)
        from ..measure.profiling import profile

        options.setdefault("label", f"{self.label} {side}")
        return profile(self._callables_by_side()[side], **options)

    def _kernel_listing(self, top: int, iterations: int) -> str:
        for name, value in (("top", top), ("iterations", iterations)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}={value!r}: expected an int >= 1")
        out: list[str] = [f"profile of {self.label} ({iterations} calls per side)"]
        for side, fn in self._callables_by_side().items():
            rows, cuda = self._profile_side(fn, iterations)
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

    def budget(self, profile: Any = "h200") -> PairBudget:
        """Both sides' perf budgets on ``profile`` (a name, a ``pytest_magi.budget.Profile`` or a
        dict of its fields), from each side's CUDA code generated without running it
        (``pytest_magi.budget``): ``.baseline``, ``.candidate``, ``.estimated_speedup`` and
        ``.assert_estimated_speedup(ratio)``, the CPU gate on the estimate."""
        from ..budget.pairs import pair_budget

        return pair_budget(self, profile)


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
