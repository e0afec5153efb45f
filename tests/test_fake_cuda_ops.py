"""The Python ``Tensor.__getitem__`` of fake CUDA records what the C binding records.

``pytest_magi._fake_cuda_ops.getitem`` replaces the binding for cuda tensors under
``fake_cuda()`` (the binding needs a CUDA device guard). The decomposition into aten ops does
not depend on the device, so the two are compared on cpu tensors: the graphs ``make_fx`` records
(ops, arguments, output metadata) must be identical, static and symbolic.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

from pytest_magi import _fake_cuda_ops
from pytest_magi.fake_cuda import fake_cuda

ORIGINAL = torch._C.TensorBase.__getitem__


def _t(*values: Any, dtype: torch.dtype = torch.long) -> torch.Tensor:
    return torch.tensor(list(values), dtype=dtype)


INDICES: list[Any] = [
    0,
    -1,
    np.int64(1),
    slice(None),
    slice(1, 2),
    slice(None, None, 2),
    slice(-100, 100),
    slice(1, 1),
    None,
    Ellipsis,
    True,
    False,
    (0,),
    (slice(None),),
    (slice(None), 0),
    (slice(None), slice(None)),
    (slice(None), slice(None), slice(0, 1), slice(None)),
    (Ellipsis, 1),
    (None, 0, Ellipsis, None),
    (Ellipsis, None),
    (slice(0, 2), slice(1, None), -1),
    (True, 0),
    (False, slice(None)),
    [0, 1],
    [[0, 1], [1, 0]],
    (0, [1, 2]),
    _t(0, 1),
    (slice(None), _t(0, 2)),
    (_t(0, 1), slice(None), _t(1, 0)),
    (slice(None), torch.tensor(1)),
    (slice(None), torch.tensor(True)),
    torch.tensor([True, False]),
    (Ellipsis, _t(1, 1, 0)),
    (None, slice(None), _t(0), None),
]


def _graph(getitem: Any, index: Any, mode: str) -> str:
    def fn(x: torch.Tensor) -> torch.Tensor:
        return getitem(x, index)

    gm = make_fx(fn, tracing_mode=mode)(torch.randn(2, 3, 4, 5))
    lines = [
        f"{n.op} {n.target} {n.args} {n.kwargs} "
        f"{getattr(n.meta.get('val'), 'shape', None)} {getattr(n.meta.get('val'), 'stride', lambda: None)()}"
        for n in gm.graph.nodes
    ]
    return "\n".join(lines)


@pytest.mark.parametrize("index", INDICES, ids=[repr(i)[:40] for i in INDICES])
def test_getitem_records_what_the_binding_records(index: Any) -> None:
    expected = _graph(ORIGINAL, index, "real")
    assert _graph(_fake_cuda_ops.getitem, index, "real") == expected
    x = torch.randn(2, 3, 4, 5)
    got, want = _fake_cuda_ops.getitem(x, index), ORIGINAL(x, index)
    assert (got.shape, got.stride(), got.storage_offset()) == (
        want.shape,
        want.stride(),
        want.storage_offset(),
    )
    assert torch.equal(got, want)


@pytest.mark.parametrize(
    "index",
    [
        slice(None),
        slice(0, 1),
        (slice(None), slice(None), slice(1, None)),
        (slice(None), slice(None), slice(-1, None), Ellipsis),
        (Ellipsis, 0),
        (None, slice(None), 1),
    ],
    ids=repr,
)
def test_getitem_symbolic_shapes(index: Any) -> None:
    assert _graph(_fake_cuda_ops.getitem, index, "symbolic") == _graph(ORIGINAL, index, "symbolic")


@pytest.mark.parametrize("index", [(0, 5), (slice(None), slice(None), slice(None), 5, 0)], ids=repr)
def test_getitem_errors_like_the_binding(index: Any) -> None:
    x = torch.randn(2, 3, 4, 5)
    with pytest.raises(IndexError) as want:
        ORIGINAL(x, index)
    with pytest.raises(IndexError) as got:
        _fake_cuda_ops.getitem(x, index)
    assert str(got.value).split("\n")[0] == str(want.value).split("\n")[0]


def test_fake_cuda_getitem_and_restore() -> None:
    before = torch.Tensor.__getitem__
    with fake_cuda() as env, env.fake_mode:
        x = torch.empty(1, 4, 2, 2, 3, device="cuda")
        y = x[:, :, 0:1]
        assert y.shape == (1, 4, 1, 2, 3) and y.device.type == "cuda"
        assert x[0, ..., None].shape == (4, 2, 2, 3, 1)
    assert torch.Tensor.__getitem__ is before
    assert "__getitem__" not in vars(torch.Tensor)


def test_uniform_constant_folding_runs_on_cpu_and_is_restored() -> None:
    """Inductor's joint-graph pass folds ``ones(...) * 3`` into one ``full(..., 3)``: it learns the
    value with real one-element tensors, which fake CUDA computes on cpu (a CPU-only build has no
    cuda kernels); the folded constant reaches the generated kernel."""
    import torch._inductor.fx_passes.joint_graph as joint_graph

    from pytest_magi.codegen import inductor_codegen

    folder = joint_graph.UniformValueConstantFolder
    before = {name: vars(folder)[name] for name in ("_deduce_value", "_add_peephole_patterns")}

    def scaled(x: torch.Tensor) -> torch.Tensor:
        return x + torch.ones(8, device=x.device).mul(3.0)

    code = inductor_codegen(scaled, torch.randn(8))
    assert code.kernel_count == 1
    assert "3.0" in code.forward[0].source
    assert {name: vars(folder)[name] for name in before} == before
