"""The timing engine: protocol, statistics, adaptive rounds, PerfLock across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import torch

from pytest_magi.measure import perf_lock, timers, timing
from pytest_magi.measure.timing import (
    MIN_ROUNDS,
    PerfLock,
    Speedup,
    device_name,
    measure_pair,
    relative_spread,
    run_rounds,
    summarize,
)


def sleeper(seconds: float):
    def fn() -> None:
        time.sleep(seconds)

    return fn


class ScriptedTimer:
    """A fake timer: each block returns the next scripted duration (ms) for its side."""

    def __init__(self, baseline: list[float], candidate: list[float]) -> None:
        self.script = {"b": list(baseline), "c": list(candidate)}
        self.calls: list[str] = []

    def __call__(self, fn, repetitions: int) -> list[float]:
        side = fn()
        self.calls.append(side)
        value = self.script[side].pop(0)
        return [value] * repetitions


def test_slower_baseline_gives_ratio_above_one_and_reverse() -> None:
    slow, fast = sleeper(0.004), sleeper(0.001)
    s = measure_pair((slow, fast), rounds=3, target_ms=12, device="cpu", lock=False)
    assert isinstance(s, Speedup)
    assert s.ratio > 2.0, s
    assert s.baseline_ms > s.candidate_ms
    r = measure_pair((fast, slow), rounds=3, target_ms=12, device="cpu", lock=False)
    assert r.ratio < 0.5, r
    assert s.rounds == 3 and len(s.round_ratios) == 3
    assert s.torch_version == torch.__version__
    assert s.device == device_name("cpu")
    assert "speedup" in str(s) and "ms" in str(s) and "rounds" in str(s)


def test_a_a_pair_gives_ratio_near_one() -> None:
    same = sleeper(0.002)
    s = measure_pair((same, same), rounds=5, target_ms=10, device="cpu", lock=False)
    assert 0.8 < s.ratio < 1.25, s


def test_rounds_interleave_and_alternate_order_after_warmup() -> None:
    log: list[str] = []

    def a() -> None:
        log.append("A")

    def b() -> None:
        log.append("B")

    measure_pair((a, b), rounds=4, repetitions=2, warmup=2, device="cpu", lock=False)
    # warm-up AB AB, then 4 rounds of 2 repetitions, alternating AB / BA
    assert log == ["A", "B"] * 2 + list("AABBBBAAAABBBBAA")


@pytest.mark.parametrize("rounds", [0, 1, 2])
def test_fewer_than_three_rounds_is_an_error_naming_the_value(rounds: int) -> None:
    with pytest.raises(ValueError, match=rf"rounds={rounds}\b.*one round is never a verdict"):
        measure_pair((sleeper(0), sleeper(0)), rounds=rounds, device="cpu", lock=False)
    assert MIN_ROUNDS == 3


def test_min_rounds_below_three_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"min_rounds=2"):
        measure_pair((sleeper(0), sleeper(0)), rounds=3, min_rounds=2, device="cpu", lock=False)


def test_bad_pair_argument_says_what_is_accepted() -> None:
    with pytest.raises(TypeError, match="zero-argument callables"):
        measure_pair(42, device="cpu", lock=False)


def test_median_of_rounds_is_robust_to_outlier_rounds() -> None:
    """The measured fact (docs/reliability.md): A/A rounds of 0.998-1.004 plus 1.17 and 1.42 -> a ratio of ~1.0."""
    ratios = [0.998, 1.0, 1.17, 1.001, 1.004, 1.42, 0.999, 1.002]
    s = summarize([r * 1.0 for r in ratios], [1.0] * 8, device="test")
    assert s.ratio == pytest.approx(1.0015)
    assert sum(ratios) / len(ratios) > 1.07  # a mean would have claimed a 7% speedup
    assert s.spread < 0.06  # IQR/median: the two outliers do not blow it up
    assert relative_spread([1.0, 1.0, 1.0]) == 0.0


def test_adaptive_rounds_double_while_the_threshold_is_within_the_spread() -> None:
    # rounds ratios ~1.20 +- a few %: a 1.2 threshold is ambiguous, measure 3 -> 6 -> 12
    base = [1.20, 1.26, 1.14] * 4
    timer = ScriptedTimer(base, [1.0] * 12)
    s = run_rounds(
        lambda: "b",
        lambda: "c",
        timer,
        rounds=3,
        repetitions=1,
        device="t",
        threshold=1.2,
        max_rounds=12,
    )
    assert s.rounds == 12
    assert s.threshold == 1.2
    # interleaving: even rounds baseline first, odd rounds candidate first
    assert timer.calls[:6] == ["b", "c", "c", "b", "b", "c"]


def test_adaptive_rounds_stop_when_the_verdict_is_clear() -> None:
    timer = ScriptedTimer([2.0, 2.05, 1.95] * 4, [1.0] * 12)
    s = run_rounds(
        lambda: "b",
        lambda: "c",
        timer,
        rounds=3,
        repetitions=1,
        device="t",
        threshold=1.2,
        max_rounds=12,
    )
    assert s.rounds == 3
    no_threshold = run_rounds(
        lambda: "b",
        lambda: "c",
        ScriptedTimer([1.2] * 3, [1.0] * 3),
        rounds=3,
        repetitions=1,
        device="t",
    )
    assert no_threshold.rounds == 3


def test_measure_pair_passes_the_threshold_through() -> None:
    slow, fast = sleeper(0.003), sleeper(0.001)
    s = measure_pair((slow, fast), rounds=3, threshold=100.0, target_ms=6, device="cpu", lock=False)
    assert s.threshold == 100.0
    assert s.rounds == 3  # a 100x threshold is far outside the spread of a ~3x ratio


def test_speedup_to_dict_is_json_ready() -> None:
    s = summarize([2.0, 2.0, 2.0], [1.0, 1.0, 1.0], device="cpu")
    data = json.loads(json.dumps(s.to_dict()))
    assert data["ratio"] == 2.0 and data["round_ratios"] == [2.0, 2.0, 2.0]
    assert s.meets(2.0) and not s.meets(2.01)


def test_device_name_of_cpu_is_readable() -> None:
    name = device_name("cpu")
    assert name and "CPUs" in name


# --------------------------------------------------------------------------- PerfLock
# the workers load pytest_magi/measure/perf_lock.py on its own (no torch import): they start in a
# blink
_LOAD_TIMING = textwrap.dedent(
    f"""
    import importlib.util, sys
    _spec = importlib.util.spec_from_file_location("magi_timing", {str(Path(perf_lock.__file__))!r})
    timing = importlib.util.module_from_spec(_spec)
    sys.modules["magi_timing"] = timing
    _spec.loader.exec_module(timing)
    PerfLock = timing.PerfLock
    """
)
_LOCK_WORKER = _LOAD_TIMING + textwrap.dedent(
    """
    import json, os, time
    assert "torch" not in sys.modules
    lock_path, go_file, out_file, ready_file = sys.argv[1:5]
    open(ready_file, "w").close()
    while not os.path.exists(go_file):
        time.sleep(0.005)
    with PerfLock(lock_path):
        start = time.time()
        time.sleep(0.4)
        end = time.time()
    with open(out_file, "w") as f:
        json.dump([start, end], f)
    """
)


def _run_two_workers(tmp_path: Path, lock_a: Path, lock_b: Path) -> list[tuple[float, float]]:
    script = tmp_path / "worker.py"
    script.write_text(_LOCK_WORKER)
    go = tmp_path / "go"
    procs, outs, readies = [], [], []
    for i, lock in enumerate((lock_a, lock_b)):
        out, ready = tmp_path / f"out{i}.json", tmp_path / f"ready{i}"
        procs.append(
            subprocess.Popen(
                [sys.executable, str(script), str(lock), str(go), str(out), str(ready)],
                env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
            )
        )
        outs.append(out)
        readies.append(ready)
    deadline = time.time() + 120
    while not all(r.exists() for r in readies):
        assert time.time() < deadline, "lock workers did not start"
        assert all(p.poll() is None for p in procs), "a lock worker died while starting"
        time.sleep(0.01)
    go.touch()
    for p in procs:
        assert p.wait(timeout=120) == 0
    return [tuple(json.loads(o.read_text())) for o in outs]


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def test_perf_lock_excludes_two_processes(tmp_path: Path) -> None:
    lock = tmp_path / "perf.lock"
    first, second = _run_two_workers(tmp_path, lock, lock)
    assert not _overlap(first, second), (first, second)


def test_without_a_shared_lock_the_workers_do_overlap(tmp_path: Path) -> None:
    """Control: the check above can fail, the workers really run concurrently."""
    first, second = _run_two_workers(tmp_path, tmp_path / "a.lock", tmp_path / "b.lock")
    assert _overlap(first, second), (first, second)


def test_perf_lock_is_reentrant_and_times_out_naming_the_holder(tmp_path: Path) -> None:
    path = tmp_path / "perf.lock"
    with PerfLock(path) as outer:
        with PerfLock(path):  # nested in one process: no deadlock
            assert outer.held
        assert outer.held
        # another process cannot take it
        code = _LOAD_TIMING + (
            "try:\n    PerfLock(sys.argv[1], timeout=0.2).acquire()\n"
            "except TimeoutError as e:\n    print(e); sys.exit(3)\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 3, proc.stderr
        assert str(os.getpid()) in proc.stdout and str(path) in proc.stdout
    assert not outer.held
    with pytest.raises(RuntimeError, match="without acquire"):
        outer.release()


def test_default_lock_path_is_shared_and_overridable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("MAGI_PERF_LOCK", raising=False)
    default = PerfLock().path
    assert os.path.basename(default).startswith("pytest-magi-perf-")
    monkeypatch.setenv("MAGI_PERF_LOCK", str(tmp_path / "x.lock"))
    assert PerfLock().path == str(tmp_path / "x.lock")


def test_measure_pair_holds_the_perf_lock(tmp_path: Path) -> None:
    lock = PerfLock(tmp_path / "m.lock")
    seen: list[bool] = []

    def probe() -> None:
        seen.append(lock.held)

    measure_pair((probe, probe), rounds=3, repetitions=1, warmup=1, device="cpu", lock=lock)
    assert seen and all(seen)
    assert not lock.held


# --------------------------------------------------------------------------- host vs device
class FakeCuda:
    """Stands in for torch.cuda in CudaTimer: records the stream's order of work."""

    def __init__(self, cycles_per_ms: float) -> None:
        self.ops: list[tuple[str, object]] = []
        self.cycles_per_ms = cycles_per_ms

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        fake = self

        class Event:
            def __init__(self, enable_timing: bool = False) -> None:
                assert enable_timing

            def record(self) -> None:
                fake.ops.append(("record", self))

            def elapsed_time(self, end: Event) -> float:
                # the calibration pair brackets one 2,000,000-cycle spin
                return 2_000_000 / fake.cycles_per_ms

        monkeypatch.setattr(torch.cuda, "Event", Event)
        monkeypatch.setattr(torch.cuda, "_sleep", lambda cycles: fake.ops.append(("spin", cycles)))
        monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: None)


def _busy(ms: float, ops: list[tuple[str, object]]):
    def fn() -> None:
        end = time.perf_counter() + ms / 1e3
        while time.perf_counter() < end:
            pass
        ops.append(("call", None))

    return fn


def test_cuda_timer_spins_ahead_of_each_call_for_longer_than_the_host_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cuda = FakeCuda(cycles_per_ms=1e6)
    cuda.install(monkeypatch)
    fn = _busy(2.0, cuda.ops)
    timer = timing.CudaTimer(torch.device("cpu"), flush_l2=False)
    timer(fn, 3)
    assert timer.cycles_per_ms() == pytest.approx(1e6)
    # two untimed calls learn the host time, two spins between events learn the clock; then
    # per repetition: spin, start event, the call, end event
    kinds = [kind for kind, _ in cuda.ops]
    learn = ["call", "call", "spin", "record", "spin", "record"]
    assert kinds == learn + ["spin", "record", "call", "record"] * 3
    timed = cuda.ops[len(learn) :]
    spins = {cycles for kind, cycles in timed if kind == "spin"}
    assert len(spins) == 1
    (spin,) = spins
    # at least 1.5x the host's 2 ms, at most the cap
    assert 1.5 * 2.0 * 1e6 <= spin <= timers.MAX_SPIN_MS * 1e6
    host = timer.host_ms[fn]  # the two untimed calls, taken with the GPU idle
    assert len(host) == 2 and all(ms >= 2.0 for ms in host)
    assert timer.host_ms_per_call(fn) == min(host)
    timer(fn, 2)  # learned once per callable
    assert len(timer.host_ms[fn]) == 2 and [k for k, _ in cuda.ops].count("spin") == 2 + 5


def test_cuda_timer_without_hide_host_times_host_and_device_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cuda = FakeCuda(cycles_per_ms=1e6)
    cuda.install(monkeypatch)
    fn = _busy(0.1, cuda.ops)
    timer = timing.CudaTimer(torch.device("cpu"), flush_l2=False, hide_host=False)
    timer(fn, 2)
    assert [kind for kind, _ in cuda.ops] == ["record", "call", "record"] * 2
    assert timer.host_ms_per_call(fn) is None


def test_cuda_timer_caps_the_spin(monkeypatch: pytest.MonkeyPatch) -> None:
    cuda = FakeCuda(cycles_per_ms=1e3)
    cuda.install(monkeypatch)
    monkeypatch.setattr(timers, "MAX_SPIN_MS", 1.0)
    timer = timing.CudaTimer(torch.device("cpu"), flush_l2=False)
    assert timer.spin_cycles(_busy(3.0, cuda.ops)) == int(1.0 * 1e3)


def test_speedup_reports_the_host_beside_the_device() -> None:
    base = summarize([1.0, 1.0, 1.0], [0.5, 0.5, 0.5], device="NVIDIA H200", repetitions=10)
    assert base.host_bound == () and base.host_text() == "" and "host" not in str(base)
    host_bound = Speedup(**{**base.to_dict(), "baseline_host_ms": 0.8, "candidate_host_ms": 0.7})
    assert host_bound.host_bound == ("candidate",)
    assert "host-bound: candidate" in str(host_bound)
    assert "0.8000 / 0.7000 ms per call" in str(host_bound)
    device_bound = Speedup(**{**base.to_dict(), "baseline_host_ms": 0.2, "candidate_host_ms": 0.1})
    assert device_bound.host_bound == () and "device-bound" in str(device_bound)
    assert json.loads(json.dumps(host_bound.to_dict()))["candidate_host_ms"] == 0.7


def test_measure_pair_hide_host_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match="hide_host=1: expected True"):
        measure_pair((sleeper(0), sleeper(0)), hide_host=1, device="cpu")  # type: ignore[arg-type]


def test_pair_records_and_failures_carry_the_host_time() -> None:
    from pytest_magi.plugin.verdicts import format_speedup_failure
    from pytest_magi.report import PairRecord, format_pairs_table

    base = summarize([0.45, 0.45, 0.45], [0.37, 0.37, 0.37], device="NVIDIA H200", repetitions=9)
    speedup = Speedup(**{**base.to_dict(), "baseline_host_ms": 0.5, "candidate_host_ms": 0.44})
    rec = PairRecord.from_speedup("t::a", "wan", 1.3, speedup)
    assert (rec.baseline_host_ms, rec.candidate_host_ms) == (0.5, 0.44)
    assert PairRecord.from_dict(json.loads(json.dumps(rec.to_dict()))) == rec
    assert "host enqueue 0.5000 / 0.4400 ms per call" in format_speedup_failure(rec)
    assert "0.5000/0.4400 (host-bound)" in format_pairs_table([rec])[2]
    # the table and Speedup.host_bound share one rule: either side's host over its device time
    baseline_only = PairRecord(**{**rec.to_dict(), "candidate_host_ms": 0.1})
    assert "0.5000/0.1000 (host-bound)" in format_pairs_table([baseline_only])[2]
    device_bound = PairRecord(
        **{**rec.to_dict(), "baseline_host_ms": 0.1, "candidate_host_ms": 0.1}
    )
    assert format_pairs_table([device_bound])[2].split()[4] == "0.1000/0.1000"
    unmeasured = PairRecord.from_speedup("t::b", "x", 1.0, base)
    assert unmeasured.baseline_host_ms is None
    assert "host enqueue" not in format_speedup_failure(unmeasured)
