"""This project's own post-grad pass (`SquareToMul`), tested the way pytest-magi tests passes.

`compiled_pair(..., passes=[SquareToMul()])` compiles the block twice: plain Inductor (the
baseline) and Inductor running this pass (the candidate). The pass must remove the `pow`, keep
the numbers, and compile without graph breaks or recompiles.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
from magi_downstream_example import HeadMerge, SquareToMul

aten = torch.ops.aten


@pytest.mark.no_graph_breaks
@pytest.mark.no_recompiles
def test_square_to_mul_removes_the_pow(compiled_pair: Any) -> None:
    torch.manual_seed(0)
    block = HeadMerge(heads=4, head_dim=16)
    pair = compiled_pair(block, *block.example_inputs(batch=2, tokens=32), passes=[SquareToMul()])
    pair.assert_ops(
        before={aten.pow.Tensor_Scalar: 1},
        after={aten.pow.Tensor_Scalar: 0, aten.mul.Tensor: 3},
    )
    assert pair.op_count(aten.pow, side="baseline") == 1  # the baseline runs no pass
    pair.assert_close()
    # what the kernel diff shows: Inductor already lowers pow(x, 2) as x * x, so the generated
    # kernels compute the same thing with or without the pass (matched by body, not by name)
    diff = pair.kernel_diff()
    assert not diff.changed and len(diff.shared) == pair.kernel_counts["baseline"], str(diff)
