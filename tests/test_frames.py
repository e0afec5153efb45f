"""`magi_passes.frames`: dynamo frames of their own per module instance."""

from __future__ import annotations

import functools
import linecache
import traceback

import pytest
import torch
from torch._dynamo.testing import CompileCounter

from magi_passes import magi_compile
from magi_passes.compile.frames import (
    FRAME_FILE_PREFIX,
    frame_filename,
    isolate_forward_code,
    restore_forward_code,
)


class Block(torch.nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.proj(x)
        torch._dynamo.graph_break()  # like the Wan upsampler's tensor-vs-string comparison
        return x.relu()


class Blocks(torch.nn.Module):
    """Three instances of one block class, each of another width: one shared frame would need a
    cache entry per width."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks = torch.nn.ModuleList(Block(w) for w in (4, 6, 8))

    def forward(self, xs: list[torch.Tensor]) -> list[torch.Tensor]:
        return [b(x) for b, x in zip(self.blocks, xs, strict=True)]


def _compiled_frames(per: str | None) -> tuple[int, list[torch.Tensor], list[torch.Tensor]]:
    torch.manual_seed(0)
    model = Blocks()
    xs = [torch.randn(2, w) for w in (4, 6, 8)]
    expected = model(xs)
    if per is not None:
        isolate_forward_code(model, per)
    counter = CompileCounter()
    torch._dynamo.reset()
    with torch._dynamo.config.patch(recompile_limit=1, automatic_dynamic_shapes=False):
        out = torch.compile(model, backend=counter)(xs)
    torch._dynamo.reset()
    return counter.frame_count, out, expected


def test_instances_with_frames_of_their_own_all_compile() -> None:
    """With the block's frame shared, the limit (1 here, 8 by default) is spent on the first
    width and the other two blocks run eagerly; per instance, every block compiles."""
    shared, out_shared, expected = _compiled_frames(None)
    isolated, out_isolated, _ = _compiled_frames("instance")
    per_class, _, _ = _compiled_frames("class")
    torch.testing.assert_close(out_shared, expected)
    torch.testing.assert_close(out_isolated, expected)
    assert isolated > shared
    assert per_class == shared  # one code object per class still shares it between instances


def test_isolation_changes_no_computation_and_is_undone() -> None:
    model = Blocks()
    xs = [torch.randn(2, w) for w in (4, 6, 8)]
    before = model(xs)
    made = isolate_forward_code(model, "instance")
    assert made == 1 + 3 + 3  # Blocks, three Blocks' forwards, three Linears
    assert model.blocks[0].forward.__func__ is not model.blocks[1].forward.__func__
    assert model.blocks[0].forward.__code__ is not Block.forward.__code__
    torch.testing.assert_close(model(xs), before)
    assert restore_forward_code(model) == made
    assert "forward" not in vars(model.blocks[0])


class _OneGraph(torch.nn.Module):
    """Blocks without the graph break: one graph, its submodules only inlined."""

    def __init__(self) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList(
            torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.SiLU()) for _ in range(4)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x) + x
        return x


def _traced_steps(model: torch.nn.Module, per: str | None, monkeypatch) -> tuple[int, int, object]:
    """(bytecode instructions dynamo traced, frames it compiled, output) for one compile."""
    from torch._dynamo import symbolic_convert

    steps = [0]
    step = symbolic_convert.InstructionTranslatorBase.step

    def counted(self: object) -> object:
        steps[0] += 1
        return step(self)  # type: ignore[arg-type]

    monkeypatch.setattr(symbolic_convert.InstructionTranslatorBase, "step", counted)
    if per is not None:
        isolate_forward_code(model, per)
    counter = CompileCounter()
    torch._dynamo.reset()
    try:
        out = torch.compile(model, backend=counter)(torch.ones(2, 8))
    finally:
        torch._dynamo.reset()
        monkeypatch.undo()
        restore_forward_code(model)
    return steps[0], counter.frame_count, out


def test_root_isolation_gives_the_module_alone_a_forward() -> None:
    model = Blocks()
    assert isolate_forward_code(model, "root") == 1
    assert "forward" in vars(model)
    assert not any("forward" in vars(sub) for sub in model.modules() if sub is not model)
    assert model.forward.__code__ is not Blocks.forward.__code__
    assert restore_forward_code(model) == 1


def test_dynamo_inlines_forward_directly_only_below_an_unisolated_root(monkeypatch) -> None:
    """Dynamo calls a submodule's ``forward`` directly only where the instance has none of its
    own; isolated per instance, every call goes through `nn.Module._call_impl`, traced. One
    graph either way, the same output; the root alone costs no more than no isolation (281
    steps against 989 per instance on torch 2.13, 411 against 1119 on torch 2.11)."""
    torch.manual_seed(0)
    model = _OneGraph()
    plain, plain_frames, expected = _traced_steps(model, None, monkeypatch)
    per_instance, instance_frames, out_instance = _traced_steps(model, "instance", monkeypatch)
    root, root_frames, out_root = _traced_steps(model, "root", monkeypatch)
    assert plain_frames == instance_frames == root_frames == 1
    torch.testing.assert_close(out_instance, expected)
    torch.testing.assert_close(out_root, expected)
    assert root == plain
    assert per_instance > 2 * plain, (per_instance, plain)


def test_other_libraries_instance_forwards_are_left_alone() -> None:
    model = Blocks()
    hooked = model.blocks[1].forward
    model.blocks[1].forward = lambda x: hooked(x) * 1  # an offloading-style wrapper
    isolate_forward_code(model, "instance")
    assert model.blocks[1].forward.__name__ == "<lambda>"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [({"per": "module"}, ValueError, "expected one of"), ({}, TypeError, "torch.nn.Module")],
)
def test_bad_arguments(kwargs, error, message) -> None:
    target = Blocks() if kwargs else "Blocks"
    with pytest.raises(error, match=message):
        isolate_forward_code(target, **kwargs)  # type: ignore[arg-type]


def test_magi_compile_isolates_frames_unless_asked_not_to() -> None:
    model = Blocks()
    magi_compile(model)
    assert "forward" in vars(model.blocks[2])
    other = Blocks()
    magi_compile(other, isolate_frames=False)
    assert "forward" not in vars(other.blocks[2])


def _dynamic_placeholders(gm: torch.fx.GraphModule) -> int:
    values = [n.meta.get("example_value") for n in gm.graph.find_nodes(op="placeholder")]
    return sum(
        1
        for v in values
        if isinstance(v, torch.Tensor) and any(not isinstance(s, int) for s in v.shape)
    )


@pytest.mark.parametrize("per", ["instance", None])
def test_no_shape_of_one_instance_makes_another_dynamic(per: str | None) -> None:
    """Dynamo keeps automatic-dynamic sizes per (file, first line, *name*) of a code object, and
    resume functions per equal code object: copies that differ only by identity would share
    both. Measured on the GPU: the Wan 2.2 decode's isolated up blocks compiled with H, W and T
    symbolic and ran 1.15x over torch.compile, against 1.62x once each copy had a name of its
    own."""
    model = Blocks()
    if per is not None:
        isolate_forward_code(model, per)
    dynamic: list[int] = []

    def backend(gm: torch.fx.GraphModule, example_inputs: list[torch.Tensor]) -> object:
        dynamic.append(_dynamic_placeholders(gm))
        return gm.forward

    torch._dynamo.reset()
    try:
        for block, width in zip(model.blocks, (4, 6, 8), strict=True):
            torch.compile(block, backend=backend)(torch.randn(2, width))
    finally:
        torch._dynamo.reset()
    if per is None:  # the class's one frame: the second width already turns dims dynamic
        assert any(dynamic), dynamic
    else:
        assert dynamic and not any(dynamic), dynamic


def test_copies_are_distinct_code_objects_for_dynamo() -> None:
    model = Blocks()
    isolate_forward_code(model, "instance")
    codes = [b.forward.__code__ for b in model.blocks]
    assert len(set(codes)) == 3  # unequal, not only distinct: dicts keyed by code tell them apart
    assert all(c.co_qualname == Block.forward.__code__.co_qualname for c in codes)
    assert all(c.co_firstlineno == Block.forward.__code__.co_firstlineno for c in codes)


# --------------------------------------------------------------------------- torch.nn frames
@functools.partial(torch._dynamo.disable, recursive=False)
def _run_eagerly(module: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    """Code dynamo runs without compiling it, as it runs the rest of a function after a graph
    break it cannot resume from (the Wan 2.2 upsampler's on torch 2.11); the frames it calls
    are still dynamo's to compile."""
    return module(x)


class Upsampler(torch.nn.Module):
    """A user module whose torch.nn children are reached only from eagerly run code."""

    def __init__(self) -> None:
        super().__init__()
        self.resample = torch.nn.Sequential(
            torch.nn.Upsample(scale_factor=2.0), torch.nn.Conv2d(4, 4, 3, padding=1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _run_eagerly(self.resample, x * 2)


def _graph_ops(isolate: bool) -> tuple[list[list[str]], torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    model = Upsampler()
    x = torch.randn(1, 4, 8, 8)
    expected = model(x)
    if isolate:
        isolate_forward_code(model)
    graphs: list[list[str]] = []

    def backend(gm: torch.fx.GraphModule, inputs: list[torch.Tensor]) -> object:
        graphs.append(
            [
                getattr(n.target, "__name__", str(n.target))
                for n in gm.graph.nodes
                if n.op == "call_function"
            ]
        )
        return gm.forward

    torch._dynamo.reset()
    try:
        got = torch.compile(model, backend=backend)(x)
    finally:
        torch._dynamo.reset()
    return graphs, got, expected


def test_torch_nn_modules_reached_eagerly_get_frames_dynamo_compiles() -> None:
    """Dynamo compiles a frame of torch's own code only when traced into from compiled code:
    reached from eagerly run code, an nn.Conv2d ran eagerly (the Wan 2.2 decode's upsamplers
    on torch 2.11, with their bias and layout transposes as kernels of their own). With frames
    of their own, the Sequential compiles."""
    plain, got_plain, expected = _graph_ops(isolate=False)
    assert plain == [["mul"]]  # the upsample and the convolution ran eagerly
    isolated, got, _ = _graph_ops(isolate=True)
    assert isolated[0] == ["mul"] and len(isolated) == 2, isolated
    assert "interpolate" in isolated[1] and "conv2d" in isolated[1], isolated
    torch.testing.assert_close(got, expected)
    torch.testing.assert_close(got_plain, expected)


def test_torch_nn_copies_name_a_file_no_skip_rule_matches() -> None:
    from torch._dynamo import trace_rules

    model = Upsampler()
    isolate_forward_code(model)
    conv = model.resample[1]
    code = conv.forward.__func__.__code__
    original = torch.nn.Conv2d.forward.__code__
    assert trace_rules.check(original) and not trace_rules.check(code)
    assert code.co_filename == frame_filename(original.co_filename)
    assert code.co_filename == f"{FRAME_FILE_PREFIX}{original.co_filename}"
    # a user module keeps its file: dynamo compiles its frames already
    assert model.forward.__func__.__code__.co_filename == Upsampler.forward.__code__.co_filename
    # tracebacks through the copy still show torch's source line
    with pytest.raises(RuntimeError) as caught:
        conv(torch.randn(1, 3, 8, 8))  # 3 channels where 4 are expected
    text = "".join(traceback.format_exception(caught.value))
    assert f'File "{code.co_filename}"' in text and "self._conv_forward(" in text
    assert linecache.getline(code.co_filename, code.co_firstlineno).lstrip().startswith("def ")
