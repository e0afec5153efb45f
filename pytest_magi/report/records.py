"""Records of measured pairs, kernel counts, compile health and timed tests: plain frozen
dataclasses that turn into JSON-able dicts (how xdist workers ship them to the controller, through
a test report's `user_properties`), and the verdict and property names they carry."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

# user_properties names under which a test's records travel (also visible in junit xml)
PAIR_PROPERTY = "magi_pair"
KERNEL_COUNTS_PROPERTY = "magi_kernel_counts"
COMPILE_PROPERTY = "magi_compile"
LOCATE_PROPERTY = "magi_locate"
ESTIMATE_PROPERTY = "magi_estimate"

REPORT_SCHEMA = "pytest-magi-report/1"
PLOT_INSTALL_HINT = "pip install pytest-magi[plot]"

VERDICT_PASS = "pass"
VERDICT_FAIL = "FAIL"
VERDICT_NOT_MEASURED = "not measured"
# a min_speedup pair whose test failed before timing (its numerics say why): never timed
VERDICT_TEST_FAILED = "not timed: test failed"
NUMERICS_NOT_CHECKED = "not checked"


def _optional_ms(value: Any) -> float | None:
    return None if value is None else float(value)


class _Record:
    """The JSON round trip of the report's record dataclasses (`to_dict`, `from_dict`)."""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """From `to_dict()` output; unknown keys are dropped, missing ones (older reports, e.g.
        without `gpu_index` / `gpu_name`) take their defaults."""
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class PairRecord(_Record):
    """One `compiled_pair` of a `min_speedup` test: its timing and verdict (None when not timed)."""

    test: str
    label: str
    required: float
    verdict: str
    baseline_ms: float | None = None
    candidate_ms: float | None = None
    speedup: float | None = None
    spread: float | None = None
    rounds: int | None = None
    device: str | None = None
    torch_version: str | None = None
    compile: str | None = None  # "graphs 3->4 (more), breaks 1->1, recompiles 0->0"
    # the GPU the pair was timed on (under `--magi-perf -n N`, the GPU its worker owned): host
    # index (None where CUDA_VISIBLE_DEVICES names it by UUID) and name; both None off CUDA
    gpu_index: int | None = None
    gpu_name: str | None = None
    # the host's time to enqueue one call of each side (CUDA; the ms above are device time)
    baseline_host_ms: float | None = None
    candidate_host_ms: float | None = None
    # the pair's last assert_close in one line (each side's distance from the reference, the
    # bound, the verdict), NUMERICS_NOT_CHECKED where the test never checked it
    numerics: str | None = None
    # --magi-estimate: the speedup estimated from the pair's generated code on `estimate_profile`
    # (`pair.budget`), or why it could not be (`estimate_error`)
    estimated_speedup: float | None = None
    estimate_profile: str | None = None
    estimate_error: str | None = None

    @classmethod
    def not_measured(cls, test: str, label: str, required: float) -> PairRecord:
        return cls(test=test, label=label, required=required, verdict=VERDICT_NOT_MEASURED)

    @classmethod
    def from_speedup(cls, test: str, label: str, required: float, speedup: Any) -> PairRecord:
        """From a `pytest_magi.measure.timing.Speedup` (`baseline_ms, candidate_ms, ratio, spread, ...`)."""
        ratio = float(speedup.ratio)
        return cls(
            test=test,
            label=label,
            required=required,
            verdict=VERDICT_PASS if ratio >= required else VERDICT_FAIL,
            baseline_ms=float(speedup.baseline_ms),
            candidate_ms=float(speedup.candidate_ms),
            speedup=ratio,
            spread=float(speedup.spread),
            rounds=int(speedup.rounds),
            device=str(speedup.device),
            torch_version=str(speedup.torch_version),
            baseline_host_ms=_optional_ms(getattr(speedup, "baseline_host_ms", None)),
            candidate_host_ms=_optional_ms(getattr(speedup, "candidate_host_ms", None)),
        )


@dataclass(frozen=True)
class EstimateRecord(_Record):
    """One `compiled_pair` of a `min_estimated_speedup` test: each side's budget totals on a
    GPU profile (estimated from generated code, never timed) and the verdict."""

    test: str
    label: str
    required: float
    verdict: str
    profile: str
    baseline_ms: float | None = None  # estimated ms of one call on the profile
    candidate_ms: float | None = None
    speedup: float | None = None  # baseline_ms / candidate_ms
    # per side: {"kernels": int, "launches": int, "bytes": int, "flops": int}
    baseline: dict[str, int] = dataclasses.field(default_factory=dict)
    candidate: dict[str, int] = dataclasses.field(default_factory=dict)
    device: str | None = None  # "fake cuda" on a machine without a GPU
    torch_version: str | None = None

    @classmethod
    def from_budgets(cls, test: str, required: float, budgets: Any) -> EstimateRecord:
        """From a `pytest_magi.budget.PairBudget`."""
        speedup = float(budgets.estimated_speedup)

        def totals(b: Any) -> dict[str, int]:
            return {
                "kernels": int(b.kernels),
                "launches": int(b.launches),
                "bytes": int(b.bytes),
                "flops": int(b.flops),
            }

        return cls(
            test=test,
            label=str(budgets.label),
            required=required,
            verdict=VERDICT_PASS if speedup >= required else VERDICT_FAIL,
            profile=str(budgets.candidate.profile.name),
            baseline_ms=float(budgets.baseline.estimated_ms),
            candidate_ms=float(budgets.candidate.estimated_ms),
            speedup=speedup,
            baseline=totals(budgets.baseline),
            candidate=totals(budgets.candidate),
            device=str(budgets.candidate.device),
            torch_version=str(budgets.candidate.torch_version),
        )


@dataclass(frozen=True)
class KernelCountRecord(_Record):
    """Triton kernel counts one test asked for (`kernel_counts` / `inductor_codegen` fixtures)."""

    test: str
    label: str
    forward: int
    backward: int | None = None


@dataclass(frozen=True)
class TimedTest(_Record):
    """One test's wall time in a run (setup, call and teardown together) and the xdist worker
    that ran it ("" without xdist): a report's `tests`, so two runs' time can be told apart
    test by test (`compare_reports`)."""

    test: str
    duration_s: float
    worker: str = ""
    outcome: str = ""


@dataclass(frozen=True)
class CompileRecord(_Record):
    """Compile health of one `compiled_pair` (every pair a test built): per side the counts of
    `pytest_magi.capture.compile_stats.CompileStats`, and a note when the candidate compiles more graphs."""

    test: str
    label: str
    baseline: dict[str, Any]
    candidate: dict[str, Any]
    note: str | None = None
    # how a magi side chose each graph's variant where a measured pass was in play
    # ("candidate graph 0: measured: plain 1.310 ms vs magi 1.520 ms (margin 2%), kept plain")
    decisions: list[str] = dataclasses.field(default_factory=list)

    @classmethod
    def from_pair(cls, test: str, pair: Any) -> CompileRecord | None:
        stats = getattr(pair, "compile_stats", None)
        if not isinstance(stats, dict) or set(stats) != {"baseline", "candidate"}:
            return None
        decisions = getattr(pair, "decisions", None)
        return cls(
            test=test,
            label=str(pair.label),
            baseline=stats["baseline"].to_dict(),
            candidate=stats["candidate"].to_dict(),
            note=getattr(pair, "compile_note", None),
            decisions=decision_lines(decisions if isinstance(decisions, dict) else {}),
        )


def decision_lines(decisions: Mapping[str, Sequence[Any]]) -> list[str]:
    """One line per graph whose variant a measurement chose or could have chosen (a static
    decision with no measured pass in play says nothing and is left out)."""
    lines = []
    for side, ds in decisions.items():
        for i, d in enumerate(ds):
            if d.in_play:
                lines.append(f"{side} graph {i}: {d.describe()}")
    return lines


def sorted_by_test(records: Iterable[Any]) -> list[Any]:
    """Stable sort by test id (xdist delivers tests in any order; a test's own order stays)."""
    return sorted(records, key=lambda r: r.test)
