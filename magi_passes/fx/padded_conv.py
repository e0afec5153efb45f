"""The operands of a convolution that reads a zero pad (`convolution(constant_pad_nd(x, pads, 0),
w, ...)`), shared by the passes that rewrite such pairs (`PaddedConvPass`)."""

from __future__ import annotations

from typing import Any

import torch

from .layout import refresh_pad_value
from .nodes import fake_value, is_call

aten = torch.ops.aten
CONV = aten.convolution.default
PAD = aten.constant_pad_nd.default


def static_int(value: Any) -> int | None:
    """`value` as a static int, or None (a symbolic amount: an FX node or a SymInt)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def padded_convolutions(graph: torch.fx.Graph) -> list[tuple[torch.fx.Node, torch.fx.Node]]:
    """`(convolution, constant_pad_nd)` for each convolution whose input is a pad, in graph
    order (a list: the passes rewrite the graph while they walk it)."""
    return [
        (conv, conv.args[0])
        for conv in graph.find_nodes(op="call_function", target=CONV)
        if is_call(conv.args[0], PAD)
    ]


def not_applied_reason(candidates: list[Any]) -> str:
    """A pad pass's `PassResult.reason` where it changed nothing."""
    if candidates:
        return "no padded conv input qualifies (see counts)"
    return "no convolution reads a constant_pad_nd"


def padded_conv_operands(
    conv: torch.fx.Node, pad: torch.fx.Node, counts: dict[str, int]
) -> tuple[torch.fx.Node, list[Any], torch.Tensor, torch.Tensor] | None:
    """`(x, pads, x's fake value, the weight's)` of `convolution(constant_pad_nd(x, pads, 0), w,
    ...)` when a pass may rewrite the pair, else None, counting why in `counts`
    (`skipped_value`: the pad is not zero; `skipped_other_users`: the padded tensor has another
    user; `skipped_transposed`: a transposed convolution). None without a count: operands
    without fake values or static pad lists."""
    # convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
    #             groups); constant_pad_nd(input, pad, value=0)
    source, pads = pad.args[0], pad.args[1]
    value = pad.args[2] if len(pad.args) > 2 else pad.kwargs.get("value", 0)
    x_val, weight_val = fake_value(source), fake_value(conv.args[1])
    if (
        not isinstance(source, torch.fx.Node)
        or not isinstance(conv.args[1], torch.fx.Node)
        or not isinstance(x_val, torch.Tensor)
        or not isinstance(weight_val, torch.Tensor)
        or not isinstance(pads, (list, tuple))
    ):
        return None
    if value != 0:
        counts["skipped_value"] += 1
        return None
    if len(pad.users) != 1:
        counts["skipped_other_users"] += 1
        return None
    if conv.args[6]:
        counts["skipped_transposed"] += 1
        return None
    return source, list(pads), x_val, weight_val


def replace_conv_input(
    graph: torch.fx.Graph,
    conv: torch.fx.Node,
    pad: torch.fx.Node,
    source: torch.fx.Node,
    left: list[Any],
    conv_args: list[Any],
) -> bool:
    """Give `conv` the arguments `conv_args` and its pad the amounts `left`: a pad with nothing
    left is erased and the convolution reads `source` itself (returns True), else the pad keeps
    the rest, with its fake value recomputed (returns False)."""
    if all(static_int(p) == 0 for p in left):
        conv_args[0] = source
        conv.args = tuple(conv_args)
        graph.erase_node(pad)
        return True
    pad.args = (source, left, *pad.args[2:])
    refresh_pad_value(pad)
    conv.args = tuple(conv_args)
    return False
