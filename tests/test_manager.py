"""MagiPass base-class contract and PassManager ordering, chaining, uuid and results."""

from __future__ import annotations

from typing import ClassVar

import pytest
import torch
from graphs import GraphBuilder
from torch._inductor import config as inductor_config
from torch._inductor.custom_graph_pass import CustomGraphPass

from magi_passes import (
    ConvChannelsLastPass,
    DynamicReshapePass,
    GroupNormStatsPass,
    MagiPass,
    NdTilingPass,
    NormRsqrtPass,
    PassConfig,
    PassManager,
    PassResult,
)

aten = torch.ops.aten


def small_graph(dynamic: bool = True) -> torch.fx.Graph:
    b = GraphBuilder(dynamic=dynamic)
    x = b.input((1, 4, 3, 6, 6), dynamic_dims=(3, 4) if dynamic else ())
    w = b.input((4, 4, 3, 3, 3))
    return b.output(b.conv(b.call(aten.silu.default, x), w, padding=1))


class SneakyPass(MagiPass):
    name: ClassVar[str] = "sneaky"
    mutates_inductor_config: ClassVar[tuple[str, ...]] = ("triton.max_tiles",)

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        inductor_config.triton.max_tiles = 3  # declared
        inductor_config.max_fusion_size = 7  # not declared
        return PassResult(self.name, True, "sneaky")


def test_undeclared_config_change_raises_and_is_undone() -> None:
    with inductor_config.patch({"triton.max_tiles": 2, "max_fusion_size": 64}):
        with pytest.raises(RuntimeError) as e:
            SneakyPass()(small_graph())
        assert inductor_config.max_fusion_size == 64
        assert "max_fusion_size: 64 -> 7" in str(e.value)
        assert "mutates_inductor_config" in str(e.value)
        assert "triton.max_tiles" not in str(e.value)


def test_set_config_refuses_undeclared_keys() -> None:
    p = ConvChannelsLastPass()
    with pytest.raises(RuntimeError, match="does not declare"):
        p.set_config("triton.max_tiles", 3, PassResult("x", False, ""))


def test_uuid_stable_for_equal_config_and_changes_with_flags() -> None:
    for cls in (
        ConvChannelsLastPass,
        NdTilingPass,
        DynamicReshapePass,
        NormRsqrtPass,
        GroupNormStatsPass,
    ):
        a, b = cls(PassConfig()), cls(PassConfig())
        assert a.uuid() == b.uuid() and isinstance(a.uuid(), str)
        assert a.uuid() != cls(PassConfig(conv_heavy_ratio=10)).uuid()
    assert ConvChannelsLastPass().uuid() != NdTilingPass().uuid()
    m1, m2 = PassManager(PassConfig()), PassManager(PassConfig())
    assert m1.uuid() == m2.uuid()
    assert m1.uuid() != PassManager(PassConfig(enable_nd_tiling=False)).uuid()


def test_pass_order_and_results() -> None:
    manager = PassManager()
    order = [
        "padding_miscompile_workaround",
        "dynamic_reshape",
        "norm_rsqrt",
        "deconv_interleave",
        "upcast_matmul",
        "causal_pad_trim",
        "conv_pad_fold",
        "producer_recompute",
        "dynamic_cat_tiling_workaround",
        "conv_channels_last",
        "conv_input_windows",
        "group_norm_stats",
        "nd_tiling",
    ]
    assert [p.name for p in manager.passes] == order
    with inductor_config.patch(
        {"layout_optimization": True, "triton.max_tiles": None, "comprehensive_padding": True}
    ):
        manager(small_graph())
    assert [r.name for r in manager.results] == order
    assert manager.result("conv_channels_last").applied
    # channels-last fired first, so ND tiling stood down (the measured default)
    assert not manager.result("nd_tiling").applied
    assert manager.fired("conv_channels_last") and not manager.fired("nd_tiling")
    assert len(manager.history) == 1 and len(manager.graphs) == 1
    assert "aten.clone.default" in manager.graphs[0]


def test_disabled_passes_report_why() -> None:
    manager = PassManager(PassConfig(enable_conv_channels_last=False, enable_nd_tiling=False))
    with inductor_config.patch({"layout_optimization": True}):
        manager(small_graph())
    assert manager.result("conv_channels_last").reason == "disabled by PassConfig"
    assert manager.result("nd_tiling").reason == "disabled by PassConfig"


class Recorder(CustomGraphPass):
    def __init__(self) -> None:
        self.seen: list[int] = []

    def __call__(self, graph: torch.fx.Graph) -> None:
        self.seen.append(len(graph.find_nodes(op="call_function", target=aten.clone.default)))

    def uuid(self) -> str:
        return "recorder-v1"


def test_user_pass_is_chained_after_ours_and_in_uuid() -> None:
    user = Recorder()
    manager = PassManager(user_pass=user)
    with inductor_config.patch({"layout_optimization": True}):
        manager(small_graph())
    assert user.seen == [2]  # it ran, after the channels-last clones existed
    assert manager.uuid() != PassManager().uuid()


def test_chained_with_current_picks_up_installed_pass() -> None:
    user = Recorder()
    with inductor_config.patch(post_grad_custom_post_pass=user):
        manager = PassManager.chained_with_current()
        assert manager.user_pass is user
        # a manager already installed is unwrapped, never nested
        with inductor_config.patch(post_grad_custom_post_pass=manager):
            again = PassManager.chained_with_current()
            assert again.user_pass is user


def test_opaque_user_pass_never_shares_a_cache_key() -> None:
    def opaque(graph: torch.fx.Graph) -> None:
        pass

    a, b = PassManager(user_pass=opaque), PassManager(user_pass=opaque)
    assert a.uuid() != b.uuid() and a.uuid() == a.uuid()


@pytest.mark.parametrize("bad", [42, "pass"])
def test_bad_user_pass(bad: object) -> None:
    with pytest.raises(TypeError, match="must be a callable taking a torch.fx.Graph"):
        PassManager(user_pass=bad)


def test_manager_inside_manager_is_refused() -> None:
    with pytest.raises(ValueError, match="run twice"):
        PassManager(user_pass=PassManager())


def test_mutated_keys_aggregate() -> None:
    keys = PassManager().mutates_inductor_config
    assert "layout_optimization" in keys and "triton.max_tiles" in keys


def test_history_and_graphs_are_bounded() -> None:
    manager = PassManager(PassConfig(enable_conv_channels_last=False, enable_nd_tiling=False))
    manager.max_history = 3
    for _ in range(5):
        manager(small_graph(dynamic=False))
    assert len(manager.history) == 3 and len(manager.graphs) == 3
    assert manager.results is manager.history[-1]
