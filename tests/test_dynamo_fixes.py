"""`magi_passes.dynamo_fixes`: a tensor compared with a string traced as Python evaluates it.

On torch 2.11 dynamo breaks the graph on ``tensor == "Rep"`` (the Wan 2.2 VAE's temporal
upsamplers) and cannot resume; torch 2.13 traces it. CI runs torch 2.13, where the patch is not
needed, so the patch's own logic is exercised here with it forced on (`forced`), and the torch
2.11 behaviour is checked where that torch runs (the GPU machine, or a venv with torch 2.11:
``<venv>/bin/python -m pytest tests/test_dynamo_fixes.py``).
"""

from __future__ import annotations

import copy

import pytest
import torch
from torch._dynamo.testing import CompileCounter
from torch._dynamo.variables.tensor import TensorVariable

from magi_passes import magi_compile
from magi_passes.compile import dynamo_fixes
from magi_passes.compile.dynamo_fixes import (
    active,
    attach_contiguous_inputs,
    attach_dynamo_fixes,
    needs_tensor_constant_compare,
    tensor_constant_compare,
    unit_strides_canonical,
    with_dynamo_fixes,
)

NEEDED = needs_tensor_constant_compare()


def cached_step(x: torch.Tensor, cache: object) -> torch.Tensor:
    """The Wan upsampler's test: a cache slot holds None, the string "Rep" or a tensor."""
    y = x * 2
    if cache == "Rep":
        return y + 1
    if cache != "Rep" and isinstance(cache, torch.Tensor):
        y = y + cache
    return y - 1


class Upsampler(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv1d(3, 3, 1)

    def forward(self, x: torch.Tensor, cache: object) -> torch.Tensor:
        return cached_step(self.conv(x), cache)


@pytest.fixture
def forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The patch applied whatever the torch (on 2.13 it is then inert but observable)."""
    monkeypatch.setattr(dynamo_fixes, "needs_tensor_constant_compare", lambda: True)


def test_only_a_torch_without_its_own_handling_needs_the_patch() -> None:
    assert NEEDED == (not hasattr(TensorVariable, "richcompare_impl"))


def test_the_block_patches_and_restores(forced: None) -> None:
    original = TensorVariable.__dict__["call_method"]
    assert not active()
    with tensor_constant_compare():
        assert active()
        assert TensorVariable.__dict__["call_method"] is not original
    assert not active()
    assert TensorVariable.__dict__["call_method"] is original


def test_nested_blocks_restore_only_at_the_outermost(forced: None) -> None:
    original = TensorVariable.__dict__["call_method"]
    with tensor_constant_compare():
        patched = TensorVariable.__dict__["call_method"]
        with tensor_constant_compare():
            assert TensorVariable.__dict__["call_method"] is patched  # not wrapped twice
        assert active()
    assert TensorVariable.__dict__["call_method"] is original


def test_an_exception_in_the_block_still_restores(forced: None) -> None:
    original = TensorVariable.__dict__["call_method"]
    with pytest.raises(RuntimeError, match="boom"), tensor_constant_compare():
        raise RuntimeError("boom")
    assert TensorVariable.__dict__["call_method"] is original
    assert dynamo_fixes._depth == 0


def test_without_the_need_the_block_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dynamo_fixes, "needs_tensor_constant_compare", lambda: False)
    original = TensorVariable.__dict__["call_method"]
    with tensor_constant_compare():
        assert TensorVariable.__dict__["call_method"] is original
        assert not active()


class _Const:
    def __init__(self, value: object) -> None:
        from torch._dynamo.variables.constant import ConstantVariable

        self.var = ConstantVariable.create(value)


class _Tensor:
    """A stand-in for a TensorVariable of the given Python type (the patch reads only that)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def python_type(self) -> type:
        return self.cls


@pytest.mark.parametrize(
    ("name", "value", "answer"),
    [("__eq__", "Rep", False), ("__ne__", "Rep", True), ("__eq__", None, False),
     ("__ne__", b"x", True)],
)  # fmt: skip
def test_the_patched_method_answers_as_python_does(name: str, value: object, answer: bool) -> None:
    calls = []
    patched = dynamo_fixes._constant_compare(lambda *a: calls.append(a) or "deferred")
    result = patched(_Tensor(torch.Tensor), None, name, [_Const(value).var], {})
    assert result.as_python_constant() is answer
    assert calls == []
    # and Python itself agrees
    assert (torch.ones(2) == value if name == "__eq__" else torch.ones(2) != value) is answer


@pytest.mark.parametrize(
    ("name", "args", "cls"),
    [
        ("__eq__", [3.0], torch.Tensor),  # a number compares element-wise: dynamo's job
        ("__add__", ["Rep"], torch.Tensor),  # not a comparison
        ("__eq__", ["Rep"], type("MyTensor", (torch.Tensor,), {})),  # a subclass may compare
    ],
)
def test_everything_else_is_left_to_dynamo(name: str, args: list[object], cls: type) -> None:
    calls = []
    patched = dynamo_fixes._constant_compare(lambda *a: calls.append(a) or "deferred")
    variables = [_Const(a).var for a in args]
    assert patched(_Tensor(cls), None, name, variables, {}) == "deferred"
    assert len(calls) == 1


def _graphs(x: torch.Tensor, caches: tuple[object, ...]) -> int:
    """Graphs compiled for calls with each cache in turn (each checked against eager)."""
    counter = CompileCounter()
    torch._dynamo.reset()
    compiled = torch.compile(cached_step, backend=counter)
    for cache in caches:
        assert torch.equal(compiled(x, cache), cached_step(x, cache))
    torch._dynamo.reset()
    return counter.frame_count


@pytest.mark.skipif(not NEEDED, reason="this torch's dynamo traces tensor == str itself")
def test_on_torch_2_11_the_comparison_breaks_the_graph_unless_fixed() -> None:
    x, tensor_cache = torch.randn(3, 4), (torch.ones(3, 4),)
    # dynamo cannot resume after the break: the whole call runs eagerly, no graph at all
    assert _graphs(x, tensor_cache) == 0
    with tensor_constant_compare():
        assert _graphs(x, tensor_cache) == 1


def test_with_the_fixes_each_cache_kind_is_one_graph_on_any_torch() -> None:
    with tensor_constant_compare():
        assert _graphs(torch.randn(3, 4), (None, "Rep", torch.ones(3, 4))) == 3


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the patch was on each time the magi backend was called (during tracing)."""
    from magi_passes.backend import MagiBackend

    calls: list[bool] = []
    original = MagiBackend.__call__

    def recording(self: MagiBackend, gm: torch.fx.GraphModule, inputs: list, **kw: object):
        calls.append(active())
        return original(self, gm, inputs, **kw)

    monkeypatch.setattr(MagiBackend, "__call__", recording)
    return calls


def test_magi_compile_traces_a_module_inside_the_fixes_when_asked(
    forced: None, seen: list[bool]
) -> None:
    torch._dynamo.reset()
    magi_compile(torch.nn.Linear(2, 2))(torch.ones(2))  # opt-in: off by default
    torch._dynamo.reset()
    magi_compile(torch.nn.Linear(2, 2), dynamo_fixes=True)(torch.ones(2))
    torch._dynamo.reset()
    assert seen == [False, True]
    assert not active() and dynamo_fixes._depth == 0


def test_magi_compile_wraps_a_function_when_asked(forced: None, seen: list[bool]) -> None:
    def probe(x: torch.Tensor) -> torch.Tensor:
        return x + 1

    torch._dynamo.reset()
    magi_compile(probe, dynamo_fixes=False)(torch.ones(2))
    torch._dynamo.reset()
    magi_compile(probe, dynamo_fixes=True)(torch.ones(2))  # a function: wrapped, not hooked
    torch._dynamo.reset()
    assert seen == [False, True]
    assert dynamo_fixes._depth == 0


def test_a_module_that_raises_still_leaves_dynamo_unpatched(forced: None) -> None:
    class Broken(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            raise ValueError("bad input")

    module = Broken()
    handles = attach_dynamo_fixes(module)
    with pytest.raises(ValueError, match="bad input"):
        module(torch.ones(1))
    assert not active() and dynamo_fixes._depth == 0
    for handle in handles:
        handle.remove()


def test_a_wrapped_function_keeps_its_name_and_restores() -> None:
    wrapped = with_dynamo_fixes(cached_step)
    assert wrapped.__name__ == "cached_step"
    assert torch.equal(wrapped(torch.ones(2), "Rep"), torch.full((2,), 3.0))
    assert dynamo_fixes._depth == 0


def test_bad_input_names_the_value_and_the_fix() -> None:
    with pytest.raises(TypeError, match=r"attach_dynamo_fixes\(module=.*tensor_constant_compare"):
        attach_dynamo_fixes(cached_step)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"dynamo_fixes must be True, False or None, got 1"):
        magi_compile(Upsampler(), dynamo_fixes=1)  # type: ignore[arg-type]


def test_a_magi_compiled_upsampler_computes_eagers_numbers() -> None:
    torch._dynamo.reset()
    model = Upsampler()
    compiled = magi_compile(copy.deepcopy(model), dynamo_fixes=True)
    x = torch.randn(2, 3, 5)
    for cache in (None, "Rep", torch.randn(2, 3, 5)):
        torch.testing.assert_close(compiled(x, cache), model(x, cache))
    torch._dynamo.reset()


class Head(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 2 + 1


@pytest.mark.parametrize(("attach", "graphs"), [(False, 3), (True, 1)])
def test_contiguous_inputs_reuse_static_graphs_at_every_length(attach: bool, graphs: int) -> None:
    """A decoder fed one frame of latents of three lengths: the slices' strides differ, so with
    static shapes dynamo compiles one graph per length, unless the inputs are made contiguous."""
    counter = CompileCounter()
    torch._dynamo.reset()
    compiled = torch.compile(Head(), backend=counter, dynamic=False)
    if attach:
        attach_contiguous_inputs(compiled)
    for length in (3, 6, 9):
        z = torch.randn(1, 4, length, 5)
        frame = z[:, :, 0:1]
        assert not frame.is_contiguous()
        assert torch.equal(compiled(frame), frame * 2 + 1)
    torch._dynamo.reset()
    assert counter.frame_count == graphs


class CachedHead(torch.nn.Module):
    """A causal step: reads its cache from a list, writes the next one into it."""

    def forward(self, x: torch.Tensor, cache: list) -> torch.Tensor:
        out = x + cache[0]
        cache[0] = out[:, :, -1:].clone()
        return out


@pytest.mark.parametrize(("attach", "graphs"), [(False, 2), (True, 1)])
def test_a_cache_lists_unit_strides_are_made_one_so_static_graphs_are_reused(
    attach: bool, graphs: int
) -> None:
    """The same cache frame with another stride on its size-1 batch dim (as a compiled graph
    can leave it, seen on the Wan 2.2 decode): dynamo compiles again unless those strides are
    made one; the values, the storage and the list's identity are kept."""
    counter = CompileCounter()
    torch._dynamo.reset()
    compiled = torch.compile(CachedHead(), backend=counter, dynamic=False)
    if attach:
        attach_contiguous_inputs(compiled)
    fresh = torch.randn(1, 4, 1, 3, 5)
    left = fresh.clone().as_strided(fresh.shape, (120, 15, 15, 5, 1))  # batch stride 60 -> 120
    for first in (fresh, left):
        cache = [first]
        x = torch.randn(1, 4, 2, 3, 5)
        torch.testing.assert_close(compiled(x, cache=cache), x + first)
        torch.testing.assert_close(cache[0], (x + first)[:, :, -1:])
    torch._dynamo.reset()
    assert counter.frame_count == graphs


def test_unit_strides_canonical_keeps_values_and_storage() -> None:
    t = torch.randn(1, 8, 2, 4, 4).contiguous(memory_format=torch.channels_last_3d)[:, :, -1:]
    assert t.stride() == (256, 1, 128, 32, 8)
    view = unit_strides_canonical(t)
    assert view.stride() == (128, 1, 128, 32, 8) and torch.equal(view, t)
    assert view.data_ptr() == t.data_ptr()
    same = torch.randn(2, 3)
    assert unit_strides_canonical(same) is same and unit_strides_canonical(None) is None


def test_magi_compile_makes_inputs_contiguous_only_when_asked() -> None:
    plain = magi_compile(Head())
    asked = magi_compile(Head(), contiguous_inputs=True, dynamic=False)
    assert not plain._forward_pre_hooks and len(asked._forward_pre_hooks) == 1
    with pytest.raises(TypeError, match=r"contiguous_inputs=True\) needs an nn.Module"):
        magi_compile(cached_step, contiguous_inputs=True)
    with pytest.raises(TypeError, match=r"attach_contiguous_inputs\(module=.*fix: pass"):
        attach_contiguous_inputs(cached_step)  # type: ignore[arg-type]
