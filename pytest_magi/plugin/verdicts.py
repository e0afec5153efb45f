"""What the markers decide after a test's body ran: compile limits, `min_speedup` timing and
`min_estimated_speedup` budgets.

Imported by the hooks only for tests that carry these markers, so a run that uses none of them
never loads timing or report code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from ..report import NUMERICS_NOT_CHECKED, VERDICT_TEST_FAILED, EstimateRecord, PairRecord
from .markers import CompileLimit, MinEstimatedSpeedup, MinSpeedup

PERF_SKIP_REASON = "timing skipped: run with --magi-perf"
NO_PAIR_MESSAGE = "min_speedup test built no compiled_pair"


def cpu_skip_reason(labels: Sequence[str]) -> str:
    """Why `--magi-perf` does not time pairs that run on the CPU (without `--magi-perf-cpu`)."""
    import torch

    where = "no CUDA GPU here" if not torch.cuda.is_available() else "the pair runs on the CPU"
    return (
        f"timing skipped: {where} (pair {', '.join(map(repr, labels))}; torch "
        f"{torch.__version__}); min_speedup times compiled GPU code, and a pass written for CUDA "
        f"says nothing by its CPU speed. Run on a GPU, or add --magi-perf-cpu to time the CPU code"
    )


def _on_cpu(pair: Any) -> bool:
    device = getattr(pair, "device", None)
    return device is not None and str(device).split(":")[0] == "cpu"


def _fail_without_pairs(usage: str, does: str) -> None:
    """A marker that acts on the test's compiled pairs, on a test that built none."""
    pytest.fail(
        f"{usage} {does} the compiled_pair(s) the test builds, and it built none; build one "
        f"with the compiled_pair fixture (compiled_pair(model, *inputs)), or drop the marker",
        pytrace=False,
    )


def check_compile_limits(nodeid: str, limits: Sequence[CompileLimit], pairs: Sequence[Any]) -> None:
    """After the body passed: every pair must meet every limit; one failure lists them all."""
    if not pairs:
        _fail_without_pairs(", ".join(f"@pytest.mark.{lim.marker}" for lim in limits), "checks")
    problems: list[str] = []
    for pair in pairs:
        for lim in limits:
            try:
                pair.expect_compile(side=lim.side, **{lim.count: 0})
            except AssertionError as exc:
                problems.append(f"@pytest.mark.{lim.marker}: {exc}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def compile_summary(pair: Any) -> str | None:
    """The compile column of a pair: ``graphs 3->4 (more), breaks 1->1, recompiles 0->0``."""
    stats = getattr(pair, "compile_stats", None)
    if not isinstance(stats, dict) or set(stats) != {"baseline", "candidate"}:
        return None
    b, c = stats["baseline"], stats["candidate"]
    more = " (more)" if c.graphs > b.graphs else ""
    return (
        f"graphs {b.graphs}->{c.graphs}{more}, breaks {b.graph_breaks}->{c.graph_breaks}, "
        f"recompiles {b.recompiles}->{c.recompiles}"
    )


def numerics_of(pair: Any) -> str:
    """The numerics cell of a pair's report row: its last ``assert_close`` in one line, or
    ``"not checked"`` (a speedup nothing vouches for: the test never compared the outputs)."""
    text = getattr(pair, "numerics", None)
    return text if isinstance(text, str) and text else NUMERICS_NOT_CHECKED


def _untimed(nodeid: str, pair: Any, spec: MinSpeedup, verdict: str | None = None) -> PairRecord:
    rec = PairRecord.not_measured(nodeid, str(pair.label), spec.ratio)
    return dataclasses.replace(
        rec,
        verdict=verdict or rec.verdict,
        compile=_safe(compile_summary, pair),
        numerics=numerics_of(pair),
    )


def _safe(fn: Callable[[Any], str | None], pair: Any) -> str | None:
    try:
        return fn(pair)
    except Exception:  # a pair whose compile failed has no stats: its row still shows
        return None


def record_failed_pairs(
    nodeid: str, spec: MinSpeedup, pairs: Sequence[Any], record: Callable[[PairRecord], None]
) -> None:
    """A `min_speedup` test whose body failed: its pairs are reported, untimed, with their
    numerics (a failed `assert_close` is the row a user most needs to see)."""
    for pair in pairs:
        record(_untimed(nodeid, pair, spec, VERDICT_TEST_FAILED))


def check_min_speedup(
    nodeid: str,
    spec: MinSpeedup,
    pairs: Sequence[Any],
    *,
    perf: bool,
    perf_cpu: bool,
    rounds: int,
    record: Callable[[PairRecord], None],
    estimate_profile: str | None = None,
) -> None:
    """After a `min_speedup` test's body passed: time its pairs (or skip) and give the verdict.
    With ``estimate_profile`` (`--magi-estimate`) each timed pair's speedup is also estimated
    from its generated code (`pair.budget`) and recorded beside the measured one; an estimate
    that cannot be made is recorded with its reason and never changes the verdict.

    Every pair is recorded through `record`, measured or not. Raises `pytest.fail` when a pair
    misses the ratio or the test built no pair, `pytest.skip` when timing is off, or when a
    pair runs on the CPU and `perf_cpu` (`--magi-perf-cpu`) is not set.
    """
    if not pairs:
        _fail_without_pairs(f"{NO_PAIR_MESSAGE}: @pytest.mark.min_speedup({spec.ratio:g})", "times")
    if not perf:
        for pair in pairs:
            record(_untimed(nodeid, pair, spec))
        pytest.skip(PERF_SKIP_REASON)
    on_cpu = [str(pair.label) for pair in pairs if _on_cpu(pair)]
    if on_cpu and not perf_cpu:
        reason = cpu_skip_reason(on_cpu)
        for pair in pairs:
            record(_untimed(nodeid, pair, spec))
        pytest.skip(reason)

    from ..measure.gpus import timed_gpu
    from ..timing import PerfLock, measure_pair

    failures: list[PairRecord] = []
    for pair in pairs:
        with PerfLock():  # re-entrant: measure_pair takes it too
            speedup = measure_pair(pair, rounds=rounds, threshold=spec.ratio)
        rec = PairRecord.from_speedup(nodeid, str(pair.label), spec.ratio, speedup)
        gpu_index, gpu_name = timed_gpu(getattr(pair, "device", None), rec.device)
        rec = dataclasses.replace(
            rec,
            compile=compile_summary(pair),
            gpu_index=gpu_index,
            gpu_name=gpu_name,
            numerics=numerics_of(pair),
        )
        if estimate_profile is not None:
            rec = _with_estimate(rec, pair, estimate_profile)
        record(rec)
        if rec.verdict != "pass":
            failures.append(rec)
    if failures:
        pytest.fail("\n".join(format_speedup_failure(rec) for rec in failures), pytrace=False)


def _with_estimate(rec: PairRecord, pair: Any, profile: str) -> PairRecord:
    """``rec`` with the pair's speedup estimated on ``profile``, or the reason there is none."""
    try:
        estimated = float(pair.budget(profile).estimated_speedup)
    except Exception as exc:  # a side fake CUDA cannot generate, a backend of its own...
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return dataclasses.replace(rec, estimate_profile=profile, estimate_error=reason[:300])
    return dataclasses.replace(rec, estimated_speedup=estimated, estimate_profile=profile)


def format_speedup_failure(rec: PairRecord) -> str:
    """The failure text of one pair below its required speedup."""
    return (
        f"min_speedup({rec.required:g}) not met by pair {rec.label!r}: "
        f"speedup {rec.speedup:.3f}x < required {rec.required:.3f}x\n"
        f"  baseline  median {rec.baseline_ms:.4f} ms\n"
        f"  candidate median {rec.candidate_ms:.4f} ms\n"
        f"  spread {rec.spread:.1%} (IQR/median of the round ratios) over {rec.rounds} rounds\n"
        f"  device {rec.device}{'' if rec.gpu_index is None else f' (GPU {rec.gpu_index})'}, "
        f"torch {rec.torch_version}" + _host_line(rec) + f"\n  numerics {rec.numerics or '-'}"
    )


def _host_line(rec: PairRecord) -> str:
    if rec.baseline_host_ms is None or rec.candidate_host_ms is None:
        return ""  # not measured (off CUDA): nothing to say
    from ..measure.timing import host_text

    text = host_text(rec.baseline_ms, rec.baseline_host_ms, rec.candidate_ms, rec.candidate_host_ms)
    return f"\n  {text}" if text else ""


def check_estimated_speedup(
    nodeid: str,
    spec: MinEstimatedSpeedup,
    pairs: Sequence[Any],
    record: Callable[[EstimateRecord], None],
) -> None:
    """After a `min_estimated_speedup` test's body passed: each pair's budgets on the profile
    (`pair.budget`), recorded through `record`; `pytest.fail` naming every pair below the ratio,
    every pair whose code could not be generated, or a test that built no pair."""
    usage = f"@pytest.mark.min_estimated_speedup({spec.ratio:g}, profile={spec.profile!r})"
    if not pairs:
        _fail_without_pairs(usage, "estimates")
    from ..budget import BudgetError

    problems: list[str] = []
    for pair in pairs:
        try:
            budgets = pair.budget(spec.profile)
        except (BudgetError, ValueError) as exc:
            problems.append(f"{usage}: no budget for pair {pair.label!r}: {exc}")
            continue
        rec = EstimateRecord.from_budgets(nodeid, spec.ratio, budgets)
        record(rec)
        if rec.verdict != "pass":
            problems.append(
                f"{usage} not met by pair {rec.label!r}: estimated speedup {rec.speedup:.3f}x "
                f"< required {spec.ratio:.3f}x on profile {rec.profile} (estimated from the "
                f"code generated for {rec.device}, torch {rec.torch_version}; not measured)\n"
                f"{budgets.summary()}"
            )
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
