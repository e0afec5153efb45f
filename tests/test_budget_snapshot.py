"""Budget snapshots: written per torch version, matched within their bands, and a failure that
names the kernels that moved and by how much (pytester projects; the budget is built once, by the
outer test, and read from a file by the inner one)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import syrupy
import torch

import pytest_magi
from pytest_magi.budget.snapshot import BudgetSnapshotExtension, budget_bands
from pytest_magi.snapshots import torch_version_dirname

INNER = """
import json
from pathlib import Path

from pytest_magi.budget import Budget
from pytest_magi.budget.snapshot import budget_bands


def _budget():
    return Budget.from_dict(json.loads(Path(__file__).with_name("budget.json").read_text()))


def test_chain(budget_snapshot):
    assert budget_snapshot == _budget()


def test_chain_wide_band(budget_snapshot):
    assert budget_snapshot.use_extension(budget_bands(bytes=0.6)) == _budget()
"""


def chain(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return (x.sin() + y).relu() * 2


@pytest.fixture(scope="module")
def budget_dict() -> dict[str, Any]:
    b = pytest_magi.budget(chain, torch.randn(64, 128), torch.randn(64, 128))
    return b.to_dict()


@pytest.fixture
def project(pytester: pytest.Pytester, budget_dict: dict[str, Any]) -> Iterator[pytest.Pytester]:
    pytester.makepyfile(test_inner=INNER)
    (pytester.path / "budget.json").write_text(json.dumps(budget_dict))
    saved = getattr(syrupy, "_syrupy", None)  # an in-process run replaces syrupy's session
    yield pytester
    syrupy._syrupy = saved  # type: ignore[attr-defined]


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", "no:cacheprovider", "-n", "0", *args)


def _with_kernel_bytes(data: dict[str, Any], factor: float) -> dict[str, Any]:
    changed = json.loads(json.dumps(data))
    call = changed["graphs"][0]["calls"][0]
    call["bytes"] = round(call["bytes"] * factor)
    changed["graphs"][0]["bytes"] = call["bytes"]
    return changed


def test_round_trip_and_band_failure_names_the_kernel(
    project: pytest.Pytester, budget_dict: dict[str, Any]
) -> None:
    _run(project, "--snapshot-update").assert_outcomes(passed=2)
    stored = project.path / "__snapshots__" / torch_version_dirname() / "test_inner"
    assert sorted(p.name for p in stored.iterdir()) == [
        "test_chain.budget.json",
        "test_chain_wide_band.budget.json",
    ]
    assert json.loads((stored / "test_chain.budget.json").read_text()) == budget_dict
    _run(project).assert_outcomes(passed=2)

    # within the default 1% band: still a match, and the snapshot is left as it was
    (project.path / "budget.json").write_text(json.dumps(_with_kernel_bytes(budget_dict, 1.005)))
    _run(project).assert_outcomes(passed=2)

    # 50% more bytes in the kernel: outside 1%, inside the test's own 60% band
    (project.path / "budget.json").write_text(json.dumps(_with_kernel_bytes(budget_dict, 1.5)))
    result = _run(project)
    result.assert_outcomes(passed=1, failed=1)
    kernel = budget_dict["graphs"][0]["calls"][0]["name"]
    old = budget_dict["graphs"][0]["calls"][0]["bytes"]
    result.stdout.fnmatch_lines(
        [
            "*budget outside its bands (kernels +-0, launches +-0, bytes +-1.0%)*",
            f"*graph 0 (inference): {kernel} grew {old:,} -> {round(old * 1.5):,} B (+50.0%*",
        ]
    )


def test_an_added_kernel_is_a_count_change_and_a_new_launch() -> None:
    old = {
        "graphs": [
            {
                "kind": "inference",
                "kernels": 1,
                "launches": 1,
                "bytes": 100,
                "calls": [{"name": "triton_poi_fused_add_0", "kind": "pointwise", "bytes": 100}],
            }
        ]
    }
    new = json.loads(json.dumps(old))
    graph = new["graphs"][0]
    graph["calls"].append({"name": "triton_poi_fused_mul_1", "kind": "pointwise", "bytes": 100})
    graph.update(kernels=2, launches=2, bytes=200)
    problems = BudgetSnapshotExtension().band_problems(new, old)
    assert "graph 0 (inference): kernels 1 -> 2 (+1; band 0)" in problems
    assert "graph 0 (inference): new pointwise triton_poi_fused_mul_1: 100 B" in problems
    assert budget_bands(kernels=1, launches=1, bytes=1.0)().band_problems(new, old) == []
    # renumbered kernels of the same name are the same kernels
    renamed = json.loads(json.dumps(old))
    renamed["graphs"][0]["calls"][0]["name"] = "triton_poi_fused_add_3"
    assert BudgetSnapshotExtension().band_problems(renamed, old) == []
    with pytest.raises(ValueError, match="bytes=-1"):
        budget_bands(bytes=-1)


def test_serialize_refuses_what_is_not_a_budget() -> None:
    with pytest.raises(TypeError, match="snapshots a pytest_magi.budget.Budget or a pair"):
        BudgetSnapshotExtension().serialize("code")
    assert Path(BudgetSnapshotExtension.file_extension).suffix == ".json"


def test_a_pairs_budgets_are_one_snapshot_compared_side_by_side(
    budget_dict: dict[str, Any],
) -> None:
    from pytest_magi.budget import Budget
    from pytest_magi.budget.pairs import PairBudget

    one = Budget.from_dict(budget_dict)
    pair = PairBudget(one, one, label="chain")
    ext = BudgetSnapshotExtension()
    serialized = json.loads(str(ext.serialize(pair)))
    assert set(serialized) >= {"baseline", "candidate", "estimated_speedup"}
    grown = dict(serialized, candidate=_with_kernel_bytes(serialized["candidate"], 1.5))
    problems = ext.band_problems(grown, serialized)
    assert problems and all(line.startswith("candidate: graph 0") for line in problems)
    assert ext.band_problems(serialized, serialized) == []
    assert ext.band_problems(budget_dict, serialized) == [
        "a pair's budgets against one budget (or one against a pair's): update it"
    ]


def test_a_kernel_under_another_name_is_a_change_at_the_exact_band() -> None:
    """A pass that rewrites what a kernel computes without moving more bytes (fewer ALU
    operations) shows as another kernel name: exact bands catch it, a kernel band allows it."""
    graph = {
        "kind": "inference",
        "kernels": 1,
        "launches": 1,
        "bytes": 100,
        "calls": [{"name": "triton_red_fused_div_mul_0", "kind": "reduction", "bytes": 100}],
    }
    old = {"graphs": [graph]}
    new = json.loads(json.dumps(old))
    new["graphs"][0]["calls"][0]["name"] = "triton_red_fused_mul_rsqrt_0"
    assert BudgetSnapshotExtension().band_problems(new, old) == [
        "graph 0 (inference): new reduction triton_red_fused_mul_rsqrt_0: 100 B",
        "graph 0 (inference): gone reduction triton_red_fused_div_mul_0: 100 B",
    ]
    assert budget_bands(kernels=1)().band_problems(new, old) == []
