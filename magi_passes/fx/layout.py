"""Layout helpers: channels-last formats, the layout clones the channels-last rewrite inserts,
fake values recomputed after a rewrite (pads, concatenations), and graph output strides."""

from __future__ import annotations

from typing import Any

import torch

from .nodes import is_call, run_on_fake

aten = torch.ops.aten
CONV = aten.convolution.default
CONV_BACKWARD = aten.convolution_backward.default


def channels_last_format(ndim: int) -> torch.memory_format | None:
    """The channels-last memory format of a tensor of ``ndim`` dims (4 or 5), else None."""
    return {4: torch.channels_last, 5: torch.channels_last_3d}.get(ndim)


def is_layout_clone(node: Any) -> bool:
    """Whether ``node`` is a ``clone`` with a memory format: the conversion `ConvChannelsLastPass` inserts."""
    return is_call(node, aten.clone.default) and node.kwargs.get("memory_format") is not None


def converted_through(cat: torch.fx.Node) -> bool:
    """Whether the concatenation ``cat``'s inputs carry layout clones: the channels-last
    rewrite's through-cat form (`PassConfig.channels_last_through_cat`)."""
    inputs = cat.args[0]
    return isinstance(inputs, (list, tuple)) and any(is_layout_clone(a) for a in inputs)


def pad_chain(node: torch.fx.Node) -> tuple[list[torch.fx.Node], torch.fx.Node]:
    """The single-user ``constant_pad_nd`` chain ending at ``node`` (outermost first), and the
    tensor it pads."""
    pads: list[torch.fx.Node] = []
    source = node
    while (
        source.target is aten.constant_pad_nd.default
        and len(source.users) == 1
        and isinstance(source.args[0], torch.fx.Node)
        and source.args[0].meta["val"].dim() == source.meta["val"].dim()
    ):
        pads.append(source)
        source = source.args[0]
    return pads, source


def refresh_cat_value(cat: torch.fx.Node) -> None:
    """Recompute an ``aten.cat`` node's fake value from its inputs' (after they changed: ATen's
    rule then gives the layout a concatenation of them comes out in)."""
    values = [t.meta["val"] for t in cat.args[0]]  # type: ignore[union-attr]
    rest = cat.args[1:]
    cat.meta["val"] = run_on_fake(
        values[0],
        lambda _: aten.cat.default(values, *rest),  # type: ignore[misc]
    )


def refresh_pad_value(pad: torch.fx.Node) -> None:
    """Recompute a `constant_pad_nd` node's fake value from its input's and its arguments (after
    either changed); pad amounts may be symbolic (`sub_1` nodes under dynamic shapes)."""
    src = pad.args[0]
    assert isinstance(src, torch.fx.Node)
    pad_args = torch.fx.node.map_arg(pad.args[1:], lambda n: n.meta["val"])
    pad.meta["val"] = run_on_fake(
        src.meta["val"],
        lambda t: aten.constant_pad_nd.default(t, *pad_args),  # type: ignore[misc]
    )


def weight_of(node: torch.fx.Node) -> Any:
    """The weight argument of a convolution (forward or backward) node, else None."""
    if node.op != "call_function":
        return None
    if node.target is CONV:
        return node.args[1]
    return node.args[2] if node.target is CONV_BACKWARD else None


def set_output_strides(output: torch.fx.Node, node: torch.fx.Node) -> None:
    """Inductor lays out a user-visible graph output with the strides it recorded before the
    post-grad passes (``output.meta["original_output_strides"]``, by output position), not with
    the node's fake value: the converted output's positions get its new strides."""
    recorded = output.meta.get("original_output_strides")
    if recorded is None:
        return
    args: Any = output.args[0] if not isinstance(output.args[0], torch.fx.Node) else output.args
    for i, arg in enumerate(args):
        if arg is node and i < len(recorded):
            recorded[i] = node.meta["val"].stride()
