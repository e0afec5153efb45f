"""DeconvInterleavePass: a transposed convolution whose kernel is its stride, one input channel a
group, as a broadcast multiply and an interleave. Its switch, the rewrite on real post-grad
graphs (CPU compiles) against eager's values in 1-D, 2-D and 3-D, with a bias, several outputs a
group and channels-last inputs, what it leaves alone, and Cosmos's decoder (its inverse Haar
wavelet) compiled on the CPU and generated for CUDA (fake CUDA: generated, never run)."""

from __future__ import annotations

import collections
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from graphs import compile_on_cpu, pass_result
from torch import nn

from magi_passes import DeconvInterleavePass, PassConfig
from magi_passes.passes.deconv_interleave import interleave_output_shape
from pytest_magi import zoo

ON = PassConfig(measure_decisions=False, enable_deconv_interleave=True)
OFF = PassConfig(measure_decisions=False)
COSMOS = "cosmos-vae"


# --------------------------------------------------------------------------- switch
def test_off_by_default_measured_and_switched_on_by_config_or_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not DeconvInterleavePass(PassConfig()).enabled()
    assert DeconvInterleavePass(ON).enabled()
    monkeypatch.setenv("MAGI_PASSES__ENABLE_DECONV_INTERLEAVE", "1")
    assert PassConfig.from_env().enable_deconv_interleave is True
    assert DeconvInterleavePass.measured_by == "enable_deconv_interleave"
    assert DeconvInterleavePass.mutates_inductor_config == ()
    assert DeconvInterleavePass(ON).uuid() != DeconvInterleavePass(OFF).uuid()


def test_the_output_shape_is_the_transposed_convolutions() -> None:
    for spatial, kernel in (((5,), [4]), ((5, 7), [2, 3]), ((3, 4, 6), [1, 1, 2])):
        x = torch.randn(2, 6, *spatial)
        w = torch.randn(6, 2, *kernel)
        conv = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
        y = conv[len(spatial)](x, w, stride=kernel, groups=6)
        assert interleave_output_shape(x, w, kernel) == list(y.shape)
    # a kernel that is not the stride: the taps overlap, no interleave
    assert interleave_output_shape(torch.randn(1, 6, 5), torch.randn(6, 1, 3), [2]) is None


# --------------------------------------------------------------------------- the rewrite
class HaarInverse(nn.Module):
    """Cosmos's inverse Haar step along one dim of a 3-D latent: the channels split in two, each
    half a depthwise transposed conv with a 2-tap filter and stride 2 there, summed."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.dim = dim
        self.register_buffer("h", torch.tensor([0.7071067811865476, 0.7071067811865476]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        g = x.shape[1] // 2
        shape = [1, 1, 1]
        shape[self.dim] = 2
        low = self.h.flip([0]).reshape(1, 1, *shape).repeat(g, 1, 1, 1, 1)
        high = (self.h * torch.tensor([1.0, -1.0])).reshape(1, 1, *shape).repeat(g, 1, 1, 1, 1)
        stride = [1, 1, 1]
        stride[self.dim] = 2
        a, b = torch.chunk(x, 2, dim=1)
        return F.conv_transpose3d(a, low, groups=g, stride=stride) + F.conv_transpose3d(
            b, high, groups=g, stride=stride
        )


class Depthwise(nn.Module):
    """A depthwise "pixel shuffle" upsampler written as a transposed conv: `out` outputs for each
    input channel, kernel == stride."""

    def __init__(self, dims: int, channels: int, out: int, k: int, bias: bool) -> None:
        super().__init__()
        cls = {1: nn.ConvTranspose1d, 2: nn.ConvTranspose2d, 3: nn.ConvTranspose3d}[dims]
        self.up = cls(channels, channels * out, k, stride=k, groups=channels, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.up(x))


def _case(name: str) -> tuple[nn.Module, tuple[torch.Tensor, ...], int]:
    """A model, its inputs and how many transposed convolutions the pass rewrites in it."""
    torch.manual_seed(0)
    if name == "haar-3d":
        return HaarInverse(2), (torch.randn(1, 8, 3, 5, 6),), 2
    if name == "haar-3d-frames":
        return HaarInverse(0), (torch.randn(2, 6, 3, 4, 5),), 2
    if name == "depthwise-2d-bias":
        return Depthwise(2, 4, 2, 2, True), (torch.randn(2, 4, 5, 7),), 1
    if name == "depthwise-2d-channels-last":
        x = torch.randn(2, 4, 5, 7).contiguous(memory_format=torch.channels_last)
        return Depthwise(2, 4, 3, 2, True), (x,), 1
    if name == "depthwise-1d":
        return Depthwise(1, 3, 1, 4, False), (torch.randn(2, 3, 9),), 1
    if name == "depthwise-3d-channels-last":
        x = torch.randn(1, 4, 3, 4, 5).contiguous(memory_format=torch.channels_last_3d)
        return Depthwise(3, 4, 2, 2, False), (x,), 1
    raise ValueError(name)


CASES = (
    "haar-3d",
    "haar-3d-frames",
    "depthwise-2d-bias",
    "depthwise-2d-channels-last",
    "depthwise-1d",
    "depthwise-3d-channels-last",
)


@pytest.mark.parametrize("name", CASES)
def test_the_rewrite_gives_eagers_values_and_leaves_no_transposed_convolution(name: str) -> None:
    model, inputs, rewritten = _case(name)
    with torch.no_grad():
        expected = model(*inputs)
    out, backend = compile_on_cpu(model, ON, *inputs)
    result = pass_result(backend, "deconv_interleave")
    assert result.applied, result.reason
    assert result.counts["rewritten"] == rewritten
    # each output element is one product: the same value as the convolution's, bit for bit in
    # fp32 up to the sums after it
    torch.testing.assert_close(out, expected, rtol=1e-6, atol=1e-6)
    assert out.shape == expected.shape
    (manager,) = backend.managers
    assert "convolution" not in manager.graphs[-1], manager.graphs[-1]


def test_with_the_pass_off_the_transposed_convolutions_stay() -> None:
    model, inputs, _ = _case("haar-3d")
    _, backend = compile_on_cpu(model, OFF, *inputs)
    (manager,) = backend.managers
    result = manager.result("deconv_interleave")
    assert result is not None and not result.applied
    assert result.reason == "disabled by PassConfig"
    assert manager.graphs[-1].count("aten.convolution") == 2


class Overlapping(nn.Module):
    """Transposed convolutions the pass must leave alone, one of each reason."""

    def __init__(self) -> None:
        super().__init__()
        self.overlap = nn.ConvTranspose2d(4, 4, 3, stride=2, groups=4)  # taps overlap
        self.padded = nn.ConvTranspose2d(4, 4, 2, stride=2, padding=1, groups=4)  # crops
        self.mixing = nn.ConvTranspose2d(4, 4, 2, stride=2, groups=2)  # two inputs a group

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return self.overlap(x), self.padded(x), self.mixing(x)


def test_what_is_not_an_interleave_stays_a_convolution() -> None:
    torch.manual_seed(0)
    model, x = Overlapping(), torch.randn(1, 4, 5, 6)
    with torch.no_grad():
        expected = model(x)
    out, backend = compile_on_cpu(model, ON, x)
    result = pass_result(backend, "deconv_interleave")
    assert not result.applied
    assert result.reason == "no transposed convolution qualifies (see counts)"
    assert result.counts == {
        "rewritten": 0,
        "skipped_shape": 2,
        "skipped_groups": 1,
        "skipped_layout": 0,
    }
    torch.testing.assert_close(out, expected)


def test_a_graph_without_transposed_convolutions_is_left_alone() -> None:
    model = nn.Sequential(nn.Conv2d(4, 4, 2, stride=2), nn.ReLU())
    _, backend = compile_on_cpu(model, ON, torch.randn(1, 4, 6, 6))
    result = pass_result(backend, "deconv_interleave")
    assert not result.applied and result.reason == "no transposed convolution"


def test_a_conv2d_graph_with_a_transposed_conv_is_measured_where_the_pass_is_on() -> None:
    """Read from dynamo's graph before compiling: a graph of conv2d and transposed convolutions
    is left to Inductor's layout optimisation, so only this pass can change it; the decision
    times it where the pass is on and compiles it once, untimed, where it is off."""
    from magi_passes.compile.gates import _measured_passes_cannot_fire

    graphs: list[torch.fx.GraphModule] = []

    def grab(gm: torch.fx.GraphModule, _inputs: Any) -> Any:
        graphs.append(gm)
        return gm.forward

    torch._dynamo.reset()
    model = Depthwise(2, 4, 2, 2, True).eval()
    torch.compile(model, backend=grab)(torch.randn(1, 4, 6, 6))
    (gm,) = graphs
    assert _measured_passes_cannot_fire(gm, ON) is None
    why = _measured_passes_cannot_fire(gm, OFF)
    assert why is not None and "no transposed convolution to interleave" in why


# --------------------------------------------------------------------------- Cosmos
def _cosmos() -> Any:
    if COSMOS not in zoo.names():
        pytest.skip(zoo.unavailable().get(COSMOS, COSMOS))
    return zoo.load(COSMOS, "tiny", dtype=torch.float32)


@pytest.mark.slow
def test_cosmos_decoders_inverse_wavelet_is_rewritten_with_eagers_values() -> None:
    """The tiny Cosmos decoder (patch size 4: two inverse Haar levels of 14 transposed convs)."""
    model = _cosmos()
    decoder = model.module.eval()
    with torch.no_grad():
        expected = decoder(*model.inputs)
    out, backend = compile_on_cpu(decoder, ON, *model.inputs)
    result = pass_result(backend, "deconv_interleave")
    assert result.counts["rewritten"] == 28, result.counts
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_fake_cuda_cosmos_decoder_calls_no_cudnn_transposed_convolution() -> None:
    """Generated for CUDA: the 28 transposed convolutions of the inverse wavelet leave the
    extern calls (cuDNN's legacy engines ran them on an H200, docs/results.md "Never slower: the zoo")
    and their products fuse into fewer Triton kernels than the convolutions' neighbours took."""
    from pytest_magi.capture.codegen import inductor_codegen
    from pytest_magi.capture.fake_cuda import fake_cuda_status

    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)
    model = _cosmos()
    decode = model.as_module()
    with torch.no_grad():
        off = inductor_codegen(decode, *model.inputs, config=OFF)
        on = inductor_codegen(decode, *model.inputs, config=ON)

    def externs(code: Any) -> collections.Counter[str]:
        return collections.Counter(call.split("(")[0] for call in code.extern_calls)

    assert externs(off)["convolution"] - externs(on)["convolution"] == 28
    assert on.kernel_count < off.kernel_count, (on.kernel_count, off.kernel_count)
