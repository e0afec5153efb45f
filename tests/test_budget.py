"""Perf budgets from fake-CUDA code: counts agree with `kernel_counts`, bytes are Inductor's own
count, a fusing pass lowers them, the estimate follows the profile, and the checks fail naming
what exceeds.

Models that take a cache as an argument (KVAE-3D's and Kandinsky-6's decoders fill a dict with
cpu tensors in the eager call) budget on fake cuda, their nested tensors converted in new
containers; KVAE-3D's torch.compile side meets torch 2.13's own sympy bug, and the budget names
the fix."""

from __future__ import annotations

import json
import math
import os
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import pytest_magi
from magi_passes import PassConfig
from magi_passes.compile.sympy_retry import has_identity_number_bug
from magi_passes.passes.dynamic_reshape import DynamicReshapePass
from pytest_magi import zoo
from pytest_magi.bench import codegen
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


POINTWISE_SOURCE = """
@triton_heuristics.pointwise(size_hints={'x': 1024}, filename=__file__)
@triton.jit
def triton_poi_fused_0(in_ptr0, out_ptr0, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    x0 = (xindex % ks0)
    x1 = ((xindex // ks0) % ks1)
    x2 = xindex // 16
    tmp0 = tl.load(in_ptr0 + (x0 + 4*x1), xmask)
"""
REDUCTION_SOURCE = """
@triton_heuristics.reduction(size_hints={'x': 64, 'r0_': 256}, filename=__file__)
@triton.jit
def triton_red_fused_1(in_ptr0, out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    x0 = (xindex % ks0)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        tmp0 = tl.load(in_ptr0 + ((r0_index // ks0) + x0), r0_mask)
"""


def test_index_divisions_by_run_time_sizes_are_counted_per_element() -> None:
    """A dynamic shape's kernel divides its index by sizes known only at run time (``ks0``):
    each such ``//`` or ``%`` counts once per element it runs over; a constant divisor (``16``)
    counts nothing, and neither does code without size hints."""
    from pytest_magi.budget.accounting import kernel_index_divmods

    assert kernel_index_divmods(POINTWISE_SOURCE) == 3 * 1024  # % ks0, // ks0, % ks1
    # per row outside the loop (64), per row and reduction element inside it (64 x 256)
    assert kernel_index_divmods(REDUCTION_SOURCE) == 64 + 64 * 256
    assert kernel_index_divmods(POINTWISE_SOURCE.replace("ks", "")) == 0
    assert kernel_index_divmods("def triton_x(): pass") == 0


def test_index_arithmetic_can_outlast_a_kernels_memory_traffic() -> None:
    """A kernel's time is the longest of its compute, its memory traffic and its run-time
    index divisions (on the profile's `index_divmod_g_per_s`), plus its launch."""
    from pytest_magi.budget.result import LaunchCost

    h200 = PROFILES["h200"]
    light = LaunchCost("k", "pointwise", bytes=4_300_000, flops=None)  # 1 us of traffic
    heavy = LaunchCost("k", "pointwise", bytes=4_300_000, flops=None, index_divmods=3_400_000)
    assert math.isclose(light.estimated_s(h200), 1e-6 + 3e-6)
    assert math.isclose(heavy.estimated_s(h200), 10e-6 + 3e-6)  # 3.4e6 / 340e9 per s
    assert heavy.to_dict(h200)["index_divmods"] == 3_400_000
    assert "index_divmods" not in light.to_dict(h200)
    fast = Profile(**dict(h200.to_dict(), name="fast", index_divmod_g_per_s=3400.0))
    assert math.isclose(heavy.estimated_s(fast), 1e-6 + 3e-6)
    with pytest.raises(ValueError, match=r"index_divmod_g_per_s=0, expected a positive number"):
        Profile(**dict(h200.to_dict(), name="bad", index_divmod_g_per_s=0))


def test_a_dynamic_reshape_pays_for_index_divisions_a_static_one_does_not() -> None:
    x = GQAProjection.example_input("tiny")
    dynamic = pytest_magi.budget(GQAProjection(kv_heads=4), x, dynamic_dims={0: (2, 3)})
    static = pytest_magi.budget(GQAProjection(kv_heads=4), x)
    divmods = [
        c["index_divmods"] for c in dynamic.to_dict()["graphs"][0]["calls"] if "index_divmods" in c
    ]
    assert divmods and min(divmods) > 0
    assert all("index_divmods" not in c for g in static.to_dict()["graphs"] for c in g["calls"])


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


class CachedCausalConv(nn.Module):
    """KVAE's causal conv in small: the cached frames (the clip's first frame repeated on the
    first call) concatenated in front of the clip, the last frames kept for the next call."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv3d(4, 4, 3, padding=(0, 1, 1))

    def forward(self, x: torch.Tensor, cache: dict[str, Any]) -> torch.Tensor:
        padding = cache["padding"]
        if padding is None:
            padding = x[:, :, :1].expand(-1, -1, 2, -1, -1)
        out = self.conv(torch.cat([padding, x], dim=2))
        cache["padding"] = torch.clone(x[:, :, -2:])
        return out


class _Owner:
    """What `codegen._first_call` needs of a zoo model: ``.module`` and ``.run()``."""

    def __init__(self) -> None:
        self.module = CachedCausalConv().eval()

    def run(self) -> Any:
        cache: dict[str, Any] = {"padding": None}
        x = torch.randn(1, 4, 6, 5, 5)
        with torch.no_grad():
            return [self.module(chunk, cache) for chunk in x.split(3, dim=2)]


def test_a_cpu_tensor_in_a_dict_input_is_generated_on_fake_cuda_and_the_dict_is_left_alone() -> (
    None
):
    module = CachedCausalConv().eval()
    x = torch.randn(1, 4, 3, 5, 5)
    kept = torch.randn(1, 4, 2, 5, 5)
    cache: dict[str, Any] = {"padding": kept}
    filled = pytest_magi.budget(module, x, cache)
    assert filled.kernels >= 1 and any(g.launches for g in filled.graphs), filled
    assert cache == {"padding": kept} and cache["padding"] is kept  # nothing written back
    empty: dict[str, Any] = {"padding": None}
    first = pytest_magi.budget(module, x, empty, config=PassConfig())
    assert empty == {"padding": None}, empty
    # the first call repeats a frame instead of reading the cache: other code, no error
    assert first.kernels >= 1


def test_the_codegen_mode_records_the_first_call_as_it_was_called() -> None:
    args, kwargs = codegen._first_call(_Owner())  # type: ignore[arg-type]
    x, cache = args
    assert kwargs == {} and tuple(x.shape) == (1, 4, 3, 5, 5)
    assert cache == {"padding": None}  # not the frames the run's second call left there


def _decoder_case(name: str) -> codegen.Case:
    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    (case,) = codegen.zoo_cases([name], torch.bfloat16)
    return case


@pytest.mark.slow
def test_kandinsky6_decoder_budgets_on_fake_cuda() -> None:
    """The codegen mode's call of the Kandinsky-6 decoder (tiny, bf16), plain and with magi."""
    case = _decoder_case("kandinsky6-sr-vae")
    for config in (None, PassConfig()):
        b = pytest_magi.budget(case.fn, *case.inputs, config=config)
        assert b.kernels > 0 and b.bytes > 0 and b.estimated_ms > 0, b


@pytest.mark.slow
def test_kvae_decoder_budgets_with_magi_and_says_why_torch_compile_cannot() -> None:
    """KVAE-3D's decoder (tiny, bf16) generates with the magi passes; plain Inductor raises on
    torch's sympy bug, and the BudgetError names it and the fix."""
    case = _decoder_case("kvae-3d-vae")
    b = pytest_magi.budget(case.fn, *case.inputs, config=PassConfig())
    assert b.kernels > 0 and b.bytes > 0 and b.estimated_ms > 0, b
    if not has_identity_number_bug():
        pytest.skip(f"torch {torch.__version__} has no sympy bug of a clamped Identity")
    with pytest.raises(BudgetError) as raised:
        pytest_magi.budget(case.fn, *case.inputs)
    message = str(raised.value)
    assert "sympy bug of torch" in message and "clamp of a constant Identity" in message, message
    assert "Fix: generate with config=PassConfig()" in message, message
    assert "device mismatch" not in message, message


def test_the_sympy_bug_is_named_with_its_fix() -> None:
    """The failure and its fix, on the minimal concatenation of a clamped clip (fast)."""
    if not has_identity_number_bug():
        pytest.skip(f"torch {torch.__version__} has no sympy bug of a clamped Identity")

    def clamped_cat(x: torch.Tensor) -> torch.Tensor:
        return torch.cat([x[:, :, :2], F.pad(x, (0, 0, 0, 0, 1, 1), mode="replicate")], 2) * 2

    x = torch.randn(1, 4, 3, 4, 6, dtype=torch.bfloat16)
    with pytest.raises(BudgetError, match=r"Fix: generate with config=PassConfig\(\)"):
        pytest_magi.budget(clamped_cat, x)
    off = PassConfig(work_around_inductor_bugs=False)
    with pytest.raises(BudgetError, match="has work_around_inductor_bugs=False: set it True"):
        pytest_magi.budget(clamped_cat, x, config=off)
    assert pytest_magi.budget(clamped_cat, x, config=PassConfig()).kernels == 1


def test_the_index_division_kernel_measure_profile_times_computes_each_coordinate_sum(
    tmp_path: Any,
) -> None:
    """`measure_profile` times `split_indices` for `index_divmod_g_per_s`; its kernel, run in
    Triton's interpreter on the CPU (a subprocess: the interpreter is chosen at import), writes
    each index's coordinate sum."""
    import subprocess
    import sys

    script = tmp_path / "split.py"
    script.write_text(
        "import torch\n"
        "from pytest_magi.budget.profiles import split_indices\n"
        "out = torch.zeros(3000, dtype=torch.int32)\n"
        "split_indices(out, (5, 4, 3, 2))\n"
        "i = torch.arange(3000)\n"
        "want = i % 5 + (i // 5) % 4 + (i // 20) % 3 + (i // 60) % 2 + i // 120\n"
        "assert torch.equal(out, want.to(torch.int32)), (out[:12], want[:12])\n"
        "print('ok')\n"
    )
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr[-2000:]
