"""Records of measured pairs and kernel counts, and the reports made of them.

Usable without pytest: `PairRecord` / `KernelCountRecord` are plain frozen dataclasses that turn
into JSON-able dicts (that is also how xdist workers ship them to the controller, through a test
report's `user_properties`); `format_pairs_table`, `format_kernel_counts_table`,
`write_json_report` and `write_png_report` make the terminal summary, `--magi-report` and
`--magi-report-png`. The PNG needs matplotlib (`pip install pytest-magi[plot]`).

Two `--magi-report` files compare pair by pair (`compare_reports`, or on the command line
`python -m pytest_magi.report compare BEFORE.json AFTER.json [--tolerance 0.03]`): each timed
pair's speedup in both, its relative change, and the two runs' wall times. That is how a run
spread over GPUs (`--magi-perf -n N`) is checked against one in a single process, or a run
before a change against one after it.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import importlib.metadata
import importlib.util
import json
import math
import platform
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self


# user_properties names under which a test's records travel (also visible in junit xml)
PAIR_PROPERTY = "magi_pair"
KERNEL_COUNTS_PROPERTY = "magi_kernel_counts"
COMPILE_PROPERTY = "magi_compile"
LOCATE_PROPERTY = "magi_locate"

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

    @classmethod
    def not_measured(cls, test: str, label: str, required: float) -> PairRecord:
        return cls(test=test, label=label, required=required, verdict=VERDICT_NOT_MEASURED)

    @classmethod
    def from_speedup(cls, test: str, label: str, required: float, speedup: Any) -> PairRecord:
        """From a `pytest_magi.timing.Speedup` (`baseline_ms, candidate_ms, ratio, spread, ...`)."""
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
    `pytest_magi.compile_stats.CompileStats`, and a note when the candidate compiles more graphs."""

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


# --------------------------------------------------------------------------- environment
def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def environment() -> dict[str, Any]:
    """Device, torch/triton/python versions and the platform, for the JSON report."""
    import torch

    try:
        from .timing import device_name

        device = device_name()
    except Exception:  # timing unavailable or the device cannot be queried
        if torch.cuda.is_available():
            device = torch.cuda.get_device_name(torch.cuda.current_device())
        else:
            device = f"cpu ({platform.processor() or platform.machine()})"
    return {
        "device": device,
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "triton": _version("triton"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "pytest_magi": _version("pytest-magi"),
    }


# --------------------------------------------------------------------------- terminal
def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def _num(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def _gpu_cell(r: PairRecord) -> str:
    if r.gpu_index is None and r.gpu_name is None:
        return "-"
    index = "?" if r.gpu_index is None else str(r.gpu_index)
    return f"{index} {r.gpu_name}" if r.gpu_name else index


def format_pairs_table(records: Sequence[PairRecord]) -> list[str]:
    """Lines of the table of pairs: test, baseline ms, candidate ms (device time on CUDA), the
    host's enqueue ms per call of each side (baseline/candidate; '-' where not measured), speedup,
    required, verdict, the GPU it was timed on (host index and name), the compile summary and the
    numerics (the pair's last assert_close, or "not checked")."""
    header = [
        "test",
        "pair",
        "baseline ms",
        "candidate ms",
        "host ms b/c",
        "speedup",
        "required",
        "verdict",
        "gpu",
        "compile",
        "numerics",
    ]
    rows = [
        [
            r.test,
            r.label,
            _num(r.baseline_ms, ".4f"),
            _num(r.candidate_ms, ".4f"),
            _host_cell(r),
            "-" if r.speedup is None else f"{r.speedup:.3f}x",
            f"{r.required:.3f}x",
            r.verdict,
            _gpu_cell(r),
            r.compile or "-",
            r.numerics or "-",
        ]
        for r in sorted_by_test(records)
    ]
    return _table(header, rows, right={2, 3, 4, 5, 6})


def _host_cell(r: PairRecord) -> str:
    if r.baseline_host_ms is None or r.candidate_host_ms is None:
        return "-"
    from .timing import host_bound_sides

    bound = host_bound_sides(r.baseline_ms, r.baseline_host_ms, r.candidate_ms, r.candidate_host_ms)
    return f"{r.baseline_host_ms:.4f}/{r.candidate_host_ms:.4f}{' (host-bound)' if bound else ''}"


def _side_cell(side: dict[str, Any]) -> str:
    return (
        f"{side.get('graphs', 0)}g/{side.get('frames', 0)}f "
        f"{side.get('graph_breaks', 0)}brk {side.get('recompiles', 0)}rec"
        + (f" {side['eager_fallbacks']}eager" if side.get("eager_fallbacks") else "")
    )


def format_compile_table(records: Sequence[CompileRecord]) -> list[str]:
    """Lines of the compile-health table: per pair, each side's graphs/frames, graph breaks,
    recompiles (and eager fallbacks), and the note when the candidate compiles more graphs."""
    header = ["test", "pair", "baseline", "candidate", "note"]
    ordered = sorted_by_test(records)
    rows = [
        [r.test, r.label, _side_cell(r.baseline), _side_cell(r.candidate), r.note or ""]
        for r in ordered
    ]
    lines = _table(header, rows, right=set())
    decided = [(r, line) for r in ordered for line in r.decisions]
    if decided:
        lines.append("pass decisions (magi_passes.decisions):")
        lines.extend(f"  {r.test} [{r.label}] {line}" for r, line in decided)
    return lines


def format_kernel_counts_table(records: Sequence[KernelCountRecord]) -> list[str]:
    """Lines of the table of kernel counts: test, label, forward, backward."""
    header = ["test", "label", "forward", "backward"]
    rows = [
        [r.test, r.label, str(r.forward), "-" if r.backward is None else str(r.backward)]
        for r in sorted_by_test(records)
    ]
    return _table(header, rows, right={2, 3})


# --------------------------------------------------------------------------- files
def build_report(
    pairs: Sequence[PairRecord],
    kernel_counts: Sequence[KernelCountRecord],
    *,
    options: dict[str, Any] | None = None,
    env: dict[str, Any] | None = None,
    compile_records: Sequence[CompileRecord] = (),
    locate_records: Sequence[dict[str, Any]] = (),
    duration_s: float | None = None,
    test_times: Sequence[TimedTest] = (),
) -> dict[str, Any]:
    """The JSON-able report: schema, timestamp, the run's wall time (`duration_s`, None where
    not known), environment, options, every record and each test's time (`tests`)."""
    return {
        "schema": REPORT_SCHEMA,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "duration_s": duration_s,
        "environment": env if env is not None else environment(),
        "options": dict(options or {}),
        "pairs": [r.to_dict() for r in sorted_by_test(pairs)],
        "kernel_counts": [r.to_dict() for r in sorted_by_test(kernel_counts)],
        "compile": [r.to_dict() for r in sorted_by_test(compile_records)],
        "locate": sorted(locate_records, key=lambda r: str(r.get("test", ""))),
        "tests": [t.to_dict() for t in sorted_by_test(test_times)],
    }


def write_json_report(path: str | Path, report: dict[str, Any]) -> Path:
    """Write `report` (from `build_report`) as indented JSON; parent folders are created."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path


def matplotlib_available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


class PlotUnavailableError(RuntimeError):
    """A PNG report was asked for but matplotlib is not installed."""


def write_png_report(path: str | Path, pairs: Sequence[PairRecord]) -> Path:
    """Bar chart of each measured pair's speedup against its required ratio.

    Bars are green when the pair passed and red when it failed; the required ratio is a black tick
    on each bar and 1.0x a dashed line. Pairs that were not measured are left out.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise PlotUnavailableError(
            f"writing the PNG report {str(path)!r} needs matplotlib, which is not installed: "
            f"{PLOT_INSTALL_HINT}"
        ) from exc

    measured = [r for r in sorted_by_test(pairs) if r.speedup is not None]
    height = max(2.5, 0.45 * len(measured) + 1.5)
    fig = Figure(figsize=(9, height), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    if measured:
        names = [f"{r.test} [{r.label}]" for r in measured]
        ys = list(range(len(measured)))
        colors = ["#2e7d32" if r.verdict == VERDICT_PASS else "#c62828" for r in measured]
        bars = ax.barh(ys, [r.speedup for r in measured], color=colors, height=0.6)
        ax.bar_label(bars, labels=[f"{r.speedup:.2f}x" for r in measured], padding=3, fontsize=8)
        ax.scatter(
            [r.required for r in measured],
            ys,
            marker="|",
            s=400,
            color="black",
            zorder=3,
            label="required",
        )
        ax.set_yticks(ys, labels=names, fontsize=8)
        ax.invert_yaxis()
        ax.axvline(1.0, color="grey", linestyle="--", linewidth=1)
        ax.legend(loc="lower right", fontsize=8)
    else:
        ax.text(0.5, 0.5, "no measured pairs", ha="center", va="center", transform=ax.transAxes)
        ax.set_yticks([])
    ax.set_xlabel("speedup (baseline ms / candidate ms)")
    ax.set_title("pytest-magi: candidate speedup vs required")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    return path


# --------------------------------------------------------------------------- comparing two
DEFAULT_COMPARE_TOLERANCE = 0.03  # issue 19: a pair's speedup in two runs, each within 3%


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
        lines = _table(header, rows, right={2, 3, 4})
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
                before_gpu="-" if b is None else _gpu_cell(b),
                after_gpu="-" if a is None else _gpu_cell(a),
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


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m pytest_magi.report compare BEFORE AFTER [--tolerance T]`: print the comparison;
    exit 0 when every pair is within the tolerance, 1 when not, 2 on a bad file or argument."""
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
    args = parser.parse_args(argv)
    try:
        result = compare_reports(
            load_report(args.before), load_report(args.after), tolerance=args.tolerance
        )
    except ValueError as exc:  # a ReportError too
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(result.lines()))
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
