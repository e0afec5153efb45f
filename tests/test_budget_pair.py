"""`pair.budget()`: both sides' budgets of a compiled pair, their estimated speedup and the CPU
gate on it; a side compiled by a dynamo backend of its own is refused."""

from __future__ import annotations

import pytest
import torch
from torch import nn

import pytest_magi
from pytest_magi.budget.pairs import PairBudget, _side_arguments
from pytest_magi.capture.sides import SideSpec
from pytest_magi.pair import CompiledPair


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
