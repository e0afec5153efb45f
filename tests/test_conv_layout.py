"""benchmarks/conv_layout.py and benchmarks/conv_gap.py on a machine without a GPU: a clear
refusal, not a crash; and conv_gap's scoped cudnn.benchmark restores the flags."""

from __future__ import annotations

import pytest
import torch

from tests.scripts import load_benchmark


@pytest.mark.skipif(torch.cuda.is_available(), reason="the refusal is for machines without CUDA")
@pytest.mark.parametrize("name", ["conv_layout", "conv_gap"])
def test_without_cuda_it_says_what_it_needs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    script = load_benchmark(name)
    assert script.main(["--rounds", "1"]) == 2
    assert "needs a CUDA GPU" in capsys.readouterr().err


def test_conv_gap_scopes_cudnn_benchmark() -> None:
    conv_gap = load_benchmark("conv_gap")
    before = (torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark)
    seen = []
    call = conv_gap.scoped(
        lambda: seen.append(torch.backends.cudnn.benchmark), conv_gap.cudnn_benchmark
    )
    call()
    assert seen == [True]
    assert (torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark) == before
