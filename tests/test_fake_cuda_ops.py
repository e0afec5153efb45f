"""The Python ``Tensor.__getitem__`` of fake CUDA records what the C binding records.

``pytest_magi.capture.fake_cuda_ops.getitem`` replaces the binding for cuda tensors under
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

from pytest_magi.capture import fake_cuda_ops as _fake_cuda_ops
from pytest_magi.capture.fake_cuda import fake_cuda

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


ORIGINAL_SET = torch._C.TensorBase.__setitem__

# (index, value) of x[index] = value, x of shape (2, 3, 4, 5)
ASSIGNMENTS: list[tuple[Any, Any]] = [
    (0, 1.5),
    (-1, torch.ones(3, 4, 5)),
    (slice(None), torch.ones(5)),
    (slice(1, 2), torch.ones(1, 1, 3, 4, 5)),  # leading 1s dropped, then broadcast
    (slice(None), torch.ones(2, 3, 4, 5)),  # the same sizes: copy_
    (None, 2),
    (Ellipsis, torch.tensor(3.0)),
    (True, 1),
    (False, 7.0),
    ((slice(None), slice(None), slice(None, 2)), torch.ones(2, 3, 2, 5)),
    ((slice(None), slice(None), slice(-1, None)), torch.ones(1, 5)),
    ((Ellipsis, 0), torch.ones(4)),
    ((None, 0, Ellipsis), 0.25),
    ((slice(0, 1), 1, slice(None), -1), torch.ones(1, 4)),
    ([0, 1], 2.0),
    ((slice(None), _t(0, 2)), torch.ones(1, 2, 4, 5)),  # index_put_, the value's 1s dropped
    ((_t(0, 1), slice(None), _t(1, 0)), torch.ones(2, 3, 5)),
    (torch.tensor([True, False]), torch.ones(3, 4, 5)),
    ((slice(None), torch.tensor(1)), 4),
]


def _set_graph(setitem: Any, index: Any, value: Any, mode: str) -> str:
    def fn(x: torch.Tensor) -> torch.Tensor:
        y = x.clone()
        setitem(y, index, value(x) if callable(value) else value)  # a callable: made in the trace
        return y

    gm = make_fx(fn, tracing_mode=mode)(torch.randn(2, 3, 4, 5))
    return "\n".join(
        f"{n.op} {n.target} {n.args} {n.kwargs} "
        f"{getattr(n.meta.get('val'), 'shape', None)} {getattr(n.meta.get('val'), 'stride', lambda: None)()}"
        for n in gm.graph.nodes
    )


@pytest.mark.parametrize(("index", "value"), ASSIGNMENTS, ids=[repr(a)[:40] for a in ASSIGNMENTS])
def test_setitem_records_what_the_binding_records(index: Any, value: Any) -> None:
    assert _set_graph(_fake_cuda_ops.setitem, index, value, "real") == _set_graph(
        ORIGINAL_SET, index, value, "real"
    )
    got, want = torch.randn(2, 3, 4, 5), None
    want = got.clone()
    _fake_cuda_ops.setitem(got, index, value)
    ORIGINAL_SET(want, index, value)
    assert torch.equal(got, want)


@pytest.mark.parametrize(
    ("index", "value"),
    [
        ((slice(None), slice(None), slice(1, None)), 1.0),
        ((slice(None), slice(None), slice(-1, None)), lambda x: x.new_ones(1, x.shape[-1])),
        (slice(0, 1), lambda x: x[0] * 2),
        ((slice(None), 0), lambda x: x.shape[-1]),  # a symbolic number
    ],
    ids=["slice-1.0", "last-frame", "first-row", "symint"],
)
def test_setitem_symbolic_shapes(index: Any, value: Any) -> None:
    got = _set_graph(_fake_cuda_ops.setitem, index, value, "symbolic")
    assert got == _set_graph(ORIGINAL_SET, index, value, "symbolic")


def test_setitem_errors_like_the_binding() -> None:
    for index, value in [((0, 5), 1.0), ((0, 0, 0, 0, 0), 1.0), (0, "a")]:
        with pytest.raises((IndexError, TypeError)) as want:
            ORIGINAL_SET(torch.randn(2, 3, 4, 5), index, value)
        with pytest.raises(want.type) as got:
            _fake_cuda_ops.setitem(torch.randn(2, 3, 4, 5), index, value)
        assert str(got.value).split("\n")[0] == str(want.value).split("\n")[0]


def test_setitem_with_a_list_of_indices_warns_like_the_binding() -> None:
    """A non-tuple sequence read as a tuple of indices: both bindings warn (shared slicing)."""
    for setitem in (ORIGINAL_SET, _fake_cuda_ops.setitem):
        x = torch.zeros(2, 3)
        with pytest.warns(UserWarning, match="non-tuple sequence for multidimensional indexing"):
            setitem(x, [0, slice(None)], 1.0)
        assert x[0].eq(1).all() and x[1].eq(0).all()


def test_fake_cuda_setitem_writes_a_slice_and_is_restored() -> None:
    """A decoder writing a convolution into a slice of its output (diffusers' KVAE-3D and
    Kandinsky-6 SR: ``output[:, :, :n] = self.conv(x)``) generates CUDA code."""
    from pytest_magi.capture.codegen import inductor_codegen

    before = torch.Tensor.__setitem__

    class Write(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = torch.nn.Conv3d(4, 4, 3, padding=(0, 1, 1))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            out = x.new_zeros(x.shape[0], 4, 3, x.shape[3], x.shape[4])
            out[:, :, :2] = self.conv(x)
            out[:, :, 2] = 1.0
            return out

    code = inductor_codegen(Write(), torch.randn(1, 4, 4, 6, 6))
    assert code.device == "fake-cuda" and code.kernel_count >= 1
    assert torch.Tensor.__setitem__ is before and "__setitem__" not in vars(torch.Tensor)
    assert "copy_" not in vars(torch.Tensor)


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

    from pytest_magi.capture.codegen import inductor_codegen

    folder = joint_graph.UniformValueConstantFolder
    before = {name: vars(folder)[name] for name in ("_deduce_value", "_add_peephole_patterns")}

    def scaled(x: torch.Tensor) -> torch.Tensor:
        return x + torch.ones(8, device=x.device).mul(3.0)

    code = inductor_codegen(scaled, torch.randn(8))
    assert code.kernel_count == 1
    assert "3.0" in code.forward[0].source
    assert {name: vars(folder)[name] for name in before} == before
