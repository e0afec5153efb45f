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

# Wan 2.2 decode at T=5 latent frames (17 video frames): measured 1.135x in the issue, see
# docs/benchmarks.md for this run's figure; held at 1.05
WAN_FRAMES = 5
WAN_MIN_SPEEDUP = 1.05


@pytest.mark.min_speedup(0.98)
@pytest.mark.parametrize("name", ["resnet50", "efficientnet_b0", "sd-vae"])
def test_zoo_model_is_never_slower(zoo_pair, name: str) -> None:
    pair = zoo_pair(name, "full", device="cuda", dtype=torch.bfloat16)
    pair.assert_close()
    # conv2d-only networks are left to Inductor's own layout optimisation (the measured gate)
    assert not pair.fired("conv_channels_last")


@pytest.mark.min_speedup(WAN_MIN_SPEEDUP)
def test_wan_decode_holds_its_gain(zoo_pair) -> None:
    pair = zoo_pair(
        "wan2.2-vae", "full", device="cuda", dtype=torch.bfloat16, frames=WAN_FRAMES
    )
    pair.assert_close()
    assert pair.fired("conv_channels_last")
