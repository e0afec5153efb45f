"""NdTilingPass gating on hand-built graphs, and the predicates it uses."""

from __future__ import annotations

import pytest
import torch
from graphs import GraphBuilder
from torch._inductor import config as inductor_config

from magi_passes import ConvChannelsLastPass, NdTilingPass, PassConfig, is_conv_heavy, is_dynamic
from magi_passes.passes.nd_tiling import ND_TILING_SETTINGS

aten = torch.ops.aten
KEYS = tuple(ND_TILING_SETTINGS)


def conv_stack(dynamic: bool, n_convs: int = 2, extra_nodes: int = 0) -> torch.fx.Graph:
    b = GraphBuilder(dynamic=dynamic)
    h = b.input((1, 4, 3, 6, 6), dynamic_dims=(3, 4) if dynamic else ())
    w = b.input((4, 4, 3, 3, 3))
    for _ in range(n_convs):
        h = b.conv(b.call(aten.silu.default, h), w, padding=1)
    for _ in range(extra_nodes):
        h = b.call(aten.relu.default, h)
    return b.output(h)


def settings() -> dict:
    return {k: getattr(inductor_config.triton, k.split(".")[1]) for k in KEYS}


def run(graph: torch.fx.Graph, config: PassConfig | None = None):
    p = NdTilingPass(config)
    with inductor_config.patch({k: None if k == "triton.max_tiles" else False for k in KEYS}):
        p(graph)
        after = settings()
    return p.last_result, after


def test_predicates() -> None:
    assert is_dynamic(conv_stack(dynamic=True))
    assert not is_dynamic(conv_stack(dynamic=False))
    g = conv_stack(dynamic=False)
    n = len(g.nodes)
    assert is_conv_heavy(g, ratio=300)
    assert not is_conv_heavy(g, ratio=n // 2 // 2)  # n >= ratio * 2 convs
    b = GraphBuilder()
    assert not is_conv_heavy(b.output(b.call(aten.relu.default, b.input((2,)))), 300)
    with pytest.raises(ValueError, match="ratio must be a positive int"):
        is_conv_heavy(g, 0)


def test_fires_on_dynamic_conv_heavy_graphs_with_two_tiles() -> None:
    result, after = run(conv_stack(dynamic=True))
    assert result.applied, result.reason
    assert after == {
        "triton.prefer_nd_tiling": True,
        "triton.max_tiles": 2,
        "triton.tile_reductions": True,
    }
    assert result.config_changes == after
    assert result.counts["convolutions"] == 2


def test_skips_static_graphs() -> None:
    result, after = run(conv_stack(dynamic=False))
    assert not result.applied and "static" in result.reason
    assert after["triton.prefer_nd_tiling"] is False


def test_skips_conv_sparse_graphs() -> None:
    graph = conv_stack(dynamic=True, n_convs=1, extra_nodes=40)
    result, after = run(graph, PassConfig(conv_heavy_ratio=10))
    assert not result.applied and "not conv-heavy" in result.reason
    assert after["triton.max_tiles"] is None


def test_skips_after_channels_last_unless_asked() -> None:
    graph = conv_stack(dynamic=True)
    with inductor_config.patch(layout_optimization=True):
        ConvChannelsLastPass()(graph)
        result, after = run(graph)
        assert not result.applied and "channels-last already converted 2" in result.reason
        result, after = run(graph, PassConfig(nd_tiling_with_channels_last=True))
        assert result.applied and after["triton.max_tiles"] == 2


def test_declares_exactly_what_it_sets() -> None:
    assert set(NdTilingPass.mutates_inductor_config) == set(KEYS)
    assert NdTilingPass(PassConfig(enable_nd_tiling=False)).enabled() is False
