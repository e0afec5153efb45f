"""FX node helpers: what a node computes (`is_call`, `fake_value`), running code on fake values
(`run_on_fake`), and new nodes that carry their fake value (`fake_call`, `clone_node`, `pin_node`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

import torch

aten = torch.ops.aten


def is_call(node: Any, *targets: Any) -> TypeGuard[torch.fx.Node]:
    """Whether `node` is an FX `call_function` node of one of `targets`."""
    return isinstance(node, torch.fx.Node) and node.op == "call_function" and node.target in targets


def fake_value(node: Any) -> Any:
    """A graph node's fake value (`meta["val"]`); None for a node without one or a non-node."""
    return node.meta.get("val") if isinstance(node, torch.fx.Node) else None


def run_on_fake(val: Any, fn: Callable[[Any], Any]) -> Any:
    """Run `fn(val)` under the fake mode that produced `val` (plain tensors run as they are)."""
    from torch._guards import detect_fake_mode

    mode = detect_fake_mode([val]) if isinstance(val, torch.Tensor) else None
    if mode is None:
        return fn(val)
    with mode:
        return fn(val)


def fake_call(
    graph: torch.fx.Graph,
    target: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any] | None = None,
) -> torch.fx.Node:
    """A new `target(*args, **kwargs)` node at the graph's insertion point, with its fake value:
    the call run on its node arguments' fake values (in their fake mode; the first node's
    value picks it)."""
    kwargs = kwargs or {}
    node = graph.call_function(target, args, kwargs)
    vals: list[Any] = []
    torch.fx.node.map_arg((args, kwargs), lambda n: vals.append(fake_value(n)))
    concrete_args, concrete_kwargs = torch.fx.node.map_aggregate(
        (args, kwargs), lambda a: fake_value(a) if isinstance(a, torch.fx.Node) else a
    )
    node.meta["val"] = run_on_fake(
        vals[0] if vals else None, lambda _: target(*concrete_args, **concrete_kwargs)
    )
    return node


def clone_node(
    graph: torch.fx.Graph, part: torch.fx.Node, fmt: torch.memory_format
) -> torch.fx.Node:
    """A ``clone(part, memory_format=fmt)`` node at the graph's insertion point, carrying
    ``part``'s meta and the clone's fake value."""
    clone = graph.call_function(aten.clone.default, (part,), {"memory_format": fmt})
    clone.meta.update({k: v for k, v in part.meta.items() if k != "val"})
    clone.meta["val"] = run_on_fake(part.meta["val"], lambda t: t.clone(memory_format=fmt))
    return clone


def clone_before(
    graph: torch.fx.Graph, part: torch.fx.Node, fmt: torch.memory_format, user: torch.fx.Node
) -> torch.fx.Node:
    """A ``clone(part, memory_format=fmt)`` node in front of ``user``."""
    with graph.inserting_before(user):
        return clone_node(graph, part, fmt)


def force_stride_order_op() -> Any:
    """Inductor's `prims.inductor_force_stride_order` (registered when its module is imported)."""
    import torch._inductor.inductor_prims  # noqa: F401  (registers the prim)

    return torch.ops.prims.inductor_force_stride_order.default


def pin_node(graph: torch.fx.Graph, source: torch.fx.Node, value: Any, force: Any) -> torch.fx.Node:
    """``force(source, value's strides)`` right after ``source``, with ``value`` (``source``'s
    fake value in the pinned layout) as its fake value."""
    with graph.inserting_after(source):
        pin = graph.call_function(force, (source, list(value.stride())))
    pin.meta["val"] = value
    return pin
