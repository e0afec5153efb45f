"""Two `--magi-report` files compared pair by pair (`compare_reports`, and on the command line
`python -m pytest_magi.report compare BEFORE.json AFTER.json [--tolerance 0.03]`): each timed
pair's speedup in both, its relative change, and the two runs' wall times. That is how a run
spread over GPUs (`--magi-perf -n N`) is checked against one in a single process, or a run
before a change against one after it."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .records import REPORT_SCHEMA, PairRecord, TimedTest
from .tables import gpu_cell, table_lines

# --------------------------------------------------------------------------- comparing two
DEFAULT_COMPARE_TOLERANCE = 0.03  # a pair's speedup in two runs, each within 3%


class ReportError(ValueError):
    """A file given as a `--magi-report` is missing, not JSON, or not such a report."""


def load_report(path: str | Path) -> dict[str, Any]:
    """A `--magi-report` file, checked: a `ReportError` naming the path and the fix otherwise."""
    path = Path(path)
    fix = "write one with `pytest --magi-perf --magi-report PATH`"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReportError(f"no report at {str(path)!r}: {fix}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{str(path)!r} is not a readable JSON report ({exc}): {fix}") from None
    schema = data.get("schema") if isinstance(data, dict) else None
    if schema != REPORT_SCHEMA or not isinstance(data.get("pairs"), list):
        raise ReportError(
            f"{str(path)!r} is not a pytest-magi report: schema {schema!r}, expected "
            f"{REPORT_SCHEMA!r} with a list of pairs: {fix}"
        )
    return data


@dataclass(frozen=True)
class PairChange:
    """One pair (test and label) in two reports: each run's speedup and GPU (None / "-" where
    that run has the pair but did not time it)."""

    test: str
    label: str
    before: float | None
    after: float | None
    before_gpu: str = "-"
    after_gpu: str = "-"
    # each run's numerics outcome (`numerics_outcome`: "ok", "candidate OVER", "not checked"...)
    before_numerics: str | None = None
    after_numerics: str | None = None

    @property
    def candidate_wrong(self) -> bool:
        """The later run's check found the candidate's numbers wrong: its speedup counts for
        nothing, whatever it is."""
        return self.after_numerics is not None and self.after_numerics.startswith("candidate")

    @property
    def change(self) -> float | None:
        """after / before - 1; None unless both runs timed the pair."""
        if self.before is None or self.after is None or self.before <= 0:
            return None
        return self.after / self.before - 1

    def within(self, tolerance: float) -> bool:
        """Both runs timed it, the speedups differ by at most `tolerance` (relative) and the
        later run did not find the candidate's numbers wrong."""
        change = self.change
        return change is not None and abs(change) <= tolerance and not self.candidate_wrong


@dataclass(frozen=True)
class ReportComparison:
    """Two reports side by side (`compare_reports`): `ok` when every pair either run has was
    timed in both, each speedup moved by at most `tolerance`, and no candidate's numbers were
    found wrong in the later run."""

    tolerance: float
    pairs: tuple[PairChange, ...]
    before_s: float | None = None
    after_s: float | None = None
    before_workers: int | None = None
    after_workers: int | None = None
    # each run's per-test times (reports written before `tests` existed: empty)
    before_tests: tuple[TimedTest, ...] = ()
    after_tests: tuple[TimedTest, ...] = ()

    @property
    def off(self) -> tuple[PairChange, ...]:
        """The pairs that fail the comparison: moved by more than the tolerance, or not timed
        (or not there) in one of the runs."""
        return tuple(p for p in self.pairs if not p.within(self.tolerance))

    @property
    def ok(self) -> bool:
        return bool(self.pairs) and not self.off

    @property
    def time_ratio(self) -> float | None:
        """after's wall time over before's (0.5: the second run took half as long)."""
        if not self.before_s or self.after_s is None:
            return None
        return self.after_s / self.before_s

    def lines(self) -> list[str]:
        """The comparison as a table, then the wall times and a verdict line."""
        header = [
            "test",
            "pair",
            "before",
            "after",
            "change",
            "gpu before",
            "gpu after",
            "numerics",
            "verdict",
        ]
        rows = [
            [
                p.test,
                p.label,
                "-" if p.before is None else f"{p.before:.3f}x",
                "-" if p.after is None else f"{p.after:.3f}x",
                "-" if p.change is None else f"{p.change:+.1%}",
                p.before_gpu,
                p.after_gpu,
                f"{p.before_numerics or '-'} -> {p.after_numerics or '-'}",
                "ok" if p.within(self.tolerance) else _off_reason(p, self.tolerance),
            ]
            for p in self.pairs
        ]
        lines = table_lines(header, rows, right={2, 3, 4})
        lines.append(
            f"wall time: before {_seconds(self.before_s, self.before_workers)}, after "
            f"{_seconds(self.after_s, self.after_workers)}"
            + ("" if self.time_ratio is None else f" (after/before {self.time_ratio:.2f})")
        )
        lines.extend(self._test_time_lines())
        timed = sum(p.change is not None for p in self.pairs)
        if not self.pairs:
            verdict = (
                "no pairs in either report: nothing to compare (were they run with --magi-perf?)"
            )
        elif self.ok:
            verdict = f"all {timed} timed pairs within {self.tolerance:.1%}"
        else:
            verdict = (
                f"{len(self.off)} of {len(self.pairs)} pairs off (tolerance {self.tolerance:.1%})"
            )
        lines.append(verdict)
        return lines

    def _test_time_lines(self, most: int = 5) -> list[str]:
        """Where the wall time went: each run's summed test time (per worker), and the tests
        that took longest over the other run (a cache one process shares, a cold compile a
        worker repeats)."""
        if not self.before_tests or not self.after_tests:
            return []
        lines = [f"test time: before {_busy(self.before_tests)}; after {_busy(self.after_tests)}"]
        before = {t.test: t for t in self.before_tests}
        grown = sorted(
            (
                (t.duration_s - before[t.test].duration_s, t, before[t.test])
                for t in self.after_tests
                if t.test in before
            ),
            key=lambda x: x[0],
            reverse=True,
        )
        for extra, a, b in [g for g in grown if g[0] >= 1.0][:most]:
            where = f", {a.worker}" if a.worker else ""
            lines.append(
                f"  longer after: {a.test} {b.duration_s:.1f} s -> {a.duration_s:.1f} s "
                f"(+{extra:.1f} s{where})"
            )
        return lines


def _busy(times: Sequence[TimedTest]) -> str:
    total = sum(t.duration_s for t in times)
    workers: dict[str, float] = {}
    for t in times:
        workers[t.worker] = workers.get(t.worker, 0.0) + t.duration_s
    if set(workers) <= {""}:
        return f"{total:.1f} s of tests"
    each = ", ".join(f"{w or '?'} {s:.1f} s" for w, s in sorted(workers.items()))
    return f"{total:.1f} s of tests ({each})"


def _off_reason(p: PairChange, tolerance: float) -> str:
    if p.before is None and p.after is None:
        return "not timed in either"
    if p.before is None:
        return "not timed before"
    if p.after is None:
        return "not timed after"
    if p.candidate_wrong:
        return "numbers wrong after"
    return f"OFF (> {tolerance:.1%})"


def numerics_outcome(text: str | None) -> str | None:
    """The verdict at the end of a pair's numerics line: "ok", "candidate OVER", "baseline OVER
    (miscompiled)", "candidate MISMATCH", "not checked"; None for reports without the column."""
    if not text:
        return None
    if "; " in text:
        return text.rsplit("; ", 1)[-1]
    return text.rsplit(": ", 1)[-1]


def _seconds(value: float | None, workers: int | None) -> str:
    where = (
        "" if workers is None else (" in one process" if workers == 0 else f" on {workers} workers")
    )
    return ("-" if value is None else f"{value:.1f} s") + where


def _pair_key(record: PairRecord) -> tuple[str, str]:
    return record.test, record.label


def compare_reports(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    *,
    tolerance: float = DEFAULT_COMPARE_TOLERANCE,
) -> ReportComparison:
    """Each pair of two `--magi-report` dicts (from `load_report`) matched by test and label,
    with its speedup in both and the relative change; the union of both runs' pairs, so a pair
    only one run timed is shown (and fails the comparison)."""
    if not (
        isinstance(tolerance, (int, float)) and math.isfinite(tolerance) and 0 <= tolerance < 1
    ):
        raise ValueError(
            f"tolerance must be a relative change in [0, 1), e.g. 0.03 for 3%; got {tolerance!r}"
        )
    sides = []
    for data in (before, after):
        records = [PairRecord.from_dict(d) for d in data.get("pairs", [])]
        sides.append({_pair_key(r): r for r in records})
    keys = sorted(set(sides[0]) | set(sides[1]))
    changes = []
    for key in keys:
        b, a = sides[0].get(key), sides[1].get(key)
        changes.append(
            PairChange(
                test=key[0],
                label=key[1],
                before=None if b is None else b.speedup,
                after=None if a is None else a.speedup,
                before_gpu="-" if b is None else gpu_cell(b),
                after_gpu="-" if a is None else gpu_cell(a),
                before_numerics=None if b is None else numerics_outcome(b.numerics),
                after_numerics=None if a is None else numerics_outcome(a.numerics),
            )
        )

    def workers(data: Mapping[str, Any]) -> int | None:
        value = (data.get("options") or {}).get("workers")
        return value if isinstance(value, int) else None

    def seconds(data: Mapping[str, Any]) -> float | None:
        value = data.get("duration_s")
        return float(value) if isinstance(value, (int, float)) else None

    def tests(data: Mapping[str, Any]) -> tuple[TimedTest, ...]:
        return tuple(TimedTest.from_dict(t) for t in data.get("tests") or [] if isinstance(t, dict))

    return ReportComparison(
        tolerance=float(tolerance),
        pairs=tuple(changes),
        before_s=seconds(before),
        after_s=seconds(after),
        before_workers=workers(before),
        after_workers=workers(after),
        before_tests=tests(before),
        after_tests=tests(after),
    )


def report_ratios(report: Mapping[str, Any]) -> list[Any]:
    """The pairs of a `--magi-report` (``load_report``) as ratio entries: a pair is recorded
    when it was timed and its candidate's output was right (`RIGHT_OUTCOMES`; a baseline that
    miscompiled does not stop it); every other pair comes back with ``skipped`` saying why
    (`pytest_magi.bench.gpu_ratios.ReportRatio`s)."""
    from ..bench.gpu_ratios import RIGHT_OUTCOMES, ReportRatio, entry_name

    out: list[ReportRatio] = []
    for pair in report["pairs"]:
        name = entry_name(str(pair.get("label", "")))
        speedup = pair.get("speedup")
        outcome = numerics_outcome(pair.get("numerics"))
        rounds = pair.get("rounds")
        measured_by = str(pair.get("test", "")) + (f", {rounds} rounds" if rounds else "")
        skipped = ""
        if speedup is None:
            skipped = f"not timed ({pair.get('verdict')})"
        elif outcome not in RIGHT_OUTCOMES:
            skipped = f"its numerics are not right: {outcome or 'not in the report'}"
        out.append(
            ReportRatio(
                name,
                None if speedup is None else float(speedup),
                str(pair.get("device") or ""),
                str(pair.get("torch_version") or ""),
                measured_by,
                skipped,
            )
        )
    return out


def _record_ratios(reports: Sequence[str], into: Path) -> int:
    """Record the timed, right pairs of ``reports`` into ``into``; say what was skipped."""
    from ..bench import gpu_ratios

    try:
        rows = [row for path in reports for row in report_ratios(load_report(path))]
        gpu_ratios.load(into)  # a broken ratio file is said before anything is written
    except ValueError as exc:  # a ReportError too
        print(f"error: {exc}", file=sys.stderr)
        return 2
    recorded = [row for row in rows if not row.skipped]
    for row in rows:
        said = f"skipped: {row.skipped}" if row.skipped else f"{row.ratio:.3f}x"
        print(f"{row.name}: {said}")
    for row in recorded:
        assert row.ratio is not None
        gpu_ratios.record(
            into,
            {row.name: row.ratio},
            device=row.device,
            torch_version=row.torch,
            measured_by=row.measured_by,
        )
    print(f"{len(recorded)} of {len(rows)} pairs recorded in {into}")
    return 0 if recorded else 1


def estimate_rows(report: Mapping[str, Any]) -> list[Any]:
    """The timed pairs of a `--magi-estimate` run as `budget_check.Row`s (measured beside
    estimated); a pair with no estimate is a row with its reason, a pair not timed is left out."""
    from ..bench.budget_check import Row

    rows = []
    for data in report["pairs"]:
        rec = PairRecord.from_dict(data)
        if rec.speedup is None or rec.estimate_profile is None:
            continue
        label = f"{rec.label} ({rec.test})"
        if rec.estimated_speedup is None:
            rows.append(Row(label, error=f"no estimate: {rec.estimate_error or 'not recorded'}"))
            continue
        rows.append(
            Row(
                label,
                estimated=rec.estimated_speedup,
                measured=rec.speedup,
                measured_ms=(rec.baseline_ms or 0.0, rec.candidate_ms or 0.0),
                measured_by=f"{rec.device}, torch {rec.torch_version}, {rec.rounds} rounds",
                numerics=rec.numerics or "",
            )
        )
    return rows


def _estimates(reports: Sequence[str]) -> int:
    """Print the estimate beside the measurement for every pair of ``reports``, and the
    targets; exit 0 when they are met, 1 when one is missed or no pair has both, 2 on a bad file."""
    from ..bench import budget_check

    try:
        rows = [row for path in reports for row in estimate_rows(load_report(path))]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not rows:
        print(
            "no timed pair with an estimate: run the GPU tests with "
            "`pytest --magi-perf --magi-estimate h200 --magi-report PATH`"
        )
        return 1
    print(budget_check.table(rows))
    missed = False
    for what, met, number in budget_check.targets(rows)[:2]:  # kernels are not profiled here
        missed = missed or not met
        print(f"{'met' if met else 'MISSED'}: {what}: {number}")
    print(
        "kernels: not profiled in a test run; "
        "`python benchmarks/zoo.py budget-check` checks each kernel over 100 us"
    )
    return 1 if missed else 0


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m pytest_magi.report compare BEFORE AFTER [--tolerance T]`: print the comparison;
    exit 0 when every pair is within the tolerance, 1 when not, 2 on a bad file or argument.
    `python -m pytest_magi.report ratios REPORT... --into PATH`: record the timed pairs whose
    candidate was right into a GPU-ratio file; exit 1 when none was, 2 on a bad file.
    `python -m pytest_magi.report estimates REPORT...`: each pair's estimated speedup beside the
    measured one (`--magi-estimate` runs) and the targets; exit 1 when one is missed."""
    parser = argparse.ArgumentParser(
        prog="python -m pytest_magi.report", description="Work with pytest-magi reports"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    compare = commands.add_parser(
        "compare", help="each timed pair's speedup in two --magi-report files, and the wall times"
    )
    compare.add_argument("before", help="the first run's --magi-report JSON (e.g. -n 0)")
    compare.add_argument("after", help="the second run's --magi-report JSON (e.g. -n 2)")
    compare.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_COMPARE_TOLERANCE,
        help=f"largest relative change of a speedup (default {DEFAULT_COMPARE_TOLERANCE})",
    )
    ratios = commands.add_parser(
        "ratios",
        help="record each timed pair of --magi-report files into a GPU-ratio file "
        "(benchmarks/results/gpu_ratios.json), the ratios the CPU job prints beside its budgets",
    )
    ratios.add_argument("reports", nargs="+", help="--magi-report JSON files of GPU runs")
    ratios.add_argument("--into", required=True, type=Path, help="the GPU-ratio file to update")
    estimates = commands.add_parser(
        "estimates",
        help="each pair a --magi-perf --magi-estimate run timed: its estimated speedup beside "
        "the measured one, and the budget's targets met or missed",
    )
    estimates.add_argument("reports", nargs="+", help="--magi-report JSON files of GPU runs")
    args = parser.parse_args(argv)
    if args.command == "ratios":
        return _record_ratios(args.reports, args.into)
    if args.command == "estimates":
        return _estimates(args.reports)
    try:
        result = compare_reports(
            load_report(args.before), load_report(args.after), tolerance=args.tolerance
        )
    except ValueError as exc:  # a ReportError too
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(result.lines()))
    return 0 if result.ok else 1
