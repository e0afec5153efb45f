"""The zoo benchmark's `conv-layout` and `conv` modes on a machine without a GPU: a clear
refusal, not a crash; and the conv mode's scoped cudnn.benchmark restores the flags."""

from __future__ import annotations

from typing import Any

import pytest
import torch

from pytest_magi.bench import conv, conv_layout


@pytest.mark.skipif(torch.cuda.is_available(), reason="the refusal is for machines without CUDA")
@pytest.mark.parametrize("mode", [conv_layout, conv], ids=["conv-layout", "conv"])
def test_without_cuda_it_says_what_it_needs(mode: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert mode.main(["--rounds", "1"]) == 2
    assert "needs a CUDA GPU" in capsys.readouterr().err


def test_conv_mode_scopes_cudnn_benchmark() -> None:
    before = (torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark)
    seen = []
    call = conv.scoped(lambda: seen.append(torch.backends.cudnn.benchmark), conv.cudnn_benchmark)
    call()
    assert seen == [True]
    assert (torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark) == before
