"""CausalPadTrimPass: a convolution's taps that read only zero padding dropped from its weight,
where a padded dim has one output position. The tap arithmetic, the rewrite on real post-grad
graphs (CPU compiles) against eager's values, its skips, its place before the pad fold, and the
CUDA kernels Inductor generates with it (fake CUDA: generated, never run)."""

from __future__ import annotations

import pytest
import torch
from graphs import CausalConv, PadAlsoReturned, Padded, compile_on_cpu, pass_result
from torch import nn
from torch._inductor import config as inductor_config

from magi_passes import CausalPadTrimPass, MagiBackend, PassConfig
from magi_passes.compile.gates import _measured_passes_cannot_fire
from magi_passes.passes.base import inductor_config_values
from magi_passes.passes.causal_pad_trim import trimmable_dims
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.capture.fake_cuda import fake_cuda_status

ON = PassConfig(measure_decisions=False, enable_causal_pad_trim=True)
OFF = PassConfig(measure_decisions=False, enable_causal_pad_trim=False)


# --------------------------------------------------------------------------- the arithmetic
@pytest.mark.parametrize(
    ("pads", "x_shape", "kernel", "stride", "padding", "expected"),
    [
        # Wan's first chunk: 2 zero frames in front of 1 frame, 3 taps: keep tap 2 only
        ((1, 1, 1, 1, 2, 0), (1, 8, 1, 6, 7), (3, 3, 3), [1, 1, 1], [0, 0, 0], [(2, 2, 1, 3)]),
        # one cached frame concatenated in front: 1 zero frame, 2 real ones: keep taps 1-2
        ((1, 1, 1, 1, 1, 0), (1, 8, 2, 6, 7), (3, 3, 3), [1, 1, 1], [0, 0, 0], [(2, 1, 2, 3)]),
        # zeros behind too: taps 0 and 3 see zeros, 1-2 see x
        ((0, 0, 0, 0, 1, 1), (1, 8, 2, 6, 7), (4, 3, 3), [1, 1, 1], [0, 0, 0], [(2, 1, 2, 4)]),
        # more than one output frame: nothing to trim
        ((1, 1, 1, 1, 2, 0), (1, 8, 3, 6, 7), (3, 3, 3), [1, 1, 1], [0, 0, 0], []),
        # the conv pads the frames itself, or strides them: the zeros are not all in the pad
        ((1, 1, 1, 1, 2, 0), (1, 8, 1, 6, 7), (3, 3, 3), [1, 1, 1], [1, 0, 0], []),
        ((1, 1, 1, 1, 2, 0), (1, 8, 1, 6, 7), (3, 3, 3), [2, 1, 1], [0, 0, 0], []),
        # a 2-D conv over a one-row image padded above: keep the kernel's last row
        ((0, 0, 2, 0), (1, 3, 1, 9), (3, 3), [1, 1], [0, 0], [(2, 2, 1, 3)]),
        # a crop is not a pad
        ((0, 0, -1, 0), (1, 3, 4, 9), (3, 3), [1, 1], [0, 0], []),
    ],
)
def test_trimmable_dims(pads, x_shape, kernel, stride, padding, expected) -> None:
    dims, symbolic = trimmable_dims(list(pads), x_shape, kernel, stride, padding, [1] * 3)
    assert dims == expected and not symbolic


def test_a_symbolic_size_or_amount_is_passed_over_and_said() -> None:
    frames = object()  # stands for a symbolic size: anything that is not an int
    dims, symbolic = trimmable_dims([1, 1, 1, 1, 2, 0], (1, 8, frames, 6, 7), (3, 3, 3), 1, 0, 1)
    assert dims == [] and symbolic
    dims, symbolic = trimmable_dims([1, 1, 1, 1, frames, 0], (1, 8, 1, 6, 7), (3, 3, 3), 1, 0, 1)
    assert dims == [] and symbolic


def test_on_by_default_measured_and_switched_off_by_config_or_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert CausalPadTrimPass(PassConfig()).enabled()
    assert not CausalPadTrimPass(PassConfig(enable_causal_pad_trim=False)).enabled()
    monkeypatch.setenv("MAGI_PASSES__ENABLE_CAUSAL_PAD_TRIM", "0")
    assert PassConfig.from_env().enable_causal_pad_trim is False
    assert CausalPadTrimPass.measured_by == "enable_causal_pad_trim"
    assert CausalPadTrimPass.mutates_inductor_config == ()
    assert CausalPadTrimPass(ON).uuid() != CausalPadTrimPass(OFF).uuid()


# --------------------------------------------------------------------------- the rewrite
@pytest.mark.parametrize("cached", [0, 1], ids=["first-chunk", "one-cached"])
def test_the_first_chunks_drop_their_zero_taps_with_eagers_values(cached: int) -> None:
    torch.manual_seed(0)
    model = CausalConv(8, 6).eval()
    x = torch.randn(1, 8, 1, 6, 7)
    args = (x, torch.randn(1, 8, cached, 6, 7)) if cached else (x,)
    config_before = inductor_config_values()
    out, backend = compile_on_cpu(model, ON, *args)
    assert inductor_config_values() == config_before
    result = pass_result(backend, "causal_pad_trim")
    assert result.applied, result
    assert result.counts["convolutions_trimmed"] == 1
    assert result.counts["taps_dropped"] == 2 - cached
    with torch.no_grad():
        torch.testing.assert_close(out, model(*args))
    graph = backend.managers[0].graphs[-1]
    # the weight sliced to the taps that see frames; the spatial pad folded into the conv; no
    # pad left at all
    (sliced,) = [line for line in graph.splitlines() if "aten.slice.Tensor" in line]
    assert f", 2, {2 - cached}, 3)" in sliced, graph
    assert "[1, 1, 1], [0, 1, 1], [1, 1, 1], False" in graph, graph
    assert "constant_pad_nd" not in graph, graph
    assert pass_result(backend, "conv_pad_fold").counts["pads_removed"] == 1


def test_steady_chunks_and_switched_off_keep_the_pad() -> None:
    torch.manual_seed(0)
    model = CausalConv(8, 6).eval()
    x, cache = torch.randn(1, 8, 1, 6, 7), torch.randn(1, 8, 2, 6, 7)
    _, backend = compile_on_cpu(model, ON, x, cache)  # two cached frames: no frame pad
    result = pass_result(backend, "causal_pad_trim")
    assert not result.applied and result.counts["skipped_more_outputs"] == 1, result
    _, backend = compile_on_cpu(model, ON, torch.randn(1, 8, 3, 6, 7))  # three frames: 3 outputs
    result = pass_result(backend, "causal_pad_trim")
    assert not result.applied and result.counts["skipped_more_outputs"] == 1, result
    _, backend = compile_on_cpu(model, OFF, torch.randn(1, 8, 1, 6, 7))
    assert pass_result(backend, "causal_pad_trim").reason == "disabled by PassConfig"
    assert "[0, 0, 0, 0, 2, 0]" in backend.managers[0].graphs[-1]


@pytest.mark.parametrize(
    ("model", "count"),
    [
        (Padded(nn.Conv3d(3, 4, 3), (1, 1, 1, 1, 2, 0), value=1.0), "skipped_value"),
        (PadAlsoReturned(nn.Conv3d(3, 4, 3), (1, 1, 1, 1, 2, 0)), "skipped_other_users"),
        (Padded(nn.ConvTranspose3d(3, 4, 3), (1, 1, 1, 1, 2, 0)), "skipped_transposed"),
    ],
    ids=["value", "other-users", "transposed"],
)
def test_what_it_leaves_alone(model: nn.Module, count: str) -> None:
    torch.manual_seed(0)
    x = torch.randn(1, 3, 1, 5, 6)
    out, backend = compile_on_cpu(model.eval(), ON, x)
    result = pass_result(backend, "causal_pad_trim")
    assert not result.applied and result.counts[count] == 1, result
    with torch.no_grad():
        torch.testing.assert_close(out, model(x))


@pytest.mark.parametrize(
    ("conv", "pads", "shape"),
    [
        (nn.Conv3d(4, 8, 3, groups=2, padding=(0, 1, 1)), (0, 0, 0, 0, 2, 0), (1, 4, 1, 5, 6)),
        (nn.Conv3d(4, 6, (3, 1, 3), stride=(1, 2, 2)), (1, 1, 0, 0, 1, 1), (1, 4, 1, 5, 6)),
        (nn.Conv2d(3, 5, 3, padding=(0, 1)), (0, 0, 2, 0), (2, 3, 1, 9)),
    ],
    ids=["groups-and-own-spatial-padding", "zeros-both-sides-and-strided-space", "conv2d-row"],
)
def test_groups_strides_and_conv2d_give_eagers_values(conv, pads, shape) -> None:
    torch.manual_seed(0)
    model = Padded(conv, pads).eval()
    x = torch.randn(*shape)
    out, backend = compile_on_cpu(model, ON, x)
    assert pass_result(backend, "causal_pad_trim").counts["convolutions_trimmed"] == 1
    with torch.no_grad():
        torch.testing.assert_close(out, model(x))


def test_training_gives_eagers_values_and_gradients() -> None:
    """Forward and backward graphs compile apart; whatever the forward keeps for the backward
    convolution, the gradients are eager's."""
    torch.manual_seed(0)
    model = CausalConv(4, 6)
    x = torch.randn(1, 4, 1, 5, 6, requires_grad=True)
    torch._dynamo.reset()
    backend = MagiBackend(ON)
    with inductor_config.patch(force_disable_caches=True):
        out = torch.compile(model, backend=backend)(x)
        out.square().sum().backward()
    got = [x.grad.clone(), *(p.grad.clone() for p in model.parameters())]
    x.grad = None
    model.zero_grad()
    want_out = model(x)
    want_out.square().sum().backward()
    want = [x.grad, *(p.grad for p in model.parameters())]
    torch.testing.assert_close(out, want_out)
    for g, w in zip(got, want, strict=True):
        torch.testing.assert_close(g, w)
    histories = [h for m in backend.managers for h in m.history]
    assert len(histories) == 2  # the forward and the backward graph both ran the passes


def test_a_graph_with_a_pad_is_measured_where_the_trim_is_on() -> None:
    gm = torch.fx.symbolic_trace(Padded(nn.Conv2d(3, 5, 3), (0, 0, 2, 0)))
    both_off = PassConfig(
        enable_conv_pad_fold=False, enable_conv_channels_last=False, enable_causal_pad_trim=False
    )
    assert _measured_passes_cannot_fire(gm, both_off) is not None
    assert _measured_passes_cannot_fire(gm, both_off.replace(enable_causal_pad_trim=True)) is None


@pytest.mark.slow
def test_the_wan_decodes_first_chunks_are_trimmed_with_eagers_values(config_patch) -> None:
    """The real diffusers Wan 2.2 decode (tiny, two latent frames: the first chunk and a cached
    one), compiled with the trim on: its first chunk's causal convs drop their zero taps, and the
    decode is eager's to fp32 rounding."""
    from pytest_magi import zoo

    if "wan2.2-vae" not in zoo.names():
        pytest.skip(f"wan2.2-vae unavailable: {zoo.unavailable().get('wan2.2-vae')}")
    config_patch(fx_graph_cache=False)  # a cache hit skips the passes: no PassResult to read
    torch._dynamo.reset()
    model = zoo.load("wan2.2-vae")
    backend = MagiBackend(ON)
    pair = zoo.ZooPair(model, candidate=backend)
    pair.assert_close(reference="eager")
    trimmed = [
        r.counts["convolutions_trimmed"]
        for m in backend.managers
        for r in m.results
        if r.name == "causal_pad_trim"
    ]
    assert max(trimmed) >= 10, trimmed  # the first chunk's causal convs, each of its blocks
    torch._dynamo.reset()


@pytest.mark.skipif(not fake_cuda_status()[0], reason="fake CUDA codegen unavailable")
def test_fake_cuda_the_first_chunk_writes_no_zero_frames() -> None:
    """The first chunk's producer writes its one frame, not the two zero frames in front of it:
    no kernel pads (plain Inductor's producer does)."""
    torch.manual_seed(0)
    model = CausalConv(16, 16).eval()
    x = torch.randn(1, 16, 1, 12, 14)
    with torch.no_grad():
        off = inductor_codegen(model, x, config=OFF)
        on = inductor_codegen(model, x, config=ON)
    assert "constant_pad_nd" in " ".join(k.name for k in off.kernels), off.kernels
    assert all("constant_pad_nd" not in k.name for k in on.kernels), on.kernels
