"""An RMS norm's input pinned channels-last (`PassConfig.channels_last_norm_inputs`).

Where `ConvChannelsLastPass` converts a static graph, a computed activation whose square is summed
over its channels gets `prims.inductor_force_stride_order` with channels-last strides, and every
user but the graph's output reads the pinned value (`convert_norm_inputs`). Tested on hand-built
post-grad graphs (what is pinned and what is not), end to end on CPU (values and output strides
as eager's), and in fake-CUDA codegen (the norm's kernels store channels-last, fewer kernels).
"""

from __future__ import annotations

import re

import pytest
import torch
import torch.nn.functional as F
from graphs import GraphBuilder, compile_on_cpu, pass_result, run_channels_last
from torch import nn
from torch._inductor import config as inductor_config
from torch._prims_common import make_channels_last_strides_for

from magi_passes import MagiBackend, PassConfig
from magi_passes.fx.nodes import force_stride_order_op

aten = torch.ops.aten
prims = torch.ops.prims
SHAPE = (1, 8, 2, 5, 6)  # N, C, T, H, W
ON = PassConfig(channels_last_norm_inputs=True)


def run_pass(graph: torch.fx.Graph, config: PassConfig = ON):
    return run_channels_last(graph, config)


def pins(graph: torch.fx.Graph) -> list[torch.fx.Node]:
    return list(graph.find_nodes(op="call_function", target=force_stride_order_op()))


def residual_norm(
    *, square: str = "mul", dims: tuple[int, ...] = (1,), source: str = "sum", dynamic: bool = False
):
    """h = conv(x) + x; the norm's statistic sum(h.float() ** 2, dims); h also a graph output."""
    b = GraphBuilder(dynamic=dynamic)
    x = b.input(SHAPE, dynamic_dims=(3,) if dynamic else ())
    w = b.input((8, 8, 3, 3, 3))
    y = b.conv(x, w, padding=1)
    h = b.call(aten.add.Tensor, y, x) if source == "sum" else x
    wide = b.call(prims.convert_element_type.default, h, torch.float32)
    if square == "mul":
        sq = b.call(aten.mul.Tensor, wide, wide)
    elif square == "pow":
        sq = b.call(aten.pow.Tensor_Scalar, wide, 2)
    else:  # not a square: a product of two different tensors
        sq = b.call(aten.mul.Tensor, wide, b.call(aten.neg.default, wide))
    total = b.call(aten.sum.dim_IntList, sq, list(dims), True)
    scaled = b.call(aten.mul.Tensor, h, 2.0)
    graph = b.output(total, scaled, h)
    return graph, h


@pytest.mark.parametrize("square", ["mul", "pow"])
def test_the_squared_activation_is_pinned_channels_last_and_its_users_read_the_pin(
    square: str,
) -> None:
    graph, h = residual_norm(square=square)
    result = run_pass(graph)
    assert result.applied and result.counts["norm_inputs_channels_last"] == 1
    (pin,) = pins(graph)
    assert pin.args[0] is h
    assert tuple(pin.args[1]) == tuple(make_channels_last_strides_for(SHAPE))
    assert pin.meta["val"].stride() == tuple(make_channels_last_strides_for(SHAPE))
    assert pin.meta["val"].shape == h.meta["val"].shape
    # every user but the pin itself and the graph output reads the pinned tensor
    assert set(h.users) == {pin, graph.find_nodes(op="output")[0]}
    assert {u.target for u in pin.users} == {prims.convert_element_type.default, aten.mul.Tensor}
    output = graph.find_nodes(op="output")[0]
    assert output.args[0][2] is h  # the graph output keeps eager's strides
    graph.lint()


@pytest.mark.parametrize(
    "case",
    ["option-off", "graph-input", "spatial-sum", "not-a-square", "dynamic-graph"],
)
def test_nothing_is_pinned_outside_the_rule(case: str) -> None:
    graph, _ = residual_norm(
        dims=(2,) if case == "spatial-sum" else (1,),
        source="input" if case == "graph-input" else "sum",
        square="other" if case == "not-a-square" else "mul",
        dynamic=case == "dynamic-graph",
    )
    config = PassConfig() if case == "option-off" else ON
    result = run_pass(graph, config)
    assert result.applied  # the convolution is converted in every case
    assert pins(graph) == []
    expected = None if case == "option-off" else 0
    assert result.counts.get("norm_inputs_channels_last") == expected


def permuted_rms_norm(perm: tuple[int, ...] = (0, 2, 3, 4, 1)):
    """h = conv(x) + x; an RMS norm over the last dim of ``h.permute(perm)`` (LTX-Video's:
    the channels moved last, ``mean(x.float() ** 2, -1)``); h also a graph output."""
    b = GraphBuilder()
    x = b.input(SHAPE)
    y = b.conv(x, b.input((8, 8, 3, 3, 3)), padding=1)
    h = b.call(aten.add.Tensor, y, x)
    moved = b.call(aten.permute.default, h, list(perm))
    wide = b.call(prims.convert_element_type.default, moved, torch.float32)
    sq = b.call(aten.pow.Tensor_Scalar, wide, 2)
    variance = b.call(aten.mean.dim, sq, [-1], True)
    normed = b.call(aten.mul.Tensor, wide, b.call(aten.rsqrt.default, variance))
    return b.output(normed, h), h


def test_an_rms_norm_over_permuted_channels_is_pinned_at_its_source() -> None:
    """The mean of squares over the last dim of a permute that moved the channels last is a
    statistic over the channels: the permute's input is pinned, and the permute reads the pin."""
    graph, h = permuted_rms_norm()
    assert run_pass(graph).counts["norm_inputs_channels_last"] == 1
    (pin,) = pins(graph)
    assert pin.args[0] is h
    assert tuple(pin.args[1]) == tuple(make_channels_last_strides_for(SHAPE))
    (permute,) = graph.find_nodes(op="call_function", target=aten.permute.default)
    assert permute.args[0] is pin
    graph.lint()


def test_an_rms_norm_over_another_permuted_dim_is_not_pinned() -> None:
    graph, _ = permuted_rms_norm(perm=(0, 1, 2, 4, 3))  # W moved last: a norm over W
    assert run_pass(graph).counts["norm_inputs_channels_last"] == 0 and pins(graph) == []


def _channels_last_product() -> tuple[torch.fx.Graph, torch.fx.Node]:
    """A conv graph whose squared activation ``h`` has a channels-last fake value already."""
    b = GraphBuilder()
    x = b.input(SHAPE, memory_format=torch.channels_last_3d)
    w = b.input((8, 8, 3, 3, 3))
    y = b.conv(x, w, padding=1)
    h = b.call(aten.mul.Tensor, x, 2.0)  # keeps its channels-last input's layout in eager
    assert h.meta["val"].is_contiguous(memory_format=torch.channels_last_3d)
    sq = b.call(aten.mul.Tensor, h, h)
    return b.output(y, b.call(aten.sum.dim_IntList, sq, [1], True)), h


def test_an_activation_channels_last_in_eager_is_pinned_too() -> None:
    """Inductor realises a computed buffer in its own default (channels-first) order whatever
    its fake value's layout, so a fake value that is channels-last already is pinned as well."""
    graph, h = _channels_last_product()
    result = run_pass(graph)
    assert result.counts["norm_inputs_channels_last"] == 1
    (pin,) = pins(graph)
    assert pin.args[0] is h and tuple(pin.args[1]) == h.meta["val"].stride()


def test_the_rule_before_session_29_left_it_alone() -> None:
    """``trust_fake_layout=True`` (kept to measure the change, `magi-form-norm-pin-trust-fake`)."""
    from magi_passes.fx.layout_rewrites import convert_norm_inputs

    graph, _ = _channels_last_product()
    assert convert_norm_inputs(graph, trust_fake_layout=True) == 0 and pins(graph) == []
    assert convert_norm_inputs(graph) == 1


def test_the_old_rule_is_scoped_to_its_block_even_when_it_raises() -> None:
    """`norm_pin_rule` switches the rule the pass applies inside its block only."""
    from magi_passes.passes import channels_last

    with channels_last.norm_pin_rule(trust_fake_layout=True):
        graph, _ = _channels_last_product()
        assert run_pass(graph).counts["norm_inputs_channels_last"] == 0
    graph, _ = _channels_last_product()
    assert run_pass(graph).counts["norm_inputs_channels_last"] == 1
    with pytest.raises(RuntimeError), channels_last.norm_pin_rule(trust_fake_layout=True):
        raise RuntimeError("a compile that fails inside")
    assert channels_last._NORM_PIN_TRUSTS_FAKE_LAYOUT.get() is False


def test_a_convolution_output_is_not_pinned() -> None:
    """Inductor lays a convolution's output out from its inputs: no pin on it."""
    b = GraphBuilder()
    x = b.input(SHAPE)
    y = b.conv(x, b.input((8, 8, 3, 3, 3)), padding=1)
    sq = b.call(aten.mul.Tensor, y, y)
    graph = b.output(y, b.call(aten.sum.dim_IntList, sq, [1], True))
    result = run_pass(graph)
    assert result.applied and result.counts["norm_inputs_channels_last"] == 0
    assert pins(graph) == []


class ChannelsLastProduct(nn.Module):
    """`_channels_last_product` as a module: a norm statistic of ``2 * x`` beside a conv of ``x``."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv3d(8, 8, 3, padding=1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = x * 2.0
        return self.conv(x), (h.float() * h.float()).sum(1, keepdim=True)


def test_the_benchmarks_trust_fake_backend_compiles_with_that_rule_and_only_there() -> None:
    """The zoo benchmark's ``magi-form-norm-pin-trust-fake`` backend leaves a norm input whose
    fake value is channels-last to Inductor in the graphs it compiles, and only there: a plain
    `MagiBackend` compiled afterwards pins again."""
    from pytest_magi.bench.variants import NormPinTrustFakeBackend

    x = torch.randn(SHAPE).to(memory_format=torch.channels_last_3d)
    counts = []
    for backend_class in (NormPinTrustFakeBackend, MagiBackend):
        torch._dynamo.reset()
        backend = backend_class(ON)
        with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
            torch.compile(ChannelsLastProduct().eval(), backend=backend)(x)
        counts.append(
            pass_result(backend, "conv_channels_last").counts["norm_inputs_channels_last"]
        )
    assert counts == [0, 1]


class ResidualNormBlock(nn.Module):
    """An up block's tail as the Wan 2.2 decoder has it: a residual sum of a convolution and its
    input, an RMS norm of that (F.normalize over channels), SiLU and the next convolution."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv3d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv3d(channels, channels, 3, padding=1)
        self.gamma = nn.Parameter(torch.rand(channels, 1, 1, 1) + 0.5)
        self.scale = channels**0.5

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.conv1(x) + x
        y = F.silu(F.normalize(h, dim=1) * self.scale * self.gamma)
        return self.conv2(y) + h


def test_end_to_end_on_cpu_the_values_and_output_strides_are_eager_ones() -> None:
    torch.manual_seed(0)
    block = ResidualNormBlock(8).eval()
    x = torch.randn(SHAPE)
    with torch.no_grad():
        expected = block(x)
    out, backend = compile_on_cpu(block, ON, x)
    result = pass_result(backend, "conv_channels_last")
    assert result.counts["norm_inputs_channels_last"] == 1
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5)
    assert out.stride() == expected.stride()


def _reduction_stores(code) -> list[str]:
    """The store indices of every reduction kernel in ``code``."""
    stores = []
    for kernel in code.kernels:
        if "reduction" in kernel.kind:
            stores += re.findall(r"tl\.store\(\w+ \+ \(([^)]*)\)", kernel.source)
    return stores


@pytest.mark.parametrize("pinned", [True, False], ids=["pinned", "eager-layout"])
def test_fake_cuda_the_norm_reads_and_writes_channels_last(pinned: bool) -> None:
    from pytest_magi.capture.codegen import inductor_codegen
    from pytest_magi.capture.fake_cuda import fake_cuda_status

    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)
    channels = 512  # over the 64 channels up to which a channels-first norm is persistent
    block = ResidualNormBlock(channels).to(torch.bfloat16).eval()
    x = torch.empty(1, channels, 2, 16, 24, dtype=torch.bfloat16)
    config = PassConfig(measure_decisions=False, channels_last_norm_inputs=pinned)
    with torch.no_grad():
        code = inductor_codegen(block, x, config=config)
    stores = _reduction_stores(code)
    assert stores, code.kernels
    # channels-last: a position's channels are adjacent, the reduction index runs along them
    along_channels = [s for s in stores if re.search(rf"r0_\d+ \+ {channels}\*x", s)]
    if pinned:
        # one looped norm (statistics and apply) writes the residual sum and the conv input
        assert along_channels == stores and code.kernel_count == 4, (stores, code.kernel_names)
    else:
        # Inductor's own layout: the norm splits its reduction over the channels-first sum
        assert along_channels == [] and code.kernel_count == 6, (stores, code.kernel_names)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["wan2.2-vae", "kandinsky6-sr-vae"])
def test_real_rms_norm_decoders_are_pinned_and_decode_as_eager(name: str) -> None:
    """The tiny zoo decoders whose norms are RMS norms (diffusers' Wan 2.2 and Kandinsky 6 SR
    VAEs), compiled static with the option: the pin fires, and the decode is eager's to fp32
    rounding. (The GroupNorm decoders of the zoo have no channel sum of squares: nothing fires.)"""
    from pytest_magi import zoo

    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    torch.manual_seed(0)
    model = zoo.load(name, "tiny", dtype=torch.float32)
    with torch.no_grad():
        expected = model.run()
    torch._dynamo.reset()
    backend = MagiBackend(ON)
    compiled = model.compile(backend, isolate="instance", dynamic=False)
    with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
        out = compiled.run()
    assert backend.count("conv_channels_last", "norm_inputs_channels_last") > 0
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-5)


def _across_channels(graph, over: int = 16) -> list[tuple[str, str]]:
    """(kernel, index) of every load or store of a reduction kernel that steps across the
    channels: the reduction index (the channels, in a norm over them) scaled by more than
    ``over`` (the zoo benchmark census's count, `pytest_magi.bench.census.across_channels`)."""
    from pytest_magi.bench import census

    return [
        (kernel.name, index)
        for kernel in graph.kernels
        if "reduction" in kernel.kind
        for index in census.across_channels(kernel, over)
    ]


def _wan_form_graphs(trust_fake_layout: bool) -> list:
    """The tiny Wan 2.2 decoder (bf16, an 8 x 12 latent of 2 frames) compiled in its form for
    fake CUDA, one graph a chunk as `magi_compile` has it, weights channels-last: the decoder's
    chunk graphs (`pytest_magi.bench.census.chunk_graphs`)."""
    from pytest_magi.bench import census

    name = "cl-params+pad-cat" + ("+norm-pin-trust-fake" if trust_fake_layout else "")
    return census.chunk_graphs(name, "tiny", frames=2, height=8, width=12)


@pytest.mark.slow
def test_fake_cuda_the_wan_forms_up_block_outputs_are_read_along_the_channels() -> None:
    """The Wan form (weights channels-last): an up block's output, a per-frame convolution's
    output plus the DupUp3D shortcut, is channels-last in eager. Trusting that fake value, the
    pin left it to Inductor, which realised it channels-first: the next block's norm, shortcut
    and residual sums read it across the channels. Pinned, no reduction kernel of the decoder
    loads or stores across its channels, and none reads past a buffer."""
    from pytest_magi.capture.fake_cuda import fake_cuda_status

    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)
    trusted = [hit for g in _wan_form_graphs(trust_fake_layout=True) for hit in _across_channels(g)]
    assert trusted, "the premise: trusting fake layouts leaves a channels-first up block"
    pinned = _wan_form_graphs(trust_fake_layout=False)
    assert len(pinned) == 2  # chunk 0 and chunk 1
    assert [hit for g in pinned for hit in _across_channels(g)] == []
    # and no load or store of the pinned form past its buffer (pytest_magi.capture.bounds)
    from pytest_magi.capture.bounds import accesses_checked, out_of_bounds

    assert all(accesses_checked(g) > 20 and out_of_bounds(g) == [] for g in pinned)


@pytest.mark.slow
def test_fake_cuda_ltx_videos_rms_norms_read_along_the_channels_when_pinned() -> None:
    """LTX-Video's decoder (full channels, an 8 x 12 latent, fake CUDA): without the pin, its
    residual sums are realised channels-first and its RMS norms (over the last dim of a permute)
    read them across the channels; with ``channels_last_norm_inputs`` none is."""
    from pytest_magi import zoo
    from pytest_magi.capture.codegen import inductor_codegen
    from pytest_magi.capture.fake_cuda import fake_cuda_status

    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)
    name = "ltx-video-vae"
    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    model = zoo.load(name, "full", dtype=torch.bfloat16, height=8, width=12)
    found = {}
    for pinned in (False, True):
        config = PassConfig(measure_decisions=False, channels_last_norm_inputs=pinned)
        with torch.no_grad():
            code = inductor_codegen(model.as_module(), *model.inputs, config=config)
        found[pinned] = [hit for g in code.captured for hit in _across_channels(g, over=1000)]
        counts = [r.counts for r in code.pass_results if r.name == "conv_channels_last"]
        if pinned:
            assert counts and counts[0]["norm_inputs_channels_last"] > 0, counts
    assert found[False], "the premise: unpinned, a norm reads across the channels"
    assert found[True] == []
