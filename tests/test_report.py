"""`pytest_magi.report`: records, terminal tables, the JSON and PNG reports."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_magi import report
from pytest_magi.plugin_state import MagiSession
from pytest_magi.report import KernelCountRecord, PairRecord


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
    ]
    # numbers right-aligned under their header
    end_of_header = lines[0].index("baseline ms") + len("baseline ms")
    assert lines[2].index("2.1600") + len("2.1600") == end_of_header


def test_pairs_table_compile_column_and_compile_table() -> None:
    rec = PairRecord.not_measured("t::a", "p", 1.2)
    rec = PairRecord(
        **{**rec.to_dict(), "compile": "graphs 3->4 (more), breaks 1->1, recompiles 0->0"}
    )
    assert report.format_pairs_table([rec])[2].endswith(
        "graphs 3->4 (more), breaks 1->1, recompiles 0->0"
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
    chosen = session.isolate_worker_caches("gw3")
    assert set(chosen) == {"TORCHINDUCTOR_CACHE_DIR"}  # the user's TRITON_CACHE_DIR is kept
    assert os.environ["TORCHINDUCTOR_CACHE_DIR"].endswith(os.path.join("gw3", "inductor"))
    assert os.environ["TRITON_CACHE_DIR"] == str(tmp_path / "mine")
    session.close()
    assert "TORCHINDUCTOR_CACHE_DIR" not in os.environ
    assert os.environ["TRITON_CACHE_DIR"] == str(tmp_path / "mine")


def test_inductors_default_cache_dir_counts_as_not_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    # what importing Inductor does to the environment
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", default_cache_dir())
    session = MagiSession()
    try:
        assert "TORCHINDUCTOR_CACHE_DIR" in session.isolate_worker_caches("gw0")
    finally:
        session.close()
    assert os.environ["TORCHINDUCTOR_CACHE_DIR"] == default_cache_dir()
