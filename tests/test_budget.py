"""Perf budgets from fake-CUDA code: counts agree with `kernel_counts`, bytes are Inductor's own
count, a fusing pass lowers them, the estimate follows the profile, and the checks fail naming
what exceeds."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import torch
from torch import nn

import pytest_magi
from magi_passes import PassConfig
from magi_passes.passes.dynamic_reshape import DynamicReshapePass
from pytest_magi.budget import PROFILES, Budget, BudgetError, Profile, get_profile
from pytest_magi.capture.codegen import inductor_codegen, kernel_counts
from pytest_magi.models import GQAProjection


def pointwise_chain(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return (x.sin() + y).relu() * 2


class ConvBlock(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(8, 16, 3, padding=1)
        self.norm = nn.GroupNorm(4, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.silu(self.norm(self.conv(x)))


CHAIN_INPUTS = (torch.randn(64, 128), torch.randn(64, 128))


@pytest.fixture(scope="module")
def chain_budget() -> Budget:
    return pytest_magi.budget(pointwise_chain, *CHAIN_INPUTS)


@pytest.fixture(scope="module")
def block() -> tuple[nn.Module, torch.Tensor]:
    torch.manual_seed(0)
    return ConvBlock(), torch.randn(2, 8, 16, 16)


@pytest.fixture(scope="module")
def block_budget(block: tuple[nn.Module, torch.Tensor]) -> Budget:
    return pytest_magi.budget(*block, profile="h200")


def test_kernels_and_launches_match_the_generated_code(
    block: tuple[nn.Module, torch.Tensor], block_budget: Budget
) -> None:
    counts = kernel_counts(*block)
    code = inductor_codegen(*block)
    assert block_budget.kernels == counts.forward > 1
    assert block_budget.launches == len(code.captured[0].calls)
    # the conv is an extern call; each launch is a kernel of the code or that call
    externs = [c for g in block_budget.graphs for c in g.launches if not c.is_kernel]
    assert [c.name for c in externs] == ["convolution"]
    assert block_budget.launches == counts.forward + 1


def test_pointwise_kernel_bytes_are_its_inputs_and_output(chain_budget: Budget) -> None:
    (graph,) = chain_budget.graphs
    (launch,) = graph.launches
    assert launch.kind == "pointwise"
    assert launch.bytes == 3 * 64 * 128 * 4  # two fp32 inputs read, one output written
    assert chain_budget.bytes == launch.bytes


def test_extern_call_flops_and_bytes(block_budget: Budget) -> None:
    (conv,) = [c for c in block_budget.graphs[0].launches if c.name == "convolution"]
    # 2 * N * Cout * H * W * Cin * 3 * 3; input, weight and output in fp32 (Inductor adds the
    # bias in the kernel after the conv)
    assert conv.flops == 2 * 2 * 16 * 16 * 16 * 8 * 9
    assert conv.bytes == 4 * (2 * 8 * 16 * 16 + 16 * 8 * 9 + 2 * 16 * 16 * 16)
    assert conv.dtype == "float32"


def test_linear_is_one_addmm_forward_and_two_mm_backward() -> None:
    x = torch.randn(8, 32, requires_grad=True)
    b = pytest_magi.budget(nn.Linear(32, 16), x, backward=True)
    assert [g.kind for g in b.graphs] == ["forward", "backward"]
    assert [c.name for c in b.graphs[0].launches] == ["addmm"]
    (addmm,) = b.graphs[0].launches
    assert addmm.flops == 2 * 8 * 32 * 16
    assert addmm.bytes == 4 * (8 * 32 + 16 * 32 + 16 + 8 * 16)
    assert [c.name for c in b.graphs[1].launches if not c.is_kernel] == ["mm", "mm"]
    assert b.kernels == kernel_counts(nn.Linear(32, 16), x, backward=True).total


def test_a_pass_that_removes_a_copy_kernel_reduces_bytes() -> None:
    """With Hq and D dynamic, plain Inductor copies GQAProjection's output in an extra kernel;
    `DynamicReshapePass` lets it reinterpret the view instead (docs/dynamic-shapes.md)."""
    x = GQAProjection.example_input("tiny")
    kwargs: dict[str, Any] = {"dynamic_dims": {0: (2, 3)}}
    plain = pytest_magi.budget(GQAProjection(kv_heads=4), x, passes=[], **kwargs)
    fused = pytest_magi.budget(
        GQAProjection(kv_heads=4), x, passes=[DynamicReshapePass(PassConfig())], **kwargs
    )
    assert fused.kernels == plain.kernels - 1
    assert fused.bytes < plain.bytes
    assert fused.estimated_ms < plain.estimated_ms


def test_estimate_follows_the_profile(block_budget: Budget) -> None:
    h100, h200 = block_budget.on("h100"), block_budget.on("h200")
    assert h100.estimated_ms != h200.estimated_ms
    slow = block_budget.on(dict(PROFILES["h200"].to_dict(), name="slow", bandwidth_tb_s=1e-5))
    assert slow.estimated_ms > 100 * h200.estimated_ms
    free = dict(PROFILES["h200"].to_dict(), name="free", launch_us=0.0)
    # with launches free, a memory-bound pointwise kernel takes bytes / bandwidth
    chain = pytest_magi.budget(pointwise_chain, *CHAIN_INPUTS, profile=free)
    assert math.isclose(chain.estimated_ms, 3 * 64 * 128 * 4 / 4.3e12 * 1e3)


def test_to_dict_is_json_safe_deterministic_and_round_trips(
    block: tuple[nn.Module, torch.Tensor], block_budget: Budget
) -> None:
    again = pytest_magi.budget(*block, profile="h200")
    text = json.dumps(block_budget.to_dict(), sort_keys=True)
    assert text == json.dumps(again.to_dict(), sort_keys=True)
    assert Budget.from_dict(json.loads(text)).to_dict() == block_budget.to_dict()
    table = str(block_budget)
    assert "convolution" in table and "h200" in table and "estimated" in table


def test_assert_within_names_each_excess(block_budget: Budget) -> None:
    block_budget.assert_within(max_bytes=block_budget.bytes, max_launches=block_budget.launches)
    with pytest.raises(AssertionError) as info:
        block_budget.assert_within(
            max_bytes=1000, max_launches=2, max_kernels=100, max_estimated_ms=1e-6
        )
    message = str(info.value)
    assert f"bytes {block_budget.bytes:,} > max_bytes=1,000" in message
    assert f"launches {block_budget.launches} > max_launches=2" in message
    assert "estimated_ms" in message and "max_kernels" not in message
    assert "largest launches by bytes" in message
    with pytest.raises(ValueError, match="at least one of"):
        block_budget.assert_within()


def test_unknown_profile_names_it_and_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown device profile 'a100'.*h100, h200"):
        get_profile("a100")
    with pytest.raises(ValueError, match="unknown device profile 'b200'"):
        pytest_magi.budget(pointwise_chain, *CHAIN_INPUTS, profile="b200")


def test_profile_missing_or_bad_field_is_named() -> None:
    with pytest.raises(ValueError, match=r"Profile 'mine' is missing matmul_tflops"):
        Profile(name="mine", bandwidth_tb_s=2.0, fp32_tflops=50, launch_us=2, source="guess")
    with pytest.raises(ValueError, match=r"bandwidth_tb_s=-1"):
        Profile(
            name="x", bandwidth_tb_s=-1, matmul_tflops=1, fp32_tflops=1, launch_us=1, source="s"
        )
    with pytest.raises(ValueError, match=r"\['bandwith_tb_s'\] are unknown"):
        get_profile({"name": "typo", "bandwith_tb_s": 1.0})
    for profile in PROFILES.values():
        assert "datasheet" in profile.source or "measured" in profile.source


def test_measure_profile_refuses_without_cuda() -> None:
    if torch.cuda.is_available():
        pytest.skip("a CUDA GPU is here: measure_profile would measure it")
    with pytest.raises(RuntimeError, match=r"measures a real CUDA GPU, and there is none here"):
        pytest_magi.budget.measure_profile()
    with pytest.raises(ValueError, match="expected 'cuda'"):
        pytest_magi.budget.measure_profile("cpu")


def test_a_model_fake_cuda_cannot_generate_says_what_failed() -> None:
    def reads_a_value(x: torch.Tensor) -> torch.Tensor:
        return torch.ones(int(torch.cuda.current_stream().cuda_stream) + 1) + x.sum()

    with pytest.raises(BudgetError) as info:
        pytest_magi.budget(reads_a_value, torch.randn(4))
    message = str(info.value)
    assert "could not generate CUDA code for" in message
    assert "reads_a_value under fake CUDA (no GPU here)" in message
    assert "torch.compile(fn)" in message
    assert info.value.__cause__ is not None


def test_lazy_exports_keep_the_package_torch_free_to_import() -> None:
    assert callable(pytest_magi.budget)
    assert pytest_magi.Budget is Budget
    assert {"budget", "Budget"} <= set(pytest_magi.__all__)
