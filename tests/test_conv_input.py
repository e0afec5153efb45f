"""ConvInputWindowPass: a causal conv's cache read from the conv input. The rewrite on real
post-grad graphs (CPU compiles), its numerics and layouts against eager, its gates, the Inductor
config it sets and restores, and the CUDA kernels Inductor generates with it (fake CUDA: generated,
never run)."""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torch.nn.functional as F
from graphs import compile_on_cpu, pass_result
from torch import nn

from magi_passes import ConvInputWindowPass, PassConfig
from magi_passes.passes.base import get_inductor_config_value
from magi_passes.passes.conv_input import INLINE_OPCOUNT
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.capture.fake_cuda import fake_cuda_status

# the pad stays in the graph (ConvPadFoldPass off): these tests pin the padded chain; the fold's
# own form is tested below (test_with_the_pad_folded_the_window_is_read_from_the_conv_input).
# The pass matches the concatenation cloned whole: `channels_last_through_cat` (on by default)
# rewrites the same chain its own way, and then this pass finds nothing (tested below)
ON = PassConfig(
    enable_conv_input_windows=True,
    measure_decisions=False,
    enable_conv_pad_fold=False,
    channels_last_through_cat=False,
)
OFF = PassConfig(
    enable_conv_input_windows=False,
    measure_decisions=False,
    enable_conv_pad_fold=False,
    channels_last_through_cat=False,
)


class CausalBlock(nn.Module):
    """The Wan 2.x decoder's pattern: RMS norm + SiLU, the last frames kept as the next call's
    cache, the cache of the previous call concatenated in front, the causal pad, a 3x3x3 conv."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.scale = channels**0.5
        self.gamma = nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.conv = nn.Conv3d(channels, channels, 3)

    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = F.normalize(x.float(), dim=1).to(x.dtype) * self.scale * self.gamma
        h = F.silu(h)
        window = h[:, :, -2:].clone()
        h = torch.cat([cache, h], dim=2)
        h = F.pad(h, (1, 1, 1, 1, 2 - cache.shape[2], 0))
        return self.conv(h), window


class AlsoReadsX(CausalBlock):
    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = F.silu(F.normalize(x.float(), dim=1).to(x.dtype) * self.gamma)
        conv = self.conv(F.pad(torch.cat([cache, h], dim=2), (1, 1, 1, 1, 0, 0)))
        return conv, h * 2  # a user of h that is not a window: h is stored for it anyway


def inputs(
    channels: int = 8, frames: int = 2, dtype: torch.dtype = torch.float32
) -> tuple[torch.Tensor, ...]:
    torch.manual_seed(0)
    x = torch.randn(1, channels, frames, 6, 8, dtype=dtype)
    return x, torch.randn(1, channels, 2, 6, 8, dtype=dtype)


# --------------------------------------------------------------------------- switch
def test_off_by_default_and_switched_on_by_config_or_env(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not ConvInputWindowPass(PassConfig()).enabled()
    assert ConvInputWindowPass(PassConfig(enable_conv_input_windows=True)).enabled()
    monkeypatch.setenv("MAGI_PASSES__ENABLE_CONV_INPUT_WINDOWS", "1")
    assert PassConfig.from_env().enable_conv_input_windows is True
    assert ConvInputWindowPass.measured_by == "enable_conv_input_windows"
    assert ConvInputWindowPass.mutates_inductor_config == ("realize_opcount_threshold",)


# --------------------------------------------------------------------------- the rewrite
@pytest.mark.parametrize("frames", [1, 2, 4])
def test_the_window_is_read_from_the_conv_input_with_eagers_values_and_layout(frames: int) -> None:
    model = CausalBlock(8).eval()
    args = inputs(frames=frames)
    before = get_inductor_config_value("realize_opcount_threshold")
    (conv, window), backend = compile_on_cpu(model, ON, *args)
    assert get_inductor_config_value("realize_opcount_threshold") == before  # restored
    result = pass_result(backend, "conv_input_windows")
    assert result.applied, result
    assert result.counts["windows_moved"] == 1 and result.counts["producers_fused"] == 1
    assert result.config_changes == {"realize_opcount_threshold": INLINE_OPCOUNT}
    with torch.no_grad():
        want_conv, want_window = model(*args)
    torch.testing.assert_close(conv, want_conv)
    torch.testing.assert_close(window, want_window)
    assert window.shape[2] == min(frames, 2)
    # eager's `.clone()` is contiguous; without the pass Inductor returned a view of its buffer
    assert window.stride() == want_window.stride() == want_window.contiguous().stride()
    # the graph: the window is a slice of the conv input, the producer's only user the cat
    graph = backend.managers[0].graphs[-1]
    assert "aten.slice.Tensor](args = (%constant_pad_nd, 2," in graph, graph


def test_with_the_pad_folded_the_window_is_read_from_the_conv_input() -> None:
    """`ConvPadFoldPass` runs first and removes the cached chunk's pad: the conv input is then
    the channels-last clone of the concatenation, and the window is read from it."""
    model = CausalBlock(8).eval()
    args = inputs(frames=2)
    config = ON.replace(enable_conv_pad_fold=True)
    (conv, window), backend = compile_on_cpu(model, config, *args)
    result = pass_result(backend, "conv_input_windows")
    assert result.applied and result.counts["windows_moved"] == 1, result
    with torch.no_grad():
        want_conv, want_window = model(*args)
    torch.testing.assert_close(conv, want_conv)
    torch.testing.assert_close(window, want_window)
    graph = backend.managers[0].graphs[-1]
    assert "target=torch.ops.aten.constant_pad_nd" not in graph
    assert "aten.slice.Tensor](args = (%clone_default, 2," in graph, graph


def test_a_dynamic_graph_is_left_alone() -> None:
    """Inductor's 2-D tiled dynamic code for the rewritten graph was wrong on the GPU (the Wan
    2.2 decode): dynamic graphs are skipped whole."""
    model = CausalBlock(8).eval()
    x, cache = inputs(frames=1)
    torch._dynamo.mark_dynamic(cache, 2)
    (conv, window), backend = compile_on_cpu(model, ON, x, cache)
    result = pass_result(backend, "conv_input_windows")
    assert not result.applied and result.reason.startswith("dynamic shapes"), result
    assert result.config_changes == {} and result.counts["windows_moved"] == 0
    with torch.no_grad():
        want_conv, want_window = model(x, cache)
    torch.testing.assert_close(conv, want_conv)
    torch.testing.assert_close(window, want_window)


def test_a_producer_with_another_user_is_left_alone() -> None:
    (conv, doubled), backend = compile_on_cpu(AlsoReadsX(8).eval(), ON, *inputs())
    result = pass_result(backend, "conv_input_windows")
    assert not result.applied and result.counts["skipped_other_users"] == 1, result
    assert result.config_changes == {}


def test_switched_off_it_does_not_run() -> None:
    _, backend = compile_on_cpu(CausalBlock(8).eval(), OFF, *inputs())
    assert pass_result(backend, "conv_input_windows").reason == "disabled by PassConfig"


# --------------------------------------------------------------------------- CUDA codegen
def _conv_input_writers(code: Any) -> list[Any]:
    """The kernels that write the padded conv input: named for the pad, with the pad's masked
    loads (`other=0.0`; the weights' layout copy has none)."""
    return [
        k
        for k in code.kernels
        if k.kind == "pointwise" and "constant_pad_nd" in k.name and "other=0.0" in k.source
    ]


def test_fake_cuda_the_producer_writes_the_conv_input() -> None:
    """Off: the normalised frames go to a concatenation buffer and a second kernel copies it,
    with the cache, into the padded channels-last conv input. On: one kernel computes the norm,
    SiLU, cache frames and zero pad straight into the conv input."""
    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)
    model = CausalBlock(64).eval().to(torch.bfloat16)
    x, cache = inputs(64, frames=2, dtype=torch.bfloat16)
    with torch.no_grad():
        off = inductor_codegen(model, x, cache, config=OFF)
        on = inductor_codegen(model, x, cache, config=ON)
    names = {"off": [k.name for k in off.kernels], "on": [k.name for k in on.kernels]}
    writers = {"off": _conv_input_writers(off), "on": _conv_input_writers(on)}
    assert len(writers["off"]) == len(writers["on"]) == 1, names
    (copy,), (producer,) = writers["off"], writers["on"]
    assert "libdevice.exp" not in copy.source  # a pure copy of a buffer that SiLU filled
    assert "libdevice.exp" in producer.source and "rsqrt" in producer.source
    assert on.kernel_count <= off.kernel_count
    assert producer.kind == "pointwise" and set(producer.size_hints) == {"y", "x"}  # tiled 2-D
    (result,) = [r for r in on.pass_results if r.name == "conv_input_windows"]
    assert result.applied and result.counts["windows_moved"] == 1


def test_with_the_cat_converted_through_the_reason_names_the_option() -> None:
    """`channels_last_through_cat` (on by default) rewrites the chain this pass matches; the
    pass then finds nothing and says which option to turn off."""
    torch.manual_seed(0)
    model = CausalBlock(8).eval()
    x, cache = torch.randn(1, 8, 3, 6, 7), torch.randn(1, 8, 2, 6, 7)
    config = ON.replace(channels_last_through_cat=True)
    (conv, window), backend = compile_on_cpu(model, config, x, cache)
    result = pass_result(backend, "conv_input_windows")
    assert not result.applied
    assert "channels_last_through_cat converted the conv input's concatenation" in result.reason
    with torch.no_grad():
        want_conv, want_window = model(x, cache)
    torch.testing.assert_close(conv, want_conv)
    torch.testing.assert_close(window, want_window)
