"""The zoo benchmark's codegen mode, the main job on a machine without a GPU: one row per model
(kernels of torch.compile and of magi, passes fired, compile health, the GPU ratio measured for
it), the kernel lists behind `--kernels`, and the command line over the modes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_magi.bench import cli, codegen, gpu_ratios

REPO = Path(__file__).resolve().parents[1]
GPU_RATIOS = REPO / "benchmarks" / "results" / "gpu_ratios.json"


def test_gqa_row_names_its_kernels_passes_health_and_gpu_ratio(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "r.json"
    argv = ["--models", "gqa-dynamic-hq-d", "--json", str(out_json)]
    assert codegen.main(argv, gpu_ratio_file=GPU_RATIOS) == 0
    captured = capsys.readouterr()
    assert "[1/1] gqa-dynamic-hq-d: generated in " in captured.err  # progress, one line
    (row,) = [ln for ln in captured.out.splitlines() if ln.startswith("gqa-dynamic-hq-d")]
    ratio = gpu_ratios.load(GPU_RATIOS)["gqa-dynamic-hq-d"]
    cells = row.split()
    assert cells[1:4] == ["2", "/", "1"], row  # kernels: torch.compile / magi
    assert "dynamic_reshape" in row and row.endswith(ratio.cell()), row
    assert "GPU ratio: magi over torch.compile as measured on NVIDIA H200" in captured.out
    assert "triton_poi_fused" not in captured.out  # kernel lists only with --kernels
    (model,) = json.loads(out_json.read_text())["models"]
    assert model["removed"] == ["triton_poi_fused_add_div_mul_rsqrt_view_1"]
    assert model["added"] == [] and model["shared"] == 1 and model["error"] is None
    assert model["gpu_ratio"]["ratio"] == ratio.ratio


def test_kernels_lists_what_the_passes_removed(capsys: pytest.CaptureFixture[str]) -> None:
    assert codegen.main(["--models", "gqa-dynamic-hq-d", "--kernels"]) == 0
    out = capsys.readouterr().out
    assert "passes: dynamic_reshape (views_seen=2, views_rewritten=1" in out
    assert "triton_poi_fused_add_div_mul_rsqrt_view_1" in out


def test_unknown_model_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        codegen.main(["--models", "nope"])
    assert "--models: unknown ['nope']" in capsys.readouterr().err


def test_the_command_line_lists_the_modes_and_refuses_an_unknown_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["--help"]) == 0
    listed = capsys.readouterr().out
    assert all(f"  {mode} " in listed for mode in cli.MODES)
    assert cli.main(["timeing"]) == 2
    assert "unknown mode 'timeing'" in capsys.readouterr().err


def test_recorded_ratios_keep_other_models_and_say_where(tmp_path: Path) -> None:
    path = tmp_path / "gpu_ratios.json"
    path.write_text(GPU_RATIOS.read_text())
    before = gpu_ratios.load(path)
    gpu_ratios.record(
        path, {"sd-vae": 1.0234}, device="NVIDIA H100", torch_version="2.13.0", measured_by="t"
    )
    after = gpu_ratios.load(path)
    assert after["sd-vae"].ratio == 1.023 and after["sd-vae"].device == "NVIDIA H100"
    assert {k: v for k, v in after.items() if k != "sd-vae"} == {
        k: v for k, v in before.items() if k != "sd-vae"
    }
    path.write_text('{"models": {"x": {}}}')
    with pytest.raises(ValueError, match="fix or delete the file"):
        gpu_ratios.load(path)
