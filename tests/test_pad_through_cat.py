"""A zero pad between a concatenation and a convolution, moved onto the concatenation's inputs
(`PassConfig.channels_last_pad_through_cat`, `magi_passes.channels_last.distribute_pads_into_cat`).

A causal conv whose cache is shorter than its kernel (the Wan 2.2 decoder's second chunk: one
cached frame, a zero frame in front) reads ``pad(cat([cache, new]), front)``. The pass makes it
``cat([pad(cache, front), new])``, so the convolution reads the concatenation and its inputs are
written into their slices of the channels-last input. Tested on hand-built post-grad graphs (what
moves and what does not), end to end on CPU (values), and in fake-CUDA codegen (the pad copy is
gone; the new frames' producer writes the conv input directly).
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from graphs import (
    GraphBuilder,
    assert_rewrite_keeps_values,
    compile_dynamic_on_cpu,
    compile_on_cpu,
    pass_result,
    run_channels_last,
)
from torch._inductor import config as inductor_config
from torch._prims_common import suggest_memory_format

from magi_passes import MagiBackend, PassConfig

aten = torch.ops.aten
ON = PassConfig(channels_last_pad_through_cat=True)


def run_pass(graph: torch.fx.Graph, config: PassConfig = ON):
    return run_channels_last(graph, config)


def padded_cat_graph(
    pads: tuple[list[int], ...] = ([0, 0, 0, 0, 1, 0],),
    *,
    value: float | tuple[float, ...] = 0.0,
    dim: int = 2,
):
    """conv(pad(...pad(cat([cache, silu(x)], dim))...)): a causal conv with a short cache."""
    b = GraphBuilder()
    x = b.input((1, 4, 2, 6, 6))
    frames = 1 if dim == 2 else 2  # a channel cat needs the frames of x
    cache = b.input((1, 4, frames, 6, 6))
    y = b.call(aten.silu.default, x)
    cat = b.call(aten.cat.default, [cache, y], dim)
    node = cat
    values = value if isinstance(value, tuple) else (value,) * len(pads)
    for amounts, v in zip(pads, values, strict=True):
        node = b.call(aten.constant_pad_nd.default, node, amounts, v)
    channels = node.meta["val"].shape[1]
    w = b.input((8, channels, 3, 3, 3))
    out = b.conv(node, w, padding=1)
    return b.output(out), cat


def _pads(graph: torch.fx.Graph) -> list[torch.fx.Node]:
    return list(graph.find_nodes(op="call_function", target=aten.constant_pad_nd.default))


def _conv(graph: torch.fx.Graph) -> torch.fx.Node:
    (conv,) = graph.find_nodes(op="call_function", target=aten.convolution.default)
    return conv


def test_the_pad_moves_onto_the_cache_and_the_conv_reads_the_cat() -> None:
    graph, cat = padded_cat_graph()
    before = cat.meta["val"].shape
    result = run_pass(graph)
    assert result.counts["pads_into_cat"] == 1
    assert result.counts["cats_converted_through"] == 1
    assert _conv(graph).args[0] is cat
    assert tuple(cat.meta["val"].shape) == (1, 4, before[2] + 1, 6, 6)
    assert suggest_memory_format(cat.meta["val"]) == torch.channels_last_3d
    (pad,) = _pads(graph)  # the only pad left pads the cache, one frame in front
    assert pad.args[1] == [0, 0, 0, 0, 1, 0] and pad.args[0].op == "placeholder"
    assert tuple(pad.meta["val"].shape) == (1, 4, 2, 6, 6)


def test_a_chain_of_pads_and_a_back_pad_are_summed_onto_the_ends() -> None:
    graph, cat = padded_cat_graph(([0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 1, 2]))
    result = run_pass(graph)
    assert result.counts["pads_into_cat"] == 2 and _conv(graph).args[0] is cat
    front, back = sorted(_pads(graph), key=lambda p: p.args[1][-1])
    assert front.args[1] == [0, 0, 0, 0, 2, 0] and back.args[1] == [0, 0, 0, 0, 0, 2]
    assert cat.meta["val"].shape[2] == 3 + 4


def test_a_concatenation_already_channels_last_gets_the_pad_too() -> None:
    """Weights made channels-last in place make eager's activations channels-last: the pad over
    their concatenation is already channels-last, and is still moved onto the cache."""
    b = GraphBuilder()
    cl = torch.channels_last_3d
    x = b.input((1, 4, 2, 6, 6), memory_format=cl)
    cache = b.input((1, 4, 1, 6, 6), memory_format=cl)
    cat = b.call(aten.cat.default, [cache, b.call(aten.silu.default, x)], 2)
    padded = b.call(aten.constant_pad_nd.default, cat, [0, 0, 0, 0, 1, 0], 0.0)
    assert suggest_memory_format(padded.meta["val"]) == cl
    w = b.input((8, 4, 3, 3, 3), memory_format=cl)
    graph = b.output(b.conv(padded, w, padding=1))
    result = run_pass(graph)
    assert result.counts["pads_into_cat"] == 1 and _conv(graph).args[0] is cat
    assert suggest_memory_format(cat.meta["val"]) == cl
    assert result.counts["clones_inserted"] == 0


@pytest.mark.parametrize(
    ("pads", "value", "dim"),
    [
        (([1, 1, 0, 0, 1, 0],), 0.0, 2),  # a spatial pad too (the fold's part, not this one's)
        (([0, 0, 0, 0, -1, 0],), 0.0, 2),  # a crop
        (([0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 1, 0]), (0.0, 1.0), 2),  # two fill values
        (([0, 0, 0, 0, 1, 0],), 0.0, 1),  # a cat along the channels
    ],
    ids=["other-dims", "crop", "two-values", "channel-cat"],
)
def test_pads_it_cannot_move_are_left_as_they_are(pads, value, dim) -> None:
    graph, cat = padded_cat_graph(pads, value=value, dim=dim)
    result = run_pass(graph)
    assert "pads_into_cat" not in result.counts
    assert len(_pads(graph)) == len(pads) and _conv(graph).args[0] is not cat


def test_off_by_default() -> None:
    assert PassConfig().channels_last_pad_through_cat is False
    graph, cat = padded_cat_graph()
    assert "pads_into_cat" not in run_pass(graph, PassConfig()).counts
    assert len(_pads(graph)) == 1


def test_the_rewritten_graph_computes_what_eager_does() -> None:
    pads = ([0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1])
    assert_rewrite_keeps_values(
        lambda: padded_cat_graph(pads, value=0.5)[0],
        run_pass,
        [(1, 4, 2, 6, 6), (1, 4, 1, 6, 6), (8, 4, 3, 3, 3)],
    )


class ShortCacheBlock(torch.nn.Module):
    """RMS norm + SiLU of the new frames, the next cache taken from them, and a causal 3x3x3
    conv over a one-frame cache and the new frames, a zero frame in front: the Wan 2.2
    decoder's second chunk, small."""

    def __init__(self, channels: int = 32) -> None:
        super().__init__()
        self.gamma = torch.nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.bias = torch.nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.weight = torch.nn.Parameter(torch.randn(channels, channels, 3, 3, 3) * 0.05)

    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        y = F.silu(F.normalize(x, dim=1) * x.shape[1] ** 0.5 * self.gamma + self.bias)
        both = F.pad(torch.cat([cache, y], 2), (1, 1, 1, 1, 1, 0))
        return F.conv3d(both, self.weight), y[:, :, -2:].clone()


def test_a_short_cache_block_on_the_cpu_end_to_end() -> None:
    torch.manual_seed(0)
    model = ShortCacheBlock(8).eval()
    x, cache = torch.randn(1, 8, 2, 6, 6), torch.randn(1, 8, 1, 6, 6)
    config = PassConfig(measure_decisions=False, channels_last_pad_through_cat=True)
    (out, next_cache), backend = compile_on_cpu(model, config, x, cache)
    want, want_cache = model(x, cache)
    torch.testing.assert_close(out, want, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(next_cache, want_cache)
    result = pass_result(backend, "conv_channels_last")
    # the conv pad fold took the spatial pad; the frame pad moved onto the cache
    assert result.counts["pads_into_cat"] == 1
    assert pass_result(backend, "conv_pad_fold").applied
    # a dynamic graph keeps its pad (the concatenation is converted through in static ones only)
    (out, _), result = compile_dynamic_on_cpu(model, config, x, cache)
    torch.testing.assert_close(out, want, rtol=1e-4, atol=1e-4)
    assert result.applied and "pads_into_cat" not in result.counts


def test_fake_cuda_the_pad_copy_is_gone_and_the_producer_writes_the_conv_input() -> None:
    """Off: the concatenation (its producer a norm + SiLU of 30+ ops) is realised channels-first
    and a pad kernel copies it into the channels-last conv input, while the next cache computes
    the new frames again. On: the padded cache is written into its slice, and one kernel
    computes the new frames once and stores them twice (the conv input, the next cache)."""
    from graphs import codegen_off_and_on

    model = ShortCacheBlock(256).eval().to(torch.bfloat16)
    x = torch.randn(1, 256, 2, 34, 60, dtype=torch.bfloat16)
    cache = torch.randn(1, 256, 1, 34, 60, dtype=torch.bfloat16)
    codes = codegen_off_and_on(model, "channels_last_pad_through_cat", x, cache)

    def pad_copies(code) -> list[str]:  # a kernel that only pads one buffer into another
        return [
            k.name
            for k in code.kernels
            if "constant_pad_nd" in k.name and "silu" not in k.name and k.num_loads == 1
            and k.num_stores == 1 and "convolution" in k.name
        ]  # fmt: skip

    silu_two_stores = {on: [k for k in c.kernels if "silu" in k.name and k.num_stores == 2]
                       for on, c in codes.items()}  # fmt: skip
    assert pad_copies(codes[False]) and not pad_copies(codes[True]), {
        on: c.kernel_names for on, c in codes.items()
    }
    assert not silu_two_stores[False] and len(silu_two_stores[True]) == 1
    assert codes[True].kernel_count < codes[False].kernel_count


@pytest.mark.slow
def test_the_tiny_wan_decode_in_its_form_with_the_option_decodes_as_eager() -> None:
    """The zoo's tiny Wan 2.2 decoder compiled in its form (`magi_passes.forms`) with the
    option (CPU, fp32): its second chunk's padded caches move into the concatenations, and the
    decode is eager's to fp32 rounding."""
    from magi_passes.compile import forms
    from pytest_magi import zoo

    if "wan2.2-vae" not in zoo.names():
        pytest.skip(zoo.unavailable().get("wan2.2-vae", "wan2.2-vae"))
    torch.manual_seed(0)
    model = zoo.load("wan2.2-vae", "tiny", dtype=torch.float32, frames=3)
    with torch.no_grad():
        expected = model.run()
    torch._dynamo.reset()
    form = forms.WAN_DECODER
    backend = MagiBackend(form.config().replace(channels_last_pad_through_cat=True))
    compiled = model.compile(backend, isolate="instance", **forms.options(form))
    with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
        out = compiled.run()
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-5)
    assert backend.count("conv_channels_last", "pads_into_cat") > 0
    torch._dynamo.reset()
