"""The zoo benchmark's timing mode on CPU, tiny: `--no-eager-timing`, which a cold-compile process
on the GPU uses so that its time goes to compiling, not to timing eager; `--record-ratios`; and
the command line over the modes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from pytest_magi import zoo
from pytest_magi.bench import timing as bench


@pytest.mark.slow
def test_no_eager_timing_leaves_eager_untimed_and_times_the_baseline_in_its_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No eager row, eager's numerics still the bound (its rel-L2 in every row), and the
    baseline's time the one measured beside the other variant in their pair."""
    if "sd-vae" not in zoo.names():
        pytest.skip(zoo.unavailable().get("sd-vae", "sd-vae"))
    out = tmp_path / "zoo.json"
    argv = ["--models", "sd-vae", "--size", "tiny", "--dtype", "fp32", "--rounds", "3"]
    argv += ["--variants", "torch.compile,torch.compile+frames", "--no-eager-timing"]
    try:
        assert bench.main([*argv, "--json", str(out)]) == 0
    finally:
        torch._dynamo.reset()
    rows = json.loads(out.read_text())["rows"]
    assert [r["variant"] for r in rows] == ["torch.compile", "torch.compile+frames"]
    base, other = rows
    assert base["ms"] == other["extra"]["baseline_ms_same_run"] > 0
    assert base["ratio_vs_compile"] == 1.0 and other["ms"] > 0
    assert all(r["extra"]["eager_rel_l2"] > 0 and r["extra"]["numerics"] == "ok" for r in rows)
    printed = capsys.readouterr().out
    assert "| sd-vae | eager |" not in printed and "eager: rel-L2 vs torch.float64" in printed


def test_an_untimed_row_is_blank_in_the_table_and_null_in_the_json() -> None:
    """A baseline with no other variant to be timed beside (`--no-eager-timing`, one variant)
    has no time: its cells are blank, not "nan", and its JSON fields null."""
    row = bench.Row(
        "sd-vae", "torch.compile", "1x4x4x4", math.nan, 1.0, None, 10.2, 1, 0, 0, 11192832, 1.4e-5
    )
    table = bench.format_table([row], "cpu")
    line = table.splitlines()[-1]
    assert "nan" not in line
    assert line.startswith("| sd-vae | torch.compile | 1x4x4x4 |  | 1.000x |")
    assert line.endswith("| 0.00 |  |")
    as_json = bench._json_row(row)
    assert as_json["ms"] is None and as_json["floor_distance"] is None
    assert as_json["compile_s"] == 10.2
    json.dumps(as_json, allow_nan=False)  # no NaN left in what --json writes
