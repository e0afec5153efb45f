"""`pair.budget()`: both sides' budgets of a compiled pair, their estimated speedup and the CPU
gate on it; a side compiled by a dynamo backend of its own is refused. The gate as a marker,
`@pytest.mark.min_estimated_speedup(ratio, profile="h200")`: its parsing, its terminal table
and its `--magi-report` rows (also from xdist workers)."""

from __future__ import annotations

import json

import pytest
import torch
from torch import nn

import pytest_magi
from pytest_magi.budget.pairs import PairBudget, _side_arguments
from pytest_magi.capture.sides import SideSpec
from pytest_magi.pair import CompiledPair
from pytest_magi.report import VERDICT_FAIL, VERDICT_PASS, EstimateRecord, format_estimates_table


class Chain(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x.sin() + 1).relu() * 2


def test_pair_budget_of_an_a_a_pair_is_each_sides_budget() -> None:
    x = torch.randn(64, 128)
    pair = CompiledPair.build(Chain(), x, passes=[])
    budgets = pair.budget("h100")
    alone = pytest_magi.budget(Chain(), x, profile="h100")
    for side in (budgets.baseline, budgets.candidate):
        assert side.to_dict()["graphs"] == alone.to_dict()["graphs"]
        assert side.profile.name == "h100"
    assert budgets.estimated_speedup == pytest.approx(1.0)
    budgets.assert_estimated_speedup(1.0)
    with pytest.raises(AssertionError, match=r"estimated speedup 1\.000x < required 1\.1x"):
        budgets.assert_estimated_speedup(1.1)


def test_estimated_speedup_gate_names_both_sides() -> None:
    one = pytest_magi.budget(Chain(), torch.randn(64, 128))
    two = pytest_magi.budget(lambda x: Chain()(x @ x.t()), torch.randn(64, 128))
    assert two.launches > one.launches
    gate = PairBudget(two, one, label="fused")
    assert gate.estimated_speedup == pytest.approx(two.estimated_ms / one.estimated_ms)
    assert gate.estimated_speedup > 1
    gate.assert_estimated_speedup(1.0)
    with pytest.raises(AssertionError) as info:
        gate.assert_estimated_speedup(10)
    message = str(info.value)
    assert "pair 'fused'" in message and "not measured" in message
    assert "baseline" in message and "candidate" in message
    with pytest.raises(ValueError, match="ratio=0"):
        gate.assert_estimated_speedup(0)


def test_a_side_with_its_own_dynamo_backend_is_refused() -> None:
    spec = SideSpec("backend", "eager", backend=lambda gm, inputs: gm)
    with pytest.raises(ValueError, match=r"candidate compiles with the dynamo backend 'eager'"):
        _side_arguments("candidate", spec)


PROJECT = """
import pytest
import torch

from pytest_magi.models import GQAProjection

X = GQAProjection.example_input("tiny")


@pytest.mark.min_estimated_speedup(1.0)
def test_saves(compiled_pair):
    # with Hq and D dynamic the magi side reinterprets a view plain Inductor copies
    compiled_pair(GQAProjection(kv_heads=4), X, dynamic_dims={0: (2, 3)}).assert_close()


@pytest.mark.min_estimated_speedup(10, profile="h100")
def test_misses(compiled_pair):
    compiled_pair(GQAProjection(kv_heads=4), X, dynamic_dims={0: (2, 3)})


@pytest.mark.min_estimated_speedup(1.0)
def test_builds_no_pair():
    pass


@pytest.mark.min_estimated_speedup(1.0)
def test_own_backend(compiled_pair):
    compiled_pair(GQAProjection(kv_heads=4), X, candidate=lambda gm, inputs: gm)
"""


def test_each_pair_is_gated_tabled_and_reported_from_xdist_workers(
    pytester: pytest.Pytester,
) -> None:
    """The records travel from the workers to the controller as every magi record does
    (`user_properties`), so one run under `-n 2` checks the gate, the table and the report."""
    pytester.makepyfile(test_gate=PROJECT)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--magi-report", "report.json", "-n", "2"
    )
    result.assert_outcomes(passed=1, failed=3)
    out = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*magi: estimated speedups (from the generated code, not measured)*",
            "*test_gate.py::test_misses*h100*FAIL*",
            "*test_gate.py::test_saves*h200*pass*",
        ]
    )
    assert "min_estimated_speedup(10, profile='h100') not met by pair" in out
    assert "min_estimated_speedup(1, profile='h200') estimates the compiled_pair(s)" in out
    assert "no budget for pair" in out and "dynamo backend" in out
    rows = json.loads((pytester.path / "report.json").read_text())["estimates"]
    by_test = {row["test"].split("::")[1]: EstimateRecord.from_dict(row) for row in rows}
    assert set(by_test) == {"test_saves", "test_misses"}
    saves, misses = by_test["test_saves"], by_test["test_misses"]
    assert saves.verdict == VERDICT_PASS and misses.verdict == VERDICT_FAIL
    assert (saves.profile, misses.profile) == ("h200", "h100")
    # the magi side drops the copy kernel: fewer kernels, fewer bytes, a lower estimate
    assert saves.candidate["kernels"] == saves.baseline["kernels"] - 1
    assert saves.candidate["bytes"] < saves.baseline["bytes"]
    assert saves.speedup is not None and saves.baseline_ms is not None
    assert saves.candidate_ms is not None and saves.speedup > 1.0
    assert saves.speedup == pytest.approx(saves.baseline_ms / saves.candidate_ms)


@pytest.mark.parametrize(
    ("mark", "message"),
    [
        ("min_estimated_speedup(1.1, profile='a100')", "profile='a100'; expected a profile name"),
        ("min_estimated_speedup()", "the ratio is missing"),
        ("min_estimated_speedup(0)", "ratio=0"),
        ("min_estimated_speedup(1.1, 'h200', 3)", "unexpected positional argument(s) 3"),
        ("min_estimated_speedup(1.1, rounds=3)", "unknown keyword argument(s) rounds"),
    ],
)
def test_bad_arguments_are_a_usage_error_at_collection(
    pytester: pytest.Pytester, mark: str, message: str
) -> None:
    pytester.makepyfile(f"import pytest\n\n@pytest.mark.{mark}\ndef test_x():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--co")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*test_x*@pytest.mark.min_estimated_speedup(ratio*{message}*"])


def test_the_table_shows_both_sides_totals() -> None:
    rec = EstimateRecord(
        test="t.py::test_a",
        label="Block[inductor vs magi]",
        required=1.1,
        verdict=VERDICT_PASS,
        profile="h200",
        baseline_ms=0.5,
        candidate_ms=0.25,
        speedup=2.0,
        baseline={"kernels": 5, "launches": 7, "bytes": 4_000_000, "flops": 0},
        candidate={"kernels": 3, "launches": 4, "bytes": 2_000_000, "flops": 0},
    )
    header, _, row = format_estimates_table([rec])
    assert "est speedup" in header and "MB moved" in header
    for cell in ("0.5000", "0.2500", "5->3", "7->4", "4.00->2.00", "2.000x", "1.100x", "pass"):
        assert cell in row
    assert EstimateRecord.from_dict(json.loads(json.dumps(rec.to_dict()))) == rec


@pytest.fixture(scope="module")
def tiny_zoo_model():
    from pytest_magi import zoo

    if "minimax-h3-vae" not in zoo.names():
        pytest.skip("minimax-h3-vae needs diffusers")
    return zoo.load("minimax-h3-vae", "tiny")


def _recorded_budget_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple, dict]]:
    """``pytest_magi.budget.api.budget`` replaced by a recorder answering a fixed budget per side
    (the candidate's estimated ms half the baseline's): the plumbing, without a generation."""
    from pytest_magi.budget import api
    from pytest_magi.budget.profiles import get_profile

    calls: list[tuple[tuple, dict]] = []

    class _Fixed:
        def __init__(self, ms: float) -> None:
            self.estimated_ms = ms
            self.profile = get_profile("h200")

    def record(*args, **kwargs):
        calls.append((args, kwargs))
        return _Fixed(2.0 if "config" not in kwargs else 1.0)

    monkeypatch.setattr(api, "budget", record)
    return calls


def test_a_zoo_pair_budgets_each_sides_whole_call(monkeypatch, tiny_zoo_model) -> None:
    """Plain Inductor for the baseline, the candidate backend's PassConfig and Inductor patches
    for the candidate, each on the model's whole call at its example inputs."""
    from magi_passes import MagiBackend, PassConfig
    from pytest_magi.pairs.zoo import ZooPair

    calls = _recorded_budget_calls(monkeypatch)
    config = PassConfig(measure_decisions=False)
    backend = MagiBackend(config, {"triton.max_tiles": 2})
    pair = ZooPair(tiny_zoo_model, candidate=backend)
    budgets = pair.budget("h100")
    assert budgets.estimated_speedup == pytest.approx(2.0)
    (base_args, base_kw), (cand_args, cand_kw) = calls
    for args in (base_args, cand_args):
        assert type(args[0]).__name__ == "_RunModule"
        assert args[1:] == tiny_zoo_model.inputs
    assert "config" not in base_kw and base_kw["profile"] == "h100"
    assert cand_kw["config"] == config and cand_kw["inductor_config"] == {"triton.max_tiles": 2}
    assert base_kw["label"].endswith("baseline") and cand_kw["label"].endswith("candidate")


@pytest.mark.parametrize(
    ("options", "candidate", "message"),
    [
        pytest.param({"dynamic": True}, "magi", r"dynamic=True.*leave dynamic unset", id="dynamic"),
        pytest.param(
            {"mode": "max-autotune"},
            "magi",
            r"baseline compiles with torch\.compile\(mode=",
            id="mode",
        ),
        pytest.param({}, "eager", r"candidate compiles with 'eager'.*'magi'", id="own-backend"),
    ],
)
def test_a_zoo_pair_a_budget_cannot_generate_is_refused_naming_the_side(
    monkeypatch, tiny_zoo_model, options, candidate, message
) -> None:
    from pytest_magi.pairs.zoo import ZooPair

    calls = _recorded_budget_calls(monkeypatch)
    pair = ZooPair(tiny_zoo_model, candidate=candidate, **options)
    with pytest.raises(ValueError, match=message):
        pair.budget()
    assert len(calls) == (1 if candidate == "eager" else 0)  # the baseline went first


def test_the_estimate_of_a_timed_zoo_pair_is_recorded(monkeypatch, tiny_zoo_model) -> None:
    """What `--magi-estimate` records for a zoo pair: its estimated speedup, not an error."""
    from pytest_magi.pairs.zoo import ZooPair
    from pytest_magi.plugin.verdicts import _with_estimate
    from pytest_magi.report.records import PairRecord

    _recorded_budget_calls(monkeypatch)
    rec = PairRecord(test="t.py::test_a", label="zoo", required=0.98, verdict="pass")
    rec = _with_estimate(rec, ZooPair(tiny_zoo_model), "h200")
    assert (rec.estimated_speedup, rec.estimate_error) == (pytest.approx(2.0), None)
