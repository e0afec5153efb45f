"""Causal conv state handed between calls in channels-last (`PassConfig.channels_last_conv_state`).

A video VAE decodes chunk by chunk: each causal conv3d reads ``cat([cache, x])`` and hands the last
frames of its input to the next call as a graph output. `ConvChannelsLastPass` lays those outputs
out channels-last, so the state is not transposed on its way out and back in. Tested on hand-built
post-grad graphs (which outputs, and which not), end to end on CPU (numerics, strides of the state,
no recompile across chunks), and in fake-CUDA codegen (the buffers Inductor allocates for it).
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from graphs import GraphBuilder
from torch import nn
from torch._inductor import config as inductor_config
from torch._inductor.utils import fresh_inductor_cache

from magi_passes import ConvChannelsLastPass, MagiBackend, PassConfig
from magi_passes.fx.layout_rewrites import convert_state_outputs

aten = torch.ops.aten
CL3D = torch.channels_last_3d
SHAPE = (1, 4, 3, 5, 6)  # N, C, T, H, W


STATE = PassConfig(channels_last_conv_state=True)


def run_pass(graph: torch.fx.Graph, config: PassConfig | None = None):
    p = ConvChannelsLastPass(config or STATE)
    with inductor_config.patch(layout_optimization=True):
        p(graph)
    assert p.last_result is not None
    return p.last_result


def record_output_strides(graph: torch.fx.Graph) -> list:
    """What compile_fx records before the post-grad passes, per output position."""
    output = graph.find_nodes(op="output")[0]
    recorded = [a.meta["val"].stride() for a in output.args[0]]
    output.meta["original_output_strides"] = recorded
    return recorded


def steady_chunk(*, window: bool = True, extra_user: bool = False):
    """A causal conv of one chunk: conv(pad(cat([cache, silu(x)]))), and the next call's cache
    cat([cache[:, :, -1:], act[:, :, -1:]]) (diffusers' Wan when a chunk has one frame)."""
    b = GraphBuilder()
    x = b.input(SHAPE)
    cache = b.input((1, 4, 2, 5, 6))
    w = b.input((4, 4, 3, 3, 3))
    act = b.call(aten.silu.default, x)
    joined = b.call(aten.cat.default, [cache, act], 2)
    padded = b.call(aten.constant_pad_nd.default, joined, [1, 1, 1, 1, 0, 0], 0.0)
    y = b.conv(padded, w)
    if window:
        last = b.call(aten.unsqueeze.default, b.call(aten.select.int, cache, 2, -1), 2)
        tail = b.call(aten.slice.Tensor, act, 2, -1, 9223372036854775807)
        state = b.call(aten.cat.default, [last, tail], 2)
    else:  # the whole activation: not a window of frames
        state = b.call(aten.clone.default, act)
    outs = [y, state]
    if extra_user:
        outs.append(b.call(aten.mul.Tensor, state, 2.0))
    return b, b.output(*outs), y, state


def first_chunk():
    """No cache yet: the state is ``act[:, :, -2:].clone()``, the input a causal pad of act."""
    b = GraphBuilder()
    x = b.input(SHAPE)
    w = b.input((4, 4, 3, 3, 3))
    act = b.call(aten.silu.default, x)
    padded = b.call(aten.constant_pad_nd.default, act, [1, 1, 1, 1, 2, 0], 0.0)
    y = b.conv(padded, w)
    tail = b.call(aten.slice.Tensor, act, 2, -2, 9223372036854775807)
    state = b.call(aten.clone.default, tail)
    return b.output(y, state), y, state


def _outputs(graph: torch.fx.Graph) -> list[torch.fx.Node]:
    return list(graph.find_nodes(op="output")[0].args[0])


def test_steady_state_cat_goes_out_channels_last() -> None:
    _, graph, y, state = steady_chunk()
    recorded = record_output_strides(graph)
    y_stride = recorded[0]
    result = run_pass(graph)
    assert result.counts["state_outputs_channels_last"] == 1
    assert _outputs(graph)[1] is state
    assert state.meta["val"].is_contiguous(memory_format=CL3D)
    assert not state.meta["val"].is_contiguous()
    # each concatenated piece is cloned channels-last (the clone fuses into its producer)
    assert all(
        p.target is aten.clone.default and p.kwargs["memory_format"] == CL3D for p in state.args[0]
    )
    # Inductor lays user-visible outputs out by these strides, not by the fake value
    assert recorded[1] == state.meta["val"].stride()
    assert recorded[0] == y_stride  # the conv's own output keeps eager's strides
    assert _outputs(graph)[0] is y


def test_first_chunk_clone_gets_the_channels_last_format() -> None:
    graph, _, state = first_chunk()
    recorded = record_output_strides(graph)
    result = run_pass(graph)
    assert result.counts["state_outputs_channels_last"] == 1
    assert state.kwargs["memory_format"] == CL3D
    assert state.meta["val"].is_contiguous(memory_format=CL3D)
    assert recorded[1] == state.meta["val"].stride()


def test_a_window_view_output_becomes_a_channels_last_copy() -> None:
    b = GraphBuilder()
    x = b.input(SHAPE)
    w = b.input((4, 4, 3, 3, 3))
    act = b.call(aten.silu.default, x)
    y = b.conv(b.call(aten.constant_pad_nd.default, act, [1, 1, 1, 1, 2, 0], 0.0), w)
    tail = b.call(aten.slice.Tensor, act, 2, -2, 9223372036854775807)
    graph = b.output(y, tail)
    result = run_pass(graph)
    assert result.counts["state_outputs_channels_last"] == 1
    out = _outputs(graph)[1]
    assert out is not tail and out.target is aten.clone.default and out.args[0] is tail
    assert out.meta["val"].is_contiguous(memory_format=CL3D)
    assert tuple(out.meta["val"].shape) == (1, 4, 2, 5, 6)


@pytest.mark.parametrize(
    "case",
    ["no-window", "other-user", "option-off", "not-read-by-a-conv", "conv2d-only", "default"],
)
def test_outputs_that_are_not_conv_state_keep_eager_strides(case: str) -> None:
    if case in ("no-window", "other-user", "option-off", "default"):
        _, graph, _, state = steady_chunk(
            window=case != "no-window", extra_user=case == "other-user"
        )
        # "default": the option is opt-in (measured within noise on the Wan decode)
        config = {"option-off": PassConfig(channels_last_conv_state=False)}.get(case, STATE)
        config = PassConfig() if case == "default" else config
    elif case == "not-read-by-a-conv":
        b = GraphBuilder()
        x, other = b.input(SHAPE), b.input(SHAPE)
        w = b.input((4, 4, 3, 3, 3))
        y = b.conv(b.call(aten.silu.default, x), w, padding=1)
        state = b.call(aten.clone.default, b.call(aten.slice.Tensor, other, 2, -2, 2**63 - 1))
        graph, config = b.output(y, state), STATE
    else:  # the rewrite stands down on conv2d-only graphs, and so does the state layout
        b = GraphBuilder()
        x = b.input((1, 4, 5, 6))
        w = b.input((4, 4, 3, 3))
        act = b.call(aten.silu.default, x)
        y = b.conv(act, w, padding=1)
        state = b.call(aten.clone.default, b.call(aten.slice.Tensor, act, 2, -2, 2**63 - 1))
        graph, config = b.output(y, state), STATE
    before = state.meta["val"].stride()
    result = run_pass(graph, config)
    assert result.counts.get("state_outputs_channels_last", 0) == 0
    assert state.meta["val"].stride() == before
    assert state.kwargs.get("memory_format") is None


def test_without_recorded_strides_only_the_graph_changes() -> None:
    """A graph that did not come through compile_fx (no ``original_output_strides``)."""
    _, graph, _, state = steady_chunk()
    sources = {n.args[0]: CL3D for n in graph.nodes if n.target is aten.constant_pad_nd.default}
    assert convert_state_outputs(graph, sources) == 1
    assert "original_output_strides" not in graph.find_nodes(op="output")[0].meta
    graph.lint()


# ------------------------------------------------------------------------------ end to end
class CausalConv(nn.Module):
    """Wan's causal conv3d: time padding in front, or the cached frames instead of it."""

    def __init__(self, c: int) -> None:
        super().__init__()
        self.conv = nn.Conv3d(c, c, 3)

    def forward(self, x: torch.Tensor, cache: torch.Tensor | None) -> torch.Tensor:
        if cache is None:
            return self.conv(F.pad(x, (1, 1, 1, 1, 2, 0)))
        return self.conv(F.pad(torch.cat([cache, x], 2), (1, 1, 1, 1, 2 - cache.shape[2], 0)))


class ChunkDecoder(nn.Module):
    """Two causal convs with a SiLU between, decoding one latent frame per call and keeping a
    two-frame cache per conv in a list (the state diffusers' Wan VAE keeps in ``_feat_map``)."""

    def __init__(self, c: int = 8) -> None:
        super().__init__()
        self.a, self.b = CausalConv(c), CausalConv(c)

    def forward(self, x: torch.Tensor, cache: list) -> torch.Tensor:
        for i, conv in enumerate((self.a, self.b)):
            x = F.silu(x)
            state = x[:, :, -2:].clone()
            if state.shape[2] < 2 and cache[i] is not None:
                state = torch.cat([cache[i][:, :, -1:], state], 2)
            x = conv(x, cache[i])
            cache[i] = state
        return x


def decode(module: nn.Module, latent: torch.Tensor) -> tuple[torch.Tensor, list]:
    cache: list = [None, None]
    out = [module(latent[:, :, t : t + 1], cache) for t in range(latent.shape[2])]
    return torch.cat(out, 2), cache


def _compiled_decode(model: nn.Module, latent: torch.Tensor, state: bool):
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    backend = MagiBackend(PassConfig(channels_last_conv_state=state))
    compiled = torch.compile(model, backend=backend)
    # a fresh Inductor cache (restored afterwards): an FX-graph-cache hit runs no pass
    with torch.no_grad(), fresh_inductor_cache():
        got, cache = decode(compiled, latent)
        again, _ = decode(compiled, latent)
    graphs = (counters["stats"]["unique_graphs"], sum(counters["recompiles"].values()))
    converted = sum(
        r.counts.get("state_outputs_channels_last", 0)
        for manager in backend.managers
        for r in manager.results
    )
    return got, again, cache, graphs, converted


@pytest.mark.slow
def test_chunked_decode_on_cpu() -> None:
    torch.manual_seed(0)
    model = ChunkDecoder().eval()
    latent = torch.randn(1, 8, 5, 6, 7)
    with torch.no_grad():
        expected, _ = decode(model, latent)
    runs = {state: _compiled_decode(model, latent, state) for state in (True, False)}
    for state, (got, again, cache, _, converted) in runs.items():
        torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(again, expected, rtol=1e-4, atol=1e-4)
        for t in cache:
            assert t.shape == (1, 8, 2, 6, 7)
            assert t.is_contiguous(memory_format=CL3D) is state
            assert t.is_contiguous() is not state
        assert got.is_contiguous()  # the decoder's own output keeps eager's layout
        # first chunk, second (a one-frame cache), steady: both convs' state in each graph
        assert converted == (6 if state else 0)
    # the state's strides cost no graph and no recompile of their own
    assert runs[True][3] == runs[False][3]
    assert runs[True][3][0] == 3


class SteadyStep(nn.Module):
    """One steady chunk as a function of its state: ``(frame, *cache) -> (out, *new cache)``."""

    def __init__(self, decoder: ChunkDecoder) -> None:
        super().__init__()
        self.decoder = decoder

    def forward(self, x: torch.Tensor, *cache: torch.Tensor) -> tuple[torch.Tensor, ...]:
        state = list(cache)
        return (self.decoder(x, state), *state)


@pytest.mark.parametrize("state", [True, False], ids=["state-channels-last", "state-eager"])
def test_fake_cuda_codegen_allocates_the_state_channels_last(state: bool) -> None:
    from torch._prims_common import make_channels_last_strides_for, make_contiguous_strides_for

    from pytest_magi.capture.codegen import inductor_codegen
    from pytest_magi.capture.fake_cuda import fake_cuda_status

    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)
    shape = (1, 8, 2, 6, 7)
    caches = [torch.randn(shape).contiguous(memory_format=CL3D) for _ in range(2)]
    code = inductor_codegen(
        SteadyStep(ChunkDecoder()),
        torch.randn(1, 8, 1, 6, 7),
        *caches,
        config=PassConfig(channels_last_conv_state=state),
    )
    cl = f"{shape}, {tuple(make_channels_last_strides_for(shape))}"
    contiguous = f"{shape}, {tuple(make_contiguous_strides_for(shape))}"
    allocated = code.wrapper.count(f"empty_strided_cuda({cl}")
    eager_layout = code.wrapper.count(f"empty_strided_cuda({contiguous}")
    # the two convs' new state: channels-last when the option is on, eager's layout when off
    assert (allocated, eager_layout) == ((2, 0) if state else (0, 2)), code.wrapper
