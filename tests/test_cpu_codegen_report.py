"""`benchmarks/cpu_codegen_report.py`, the main job on a machine without a GPU: what the passes
do to the CUDA code of a model, with progress, and the pointer to the GPU tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripts import load_benchmark


def _load():  # type: ignore[no-untyped-def]
    return load_benchmark("cpu_codegen_report")


def test_gqa_report_names_the_removed_copy_kernel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _load()
    out_json = tmp_path / "r.json"
    assert report.main(["--models", "gqa-dynamic-hq-d", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "[1/1] gqa-dynamic-hq-d: generating CUDA code, plain ..." in out  # progress
    assert "gqa-dynamic-hq-d  2 -> 1" in out
    assert "passes: dynamic_reshape (views_seen=2, views_rewritten=1" in out
    assert "the H200 tables are in docs/benchmarks.md" in out
    data = json.loads(out_json.read_text())
    (model,) = data["models"]
    assert model["removed"] == ["triton_poi_fused_add_div_mul_rsqrt_view_1"]
    assert model["added"] == [] and model["shared"] == 1 and model["error"] is None


def test_unknown_model_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    report = _load()
    with pytest.raises(SystemExit):
        report.main(["--models", "nope"])
    assert "--models: unknown ['nope']" in capsys.readouterr().err
