"""`magi_passes.frames`: dynamo frames of their own per module instance."""

from __future__ import annotations

import pytest
import torch
from torch._dynamo.testing import CompileCounter

from magi_passes import magi_compile
from magi_passes.frames import isolate_forward_code, restore_forward_code


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
