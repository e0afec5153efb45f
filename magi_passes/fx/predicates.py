"""Graph predicates the passes gate on."""

from __future__ import annotations

from typing import Any

import torch
from torch.fx.experimental.symbolic_shapes import free_symbols

from .._validate import check_graph, check_positive_int

aten = torch.ops.aten

CONV_TARGETS = (aten.convolution.default, aten.convolution_backward.default)


def _has_free_symbols(val: object) -> bool:
    if isinstance(val, torch.Tensor):
        return bool(free_symbols(val))
    if isinstance(val, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return bool(free_symbols(val))
    if isinstance(val, (list, tuple)):
        return any(_has_free_symbols(v) for v in val)
    return False


def is_dynamic(graph: torch.fx.Graph) -> bool:
    """True when a placeholder carries free symbols (symbolic sizes or strides, or a SymInt)."""
    check_graph("is_dynamic", graph)
    return any(
        _has_free_symbols(node.meta.get("val", node.meta.get("example_value")))
        for node in graph.find_nodes(op="placeholder")
    )


def count_convolutions(graph: torch.fx.Graph) -> int:
    return sum(len(graph.find_nodes(op="call_function", target=t)) for t in CONV_TARGETS)


def is_conv_heavy(graph: torch.fx.Graph, ratio: int) -> bool:
    """Inductor's layout-optimisation heuristic: `len(nodes) < ratio * n_convolutions`.

    Forward convolutions and `convolution_backward` nodes both count, so the backward graph of a
    conv-heavy model is conv-heavy too. A graph without convolutions is never conv-heavy.
    """
    check_graph("is_conv_heavy", graph)
    check_positive_int("is_conv_heavy", "ratio", ratio)
    n_convs = count_convolutions(graph)
    return n_convs > 0 and len(graph.nodes) < ratio * n_convs


def on_cuda(graph: torch.fx.Graph) -> bool:
    """Whether a placeholder of ``graph`` is a CUDA tensor."""
    for node in graph.find_nodes(op="placeholder"):
        val: Any = node.meta.get("val")
        if isinstance(val, torch.Tensor) and val.device.type == "cuda":
            return True
    return False
