"""On a real GPU: fake-CUDA codegen produces the same normalised code as the GPU itself.

Both sides run on the GPU machine with its torch (2.11 there): once with the real device, once
with `MAGI_FORCE_FAKE_CUDA=1`, which takes the exact fake-CUDA path CI uses on CPU.
"""

from __future__ import annotations

import pytest
import torch

from magi_passes import PassConfig
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.capture.fake_cuda import FORCE_FAKE_ENV
from pytest_magi.models import GQAProjection, VAEDecoderLike, WanCausalStage


def _cases():
    torch.manual_seed(0)
    vae = VAEDecoderLike("tiny").eval()
    wan = WanCausalStage("tiny").eval()
    gqa = GQAProjection(kv_heads=2)
    return {
        "vae-static": (vae, (vae.example_input(),), None, None),
        "vae-dynamic": (vae, (vae.example_input(),), {0: vae.DYNAMIC_HW}, None),
        "vae-dynamic-magi": (vae, (vae.example_input(),), {0: vae.DYNAMIC_HW}, PassConfig()),
        "wan-static-magi": (wan, (wan.example_input(),), None, PassConfig()),
        "gqa-dynamic": (gqa, (GQAProjection.example_input(),), {0: (2, 3)}, None),
        "gqa-dynamic-magi": (gqa, (GQAProjection.example_input(),), {0: (2, 3)}, PassConfig()),
    }


CASES = list(_cases())


@pytest.mark.requires_cuda(min_capability=(9, 0))
@pytest.mark.parametrize("case", CASES)
def test_fake_cuda_matches_real_gpu(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    model, inputs, dynamic_dims, config = _cases()[case]
    real = inductor_codegen(model, *inputs, dynamic_dims=dynamic_dims, config=config)
    assert real.device != "fake-cuda"
    monkeypatch.setenv(FORCE_FAKE_ENV, "1")
    fake = inductor_codegen(model, *inputs, dynamic_dims=dynamic_dims, config=config)
    assert fake.device == "fake-cuda"
    assert fake.signature() == real.signature()
    assert fake.normalized() == real.normalized()
