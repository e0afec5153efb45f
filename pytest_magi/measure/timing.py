"""The timing engine: interleaved, repeated, median-based speedup measurement of two callables.

Usable without pytest: ``measure_pair((baseline_fn, candidate_fn))`` or ``measure_pair(pair)`` for a
``pytest_magi.pairs.compiled.CompiledPair`` (anything with ``timing_callables()`` and ``device``).

Protocol (one call of ``measure_pair``):

1. Warm-up, excluded from every statistic: each side is called ``warmup`` times (a first call that
   compiles is absorbed here), then both are timed briefly to calibrate the repetitions.
2. ``rounds`` rounds, interleaved: even rounds time baseline then candidate, odd rounds candidate
   then baseline, so a drift of the machine (clocks, thermals, a neighbour process) hits both
   sides alike. Within a round each side runs ``repetitions`` times (calibrated so the slower side
   takes about ``target_ms`` per round, both sides get the same count) and the round keeps the
   median repetition of each side.
3. Per repetition, on CUDA: a write of zeros to a 256 MiB buffer flushes the L2 cache *outside*
   the timed region, then a spin kernel (``torch.cuda._sleep``) longer than the host takes to
   enqueue the call, then a pair of ``torch.cuda.Event(enable_timing=True)`` brackets the call; the
   events are read after one synchronisation per round. The spin keeps the device busy while the
   host enqueues, so the events time the device's work alone: a graph of 0.37 ms that the host
   needs 0.44 ms to launch (dynamo's guards, the wrapper's Python, one launch per kernel) was
   timed at its host time without it, and two runs of the same pair gave 1.24x and 1.11x
   (docs/reliability.md). The host's time per call is measured beside it and
   reported (``Speedup.baseline_host_ms`` / ``candidate_host_ms``; ``host_bound`` names the sides
   whose host time exceeds their device time: there the user's wall clock sees the host, and CUDA
   graphs are the lever). ``hide_host=False`` times host and device together. On CPU:
   ``time.perf_counter_ns`` brackets each call (no flush), so ``--magi-perf`` works everywhere.

Statistics (``Speedup``):

- ``round_ratios``: per round, baseline median / candidate median.
- ``ratio``: the **median of the round ratios**. A median, never a mean: an A/A pair on an H200
  gave 0.998-1.004 in 6 of 8 rounds and 1.17 and 1.42 in the other two (docs/reliability.md,
  "Facts the design rests on"); the median of the 8 was 1.002, the mean would have been 1.07.
- ``baseline_ms`` / ``candidate_ms``: the median over rounds of each side's round medians. They are
  reported for reading; ``ratio`` is computed per round (both sides of a round saw the same machine
  state), so ``baseline_ms / candidate_ms`` can differ slightly from ``ratio``.
- ``spread``: the interquartile range of the round ratios divided by their median (quartiles by
  ``statistics.quantiles(method="inclusive")``). Robust like the median: the two outlier rounds
  above do not blow it up, a machine that is noisy in most rounds does.

Adaptive rounds: with ``threshold`` (the ratio a verdict compares against), when the measured
ratio lies within its spread of the threshold (``|ratio - threshold| <= spread * ratio``), the
verdict is not yet clear and the number of rounds is doubled, up to ``max_rounds``. At least
``MIN_ROUNDS`` (3) rounds are always measured: one round is never a verdict.

``PerfLock`` serialises measurements across processes (``pytest -n 2`` workers) with ``flock`` on a
shared lock file, so two timings never overlap on one machine. ``measure_pair`` takes it itself.
The module imports torch lazily: a process that only needs ``PerfLock`` does not pay for torch.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .perf_lock import PerfLock
from .timers import MAX_REPETITIONS, BlockTimer, CpuTimer, CudaTimer, device_name, resolve_device

if TYPE_CHECKING:
    import torch

DEFAULT_ROUNDS = 8
MIN_ROUNDS = 3
DEFAULT_TARGET_MS = {"cuda": 100.0, "cpu": 50.0}
MIN_REPETITIONS = 5
#: the spin ahead of each timed CUDA call lasts this many times the host's enqueue time, plus slack


@runtime_checkable
class TimedPair(Protocol):
    """What ``measure_pair`` accepts besides two callables (``CompiledPair`` is one)."""

    device: str

    def timing_callables(self) -> tuple[Callable[[], Any], Callable[[], Any]]: ...


@dataclass(frozen=True)
class Speedup:
    """The result of ``measure_pair``: candidate speedup over baseline (``ratio`` > 1: faster).

    ``spread`` is the IQR of ``round_ratios`` over their median (see the module docstring).
    """

    baseline_ms: float
    candidate_ms: float
    ratio: float
    spread: float
    rounds: int
    round_ratios: tuple[float, ...]
    device: str
    torch_version: str
    repetitions: int = 0
    baseline_round_ms: tuple[float, ...] = field(default=())
    candidate_round_ms: tuple[float, ...] = field(default=())
    threshold: float | None = None
    # the host's time to enqueue one call (CUDA with ``hide_host``; None elsewhere)
    baseline_host_ms: float | None = None
    candidate_host_ms: float | None = None

    @property
    def host_bound(self) -> tuple[str, ...]:
        """The sides whose host enqueue time exceeds their device time (see the docstring)."""
        return host_bound_sides(
            self.baseline_ms, self.baseline_host_ms, self.candidate_ms, self.candidate_host_ms
        )

    def host_text(self) -> str:
        """One line on the host's share ('' when it was not measured)."""
        return host_text(
            self.baseline_ms, self.baseline_host_ms, self.candidate_ms, self.candidate_host_ms
        )

    def meets(self, threshold: float) -> bool:
        """Whether the measured ratio is at least ``threshold``."""
        return self.ratio >= threshold

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("round_ratios", "baseline_round_ms", "candidate_round_ms"):
            data[key] = list(data[key])
        return data

    def __str__(self) -> str:
        host = self.host_text()
        return (
            f"speedup {self.ratio:.3f}x (baseline {self.baseline_ms:.4f} ms, candidate "
            f"{self.candidate_ms:.4f} ms; spread {self.spread:.1%} over {self.rounds} rounds of "
            f"{self.repetitions} repetitions; {self.device}, torch {self.torch_version}"
            + (f"; {host})" if host else ")")
        )


def host_bound_sides(
    baseline_ms: float | None,
    baseline_host_ms: float | None,
    candidate_ms: float | None,
    candidate_host_ms: float | None,
) -> tuple[str, ...]:
    """The sides ("baseline", "candidate") whose host time per call exceeds their device time;
    a side with either time unknown is not named."""
    sides = (
        ("baseline", baseline_host_ms, baseline_ms),
        ("candidate", candidate_host_ms, candidate_ms),
    )
    return tuple(
        name
        for name, host, device in sides
        if host is not None and device is not None and host > device
    )


def host_text(
    baseline_ms: float | None,
    baseline_host_ms: float | None,
    candidate_ms: float | None,
    candidate_host_ms: float | None,
) -> str:
    """One line on the host's share of a pair timed on the device ('' when it was not
    measured): `Speedup.host_text` and the `min_speedup` failure text both print it."""
    if baseline_host_ms is None or candidate_host_ms is None:
        return ""
    bound = host_bound_sides(baseline_ms, baseline_host_ms, candidate_ms, candidate_host_ms)
    return (
        f"host enqueue {baseline_host_ms:.4f} / {candidate_host_ms:.4f} ms per call "
        f"(baseline / candidate; the events time the device); "
        + (f"host-bound: {', '.join(bound)}" if bound else "device-bound")
    )


# --------------------------------------------------------------------------- statistics
def relative_spread(values: Sequence[float]) -> float:
    """IQR / median of ``values`` (inclusive quartiles); 0.0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    q1, _q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    med = statistics.median(values)
    return (q3 - q1) / med if med else math.inf


def summarize(
    baseline_round_ms: Sequence[float],
    candidate_round_ms: Sequence[float],
    *,
    device: str,
    repetitions: int = 0,
    threshold: float | None = None,
) -> Speedup:
    """A ``Speedup`` from per-round medians of each side (the statistics of the module docstring)."""
    if len(baseline_round_ms) != len(candidate_round_ms) or not baseline_round_ms:
        raise ValueError(
            f"need the same, non-zero number of rounds for both sides, got "
            f"{len(baseline_round_ms)} baseline and {len(candidate_round_ms)} candidate rounds"
        )
    import torch

    ratios = tuple(
        (b / c) if c > 0 else math.inf
        for b, c in zip(baseline_round_ms, candidate_round_ms, strict=True)
    )
    return Speedup(
        baseline_ms=statistics.median(baseline_round_ms),
        candidate_ms=statistics.median(candidate_round_ms),
        ratio=statistics.median(ratios),
        spread=relative_spread(ratios),
        rounds=len(ratios),
        round_ratios=ratios,
        device=device,
        torch_version=torch.__version__,
        repetitions=repetitions,
        baseline_round_ms=tuple(baseline_round_ms),
        candidate_round_ms=tuple(candidate_round_ms),
        threshold=threshold,
    )


def is_ambiguous(ratio: float, spread: float, threshold: float) -> bool:
    """Whether ``threshold`` lies within the measured spread of ``ratio`` (more rounds needed)."""
    return abs(ratio - threshold) <= spread * ratio


# --------------------------------------------------------------------------- devices


# --------------------------------------------------------------------------- measurement
def _validate_rounds(rounds: Any, min_rounds: Any, max_rounds: Any) -> int:
    if isinstance(min_rounds, bool) or not isinstance(min_rounds, int) or min_rounds < MIN_ROUNDS:
        raise ValueError(
            f"min_rounds={min_rounds!r}: at least {MIN_ROUNDS} rounds are measured, one round is "
            f"never a verdict; pass min_rounds >= {MIN_ROUNDS}"
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < min_rounds:
        raise ValueError(
            f"rounds={rounds!r}: need an int >= {min_rounds} interleaved rounds (one round is "
            f"never a verdict: single rounds of an A/A pair measured 1.17x and 1.42x); "
            f"pass rounds={max(min_rounds, DEFAULT_ROUNDS)}"
        )
    cap = 4 * rounds if max_rounds is None else max_rounds
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < rounds:
        raise ValueError(f"max_rounds={max_rounds!r}: need an int >= rounds ({rounds}) or None")
    return cap


def _resolve_callables(
    pair: Any,
) -> tuple[Callable[[], Any], Callable[[], Any], str | None]:
    if isinstance(pair, TimedPair):
        baseline, candidate = pair.timing_callables()
        return baseline, candidate, pair.device
    if isinstance(pair, (tuple, list)) and len(pair) == 2 and all(callable(f) for f in pair):
        return pair[0], pair[1], None
    raise TypeError(
        f"measure_pair takes a CompiledPair (anything with timing_callables() and device) or a "
        f"(baseline, candidate) tuple of zero-argument callables, got {type(pair).__name__} "
        f"{pair!r}; wrap calls that need inputs in lambdas: (lambda: f(x), lambda: g(x))"
    )


def calibrate_repetitions(
    baseline: Callable[[], Any],
    candidate: Callable[[], Any],
    timer: BlockTimer,
    target_ms: float,
) -> int:
    """Repetitions per side per round so that the slower side takes about ``target_ms``."""
    per_call = max(
        statistics.median(timer(baseline, 3)), statistics.median(timer(candidate, 3)), 1e-6
    )
    return max(MIN_REPETITIONS, min(MAX_REPETITIONS, math.ceil(target_ms / per_call)))


def run_rounds(
    baseline: Callable[[], Any],
    candidate: Callable[[], Any],
    timer: BlockTimer,
    *,
    rounds: int,
    repetitions: int,
    device: str,
    threshold: float | None = None,
    max_rounds: int | None = None,
) -> Speedup:
    """The interleaved rounds (and the adaptive extension) of ``measure_pair``, after warm-up."""
    cap = rounds if max_rounds is None else max_rounds
    base_ms: list[float] = []
    cand_ms: list[float] = []
    goal = rounds
    while True:
        while len(base_ms) < goal:
            order = ("b", "c") if len(base_ms) % 2 == 0 else ("c", "b")
            medians: dict[str, float] = {}
            for side in order:
                fn = baseline if side == "b" else candidate
                medians[side] = statistics.median(timer(fn, repetitions))
            base_ms.append(medians["b"])
            cand_ms.append(medians["c"])
        result = summarize(
            base_ms, cand_ms, device=device, repetitions=repetitions, threshold=threshold
        )
        if (
            threshold is None
            or goal >= cap
            or not is_ambiguous(result.ratio, result.spread, threshold)
        ):
            return result
        goal = min(cap, 2 * goal)


def _check_measure_args(threshold: Any, warmup: Any, repetitions: Any) -> None:
    if threshold is not None and not (isinstance(threshold, (int, float)) and threshold > 0):
        raise ValueError(f"threshold={threshold!r}: expected a positive ratio such as 1.2, or None")
    if isinstance(warmup, bool) or not isinstance(warmup, int) or warmup < 1:
        raise ValueError(f"warmup={warmup!r}: expected an int >= 1 (the first call may compile)")
    if repetitions is not None and (
        isinstance(repetitions, bool) or not isinstance(repetitions, int) or repetitions < 1
    ):
        raise ValueError(f"repetitions={repetitions!r}: expected an int >= 1, or None to calibrate")


def _lock_of(lock: Any) -> contextlib.AbstractContextManager[Any]:
    if lock is True:
        return PerfLock()
    if lock is False:
        return contextlib.nullcontext()
    if isinstance(lock, PerfLock):
        return lock
    raise TypeError(f"lock={lock!r}: expected True, False or a PerfLock")


def measure_pair(
    pair_or_two_callables: Any,
    *,
    rounds: int = DEFAULT_ROUNDS,
    min_rounds: int = MIN_ROUNDS,
    max_rounds: int | None = None,
    threshold: float | None = None,
    device: str | torch.device | None = None,
    warmup: int = 3,
    target_ms: float | None = None,
    repetitions: int | None = None,
    flush_l2: bool = True,
    lock: PerfLock | bool = True,
    hide_host: bool = True,
) -> Speedup:
    """Time baseline against candidate; see the module docstring for the protocol.

    ``pair_or_two_callables``: a ``CompiledPair`` (times ``pair.baseline`` / ``pair.candidate`` on
    its example inputs) or ``(baseline_fn, candidate_fn)``, two zero-argument callables.
    ``rounds``: interleaved rounds (>= ``min_rounds`` >= 3). ``threshold``: the ratio a verdict
    will compare against; enables adaptive rounds (doubling up to ``max_rounds``, default
    ``4 * rounds``). ``device``: 'cuda' or 'cpu'; default the pair's device, else CUDA when
    available. ``target_ms``: time per side per round (default 100 ms on CUDA, 50 ms on CPU);
    ``repetitions`` fixes the count instead. ``lock``: take ``PerfLock()`` (True), a given lock,
    or none (False). ``hide_host`` (CUDA): time the device's work alone behind a spin kernel and
    report the host's time beside it (True), or time both together (False); module docstring.
    """
    if not isinstance(hide_host, bool):
        raise TypeError(f"hide_host={hide_host!r}: expected True (time the device) or False")
    cap = _validate_rounds(rounds, min_rounds, max_rounds)
    _check_measure_args(threshold, warmup, repetitions)
    baseline, candidate, pair_device = _resolve_callables(pair_or_two_callables)
    dev = resolve_device(device if device is not None else pair_device)
    target = DEFAULT_TARGET_MS[dev.type] if target_ms is None else float(target_ms)
    if target <= 0:
        raise ValueError(f"target_ms={target_ms!r}: expected a positive number of milliseconds")
    held = _lock_of(lock)

    import torch

    on_device = torch.cuda.device(dev) if dev.type == "cuda" else contextlib.nullcontext()
    with held, on_device:
        timer: BlockTimer = (
            CudaTimer(dev, flush_l2, hide_host) if dev.type == "cuda" else CpuTimer()
        )
        for _ in range(warmup):
            baseline()
            candidate()
        if dev.type == "cuda":
            torch.cuda.synchronize(dev)
        reps = repetitions or calibrate_repetitions(baseline, candidate, timer, target)
        result = run_rounds(
            baseline,
            candidate,
            timer,
            rounds=rounds,
            repetitions=reps,
            device=device_name(dev),
            threshold=float(threshold) if threshold is not None else None,
            max_rounds=cap,
        )
        if isinstance(timer, CudaTimer) and timer.hide_host:
            result = dataclasses.replace(
                result,
                baseline_host_ms=timer.host_ms_per_call(baseline),
                candidate_host_ms=timer.host_ms_per_call(candidate),
            )
        return result


# --------------------------------------------------------------------------- lock


def steady_ms(
    call: Callable[[], Any], sync: Callable[[], None], calls: int, warmup: int = 2
) -> tuple[float, Any]:
    """A compiled model's run time on the wall clock after its first call: median ms of ``calls``
    calls after ``warmup`` untimed ones, each between two ``sync()``s; and the last output."""
    import torch

    times, out = [], None
    with torch.no_grad():
        for i in range(warmup + calls):
            sync()
            start = time.perf_counter()
            out = call()
            sync()
            if i >= warmup:
                times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), out
