"""ConvChannelsLastPass on hand-built post-grad graphs, and end to end."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
import torch
import torch.nn.functional as F
from graphs import GraphBuilder, clones
from torch._inductor import config as inductor_config
from torch._prims_common import (
    make_channels_last_strides_for,
    make_contiguous_strides_for,
    suggest_memory_format,
)

from magi_passes import ConvChannelsLastPass, PassConfig
from magi_passes.fx import layout_rewrites, nodes

aten = torch.ops.aten
CL = {4: torch.channels_last, 5: torch.channels_last_3d}


# the rewrite's mechanics on conv2d and conv3d alike; the conv2d-only gate has tests of its own
FORCED = PassConfig(channels_last_conv2d_graphs=True)


def run_pass(graph: torch.fx.Graph, config: PassConfig | None = FORCED):
    p = ConvChannelsLastPass(config)
    with inductor_config.patch(layout_optimization=True):
        p(graph)
        assert inductor_config.layout_optimization is False
    assert p.last_result is not None
    return p.last_result


def conv_graph(ndim: int, dynamic: bool):
    spatial = (5, 6, 7)[: ndim - 2]
    b = GraphBuilder(dynamic=dynamic)
    x = b.input((2, 4, *spatial), dynamic_dims=tuple(range(2, ndim)) if dynamic else ())
    w = b.input((8, 4, *([3] * (ndim - 2))))
    act = b.call(aten.silu.default, x)
    y = b.conv(act, w, padding=1)
    return b, b.output(y), act, w, y


def _strides(strides: Sequence[int | torch.SymInt]) -> list[str]:
    return [str(s) for s in strides]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("ndim", [4, 5], ids=["conv2d", "conv3d"])
def test_input_and_weight_get_channels_last_clones(ndim: int, dynamic: bool) -> None:
    _, graph, act, w, conv = conv_graph(ndim, dynamic)
    result = run_pass(graph)
    assert result.applied
    assert result.counts["convs_converted"] == 1
    assert result.counts["clones_inserted"] == 2
    assert result.config_changes == {"layout_optimization": False}
    x_clone, w_clone = conv.args[0], conv.args[1]
    for clone, source in ((x_clone, act), (w_clone, w)):
        assert clone.target is aten.clone.default
        assert clone.args == (source,)
        assert clone.kwargs == {"memory_format": CL[ndim]}
        val = clone.meta["val"]
        # the fake value is exactly eager clone(memory_format=...): channels-last strides.
        # Compared as expressions: on symbolic sizes torch 2.11's is_contiguous answers False
        # for what it cannot decide without a guard (seen on the GPU machine).
        assert _strides(val.stride()) == _strides(make_channels_last_strides_for(val.shape))
        assert _strides(val.stride()) != _strides(make_contiguous_strides_for(val.shape))
        assert val.shape == source.meta["val"].shape
    graph.lint()


def test_dynamic_clone_strides_are_symbolic_channels_last() -> None:
    _, graph, _, _, conv = conv_graph(5, dynamic=True)
    run_pass(graph)
    stride = conv.args[0].meta["val"].stride()
    assert stride[1] == 1
    assert any(isinstance(s, torch.SymInt) for s in stride)


def test_shared_tensor_gets_one_clone_per_format() -> None:
    b = GraphBuilder()
    x = b.input((1, 4, 6, 6))
    w = b.input((4, 4, 3, 3))
    act = b.call(aten.relu.default, x)
    y1 = b.conv(act, w, padding=1)
    y2 = b.conv(act, w, padding=1)  # same activation and the same weight twice
    graph = b.output(b.call(aten.add.Tensor, y1, y2))
    result = run_pass(graph)
    assert result.counts["convs_converted"] == 2
    assert result.counts["clones_inserted"] == 2
    assert result.counts["clones_shared"] == 2
    assert len(clones(graph)) == 2
    assert y1.args[0] is y2.args[0] and y1.args[1] is y2.args[1]


def test_weight_shared_by_conv2d_and_conv3d_gets_two_formats() -> None:
    b = GraphBuilder()
    x4 = b.input((1, 4, 6, 6))
    x5 = b.input((1, 4, 3, 6, 6))
    w4 = b.input((4, 4, 3, 3))
    w5 = b.call(aten.unsqueeze.default, w4, 2)  # (4, 4, 1, 3, 3)
    y4 = b.conv(x4, w4, padding=1)
    y5 = b.conv(x5, w5, padding=0)
    graph = b.output(y4, y5)
    run_pass(graph)
    formats = sorted(str(c.kwargs["memory_format"]) for c in clones(graph))
    assert formats == sorted([str(torch.channels_last)] * 2 + [str(torch.channels_last_3d)] * 2)


def test_already_channels_last_tensors_are_untouched() -> None:
    b = GraphBuilder()
    x = b.input((1, 4, 3, 6, 6), memory_format=torch.channels_last_3d)
    w = b.input((8, 4, 3, 3, 3), memory_format=torch.channels_last_3d)
    y = b.conv(x, w)
    graph = b.output(y)
    result = run_pass(graph)
    assert result.applied
    assert result.counts["already_channels_last"] == 2
    assert result.counts["clones_inserted"] == 0
    assert clones(graph) == []
    assert y.args[0] is x and y.args[1] is w


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_causal_pad_chain_is_hoisted_over(dynamic: bool) -> None:
    """F.pad (two single-user pads) then conv3d(padding=0): the clone goes before the pads."""
    b = GraphBuilder(dynamic=dynamic)
    x = b.input((1, 4, 3, 6, 6), dynamic_dims=(3, 4) if dynamic else ())
    w = b.input((4, 4, 3, 3, 3))
    act = b.call(aten.silu.default, x)
    pad1 = b.call(aten.constant_pad_nd.default, act, [1, 1, 1, 1, 0, 0], 0.0)
    pad2 = b.call(aten.constant_pad_nd.default, pad1, [0, 0, 0, 0, 2, 0], 0.0)
    y = b.conv(pad2, w)
    graph = b.output(y)
    result = run_pass(graph)
    assert result.counts["pads_hoisted"] == 2
    assert y.args[0] is pad2  # the conv still reads the pad
    clone = pad1.args[0]
    assert clone.target is aten.clone.default and clone.args == (act,)
    for pad in (pad1, pad2):
        assert pad.meta["val"].is_contiguous(memory_format=torch.channels_last_3d)
        assert not pad.meta["val"].is_contiguous()
    assert pad2.meta["val"].shape == y.args[0].meta["val"].shape


def test_pad_with_two_users_is_not_hoisted_over() -> None:
    b = GraphBuilder()
    x = b.input((1, 4, 3, 6, 6))
    w = b.input((4, 4, 3, 3, 3))
    pad = b.call(aten.constant_pad_nd.default, x, [1, 1, 1, 1, 2, 0], 0.0)
    y = b.conv(pad, w)
    other = b.call(aten.mul.Tensor, pad, 2.0)  # a second user of the pad
    graph = b.output(y, other)
    result = run_pass(graph)
    assert result.counts["pads_hoisted"] == 0
    clone = y.args[0]
    assert clone.target is aten.clone.default and clone.args == (pad,)
    assert pad.args[0] is x
    assert pad.meta["val"].is_contiguous()  # the pad's layout is untouched for its other user


def test_conv1d_and_transposed_are_skipped_with_reasons() -> None:
    b = GraphBuilder()
    x1 = b.input((1, 4, 9))
    w1 = b.input((4, 4, 3))
    x2 = b.input((1, 4, 6, 6))
    w2 = b.input((4, 2, 3, 3))
    y1 = b.conv(x1, w1)
    y2 = b.conv(x2, w2, transposed=True)
    graph = b.output(y1, y2)
    result = run_pass_no_config_check(graph)
    assert not result.applied
    assert result.counts["skipped_conv1d"] == 1
    assert result.counts["skipped_transposed"] == 1
    assert "skipped_conv1d" in result.reason and "skipped_transposed" in result.reason
    assert clones(graph) == []
    assert result.config_changes == {}


def test_no_convolutions_leaves_graph_and_config_alone() -> None:
    b = GraphBuilder()
    x = b.input((2, 3))
    graph = b.output(b.call(aten.relu.default, x))
    before = str(graph)
    result = run_pass_no_config_check(graph)
    assert not result.applied and result.reason == "no convolutions"
    assert str(graph) == before


def run_pass_no_config_check(graph: torch.fx.Graph):
    p = ConvChannelsLastPass(FORCED)
    with inductor_config.patch(layout_optimization=True):
        p(graph)
        assert inductor_config.layout_optimization is True
    return p.last_result


def test_disabled_by_config() -> None:
    assert not ConvChannelsLastPass(PassConfig(enable_conv_channels_last=False)).enabled()
    assert ConvChannelsLastPass().enabled()


class ConvNet(torch.nn.Module):
    def __init__(self, ndim: int = 3) -> None:
        super().__init__()
        conv = torch.nn.Conv3d if ndim == 3 else torch.nn.Conv2d
        self.c1 = conv(4, 8, 3, padding=1)
        self.c2 = conv(8, 8, 3)
        self.norm = torch.nn.GroupNorm(2, 8)
        self.ndim = ndim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.silu(self.norm(self.c1(x)))
        pad = (1, 1, 1, 1, 2, 0) if self.ndim == 3 else (1, 1, 1, 1)
        return self.c2(F.pad(h, pad)) + 1


@pytest.mark.parametrize("ndim", [2, 3])
def test_end_to_end_inference_layout_and_numerics(ndim: int) -> None:
    """Compiled with the pass, the conv inputs are channels-last buffers and results match."""
    from torch._inductor.utils import run_and_get_code

    from magi_passes import MagiBackend

    torch.manual_seed(0)
    model = ConvNet(ndim).eval()
    x = torch.randn(1, 4, *((3, 6, 7) if ndim == 3 else (6, 7)))
    torch._dynamo.reset()
    backend = MagiBackend(
        PassConfig(channels_last_conv2d_graphs=True, channels_last_weights_once=True)
    )
    with torch.no_grad(), inductor_config.patch(fx_graph_cache=False):
        out, (code, *_) = run_and_get_code(torch.compile(model, backend=backend), x)
        ref = model(x)
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4)
    result = next(r for r in backend.results if r.name == "conv_channels_last")
    assert result.applied and result.counts["convs_converted"] == 2
    # weights were converted once outside the graph: no weight clones in the graph
    assert backend.hoisted_weights == [2]
    # 2 convs x (input, weight): the weights arrive channels-last; at most the activations clone
    assert result.counts["already_channels_last"] + result.counts["clones_inserted"] == 4
    assert result.counts["already_channels_last"] >= 2
    # every convolution in the generated code reads a channels-last activation
    assert code.count("extern_kernels.convolution(") == 2
    assert suggest_memory_format(x) == torch.contiguous_format


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_conv2d_only_graph_is_left_to_inductor_by_default(dynamic: bool) -> None:
    """The measured gate: a graph whose convolutions are all conv2d is not rewritten and
    Inductor's own layout optimisation stays as it was (docs/results.md, "Conv2d networks: the
    channels-last gate": resnet50 0.911x, the rewrite forced)."""
    _, graph, _, w, conv = conv_graph(4, dynamic)
    before = str(graph)
    p = ConvChannelsLastPass(PassConfig())
    with inductor_config.patch(layout_optimization=True):
        p(graph)
        assert inductor_config.layout_optimization is True
    result = p.last_result
    assert result is not None and not result.applied
    assert "conv2d-only graph" in result.reason and "channels_last_conv2d_graphs" in result.reason
    assert result.counts["skipped_conv2d_graph"] == 1
    assert str(graph) == before
    assert conv.args[1] is w


def test_graph_with_a_conv3d_converts_its_conv2d_too() -> None:
    """Mixed graphs (a video VAE's per-frame conv2d upsampler beside its conv3d) fire in full."""
    b = GraphBuilder()
    x3 = b.input((1, 4, 3, 6, 6))
    w3 = b.input((4, 4, 3, 3, 3))
    x2 = b.input((3, 4, 6, 6))
    w2 = b.input((4, 4, 3, 3))
    y3 = b.conv(x3, w3, padding=1)
    y2 = b.conv(x2, w2, padding=1)
    graph = b.output(y3, y2)
    result = run_pass(graph, PassConfig())
    assert result.applied
    assert result.counts["convs_converted"] == 2


def test_symbolic_causal_pad_is_hoisted_over() -> None:
    """A causal pad whose amount is symbolic (the Wan 2.2 VAE's cached chunks under automatic
    dynamic shapes: `2 - cache.shape[2]`) is hoisted over; it crashed the pass on the GPU."""
    from magi_passes import MagiBackend

    weight = torch.randn(4, 4, 3, 3, 3)

    def step(x: torch.Tensor, cache: torch.Tensor) -> torch.Tensor:
        both = torch.cat([cache, x], 2)
        return F.conv3d(F.pad(both, (1, 1, 1, 1, 2 - cache.shape[2], 0)), weight)

    x, cache = torch.randn(1, 4, 1, 6, 6), torch.randn(1, 4, 2, 6, 6)
    torch._dynamo.mark_dynamic(cache, 2)
    torch._dynamo.reset()
    backend = MagiBackend()
    with torch.no_grad(), inductor_config.patch(fx_graph_cache=False):
        out = torch.compile(step, backend=backend)(x, cache)
    torch.testing.assert_close(out, step(x, cache), rtol=1e-4, atol=1e-4)
    result = next(r for r in backend.results if r.name == "conv_channels_last")
    assert result.applied and result.counts["pads_hoisted"] == 1


# --------------------------------------------------------------------------- through a cat
THROUGH_CAT = PassConfig(channels_last_conv2d_graphs=True, channels_last_through_cat=True)


def _cached_conv_graph(*, dim: int = 2, second_user: bool = False):
    """A causal conv in its steady chunk: cat(cache, silu(x)) along frames (or channels),
    padded, convolved."""
    b = GraphBuilder()
    x = b.input((1, 4, 1, 6, 6))
    cache = b.input((1, 4, 2, 6, 6) if dim == 2 else (1, 4, 1, 6, 6))
    w = b.input((8, 4 if dim == 2 else 8, 3, 3, 3))
    y = b.call(aten.silu.default, x)
    cat = b.call(aten.cat.default, [cache, y], dim)
    padded = b.call(aten.constant_pad_nd.default, cat, [1, 1, 1, 1, 0 if dim == 2 else 2, 0])
    out = b.conv(padded, w)
    extra = (b.call(aten.sum.default, cat),) if second_user else ()
    return b.output(out, *extra), cache, y, cat, padded


def test_a_cat_in_front_of_a_conv_gets_its_inputs_converted() -> None:
    """`channels_last_through_cat`: the cache and the new frames get the clones; the cat (and
    the pad above it) come out channels-last, and nothing copies the whole."""
    graph, cache, y, cat, padded = _cached_conv_graph()
    result = run_pass(graph, THROUGH_CAT)
    assert result.counts["cats_converted_through"] == 1
    inputs = cat.args[0]
    assert [i.target for i in inputs] == [aten.clone.default] * 2
    assert [i.args[0] for i in inputs] == [cache, y]
    assert all(i.kwargs["memory_format"] == torch.channels_last_3d for i in inputs)
    for node in (cat, padded):
        assert suggest_memory_format(node.meta["val"]) == torch.channels_last_3d
    (conv,) = [n for n in graph.nodes if n.target is aten.convolution.default]
    assert conv.args[0] is padded  # no clone of the whole between the pad and the conv
    assert result.counts["pads_hoisted"] == 1


def test_without_the_option_the_cat_is_cloned_whole() -> None:
    """`channels_last_through_cat` is on by default; off, the cat's output gets the clone."""
    assert PassConfig().channels_last_through_cat
    graph, cache, y, cat, _ = _cached_conv_graph()
    result = run_pass(
        graph, PassConfig(channels_last_conv2d_graphs=True, channels_last_through_cat=False)
    )
    assert "cats_converted_through" not in result.counts
    assert cat.args[0] == [cache, y]
    assert [u.target for u in cat.users] == [aten.clone.default]


@pytest.mark.parametrize(
    "kwargs", [{"second_user": True}, {"dim": 1}],
    ids=["cat-with-another-user", "cat-along-channels"],
)  # fmt: skip
def test_a_cat_is_converted_through_only_where_it_is_safe(kwargs) -> None:
    graph, _, _, cat, _ = _cached_conv_graph(**kwargs)
    result = run_pass(graph, THROUGH_CAT)
    assert result.applied and "cats_converted_through" not in result.counts
    assert all(i.target is not aten.clone.default for i in cat.args[0])


def test_a_cat_converted_through_computes_what_eager_does() -> None:
    from graphs import assert_rewrite_keeps_values

    assert_rewrite_keeps_values(
        lambda: _cached_conv_graph()[0],
        lambda graph: run_pass(graph, THROUGH_CAT),
        [(1, 4, 1, 6, 6), (1, 4, 2, 6, 6), (8, 4, 3, 3, 3)],
    )


class CachedConvBlock(torch.nn.Module):
    """RMS norm + SiLU of the new frame, the next cache taken from it, and a causal 3x3x3 conv
    over the cache and the new frame: the Wan 2.2 decoder's steady chunk, small."""

    def __init__(self, channels: int = 32) -> None:
        super().__init__()
        self.gamma = torch.nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.weight = torch.nn.Parameter(torch.randn(channels, channels, 3, 3, 3) * 0.05)

    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        rms = torch.rsqrt((x.float() ** 2).mean(1, keepdim=True) + 1e-6).to(x.dtype)
        y = F.silu(x * rms * self.gamma)
        next_cache = torch.cat([cache[:, :, -1:], y[:, :, -2:].clone()], 2)
        both = F.pad(torch.cat([cache, y], 2), (1, 1, 1, 1, 0, 0))
        return F.conv3d(both, self.weight), next_cache


def test_a_cat_converted_through_on_the_cpu_end_to_end() -> None:
    from graphs import compile_dynamic_on_cpu, compile_on_cpu, pass_result

    model = CachedConvBlock(8).eval()
    x, cache = torch.randn(1, 8, 1, 6, 6), torch.randn(1, 8, 2, 6, 6)
    config = PassConfig(measure_decisions=False, channels_last_through_cat=True)
    (out, next_cache), backend = compile_on_cpu(model, config, x, cache)
    want, want_cache = model(x, cache)
    torch.testing.assert_close(out, want, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(next_cache, want_cache)
    assert pass_result(backend, "conv_channels_last").counts["cats_converted_through"] == 1
    # a dynamic graph keeps the clone of the whole (the option is for static graphs only)
    (out, _), result = compile_dynamic_on_cpu(model, config, x, cache)
    torch.testing.assert_close(out, want, rtol=1e-4, atol=1e-4)
    assert result.applied and "cats_converted_through" not in result.counts


def test_fake_cuda_a_cat_converted_through_writes_the_new_frames_once() -> None:
    """Off: the conv input is the cat copied whole (torch 2.13 first realises it channels-first),
    and the new frames are computed again for the next cache. On: the cache is transposed into
    its slice and one kernel computes the new frames once, storing them twice (channels-last
    into the conv input, eager's layout into the next cache)."""
    from graphs import codegen_off_and_on

    model = CachedConvBlock(256).eval().to(torch.bfloat16)  # the norm a reduction of its own
    x = torch.randn(1, 256, 1, 34, 60, dtype=torch.bfloat16)
    cache = torch.randn(1, 256, 2, 34, 60, dtype=torch.bfloat16)
    codes = codegen_off_and_on(model, "channels_last_through_cat", x, cache)
    two_stores = {on: [k for k in c.kernels if k.num_stores == 2] for on, c in codes.items()}
    assert not two_stores[False] and len(two_stores[True]) == 1
    assert "silu" in two_stores[True][0].name and two_stores[True][0].nd_tiling
    assert codes[True].kernel_count <= codes[False].kernel_count


# --------------------------------------------------------------------------- batched weights
def _three_conv3d_graph(dynamic: bool = False):
    b = GraphBuilder(dynamic=dynamic)
    x = b.input((1, 8, 3, 6, 6), dynamic_dims=(3, 4) if dynamic else ())
    weights = [b.input((8, 8, 3, 3, 3)) for _ in range(2)] + [b.input((8, 8, 1, 1, 1))]
    y = x
    for w in weights:
        y = b.conv(b.call(aten.relu.default, y), w, padding=1 if w.meta["val"].shape[2] == 3 else 0)
    return b.output(y), weights


def test_weight_clones_of_a_static_graph_are_one_concatenation() -> None:
    """Each weight input's channels-last clone was a kernel of its own; the three become views
    of one buffer, written by one concatenation, with the clones' sizes and strides."""
    graph, weights = _three_conv3d_graph()
    result = run_pass(graph)
    assert result.counts["weight_clones_batched"] == 3
    (cat,) = [n for n in graph.nodes if n.target is aten.cat.default]
    views = [n for n in graph.nodes if n.target is aten.as_strided.default]
    assert len(views) == 3 and all(v.args[0] is cat for v in views)
    convs = [n for n in graph.nodes if n.target is aten.convolution.default]
    assert [c.args[1] for c in convs] == views
    for view, w in zip(views, weights, strict=True):
        val = view.meta["val"]
        assert val.shape == w.meta["val"].shape
        assert suggest_memory_format(val) == torch.channels_last_3d
    assert [v.args[3] for v in views] == [0, 8 * 8 * 27, 2 * 8 * 8 * 27]  # offsets
    assert not [n for n in clones(graph) if n.args[0] in weights]


def test_batched_weights_compute_what_the_clones_did() -> None:
    """The rewritten graph, run eagerly on real tensors, equals the graph with the clones."""
    graph, _ = _three_conv3d_graph()
    batched = torch.fx.GraphModule(torch.nn.Module(), graph)
    run_pass(batched.graph)
    batched.recompile()
    graph2, _ = _three_conv3d_graph()
    with pytest.MonkeyPatch.context() as mp:
        import magi_passes.fx.layout_rewrites as cl

        mp.setattr(cl, "_BATCH", 1)  # batches of one: no concatenation
        result = run_pass(graph2)
    assert result.counts["weight_clones_batched"] == 0
    unbatched = torch.fx.GraphModule(torch.nn.Module(), graph2)
    torch.manual_seed(0)
    args = [torch.randn(1, 8, 3, 6, 6)] + [torch.randn(8, 8, 3, 3, 3) for _ in range(2)]
    args.append(torch.randn(8, 8, 1, 1, 1))
    (got,), (want,) = batched(*args), unbatched(*args)
    torch.testing.assert_close(got, want, rtol=0, atol=0)


def test_weights_are_batched_per_input_channel_count_as_rows() -> None:
    """Weights are concatenated as `(O * prod(k), I)` rows, so a batch holds weights of one I:
    I=8 (a conv3d and a conv2d weight) and I=16 (two conv3d weights) are two concatenations,
    and the one weight of I=4 keeps its own clone."""
    b = GraphBuilder()
    x = b.input((1, 4, 3, 6, 6))
    shapes = [(8, 4, 1, 1, 1), (16, 8, 3, 3, 3), (16, 16, 3, 3, 3), (8, 16, 1, 1, 1)]
    weights = [b.input(shape) for shape in shapes]
    w2d = b.input((8, 8, 3, 3))  # placeholders first, as in every real graph
    y = x
    for w in weights:
        y = b.conv(y, w, padding=1 if w.meta["val"].shape[2] == 3 else 0)
    graph = b.output(b.conv(b.call(aten.select.int, y, 2, 0), w2d, padding=1))
    result = run_pass(graph)
    assert result.counts["weight_clones_batched"] == 4
    cats = [n for n in graph.nodes if n.target is aten.cat.default]
    assert len(cats) == 2
    for cat, channels in zip(cats, (8, 16), strict=True):
        assert [list(r.args[1]) for r in cat.args[0]] == [[-1, channels]] * 2
        assert cat.meta["val"].shape[1] == channels
    kept = [n for n in clones(graph) if n.args[0] is weights[0]]
    assert len(kept) == 1  # I=4: alone in its group, its own channels-last clone


def test_row_batches_compute_what_the_clones_did() -> None:
    """Mixed conv2d/conv3d weights of two input channel counts, batched as rows and run
    eagerly on real tensors, equal the clones of batches of one."""

    def build() -> torch.fx.Graph:
        b = GraphBuilder()
        y = b.input((1, 4, 3, 6, 6))
        shapes = [(8, 4, 3, 3, 3), (8, 8, 3, 3, 3), (4, 8, 1, 1, 1), (4, 4, 3, 3, 3)]
        weights = [b.input(shape) for shape in shapes]
        w2d = b.input((4, 4, 3, 3))
        for w, shape in zip(weights, shapes, strict=True):
            y = b.conv(y, w, padding=1 if shape[2] == 3 else 0)
        return b.output(b.conv(b.call(aten.select.int, y, 2, 0), w2d, padding=1))

    import magi_passes.fx.layout_rewrites as cl

    batched = torch.fx.GraphModule(torch.nn.Module(), build())
    assert run_pass(batched.graph).counts["weight_clones_batched"] == 5
    batched.recompile()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cl, "_BATCH", 1)
        unbatched = torch.fx.GraphModule(torch.nn.Module(), build())
        assert run_pass(unbatched.graph).counts["weight_clones_batched"] == 0
    unbatched.recompile()
    torch.manual_seed(0)
    shapes = [(1, 4, 3, 6, 6), (8, 4, 3, 3, 3), (8, 8, 3, 3, 3), (4, 8, 1, 1, 1)]
    args = [torch.randn(s) for s in [*shapes, (4, 4, 3, 3, 3), (4, 4, 3, 3)]]
    (got,), (want,) = batched(*args), unbatched(*args)
    torch.testing.assert_close(got, want, rtol=0, atol=0)


def test_weights_over_the_batch_size_cap_keep_their_own_clones() -> None:
    """A weight over `_BATCH_MAX_BYTES` (the Wan decoder's 1024x1024x3x3x3, 57 MB in bf16)
    converts faster in a clone of its own; the small weights of the graph are still batched."""
    b = GraphBuilder()
    x = b.input((1, 8, 3, 6, 6), dtype=torch.bfloat16)
    small = [b.input((8, 8, 3, 3, 3), dtype=torch.bfloat16) for _ in range(2)]
    big = b.input((4096, 8, 3, 3, 3), dtype=torch.bfloat16)  # 1.77 MB
    assert big.meta["val"].numel() * 2 > layout_rewrites._BATCH_MAX_BYTES
    y = x
    for w in small:
        y = b.conv(b.call(aten.relu.default, y), w, padding=1)
    graph = b.output(y, b.conv(x, big, padding=1))
    result = run_pass(graph)
    assert result.counts["weight_clones_batched"] == 2
    (cat,) = [n for n in graph.nodes if n.target is aten.cat.default]
    assert len(cat.args[0]) == 2
    assert [n.args[0] for n in clones(graph)].count(big) == 1  # its own clone


def test_weight_clones_of_a_dynamic_graph_stay_apart() -> None:
    graph, _ = _three_conv3d_graph(dynamic=True)
    result = run_pass(graph)
    assert result.counts["weight_clones_batched"] == 0
    assert not [n for n in graph.nodes if n.target is aten.cat.default]


def test_fake_cuda_the_weights_are_converted_in_one_kernel() -> None:
    """WanCausalStage 540p static: its five conv weights (four conv3d, one conv2d) were five
    transposing kernels per call; now one kernel reads all five."""
    import magi_passes.fx.layout_rewrites as cl
    from pytest_magi.capture.codegen import inductor_codegen
    from pytest_magi.models import WanCausalStage

    model = WanCausalStage("540p").eval().to(torch.bfloat16)
    x = model.example_input(dtype=torch.bfloat16)
    config = PassConfig(measure_decisions=False)
    with torch.no_grad():
        on = inductor_codegen(model, x, config=config)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(cl, "_BATCH", 1)
            off = inductor_codegen(model, x, config=config)
    assert on.kernel_count == off.kernel_count - 1  # 5 launches of one kernel -> 1 launch
    launches = [line for line in on.wrapper.splitlines() if ".run(" in line]
    assert sum(".run(" in line for line in off.wrapper.splitlines()) == len(launches) + 4
    # the one launch that reads five graph inputs (argN_1): the five weights
    assert sum(len(re.findall(r"\barg\d+_1\b", line)) == 5 for line in launches) == 1


def test_fake_cuda_batched_weights_are_a_tiled_transpose() -> None:
    """The batched conversion is one 2-D tiled kernel whose loads and stores each index their
    own tile dims: no division or remainder of a flattened (row, column) index, which is what
    the flat concatenation's loads did (19% of HBM on the Wan 2.2 decode), and stores contiguous along the input channels."""
    from pytest_magi.capture.codegen import inductor_codegen

    class TwoConvs(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = torch.nn.Conv3d(32, 32, 3, padding=1, bias=False)
            self.b = torch.nn.Conv3d(32, 32, 3, padding=1, bias=False)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.b(torch.relu(self.a(x)))

    model = TwoConvs().eval().to(torch.bfloat16)
    x = torch.randn(1, 32, 3, 8, 8, dtype=torch.bfloat16)
    with torch.no_grad():
        code = inductor_codegen(model, x, config=PassConfig(measure_decisions=False))
    launches = [line for line in code.wrapper.splitlines() if ".run(" in line]
    (launch,) = [line for line in launches if len(re.findall(r"\barg\d+_1\b", line)) == 2]
    kernel = code.kernel(launch.strip().split(".run(")[0])
    assert kernel.tile_dims == ("y", "x")
    loads = re.findall(r"tl\.load\(in_ptr\d+ \+ (.*?), ", kernel.source)
    (store,) = re.findall(r"tl\.store\(out_ptr0 \+ \((.*?)\), ", kernel.source)
    assert len(loads) == 2
    flattened = re.compile(r"[xy]\d+ \+ \d+\*[xy]\d+\)+ *(//|%)")
    assert not [load for load in loads if flattened.search(load)], loads
    # contiguous along the input channels, one tile dim; the rows are the other (which of y
    # and x is which differs between torch versions)
    stored = re.fullmatch(r"([xy])\d+ \+ 32\*([xy])\d+", store)
    assert stored and stored[1] != stored[2], store


# --------------------------------------------------------------------------- weights in place
def test_conv_parameters_are_made_channels_last_in_place() -> None:
    """`convert_conv_parameters`: conv2d/conv3d weights channels-last, the same Parameter
    objects with the same values; transposed and 1-D convolutions and other layers left."""
    from magi_passes.compile.weights import convert_conv_parameters

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv3d(4, 8, 3),
        torch.nn.Conv2d(4, 8, 3),
        torch.nn.ConvTranspose2d(4, 4, 2),
        torch.nn.Conv1d(2, 2, 3),
        torch.nn.Linear(3, 3),
    )
    before = {name: (p, p.detach().clone(), p.stride()) for name, p in model.named_parameters()}
    assert convert_conv_parameters(model) == 2
    assert convert_conv_parameters(model) == 0  # already channels-last
    for name, p in model.named_parameters():
        param, values, strides = before[name]
        assert p is param and torch.equal(p, values)
        changed = name in ("0.weight", "1.weight")
        assert (p.stride() != strides) is changed, name
    assert model[0].weight.is_contiguous(memory_format=torch.channels_last_3d)
    assert model[1].weight.is_contiguous(memory_format=torch.channels_last)


class NormConvBlock(torch.nn.Module):
    """SiLU then two conv3d layers (`nn.Conv3d`, whose weights `convert_conv_parameters` sees)."""

    def __init__(self, channels: int = 8) -> None:
        super().__init__()
        self.first = torch.nn.Conv3d(channels, channels, 3, padding=1)
        self.second = torch.nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.second(F.silu(self.first(F.silu(x))))


def test_a_block_with_channels_last_weights_compiles_to_eagers_numbers_without_weight_clones() -> (
    None
):
    """Weights channels-last in place: eager's numbers, and the pass finds them channels-last
    already (no clone of a weight in the graph)."""
    from graphs import compile_on_cpu, pass_result

    from magi_passes.compile.weights import convert_conv_parameters

    torch.manual_seed(0)
    model = NormConvBlock(8).eval()
    x = torch.randn(1, 8, 3, 6, 6)
    with torch.no_grad():
        want = model(x)
    assert convert_conv_parameters(model) == 2
    out, backend = compile_on_cpu(model, PassConfig(measure_decisions=False), x)
    torch.testing.assert_close(out, want, rtol=1e-4, atol=1e-4)
    result = pass_result(backend, "conv_channels_last")
    # the two weights found channels-last; the only clones are of the two SiLU outputs
    assert result.applied and result.counts["already_channels_last"] == 2
    assert result.counts["clones_inserted"] == 2


# --------------------------------------------------------------------------- through slices
def _chunked_conv_graph(*, batch: int = 1, dim: int = 2, dynamic: bool = False):
    """A causal conv run chunk by chunk, as EasyAnimate's decoder runs it: ``h = cat(cache,
    silu(x))`` along frames, the conv over each 3-frame window of ``h``, and the next cache a
    window of ``h`` that leaves the graph."""
    b = GraphBuilder(dynamic=dynamic)
    x = b.input((batch, 4, 2, 6, 6), dynamic_dims=(3, 4) if dynamic else ())
    cache = b.input((batch, 4, 2, 6, 6), dynamic_dims=(3, 4) if dynamic else ())
    w = b.input((8, 3 if dim == 1 else 4, 3, 3, 3))  # a window of 3 channels, or of 3 frames
    h = b.call(aten.cat.default, [cache, b.call(aten.silu.default, x)], 2)
    windows = [b.call(aten.slice.Tensor, h, dim, i, i + 3) for i in range(2)]
    outs = [b.conv(window, w, padding=1) for window in windows]
    state = b.call(aten.clone.default, b.call(aten.slice.Tensor, h, 2, -2, 2**63 - 1))
    return b.output(b.call(aten.cat.default, outs, 2), state), h


def _conv_inputs(graph: torch.fx.Graph) -> list[torch.fx.Node]:
    return [n.args[0] for n in graph.nodes if n.target is aten.convolution.default]


def test_the_windows_of_a_chunked_conv_are_views_of_one_conversion() -> None:
    """`channels_last_through_slices`: the tensor the windows are taken from is pinned
    channels-last once and each conv reads its window of the pin; no copy per window."""
    graph, h = _chunked_conv_graph()
    result = run_pass(graph, FORCED)
    assert result.counts["windows_of_converted"] == 2
    windows = _conv_inputs(graph)
    assert [w.target for w in windows] == [aten.slice.Tensor] * 2
    (pin,) = {w.args[0] for w in windows}
    assert pin.target is nodes.force_stride_order_op() and pin.args[0] is h
    for w in windows:
        assert w.meta["val"].is_contiguous(memory_format=torch.channels_last_3d)
    # the state window still reads ``h`` as eager laid it out; no activation clone was made
    assert [c.args[0].args[0] for c in clones(graph) if "memory_format" not in c.kwargs] == [h]
    assert not [c for c in clones(graph) if c.args[0] in (h, *windows)]


def test_without_the_option_each_window_is_cloned() -> None:
    assert PassConfig().channels_last_through_slices
    graph, h = _chunked_conv_graph()
    result = run_pass(graph, FORCED.replace(channels_last_through_slices=False))
    assert "windows_of_converted" not in result.counts
    windows = _conv_inputs(graph)
    assert [w.target for w in windows] == [aten.clone.default] * 2
    assert [w.args[0].args[0] for w in windows] == [h, h]


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [({"batch": 2}, "windows_not_dense"), ({"dim": 1}, None), ({"dynamic": True}, None)],
    ids=["batch-2-windows-not-dense", "window-of-channels", "dynamic"],
)
def test_windows_are_taken_from_the_conversion_only_where_they_are_dense(kwargs, why) -> None:
    """A frame window of a batch of 2 is not dense in channels-last (the conv would copy it
    again), a window of the channels is no frame or spatial window, and a dynamic graph keeps
    the clone per window: each window keeps its own clone."""
    graph, _ = _chunked_conv_graph(**kwargs)
    result = run_pass(graph, FORCED)
    assert result.applied and "windows_of_converted" not in result.counts
    assert (why in result.counts) if why else True
    assert all(w.target is aten.clone.default for w in _conv_inputs(graph))


def test_windows_of_a_conversion_compute_what_eager_does() -> None:
    from graphs import assert_rewrite_keeps_values

    assert_rewrite_keeps_values(
        lambda: _chunked_conv_graph()[0],
        lambda graph: run_pass(graph, FORCED),
        [(1, 4, 2, 6, 6), (1, 4, 2, 6, 6), (8, 4, 3, 3, 3)],
    )


class ChunkedCausalConv(torch.nn.Module):
    """EasyAnimate's causal conv in its steady chunk, small: the cache concatenated in front of
    SiLU(x), the conv run over each window of 3 frames (its kernel's), the next cache the last
    two frames."""

    def __init__(self, channels: int = 8) -> None:
        super().__init__()
        self.conv = torch.nn.Conv3d(channels, channels, 3, padding=(0, 1, 1))

    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.cat([cache, F.silu(x)], 2)
        outs = [self.conv(h[:, :, i : i + 3]) for i in range(h.shape[2] - 2)]
        return torch.cat(outs, 2), h[:, :, -2:].clone()


def test_windows_of_a_conversion_on_the_cpu_end_to_end() -> None:
    from graphs import compile_on_cpu, pass_result

    torch.manual_seed(0)
    model = ChunkedCausalConv(8).eval()
    x, cache = torch.randn(1, 8, 3, 6, 6), torch.randn(1, 8, 2, 6, 6)
    with torch.no_grad():
        want, want_cache = model(x, cache)
    (out, next_cache), backend = compile_on_cpu(
        model, PassConfig(measure_decisions=False), x, cache
    )
    torch.testing.assert_close(out, want, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(next_cache, want_cache)
    assert next_cache.stride() == want_cache.stride()
    assert pass_result(backend, "conv_channels_last").counts["windows_of_converted"] == 3


def test_fake_cuda_the_windows_of_a_chunked_conv_are_written_once() -> None:
    """Off: a kernel per window copies (and recomputes) its frames into a channels-last conv
    input. On: one kernel writes the concatenation channels-last and every convolution reads a
    view of it."""
    from graphs import codegen_off_and_on

    model = ChunkedCausalConv(64).eval().to(torch.bfloat16)
    x = torch.randn(1, 64, 3, 16, 16, dtype=torch.bfloat16)
    cache = torch.randn(1, 64, 2, 16, 16, dtype=torch.bfloat16)
    codes = codegen_off_and_on(model, "channels_last_through_slices", x, cache)
    views = {on: c.wrapper.count("convolution(reinterpret_tensor(") for on, c in codes.items()}
    assert views == {False: 0, True: 3}
    # three window copies become one write of the concatenation
    assert codes[True].kernel_count == codes[False].kernel_count - 2


def test_a_weights_window_keeps_its_clone() -> None:
    """The causal pad trim's taps of a weight (a slice of its kernel's frame dim) are a window of
    a weight, not of frames: the weight's window keeps its clone, as before."""
    b = GraphBuilder()
    x = b.input((1, 4, 1, 6, 6))
    w = b.input((1, 4, 3, 3, 3))  # one output channel: its tap window would be dense
    taps = b.call(aten.slice.Tensor, w, 2, 2, 3)
    graph = b.output(b.conv(b.call(aten.silu.default, x), taps, padding=1))
    result = run_pass(graph, FORCED)
    assert result.applied and "windows_of_converted" not in result.counts
    (conv,) = [n for n in graph.nodes if n.target is aten.convolution.default]
    assert conv.args[1].target is aten.clone.default and conv.args[1].args[0] is taps
