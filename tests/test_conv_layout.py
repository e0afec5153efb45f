"""benchmarks/conv_layout.py on a machine without a GPU: a clear refusal, not a crash."""

from __future__ import annotations

import pytest
import torch

from tests.scripts import load_benchmark


@pytest.mark.skipif(torch.cuda.is_available(), reason="the refusal is for machines without CUDA")
def test_without_cuda_it_says_what_it_needs(capsys: pytest.CaptureFixture[str]) -> None:
    conv_layout = load_benchmark("conv_layout")
    assert conv_layout.main(["--rounds", "1"]) == 2
    assert "needs a CUDA GPU" in capsys.readouterr().err
