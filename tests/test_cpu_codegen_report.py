"""The zoo benchmark's codegen mode, the main job on a machine without a GPU: one row per model
(kernels, launches, MB moved and estimated ms of torch.compile and of magi, the estimated speedup
beside the GPU ratio measured for it, compile health, passes fired), the kernel lists behind
`--kernels`, and the command line over the modes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

import pytest_magi
from magi_passes import PassConfig
from pytest_magi.bench import cli, codegen, codegen_budget, gpu_ratios

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
    assert "dynamic_reshape" in row and _cells(captured.out)[0]["GPU ratio"] == ratio.cell(), row
    assert "GPU ratio: magi over torch.compile as measured on NVIDIA H200" in captured.out
    assert "triton_poi_fused" not in captured.out  # kernel lists only with --kernels
    (model,) = json.loads(out_json.read_text())["models"]
    assert model["removed"] == ["triton_poi_fused_add_div_mul_rsqrt_view_1"]
    assert model["added"] == [] and model["shared"] == 1 and model["error"] is None
    assert model["gpu_ratio"]["ratio"] == ratio.ratio


def _cells(out: str) -> list[dict[str, str]]:
    """The summary table's rows as ``{header: cell}``, columns cut where the dashes say."""
    lines = out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("---") and "  ---" in ln)
    spans, start = [], 0
    for dashes in lines[at].split("  "):
        spans.append((start, start + len(dashes)))
        start += len(dashes) + 2
    spans[-1] = (spans[-1][0], None)  # the last cell may be longer than its dashes

    def cut(line: str) -> list[str]:
        return [line[a:b].strip() for a, b in spans]

    heads = [
        f"{a} {b}".strip() for a, b in zip(cut(lines[at - 2]), cut(lines[at - 1]), strict=True)
    ]
    rows = []
    for line in lines[at + 1 :]:
        if not line.strip() or any(mark in line.split()[0] for mark in ",:"):
            break  # the notes under the table
        rows.append(dict(zip(heads, cut(line), strict=True)))
    return rows


def test_gqa_row_prints_each_sides_budget_and_the_estimated_speedup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Launches, MB moved and estimated ms on h200, torch.compile / magi, from the code the mode
    generates once with the budget's accounting on: the same budgets as `pytest_magi.budget`
    of the same call; the estimated speedup is the ratio of the two printed estimates."""
    out_json = tmp_path / "r.json"
    argv = ["--models", "gqa-dynamic-hq-d", "--json", str(out_json)]
    assert codegen.main(argv, gpu_ratio_file=GPU_RATIOS) == 0
    out = capsys.readouterr().out
    (row,) = _cells(out)
    assert row["model"] == "gqa-dynamic-hq-d"
    for head in ("launches tc / magi", "MB moved tc / magi", "est ms h200 tc / magi"):
        assert " / " in row[head], (head, row)
    tc_ms, magi_ms = (float(v) for v in row["est ms h200 tc / magi"].split(" / "))
    speedup = float(row["est speedup"].removesuffix("x"))
    assert speedup == pytest.approx(tc_ms / magi_ms, rel=2e-3, abs=1e-3), row
    assert "profile h200" in out and "est speedup: tc est ms / magi est ms" in out
    (model,) = json.loads(out_json.read_text())["models"]
    (case,) = [c for c in codegen.project_cases(torch.bfloat16) if c.name == "gqa-dynamic-hq-d"]
    for side, config in (("plain", None), ("magi", PassConfig())):
        alone = pytest_magi.budget(
            case.fn, *case.inputs, dynamic_dims=case.dynamic_dims, config=config
        ).to_dict()["total"]
        printed = model["budget"][side]
        assert {k: printed[k] for k in alone} == alone, (side, printed, alone)
    launches = row["launches tc / magi"].split(" / ")
    assert [int(n) for n in launches] == [model["budget"][s]["launches"] for s in ("plain", "magi")]
    plain, magi = model["budget"]["plain"], model["budget"]["magi"]
    # the JSON rounds each estimated_ms to 6 decimals: their ratio is good to that rounding
    rounding = 5e-7 / plain["estimated_ms"] + 5e-7 / magi["estimated_ms"]
    assert model["estimated_speedup"] == pytest.approx(
        plain["estimated_ms"] / magi["estimated_ms"], rel=rounding + 1e-6
    )
    assert magi["launches"] < plain["launches"] and speedup > 1  # one kernel less, estimated


def test_a_model_without_a_budget_says_why_in_one_cell_and_the_table_prints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(*_args: object) -> None:
        raise ValueError("no records for these launches")

    monkeypatch.setattr(codegen_budget, "budget_of", refuse)
    assert codegen.main(["--models", "gqa-dynamic-hq-d"]) == 0
    (row,) = _cells(capsys.readouterr().out)
    assert row["kernels tc / magi"] == "2 / 1" and row["est speedup"] == "-", row
    assert row["passes fired (magi)"].endswith(
        "no budget: ValueError: no records for these launches"
    ), row
    failed = codegen.Row("kvae-3d-vae", error="torch.compile's code cannot be generated here (X)")
    (cells,) = _cells(codegen.summary_table([failed]))
    assert cells["passes fired (magi)"] == failed.error
    assert {v for k, v in cells.items() if k not in ("model", "passes fired (magi)")} == {"-"}


def test_a_side_that_cannot_be_generated_leaves_the_other_sides_numbers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """torch.compile's side raising on torch's sympy bug (as KVAE-3D's does on torch 2.13):
    the row keeps magi's kernels, launches, bytes and estimate, and says why in its last cell."""
    generate_side = codegen_budget.generate_side

    def plain_fails(fn: object, inputs: object, dims: object, config: object, **kw: object):
        if config is None:
            raise RuntimeError("InductorError") from RecursionError("maximum recursion depth")
        return generate_side(fn, inputs, dims, config, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(codegen_budget, "generate_side", plain_fails)
    assert codegen.main(["--models", "gqa-dynamic-hq-d"]) == 0
    (row,) = _cells(capsys.readouterr().out)
    assert row["kernels tc / magi"] == "- / 1" and row["launches tc / magi"] == "- / 1", row
    assert row["est ms h200 tc / magi"].startswith("- / ") and row["est speedup"] == "-", row
    assert row["passes fired (magi)"] == (
        "torch.compile's code cannot be generated here (Inductor raises on a sympy bug of torch "
        f"{torch.__version__}: clamp of a constant Identity, on a GPU too)"
    ), row


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
