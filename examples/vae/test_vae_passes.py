"""The example suite: how a pass author tests the magi passes on a VAE decoder.

Run with `python -m pytest examples/vae` (add `--magi-perf` on a GPU to time the min_speedup
tests). Everything here is what a downstream project writes with pytest-magi installed.
"""

from __future__ import annotations

import pytest
import torch

from magi_passes import PassConfig


@pytest.fixture
def model(VAEDecoderLike):
    torch.manual_seed(0)
    return VAEDecoderLike("tiny").eval()


def test_magi_matches_torch_compile_and_fires(compiled_pair, model) -> None:
    """Numerics against eager, and proof that each side ran its own code."""
    pair = compiled_pair(model, model.example_input(), label="vae-tiny-static")
    pair.assert_close()
    assert pair.fired("conv_channels_last")
    assert pair.code["baseline"] != pair.code["candidate"]


def test_dynamic_hw(compiled_pair, model) -> None:
    pair = compiled_pair(
        model, model.example_input(), dynamic_dims={0: model.DYNAMIC_HW}, label="vae-tiny-dynamic"
    )
    pair.assert_close()
    # a new latent size reuses the dynamic graphs of each side
    z = torch.randn(1, 4, 2, 10, 6)
    torch.testing.assert_close(pair.candidate(z), model(z), rtol=1e-4, atol=1e-4)


def test_config_patch_is_scoped(config_patch) -> None:
    config_patch({"triton.max_tiles": 3})
    assert torch._inductor.config.triton.max_tiles == 3
    # after the test the plugin checks that Inductor's config is back to what it was


def test_cuda_kernel_counts_without_a_gpu(kernel_counts, model) -> None:
    """Fake-CUDA codegen: the Triton kernels Inductor would launch on an H100, on any machine.

    Channels-last costs kernels here, and this test holds the number: one copy of the graph
    input for the first conv, one per GroupNorm whose output feeds a conv (its statistics and
    its channels-last normalise no longer fuse into one kernel), and, by default, one copy per
    conv weight (the weights are graph inputs: their clone cannot fuse into a producer). The
    opt-in `channels_last_weights_once` converts weights once outside the graph instead.
    `GroupNormStatsPass` then adds at most two small kernels per GroupNorm: one combines each
    group's channel statistics and stores the group's mean and rsqrt once per channel (for the
    normalise kernel to load at the channel's index), and at some sizes the per-channel
    reduction takes one split stage more than the group's did.
    """
    plain = kernel_counts(model, model.example_input())
    magi = kernel_counts(model, model.example_input(), config=PassConfig())
    once = kernel_counts(
        model, model.example_input(), config=PassConfig(channels_last_weights_once=True)
    )
    once_no_gn = kernel_counts(
        model,
        model.example_input(),
        config=PassConfig(channels_last_weights_once=True, enable_group_norm_stats=False),
    )
    groupnorms = sum(isinstance(m, torch.nn.GroupNorm) for m in model.modules())
    convs = sum(isinstance(m, torch.nn.Conv3d) for m in model.modules())
    assert once_no_gn.forward - plain.forward <= 1 + (groupnorms - 1)
    assert 0 < once.forward - once_no_gn.forward <= 2 * groupnorms
    assert magi.forward - once.forward <= convs
    expected = {"2.13": (7, 11, 14)}.get(".".join(torch.__version__.split(".")[:2]))
    if expected is not None:  # exact numbers are per torch version, like snapshots
        assert (plain.forward, once_no_gn.forward, once.forward) == expected


@pytest.mark.requires_cuda(min_capability=(8, 0))
@pytest.mark.min_speedup(1.05)
def test_540p_static_on_gpu(compiled_pair, VAEDecoderLike) -> None:
    model = VAEDecoderLike("540p").cuda().to(torch.bfloat16).eval()
    z = model.example_input(device="cuda", dtype=torch.bfloat16)
    pair = compiled_pair(model, z, label="vae-540p-static")
    pair.assert_close()
