"""This project's fusion contract, pinned with pytest-magi.

`kernel_counts` generates the CUDA Triton code Inductor would compile (fake CUDA on a CPU
machine, the real GPU on a GPU machine; nothing is compiled or launched) and counts the
kernels. The numbers are exact and per torch minor version: a torch upgrade that fuses
differently fails here, on purpose. `triton_snapshot` / `signature_snapshot` keep the code
itself under `tests/__snapshots__/torch-<major>.<minor>/test_fusion/`.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
from magi_downstream_example import HeadMerge, TinyConvNet

from pytest_magi.codegen import KernelCounts
from pytest_magi.snapshots import torch_version_dirname

TORCH = torch_version_dirname()  # e.g. "torch-2.13"

# Triton kernels (forward, backward) per case, measured on fake CUDA (pytest-magi, CPU).
EXPECTED: dict[str, dict[str, KernelCounts]] = {
    "torch-2.13": {
        # transpose copy + fused residual/RMS-norm reduction (the projection is an extern mm)
        "head_merge": KernelCounts(forward=2, backward=None),
        "head_merge-dynamic_tokens": KernelCounts(forward=2, backward=None),
        "head_merge-training": KernelCounts(forward=2, backward=2),
        # static shapes: Inductor's layout optimisation makes the convs channels-last and
        # adds input/weight/output layout copies around the two fused pointwise kernels
        "conv_net": KernelCounts(forward=4, backward=None),
        # dynamic batch: no layout optimisation, just conv1+SiLU and conv2+residual
        "conv_net-dynamic_batch": KernelCounts(forward=2, backward=None),
        "conv_net-training": KernelCounts(forward=2, backward=2),
    },
}


def expected(case: str) -> KernelCounts:
    table = EXPECTED.get(TORCH)
    if table is None:
        pytest.skip(
            f"no kernel counts recorded for {TORCH}: measure them with "
            "pytest_magi.codegen.kernel_counts and add them to EXPECTED"
        )
    return table[case]


@pytest.fixture
def head_merge() -> tuple[HeadMerge, torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    block = HeadMerge(heads=4, head_dim=16)
    return (block, *block.example_inputs(batch=2, tokens=32))


@pytest.fixture
def conv_net() -> tuple[TinyConvNet, torch.Tensor]:
    torch.manual_seed(0)
    net = TinyConvNet(channels=8)
    return net, net.example_input(batch=2, size=16)


def test_head_merge_fuses_into_two_kernels(head_merge: Any, kernel_counts: Any) -> None:
    block, attn, residual = head_merge
    assert kernel_counts(block, attn, residual) == expected("head_merge")


def test_head_merge_dynamic_tokens_fuses_the_same(head_merge: Any, kernel_counts: Any) -> None:
    block, attn, residual = head_merge
    counts = kernel_counts(block, attn, residual, dynamic_dims={0: 2, 1: 1})
    assert counts == expected("head_merge-dynamic_tokens")


def test_head_merge_training(head_merge: Any, kernel_counts: Any) -> None:
    block, attn, residual = head_merge
    counts = kernel_counts(block, attn.requires_grad_(), residual, backward=True)
    assert counts == expected("head_merge-training")


@pytest.mark.parametrize(
    ("case", "options"),
    [
        ("conv_net", {}),
        ("conv_net-dynamic_batch", {"dynamic_dims": {0: 0}}),
        ("conv_net-training", {"backward": True}),
    ],
    ids=["static", "dynamic_batch", "training"],
)
def test_conv_net_fusion(conv_net: Any, kernel_counts: Any, case: str, options: Any) -> None:
    net, x = conv_net
    counts = kernel_counts(net, x.requires_grad_(bool(options.get("backward"))), **options)
    assert counts == expected(case)


def test_head_merge_code(
    head_merge: Any, inductor_codegen: Any, signature_snapshot: Any, triton_snapshot: Any
) -> None:
    block, attn, residual = head_merge
    code = inductor_codegen(block, attn, residual)
    assert signature_snapshot == code  # one line per kernel: quick to review
    assert triton_snapshot == code  # the full normalised code
