"""Marks one pass leaves on a graph's output node for the passes after it to read."""

from __future__ import annotations

import torch

# meta key set on the graph's output node by ConvChannelsLastPass when it converted convolutions
CHANNELS_LAST_MARK = "magi_channels_last_convs"
# meta key set there by DynamicCatTilingWorkaround: the layout pass and ND tiling stand down
DYNAMIC_CAT_MARK = "magi_dynamic_cat_convs"


def dynamic_cat_convs(graph: torch.fx.Graph) -> int:
    """How many concatenation-fed convolutions DynamicCatTilingWorkaround found in this dynamic
    CUDA graph (0 if it did not match or did not run): the layout pass and ND tiling stand down."""
    outputs = graph.find_nodes(op="output")
    return int(outputs[0].meta.get(DYNAMIC_CAT_MARK, 0)) if outputs else 0


def channels_last_convs(graph: torch.fx.Graph) -> int:
    """How many convolutions ConvChannelsLastPass converted in this graph (0 if it did not run)."""
    outputs = graph.find_nodes(op="output")
    return int(outputs[0].meta.get(CHANNELS_LAST_MARK, 0)) if outputs else 0
