"""The zoo at its real sizes on a GPU, bf16: magi is never slower than torch.compile, and the
Wan 2.2 decode holds its measured gain. Timed with `pytest --magi-perf`; without it the bodies
still check numerics (each side against an fp32 run of the same model) and the passes' decisions.

Thresholds are measured numbers (docs/benchmarks.md, benchmarks/zoo.py on an H200, torch 2.11):
0.98 for every model is the issue's "never slower" bar; the Wan decode threshold sits under its
measured median by more than the run's spread.
"""

from __future__ import annotations

import pytest
import torch

pytestmark = [pytest.mark.requires_cuda, pytest.mark.slow]

# Wan 2.2 decode at T=3 latent frames (9 video frames), magi_compile-style candidate (passes and
# a dynamo frame per module instance, weights converted in the graph) against
# torch.compile(vae.decoder): measured 1.622x (266.1 -> 164.0 ms, spread 0.6% over 8 rounds, H200,
# torch 2.11, this test; docs/results/session4/wan_test_fixed_run5.log); held at 1.5. Before the
# copies of forward had names of their own it read 1.153x here (magi_passes/frames.py).
WAN_FRAMES = 3
WAN_MIN_SPEEDUP = 1.5


@pytest.mark.min_speedup(0.98)
@pytest.mark.parametrize("name", ["resnet50", "efficientnet_b0", "sd-vae"])
def test_zoo_model_is_never_slower(zoo_pair, name: str) -> None:
    pair = zoo_pair(name, "full", device="cuda", dtype=torch.bfloat16)
    pair.assert_close()
    # conv2d-only networks are left to Inductor's own layout optimisation (the measured gate)
    assert not pair.fired("conv_channels_last")


@pytest.mark.min_speedup(WAN_MIN_SPEEDUP)
def test_wan_decode_holds_its_gain(zoo_pair) -> None:
    pair = zoo_pair("wan2.2-vae", "full", device="cuda", dtype=torch.bfloat16, frames=WAN_FRAMES)
    pair.assert_close()
    assert pair.fired("conv_channels_last")
