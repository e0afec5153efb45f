"""`pytest_magi.report`: records, terminal tables, the JSON and PNG reports."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_magi import report
from pytest_magi.plugin.session import MagiSession
from pytest_magi.report import KernelCountRecord, PairRecord, TimedTest


@dataclass(frozen=True)
class FakeSpeedup:
    baseline_ms: float
    candidate_ms: float
    ratio: float
    spread: float = 0.02
    rounds: int = 8
    device: str = "NVIDIA H200"
    torch_version: str = "2.11.0+cu130"


def _pairs() -> list[PairRecord]:
    return [
        PairRecord.from_speedup("t.py::test_b", "cl", 1.2, FakeSpeedup(1.21, 0.97, 1.25)),
        PairRecord.from_speedup("t.py::test_a", "nd", 1.3, FakeSpeedup(2.16, 1.52, 1.25)),
        PairRecord.not_measured("t.py::test_c", "both", 1.1),
    ]


def test_pair_record_verdicts_and_round_trip() -> None:
    passed, failed, unmeasured = _pairs()
    assert passed.verdict == "pass" and failed.verdict == "FAIL"
    assert unmeasured.verdict == "not measured" and unmeasured.speedup is None
    assert passed.device == "NVIDIA H200" and passed.rounds == 8
    for rec in _pairs():
        assert PairRecord.from_dict(json.loads(json.dumps(rec.to_dict()))) == rec
    exact = PairRecord.from_speedup("t", "x", 1.25, FakeSpeedup(1.25, 1.0, 1.25))
    assert exact.verdict == "pass"  # >= ratio passes


def test_the_pairs_table_shows_each_pairs_numerics_beside_its_speedup() -> None:
    """The last column: the pair's last assert_close in one line, "not checked" where the test
    compared nothing, "-" in reports from before the column (their records load as None)."""
    checked, unmeasured = _pairs()[0], _pairs()[2]
    text = "fp32 rel-L2: candidate 9.68e-03, baseline 1.21e-02, eager 1.40e-02; bound 2.80e-02; ok"
    rows = [
        PairRecord(**{**checked.to_dict(), "numerics": text}),
        PairRecord(**{**unmeasured.to_dict(), "numerics": report.NUMERICS_NOT_CHECKED}),
    ]
    for rec in rows:
        assert PairRecord.from_dict(json.loads(json.dumps(rec.to_dict()))) == rec
    old = {k: v for k, v in checked.to_dict().items() if k != "numerics"}
    assert PairRecord.from_dict(old).numerics is None
    lines = report.format_pairs_table(rows)
    column = lines[0].index("numerics")
    assert lines[2][column:].rstrip() == text
    assert lines[3][column:].rstrip() == "not checked"


def test_kernel_count_record_round_trip() -> None:
    rec = KernelCountRecord("t.py::test", "gqa", 3, 4)
    assert KernelCountRecord.from_dict(rec.to_dict()) == rec
    assert KernelCountRecord.from_dict({"test": "t", "label": "l", "forward": 2}).backward is None


def test_pairs_table() -> None:
    lines = report.format_pairs_table(_pairs())
    assert lines[0].split() == [
        "test",
        "pair",
        "baseline",
        "ms",
        "candidate",
        "ms",
        "host",
        "ms",
        "b/c",
        "speedup",
        "required",
        "verdict",
        "gpu",
        "compile",
        "numerics",
    ]
    assert set(lines[1].replace(" ", "")) == {"-"}
    # sorted by test; numbers right-aligned; gpu "-" (from_speedup alone does not know the GPU)
    assert lines[2].split() == [
        "t.py::test_a",
        "nd",
        "2.1600",
        "1.5200",
        "-",
        "1.250x",
        "1.300x",
        "FAIL",
        "-",
        "-",
        "-",
    ]
    assert lines[3].split() == [
        "t.py::test_b",
        "cl",
        "1.2100",
        "0.9700",
        "-",
        "1.250x",
        "1.200x",
        "pass",
        "-",
        "-",
        "-",
    ]
    assert lines[4].split() == [
        "t.py::test_c",
        "both",
        "-",
        "-",
        "-",
        "-",
        "1.100x",
        "not",
        "measured",
        "-",
        "-",
        "-",
    ]
    # numbers right-aligned under their header
    end_of_header = lines[0].index("baseline ms") + len("baseline ms")
    assert lines[2].index("2.1600") + len("2.1600") == end_of_header


def test_pairs_table_compile_column_and_compile_table() -> None:
    rec = PairRecord.not_measured("t::a", "p", 1.2)
    rec = PairRecord(
        **{**rec.to_dict(), "compile": "graphs 3->4 (more), breaks 1->1, recompiles 0->0"}
    )
    assert (
        report.format_pairs_table([rec])[2]
        .rstrip()
        .endswith("graphs 3->4 (more), breaks 1->1, recompiles 0->0  -")
    )
    side = {"frames": 2, "graphs": 3, "graph_breaks": 1, "recompiles": 0, "eager_fallbacks": 0}
    more = {**side, "graphs": 4, "eager_fallbacks": 1}
    comp = report.CompileRecord("t::a", "p", side, more, "candidate compiles more graphs (4 > 3)")
    lines = report.format_compile_table([comp])
    assert lines[0].split() == ["test", "pair", "baseline", "candidate", "note"]
    assert lines[2].split() == [
        "t::a",
        "p",
        "3g/2f",
        "1brk",
        "0rec",
        "4g/2f",
        "1brk",
        "0rec",
        "1eager",
        "candidate",
        "compiles",
        "more",
        "graphs",
        "(4",
        ">",
        "3)",
    ]
    assert report.CompileRecord.from_dict(comp.to_dict()) == comp
    data = report.build_report([], [], env={}, compile_records=[comp])
    assert data["compile"] == [comp.to_dict()]


def test_kernel_counts_table() -> None:
    lines = report.format_kernel_counts_table(
        [KernelCountRecord("t::b", "gqa", 3, 4), KernelCountRecord("t::a", "vae", 7)]
    )
    assert lines[0].split() == ["test", "label", "forward", "backward"]
    assert lines[2].split() == ["t::a", "vae", "7", "-"]
    assert lines[3].split() == ["t::b", "gqa", "3", "4"]


def test_json_report(tmp_path: Path) -> None:
    data = report.build_report(
        _pairs(), [KernelCountRecord("t::a", "vae", 7)], options={"perf": True, "rounds": 8}
    )
    path = report.write_json_report(tmp_path / "sub" / "magi.json", data)
    loaded = json.loads(path.read_text())
    assert loaded["schema"] == "pytest-magi-report/1"
    assert loaded["options"] == {"perf": True, "rounds": 8}
    env = loaded["environment"]
    assert {"device", "torch", "triton", "python", "platform"} <= set(env)
    import torch

    assert env["torch"] == torch.__version__
    assert loaded["created"].endswith("+00:00")
    assert [p["test"] for p in loaded["pairs"]] == ["t.py::test_a", "t.py::test_b", "t.py::test_c"]
    assert loaded["kernel_counts"] == [
        {"test": "t::a", "label": "vae", "forward": 7, "backward": None}
    ]


def test_png_report(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = report.write_png_report(tmp_path / "chart.png", _pairs())
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    empty = report.write_png_report(tmp_path / "empty.png", [])
    assert empty.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_report_without_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    with pytest.raises(report.PlotUnavailableError) as info:
        report.write_png_report(tmp_path / "chart.png", _pairs())
    assert str(info.value) == (
        f"writing the PNG report {str(tmp_path / 'chart.png')!r} needs matplotlib, which is not "
        "installed: pip install pytest-magi[plot]"
    )
    assert not (tmp_path / "chart.png").exists()


def test_session_collects_records_from_user_properties() -> None:
    session = MagiSession()
    pair = _pairs()[0]
    counts = KernelCountRecord("t::a", "vae", 7, None)
    session.collect(
        [
            (report.PAIR_PROPERTY, pair.to_dict()),
            ("someone_else", {"x": 1}),
            (report.KERNEL_COUNTS_PROPERTY, counts.to_dict()),
        ]
    )
    assert session.pairs == [pair]
    assert session.kernel_counts == [counts]


def test_worker_cache_folders_are_set_and_restored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import os

    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "mine"))
    session = MagiSession()
    chosen = session.isolate_worker_caches("gw3", tmp_path / "slot-0")
    assert set(chosen) == {"TORCHINDUCTOR_CACHE_DIR"}  # the user's TRITON_CACHE_DIR is kept
    assert os.environ["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "slot-0" / "gw3" / "inductor")
    assert os.environ["TRITON_CACHE_DIR"] == str(tmp_path / "mine")
    session.close()
    assert "TORCHINDUCTOR_CACHE_DIR" not in os.environ
    assert os.environ["TRITON_CACHE_DIR"] == str(tmp_path / "mine")


def test_inductors_default_cache_dir_counts_as_not_chosen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import os

    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    # what importing Inductor does to the environment
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", default_cache_dir())
    session = MagiSession()
    try:
        assert "TORCHINDUCTOR_CACHE_DIR" in session.isolate_worker_caches("gw0", tmp_path)
    finally:
        session.close()
    assert os.environ["TORCHINDUCTOR_CACHE_DIR"] == default_cache_dir()


# --------------------------------------------------------------------------- comparing two reports
def _report_of(
    speedups: dict[str, float | None],
    *,
    workers: int,
    seconds: float,
    tests: tuple[TimedTest, ...] = (),
) -> dict:
    pairs = [
        PairRecord.not_measured(test, "p", 1.0)
        if ratio is None
        else PairRecord.from_speedup(test, "p", 1.0, FakeSpeedup(ratio, 1.0, ratio))
        for test, ratio in speedups.items()
    ]
    return report.build_report(
        pairs, [], options={"workers": workers}, env={}, duration_s=seconds, test_times=tests
    )  # fmt: skip


def test_two_reports_compare_pair_by_pair_with_wall_times() -> None:
    before = _report_of({"t::a": 2.0, "t::b": 1.25}, workers=0, seconds=600.0)
    after = _report_of({"t::a": 2.05, "t::b": 1.2375}, workers=2, seconds=330.0)
    result = report.compare_reports(before, after)
    assert [(p.test, p.before, p.after) for p in result.pairs] == [
        ("t::a", 2.0, 2.05),
        ("t::b", 1.25, 1.2375),
    ]
    assert result.pairs[0].change == pytest.approx(0.025)
    assert result.pairs[1].change == pytest.approx(-0.01)
    assert result.ok and not result.off
    assert result.time_ratio == pytest.approx(0.55)
    lines = result.lines()
    assert lines[2].split()[:5] == ["t::a", "p", "2.000x", "2.050x", "+2.5%"]
    assert (
        lines[-2]
        == "wall time: before 600.0 s in one process, after 330.0 s on 2 workers (after/before 0.55)"
    )
    assert lines[-1] == "all 2 timed pairs within 3.0%"
    # the same runs at a tighter tolerance: a's 2.5% is off, b's 1% is not
    tight = report.compare_reports(before, after, tolerance=0.02)
    assert [p.test for p in tight.off] == ["t::a"] and not tight.ok
    assert "OFF (> 2.0%)" in tight.lines()[2]
    assert tight.lines()[-1] == "1 of 2 pairs off (tolerance 2.0%)"


def test_a_pair_one_run_did_not_time_or_has_not_fails_the_comparison() -> None:
    before = _report_of({"t::a": 2.0, "t::b": 1.5, "t::c": None}, workers=0, seconds=10.0)
    after = _report_of({"t::a": 2.0, "t::c": 1.1, "t::d": 1.3}, workers=2, seconds=6.0)
    result = report.compare_reports(before, after)
    verdicts = {line.split()[0]: line for line in result.lines()[2:6]}
    assert verdicts["t::a"].endswith("ok")
    assert verdicts["t::b"].endswith("not timed after")  # missing after
    assert verdicts["t::c"].endswith("not timed before")  # there, but not measured
    assert verdicts["t::d"].endswith("not timed before")
    assert {p.test for p in result.off} == {"t::b", "t::c", "t::d"} and not result.ok
    # nothing timed at all is not a pass either
    empty = report.compare_reports(
        _report_of({}, workers=0, seconds=1.0), _report_of({}, workers=0, seconds=1.0)
    )
    assert not empty.ok and "nothing to compare" in empty.lines()[-1]


def test_a_candidate_found_wrong_in_the_later_run_fails_the_comparison() -> None:
    """A speedup beside wrong numbers counts for nothing: the pair is off whatever its ratio,
    and the numerics column shows each run's outcome."""
    before = _report_of({"t::a": 2.0, "t::b": 2.0}, workers=0, seconds=10.0)
    after = _report_of({"t::a": 2.0, "t::b": 2.0}, workers=0, seconds=10.0)
    ok = "fp32 rel-L2: candidate 9.68e-03, baseline 1.21e-02, eager 1.40e-02; bound 2.80e-02; ok"
    before["pairs"][0]["numerics"] = before["pairs"][1]["numerics"] = ok
    after["pairs"][0]["numerics"] = ok.replace("9.68e-03", "8.78e-01").replace(
        "; ok", "; candidate OVER"
    )
    after["pairs"][1]["numerics"] = report.NUMERICS_NOT_CHECKED
    result = report.compare_reports(before, after)
    assert [p.test for p in result.off] == ["t::a"] and not result.ok
    lines = result.lines()
    column = lines[0].index("numerics")
    rows = {line.split()[0]: line[column:].split() for line in lines[2:4]}
    assert rows["t::a"] == "ok -> candidate OVER numbers wrong after".split()
    assert rows["t::b"] == "ok -> not checked ok".split()
    assert report.numerics_outcome("eager elementwise: baseline MISMATCH") == "baseline MISMATCH"
    assert report.numerics_outcome(None) is None


@pytest.mark.parametrize("tolerance", [-0.01, 1.0, float("nan"), "3%"])
def test_a_bad_tolerance_is_refused_with_the_value(tolerance: object) -> None:
    data = _report_of({"t::a": 2.0}, workers=0, seconds=1.0)
    with pytest.raises(
        ValueError, match=r"tolerance must be a relative change in \[0, 1\), e.g. 0.03"
    ):
        report.compare_reports(data, data, tolerance=tolerance)  # type: ignore[arg-type]


def test_load_report_names_the_file_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(report.ReportError, match=r"no report at '.*missing.json': write one with"):
        report.load_report(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(report.ReportError, match=r"'.*bad.json' is not a readable JSON report"):
        report.load_report(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text(json.dumps({"schema": "syrupy/1", "pairs": []}))
    with pytest.raises(
        report.ReportError, match=r"schema 'syrupy/1', expected 'pytest-magi-report/1'"
    ):
        report.load_report(tmp_path / "other.json")
    good = report.write_json_report(
        tmp_path / "r.json", _report_of({"t::a": 1.5}, workers=0, seconds=2.5)
    )
    assert report.load_report(good)["duration_s"] == 2.5


def test_compare_on_the_command_line_exits_by_the_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = report.write_json_report(
        tmp_path / "r0.json", _report_of({"t::a": 2.0}, workers=0, seconds=100.0)
    )
    same = report.write_json_report(
        tmp_path / "r2.json", _report_of({"t::a": 1.98}, workers=2, seconds=52.0)
    )
    moved = report.write_json_report(
        tmp_path / "r3.json", _report_of({"t::a": 1.9}, workers=2, seconds=52.0)
    )
    assert report.main(["compare", str(before), str(same)]) == 0
    assert "all 1 timed pairs within 3.0%" in capsys.readouterr().out
    assert report.main(["compare", str(before), str(moved)]) == 1
    assert "1 of 1 pairs off (tolerance 3.0%)" in capsys.readouterr().out
    assert report.main(["compare", str(before), str(moved), "--tolerance", "0.06"]) == 0
    capsys.readouterr()
    assert report.main(["compare", str(before), str(tmp_path / "nope.json")]) == 2
    assert "error: no report at" in capsys.readouterr().err
    assert report.main(["compare", str(before), str(same), "--tolerance", "2"]) == 2
    assert "got 2.0" in capsys.readouterr().err


def test_compare_runs_as_a_module(tmp_path: Path) -> None:
    import subprocess

    path = report.write_json_report(
        tmp_path / "r.json", _report_of({"t::a": 2.0}, workers=0, seconds=1.0)
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest_magi.report", "compare", str(path), str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "all 1 timed pairs within 3.0%" in done.stdout


def test_the_comparison_says_where_the_wall_time_went_test_by_test() -> None:
    before = _report_of(
        {"t::a": 2.0}, workers=0, seconds=40.0,
        tests=(TimedTest("t::a", 30.0, "", "passed"), TimedTest("t::b", 10.0, "", "passed")),
    )  # fmt: skip
    after = _report_of(
        {"t::a": 2.0}, workers=2, seconds=26.0,
        tests=(TimedTest("t::a", 24.5, "gw1", "passed"), TimedTest("t::b", 20.0, "gw0", "passed")),
    )  # fmt: skip
    lines = report.compare_reports(before, after).lines()
    assert (
        "test time: before 40.0 s of tests; after 44.5 s of tests (gw0 20.0 s, gw1 24.5 s)" in lines
    )
    # t::b doubled on its worker (a cold compile the one process had shared); t::a got shorter
    assert "  longer after: t::b 10.0 s -> 20.0 s (+10.0 s, gw0)" in lines
    assert not any("longer after: t::a" in line for line in lines)
    # reports without per-test times (older ones) compare without those lines
    old = _report_of({"t::a": 2.0}, workers=0, seconds=40.0)
    assert not any(
        line.startswith("test time") for line in report.compare_reports(old, after).lines()
    )


def test_a_tests_time_sums_its_phases_and_keeps_the_telling_outcome() -> None:
    session = MagiSession()
    session.add_time("t::a", "setup", 1.0, "passed", "gw1")
    session.add_time("t::a", "call", 2.5, "failed", "gw1")
    session.add_time("t::a", "teardown", 0.25, "passed", "gw1")
    session.add_time("t::b", "setup", 0.5, "skipped", "")
    session.add_time("t::b", "teardown", 0.125, "passed", "")
    assert session.test_times == {
        "t::a": TimedTest("t::a", 3.75, "gw1", "failed"),
        "t::b": TimedTest("t::b", 0.625, "", "skipped"),
    }
    data = report.build_report([], [], env={}, test_times=list(session.test_times.values()))
    assert data["tests"][0] == {
        "test": "t::a",
        "duration_s": 3.75,
        "worker": "gw1",
        "outcome": "failed",
    }


def test_ratios_records_the_timed_right_pairs_of_reports_into_a_ratio_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m pytest_magi.report ratios`: a timed pair whose candidate was right becomes the
    entry of its model (a zoo pair's label loses its size); a pair not timed, or whose
    candidate was off, is said and left out; other entries of the file stay."""
    from pytest_magi.bench import gpu_ratios

    ok = "fp32 rel-L2: candidate 1.2e-02, baseline 1.3e-02, eager 1.7e-02; bound 3.3e-02; ok"
    miscompiled = ok.replace("; ok", "; baseline OVER (miscompiled)")
    off = ok.replace("; ok", "; candidate OVER")

    def timed(test: str, label: str, ratio: float, numerics: str) -> PairRecord:
        rec = PairRecord.from_speedup(test, label, 0.98, FakeSpeedup(ratio, 1.0, ratio))
        return PairRecord(**{**rec.to_dict(), "numerics": numerics})

    pairs = [
        timed("z.py::t[cosmos-vae]", "cosmos-vae-full", 2.5654, ok),
        timed("z.py::wan", "wan2.2-vae-full", 2.205, miscompiled),
        timed("z.py::t[svd-vae]", "svd-vae-full", 1.8, off),
        PairRecord.not_measured("g.py::gqa", "gqa-dynamic", 1.9),
        timed("g.py::vae", "vae-540p-static", 1.26, ok),
    ]
    path = report.write_json_report(
        tmp_path / "r.json", report.build_report(pairs, [], options={}, env={}, duration_s=1.0)
    )
    into = tmp_path / "gpu_ratios.json"
    gpu_ratios.record(
        into, {"sd-vae": 1.001}, device="NVIDIA H200", torch_version="2.11", measured_by="x"
    )
    assert report.main(["ratios", str(path), "--into", str(into)]) == 0
    out = capsys.readouterr().out
    assert "svd-vae: skipped: its numerics are not right: candidate OVER" in out
    assert "gqa-dynamic: skipped: not timed (not measured)" in out
    assert "3 of 5 pairs recorded" in out
    got = gpu_ratios.load(into)
    assert {n: r.ratio for n, r in got.items()} == {
        "sd-vae": 1.001, "cosmos-vae": 2.565, "wan2.2-vae": 2.205, "vae-540p-static": 1.26,
    }  # fmt: skip
    assert got["cosmos-vae"].measured_by == "z.py::t[cosmos-vae], 8 rounds"
    assert got["cosmos-vae"].device == "NVIDIA H200"

    # nothing right to record: exit 1; a broken ratio file: exit 2, the file untouched
    only_off = report.write_json_report(
        tmp_path / "off.json",
        report.build_report(pairs[2:4], [], options={}, env={}, duration_s=1.0),
    )
    assert report.main(["ratios", str(only_off), "--into", str(into)]) == 1
    broken = tmp_path / "broken.json"
    broken.write_text('{"models": {"x": {}}}')
    capsys.readouterr()
    assert report.main(["ratios", str(path), "--into", str(broken)]) == 2
    assert "fix or delete the file" in capsys.readouterr().err
    assert broken.read_text() == '{"models": {"x": {}}}'


def test_estimates_sets_each_pairs_estimate_beside_its_measurement_with_the_targets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m pytest_magi.report estimates`: the pairs of `--magi-estimate` runs, estimated
    beside measured, and the direction and 15% targets met or missed with their numbers; a
    pair without an estimate says why; a report with no estimate at all says how to get one."""

    def timed(label: str, measured: float, estimated: float | None, error: str | None = None):
        rec = PairRecord.from_speedup(
            f"t::{label}", label, 1.0, FakeSpeedup(measured, 1.0, measured)
        )
        return PairRecord(
            **{
                **rec.to_dict(),
                "estimated_speedup": estimated,
                "estimate_profile": "h200",
                "estimate_error": error,
            }
        )

    good = [timed("a", 1.30, 1.20), timed("b", 2.00, 1.90), timed("c", 1.50, None, "E: no code")]
    path = report.write_json_report(
        tmp_path / "r.json", report.build_report(good, [], options={}, env={}, duration_s=1.0)
    )
    assert report.main(["estimates", str(path)]) == 0
    out = capsys.readouterr().out
    assert "a (t::a)  1.300x    1.200x     -7.7%" in out
    assert "no estimate: E: no code" in out
    assert "met: right direction on every pair measured more than 3% from 1: 2/2" in out
    assert "met: estimated ratio within 15% of the measured on 80% of pairs: 2/2 = 100%" in out

    wrong = [*good, timed("d", 1.40, 0.90)]
    path = report.write_json_report(
        tmp_path / "w.json", report.build_report(wrong, [], options={}, env={}, duration_s=1.0)
    )
    assert report.main(["estimates", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        "MISSED: right direction on every pair measured more than 3% from 1: 2/3 (wrong: d" in out
    )

    plain = report.write_json_report(
        tmp_path / "p.json", _report_of({"t::x": 1.2}, workers=0, seconds=1.0)
    )
    assert report.main(["estimates", str(plain)]) == 1
    assert "--magi-estimate h200" in capsys.readouterr().out
