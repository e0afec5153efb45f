"""ConvPadFoldPass: symmetric zero pads of a conv input folded into the convolution's padding.
The pad arithmetic, the rewrite on real post-grad graphs (CPU compiles) with eager's values for
forward and backward, its skips, the decision gate that lets it be measured, and the CUDA
kernels Inductor generates with it (fake CUDA: generated, never run)."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
import torch
from graphs import CausalConv, PadAlsoReturned, Padded, compile_on_cpu, pass_result
from torch import nn
from torch._inductor import config as inductor_config

from magi_passes import ConvPadFoldPass, MagiBackend, PassConfig
from magi_passes.compile.gates import _measured_passes_cannot_fire
from magi_passes.passes.base import inductor_config_values
from magi_passes.passes.conv_pad_fold import split_pads
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.capture.fake_cuda import fake_cuda_status

# the layout pass clones the cache concatenation whole (`channels_last_through_cat` off): these
# tests pin the fold's own form on that chain; with the default (on) the fold's values are held by
# test_the_fold_with_the_cat_converted_through_gives_eagers_values
ON = PassConfig(measure_decisions=False, channels_last_through_cat=False)
OFF = PassConfig(
    measure_decisions=False, enable_conv_pad_fold=False, channels_last_through_cat=False
)


# --------------------------------------------------------------------------- the arithmetic
@pytest.mark.parametrize(
    ("pads", "spatial", "ndim", "left", "folded"),
    [
        ((1, 1, 1, 1, 2, 0), 3, 5, [0, 0, 0, 0, 2, 0], [0, 1, 1]),  # Wan's first chunk
        ((1, 1, 1, 1, 0, 0), 3, 5, [0, 0, 0, 0, 0, 0], [0, 1, 1]),  # cache frames in front
        ((1, 1, 1, 1, 1, 0), 3, 5, [0, 0, 0, 0, 1, 0], [0, 1, 1]),  # one cached frame
        ((2, 1, 0, 3), 2, 4, [1, 0, 0, 3], [0, 1]),  # a one-sided remainder stays
        ((0, 1, 0, 1), 2, 4, [0, 1, 0, 1], [0, 0]),  # SD-style downsampling pad: nothing
        ((1, 1), 3, 5, [0, 0], [0, 0, 1]),  # only the last dim padded
        ((-1, -1, 1, 1), 2, 4, [-1, -1, 0, 0], [1, 0]),  # a crop is not a pad
        ((1, 1, 1, 1, 1, 1, 1, 1), 2, 4, [0, 0, 0, 0, 1, 1, 1, 1], [1, 1]),  # channel pad stays
    ],
)
def test_split_pads(pads, spatial, ndim, left, folded) -> None:
    assert split_pads(list(pads), spatial, ndim) == (left, folded)


def test_split_pads_leaves_symbolic_amounts_where_they_are() -> None:
    sym = object()  # an FX node of a symbolic amount, as the graph holds it
    left, folded = split_pads([1, 1, 1, 1, sym, 0], 3, 5)
    assert left == [0, 0, 0, 0, sym, 0] and folded == [0, 1, 1]
    left, folded = split_pads([sym, sym, 1, 1], 2, 4)
    assert left == [sym, sym, 0, 0] and folded == [1, 0]


# --------------------------------------------------------------------------- switch
def test_on_by_default_measured_and_switched_off_by_config_or_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert ConvPadFoldPass(PassConfig()).enabled()
    assert not ConvPadFoldPass(PassConfig(enable_conv_pad_fold=False)).enabled()
    monkeypatch.setenv("MAGI_PASSES__ENABLE_CONV_PAD_FOLD", "0")
    assert PassConfig.from_env().enable_conv_pad_fold is False
    assert ConvPadFoldPass.measured_by == "enable_conv_pad_fold"
    assert ConvPadFoldPass.mutates_inductor_config == ()
    assert (
        ConvPadFoldPass().uuid() != ConvPadFoldPass(PassConfig(enable_conv_pad_fold=False)).uuid()
    )


# --------------------------------------------------------------------------- the rewrite
@pytest.mark.parametrize("cached", [1, 2], ids=["one-cached", "two-cached"])
def test_the_fold_with_the_cat_converted_through_gives_eagers_values(cached: int) -> None:
    """The defaults: the cache and the new frames get the channels-last clones (through the
    cat), and the spatial pad is still folded into the convolution."""
    torch.manual_seed(0)
    model = CausalConv(8).eval()
    x = torch.randn(1, 8, 3, 6, 7)
    args = (x, torch.randn(1, 8, cached, 6, 7))
    out, backend = compile_on_cpu(model, PassConfig(measure_decisions=False), *args)
    assert pass_result(backend, "conv_pad_fold").counts["pads_folded"] == 1
    layout = pass_result(backend, "conv_channels_last")
    assert layout.counts["cats_converted_through"] == 1, layout
    with torch.no_grad():
        torch.testing.assert_close(out, model(*args))
    graph = backend.managers[0].graphs[-1]
    assert "[1, 1, 1], [0, 1, 1], [1, 1, 1], False" in graph, graph  # stride, padding, dilation


@pytest.mark.parametrize("cached", [0, 1, 2], ids=["first-chunk", "one-cached", "two-cached"])
def test_the_causal_conv_pad_is_folded_with_eagers_values(cached: int) -> None:
    torch.manual_seed(0)
    model = CausalConv(8).eval()
    x = torch.randn(1, 8, 3, 6, 7)
    args = (x, torch.randn(1, 8, cached, 6, 7)) if cached else (x,)
    config_before = inductor_config_values()
    out, backend = compile_on_cpu(model, ON, *args)
    assert inductor_config_values() == config_before
    result = pass_result(backend, "conv_pad_fold")
    assert result.applied, result
    assert result.counts["pads_folded"] == 1
    # the frame pad of the first chunks stays a pad; with both cache frames nothing is left
    assert result.counts["pads_removed"] == (1 if cached == 2 else 0)
    with torch.no_grad():
        torch.testing.assert_close(out, model(*args))
    graph = backend.managers[0].graphs[-1]
    assert "[1, 1, 1], [0, 1, 1], [1, 1, 1], False" in graph, graph  # stride, padding, dilation
    pads = [line for line in graph.splitlines() if "target=torch.ops.aten.constant_pad_nd" in line]
    if cached < 2:  # the frame pad left, behind the layout pass's channels-last clone
        (pad,) = pads
        assert f"(%clone_default, [0, 0, 0, 0, {2 - cached}, 0]" in pad, graph
    else:
        assert pads == [], graph


def test_switched_off_the_pad_stays() -> None:
    torch.manual_seed(0)
    out, backend = compile_on_cpu(CausalConv(8).eval(), OFF, torch.randn(1, 8, 3, 6, 7))
    assert pass_result(backend, "conv_pad_fold").reason == "disabled by PassConfig"
    assert "[1, 1, 1, 1, 2, 0]" in backend.managers[0].graphs[-1]


@pytest.mark.parametrize(
    ("conv", "pads", "shape", "padding"),
    [
        (nn.Conv2d(4, 6, 3, stride=2), (2, 2, 1, 1), (1, 4, 9, 10), "[1, 2]"),
        (nn.Conv2d(4, 6, 3, dilation=2, padding=1), (1, 1, 1, 1), (1, 4, 9, 10), "[2, 2]"),
        (nn.Conv2d(4, 4, 3, groups=4, padding=(0, 1)), (3, 1, 2, 2), (2, 4, 7, 8), "[2, 2]"),
        (
            nn.Conv3d(4, 6, (3, 1, 1), stride=(1, 2, 2)),
            (1, 1, 1, 1, 1, 1),
            (1, 4, 3, 6, 6),
            "[1, 1, 1]",
        ),
    ],
    ids=["stride", "dilation-and-padding", "groups-one-sided-rest", "conv3d-strided"],
)
def test_strides_dilations_groups_and_existing_padding(conv, pads, shape, padding) -> None:
    torch.manual_seed(0)
    model = Padded(conv, pads).eval()
    x = torch.randn(*shape)
    out, backend = compile_on_cpu(
        model, PassConfig(measure_decisions=False, channels_last_conv2d_graphs=True), x
    )
    assert pass_result(backend, "conv_pad_fold").applied
    with torch.no_grad():
        torch.testing.assert_close(out, model(x))
    assert f"{padding}, [" in backend.managers[0].graphs[-1]


@pytest.mark.parametrize(
    ("model", "count"),
    [
        (Padded(nn.Conv2d(4, 4, 3), (1, 1, 1, 1), value=0.5), "skipped_value"),
        (Padded(nn.ConvTranspose2d(4, 4, 3), (1, 1, 1, 1)), "skipped_transposed"),
        (Padded(nn.Conv2d(4, 4, 3), (0, 1, 0, 1)), "skipped_asymmetric"),
        (PadAlsoReturned(nn.Conv2d(4, 4, 3), (1, 1, 1, 1)), "skipped_other_users"),
    ],
    ids=["value", "transposed", "asymmetric", "other-user"],
)
def test_what_it_leaves_alone(model: nn.Module, count: str) -> None:
    torch.manual_seed(0)
    x = torch.randn(1, 4, 6, 6)
    out, backend = compile_on_cpu(model.eval(), ON, x)
    result = pass_result(backend, "conv_pad_fold")
    assert not result.applied and result.counts[count] == 1, result
    assert result.reason == "no padded conv input qualifies (see counts)"
    with torch.no_grad():
        torch.testing.assert_close(out, model(x))


def test_a_graph_without_a_padded_conv_input() -> None:
    _, backend = compile_on_cpu(nn.Conv2d(4, 4, 3, padding=1).eval(), ON, torch.randn(1, 4, 6, 6))
    assert pass_result(backend, "conv_pad_fold").reason == "no convolution reads a constant_pad_nd"


def test_dynamic_cache_frames_keep_their_symbolic_pad() -> None:
    """The frame pad depends on the cache's frame count (`2 - cache.shape[2]`): symbolic when
    dynamo makes that size dynamic. The spatial pad is still folded; the rest stays."""
    torch.manual_seed(0)
    model = CausalConv(8).eval()
    x, cache = torch.randn(1, 8, 3, 6, 7), torch.randn(1, 8, 1, 6, 7)
    torch._dynamo.mark_dynamic(cache, 2)
    out, backend = compile_on_cpu(model, ON, x, cache)
    result = pass_result(backend, "conv_pad_fold")
    assert result.applied and result.counts["pads_removed"] == 0, result
    with torch.no_grad():
        torch.testing.assert_close(out, model(x, cache))


def test_training_gives_eagers_values_and_gradients() -> None:
    """Forward and backward graphs compile apart: a pad the forward saves for the backward
    convolution has two users and stays; gradients are eager's either way."""
    torch.manual_seed(0)
    model = CausalConv(4, 6)
    x = torch.randn(1, 4, 3, 5, 6, requires_grad=True)
    torch._dynamo.reset()
    backend = MagiBackend(ON)
    with inductor_config.patch(force_disable_caches=True):
        torch.compile(model, backend=backend)(x).square().sum().backward()
    got = [x.grad.clone(), *(p.grad.clone() for p in model.parameters())]
    x.grad = None
    model.zero_grad()
    model(x).square().sum().backward()
    want = [x.grad, *(p.grad for p in model.parameters())]
    for g, w in zip(got, want, strict=True):
        torch.testing.assert_close(g, w)
    histories = [h for m in backend.managers for h in m.history]
    assert len(histories) == 2  # the forward and the backward graph both ran the passes


# --------------------------------------------------------------------------- measured
def _traced(model: nn.Module, x: torch.Tensor) -> torch.fx.GraphModule:
    graphs: list[torch.fx.GraphModule] = []

    def grab(gm: torch.fx.GraphModule, _inputs: Any) -> Any:
        graphs.append(gm)
        return gm.forward

    torch._dynamo.reset()
    torch.compile(model, backend=grab)(x)
    return graphs[0]


def test_a_conv2d_graph_with_a_pad_is_measured_where_the_fold_is_on() -> None:
    """conv2d-only graphs are left to Inductor's layout optimisation, but a pad in front of a
    convolution can still be folded: the decision must time such a graph, not assume it."""
    gm = _traced(Padded(nn.Conv2d(4, 4, 3), (1, 1, 1, 1)).eval(), torch.randn(1, 4, 6, 6))
    assert _measured_passes_cannot_fire(gm, PassConfig()) is None
    pads_off = PassConfig(enable_conv_pad_fold=False, enable_causal_pad_trim=False)
    why = _measured_passes_cannot_fire(gm, pads_off)
    assert why is not None and "no pad to fold" in why
    plain = _traced(nn.Conv2d(4, 4, 3, padding=1).eval(), torch.randn(1, 4, 6, 6))
    assert _measured_passes_cannot_fire(plain, PassConfig()) is not None


# --------------------------------------------------------------------------- CUDA codegen
def _producer(code: Any) -> Any:
    """The kernel that computes norm + SiLU into the conv input (the only one with `exp`)."""
    (kernel,) = [k for k in code.kernels if "libdevice.exp" in k.source]
    return kernel


@pytest.mark.parametrize("cached", [False, True], ids=["first-chunk", "cached"])
def test_fake_cuda_the_producer_writes_the_unpadded_domain(cached: bool) -> None:
    """Without the fold the producer iterates over the padded frame, (H + 2) x (W + 2) a frame,
    its loads shifted and wrapping every W + 2 positions. With it, H x W a frame, loads at the
    element's own position."""
    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)
    torch.manual_seed(0)
    t, h, w = 2, 16, 24
    model = CausalConv(64).eval().to(torch.bfloat16)
    x = torch.randn(1, 64, t, h, w, dtype=torch.bfloat16)
    args = (x, torch.randn(1, 64, 2, h, w, dtype=torch.bfloat16)) if cached else (x,)
    with torch.no_grad():
        off = _producer(inductor_codegen(model, *args, config=OFF))
        on = _producer(inductor_codegen(model, *args, config=ON))
    frames = t + 2  # the causal zero frames, or the cache frames
    # the elements each kernel writes (torch 2.11 tiles the cached case over (channel, frame) x
    # (row, column), 2.13 over channel x (frame, row, column): count, not the split)
    assert _elements(off) == 64 * frames * (h + 2) * (w + 2)
    assert _elements(on) == 64 * frames * h * w
    assert f"% {w + 2})" in off.source  # the padded row wraps
    assert f"% {w + 2})" not in on.source
    assert on.kind == off.kind == "pointwise" and set(on.size_hints) == {"y", "x"}  # tiled 2-D


def _elements(kernel: Any) -> int:
    numels = re.findall(r"^\s+([xyz])numel = (\d+)$", kernel.source, flags=re.MULTILINE)
    assert numels, kernel.source
    return math.prod(int(n) for _, n in numels)
