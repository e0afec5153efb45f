"""`magi_passes.kernel_configs`: the fixed Triton configs of the kernels GroupNormStatsPass makes
(fake CUDA: generated, never run), their gates, and that the choices handler is restored. Their
speed is measured on the GPU by tests/test_perf_gpu.py::test_vae_540p_static."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import torch
from torch._inductor import config as inductor_config
from torch._inductor.virtualized import V

from magi_passes import MagiBackend, PassConfig, PassManager
from magi_passes.compile.kernel_configs import (
    APPLY_CONFIG,
    CHUNK_STATS_CONFIG,
    STATS_CONFIG,
    group_norm_kernel_configs,
)
from magi_passes.passes.group_norm import chunk_reduction_key, chunk_reductions
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.models import WanCausalStage
from pytest_magi.numerics.judgment import _relative_l2

STATIC = PassConfig(measure_decisions=False)


class Block(torch.nn.Module):
    """conv3d -> GroupNorm(32) -> SiLU -> conv3d."""

    def __init__(self, channels: int = 128) -> None:
        super().__init__()
        self.conv1 = torch.nn.Conv3d(channels, channels, 3, padding=1)
        self.norm = torch.nn.GroupNorm(32, channels)
        self.conv2 = torch.nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2(torch.nn.functional.silu(self.norm(self.conv1(x))))


def block_code(config: PassConfig, dynamic: bool = False) -> Any:
    torch.manual_seed(0)
    model = Block().to(torch.bfloat16).eval()
    # 540p-sized (fake CUDA allocates nothing): 128 x 7 x 136 x 240
    x = torch.randn(1, 128, 7, 136, 240, dtype=torch.bfloat16)
    with torch.no_grad():
        return inductor_codegen(
            model, x, config=config, dynamic_dims={0: (3, 4)} if dynamic else None
        )


def fixed(code: Any) -> list[tuple[str, dict[str, int]]]:
    return [(k.kind, k.fixed_config) for k in code.kernels if k.fixed_config is not None]


def test_fake_cuda_the_statistics_and_the_apply_kernel_launch_with_the_fixed_configs() -> None:
    """The statistics' split stage (an OUTER Welford reduction over 228480 positions) and the
    normalise + SiLU kernel (one full-size read, per-channel operands, an exp) launch with the
    measured configs; nothing else of the graph does, and with the switch off nothing does."""
    on = block_code(STATIC)
    assert sorted(fixed(on), key=str) == sorted(
        [("reduction", STATS_CONFIG), ("pointwise", APPLY_CONFIG)], key=str
    )
    (stats,) = [k for k in on.kernels if k.kind == "reduction" and k.fixed_config]
    assert "welford" in stats.source and "triton_heuristics.fixed_config(" in stats.source
    (apply,) = [k for k in on.kernels if k.kind == "pointwise" and k.fixed_config]
    assert "libdevice.exp" in apply.source
    off = block_code(STATIC.replace(group_norm_kernel_configs=False))
    assert fixed(off) == []
    # the same kernels otherwise (a fixed config's body differs only where its block sizes
    # become constants)
    assert on.kernel_count == off.kernel_count
    assert sorted(k.fused_ops for k in on.kernels) == sorted(k.fused_ops for k in off.kernels)
    # and with the GroupNorm rewrite off, its kernels are not there to configure
    assert fixed(block_code(STATIC.replace(enable_group_norm_stats=False))) == []


def test_fake_cuda_the_chunk_statistics_launch_with_one_config() -> None:
    """With the statistics cut into chunks (HunyuanVideo's 512 channels over 3 x 60 x 106
    positions: 60 chunks of 318), the chunk reduction, which Inductor would autotune over six
    configs at the first call (its "default" hint), launches with the statistics' config; the
    combine (persistent on torch 2.13, one config of Inductor's already; looped on torch 2.11)
    and the rest keep theirs, the apply kernel its own fixed one. The pass records the chunk
    reduction's sizes, which is how the handler knows it; with the switch off nothing is
    fixed."""
    chunked = STATIC.replace(group_norm_chunked_stats=True)
    torch.manual_seed(0)
    model = Block(512).to(torch.bfloat16).eval()
    x = torch.randn(1, 512, 3, 60, 106, dtype=torch.bfloat16)
    with torch.no_grad():
        on = inductor_codegen(model, x, config=chunked)
        off = inductor_codegen(model, x, config=chunked.replace(group_norm_kernel_configs=False))
    (result,) = [r for r in on.pass_results if r.name == "group_norm_stats"]
    assert chunk_reductions(result.counts) == {(512 * 60, 318)}
    assert sorted(fixed(on), key=str) == sorted(
        [("reduction", CHUNK_STATS_CONFIG), ("pointwise", APPLY_CONFIG)], key=str
    )
    (chunks,) = [k for k in on.kernels if k.kind == "reduction" and k.fixed_config]
    assert "xnumel = 30720" in chunks.source and "r0_numel = 318" in chunks.source
    assert "welford" in chunks.source
    # (the combine is a looped reduction too on torch 2.11: the chunk reduction by its sizes)
    (autotuned,) = [
        k for k in off.kernels if k.kind == "reduction" and "r0_numel = 318" in k.source
    ]
    assert "reduction_hint=ReductionHint.DEFAULT" in autotuned.source
    assert fixed(off) == []
    assert on.kernel_count == off.kernel_count
    # what the first call on a GPU would compile and benchmark (the compile-time mode's census,
    # Inductor's own config lists): six configs for the chunk reduction, one when fixed
    from pytest_magi.bench.compile_time import candidate_configs

    assert candidate_configs(autotuned.source) == ("reduction", 6)
    assert candidate_configs(chunks.source) == ("fixed_config", 1)


def chunked_block(shape: tuple[int, ...], device: str = "cpu") -> tuple[Any, Any]:
    torch.manual_seed(0)
    model = Block(shape[1]).to(device, torch.bfloat16).eval()
    return model, torch.randn(*shape, device=device, dtype=torch.bfloat16)


# chunk reductions of 64 positions, which Inductor makes persistent (R0_BLOCK all of them), and
# of 318, a looped reduction (HunyuanVideo's, above): (input shape, (outputs, positions))
PERSISTENT_CHUNKS = ((1, 512, 1, 64, 64), (512 * 64, 64))
LOOPED_CHUNKS = ((1, 512, 3, 60, 106), (512 * 60, 318))


def test_fake_cuda_a_chunk_reduction_inductor_makes_persistent_keeps_its_config() -> None:
    """512 channels over 64 x 64 positions: 64 chunks of 64 a channel, a reduction Inductor
    makes persistent, whose R0_BLOCK is all 64 positions and not an argument. The chunk config
    (an R0_BLOCK of 4) cannot apply there: on the GPU Triton refused to compile such a kernel
    (Allegro's and EasyAnimate's decoders with the chunked statistics, torch 2.11,
    "'R0_BLOCK' is not in list"). It keeps Inductor's config; no persistent reduction is fixed."""
    shape, sizes = PERSISTENT_CHUNKS
    model, x = chunked_block(shape)
    with torch.no_grad():
        code = inductor_codegen(model, x, config=STATIC.replace(group_norm_chunked_stats=True))
    (result,) = [r for r in code.pass_results if r.name == "group_norm_stats"]
    assert chunk_reductions(result.counts) == {sizes}
    (chunk,) = [
        k for k in code.kernels if "xnumel = 32768" in k.source and "r0_numel = 64" in k.source
    ]
    assert chunk.kind == "persistent_reduction" and chunk.fixed_config is None
    assert [k for k in code.kernels if k.fixed_config and k.kind == "persistent_reduction"] == []


@pytest.mark.requires_cuda
@pytest.mark.parametrize("case", [PERSISTENT_CHUNKS, LOOPED_CHUNKS], ids=["persistent", "looped"])
def test_the_chunked_statistics_compile_and_decode_as_eager_on_the_gpu(case: Any) -> None:
    """The chunked statistics' kernels, fixed configs included, compile with Triton and run:
    the output within 2x eager's distance from an fp32 run (a fixed config once crashed at the
    first call, where Triton compiled the persistent chunk reduction with a fixed R0_BLOCK)."""
    shape, _ = case
    model, x = chunked_block(shape, "cuda")
    torch._dynamo.reset()
    backend = MagiBackend(STATIC.replace(group_norm_chunked_stats=True))
    # (no cache: a cached graph would skip the passes and Triton's compile)
    with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
        out = torch.compile(model, backend=backend)(x)
        eager = model(x)
        ref = copy.deepcopy(model).float()(x.float())
    (result,) = [r for r in backend.managers[-1].results if r.name == "group_norm_stats"]
    assert result.counts["group_norms_chunked"] == 1

    magi, eager_l2 = _relative_l2(out, ref), _relative_l2(eager, ref)
    assert magi <= max(2 * eager_l2, 1e-3), (magi, eager_l2)


def test_chunk_reduction_sizes_round_trip_through_the_counts() -> None:
    counts = {
        "group_norms_chunked": 2,
        chunk_reduction_key(30720, 318): 1,
        chunk_reduction_key(7680, 1272): 1,
    }
    assert chunk_reductions(counts) == {(30720, 318), (7680, 1272)}
    assert chunk_reductions({"group_norms_chunked": 0}) == frozenset()


def test_fake_cuda_dynamic_positions_keep_inductors_configs() -> None:
    """Symbolic sizes: neither rule was measured there (and the apply kernel keeps its per-group
    operands), so every kernel keeps Inductor's heuristics."""
    code = block_code(STATIC, dynamic=True)
    (result,) = [r for r in code.pass_results if r.name == "group_norm_stats"]
    assert result.counts["group_norms_rewritten"] == 1
    assert fixed(code) == []


def test_fake_cuda_a_graph_without_group_norm_is_untouched() -> None:
    torch.manual_seed(0)
    model = WanCausalStage("540p").to(torch.bfloat16).eval()
    with torch.no_grad():
        code = inductor_codegen(model, model.example_input(dtype=torch.bfloat16), config=STATIC)
    assert code.kernel_count > 0 and fixed(code) == []


def test_the_choices_handler_is_restored_even_when_the_compile_fails() -> None:
    prior = V.choices
    manager = PassManager(STATIC)
    with group_norm_kernel_configs(manager):
        assert V.choices is not prior
        # every other question goes to the handler it stands in front of
        assert V.choices.should_use_persistent_reduction == prior.should_use_persistent_reduction
    assert V.choices is prior
    with pytest.raises(RuntimeError, match="boom"), group_norm_kernel_configs(manager):
        raise RuntimeError("boom")
    assert V.choices is prior
    # switched off (or no manager): nothing is installed
    for off in (PassManager(STATIC.replace(group_norm_kernel_configs=False)), None):
        with group_norm_kernel_configs(off):
            assert V.choices is prior
