"""The passes' speed on the GPU, held by min_speedup tests (run with --magi-perf).

Thresholds are the issue targets or, where we set them, a little under the medians measured on
an H200 with torch 2.11 (docs/benchmarks.md):

| pair | measured (sessions 1-2; session 3, weights cloned in the graph) | threshold |
| --- | --- | --- |
| VAEDecoderLike 540p bf16 static | 1.08x; 1.07x; 1.126x with GroupNormStatsPass (session 12); 1.212x, 1.213x, 1.216x with its per-channel operands (session 13) | 1.2 (issue target; issue 18 asks 1.25) |
| VAEDecoderLike 540p bf16 dynamic H/W | 1.49x; 1.47x; 2.027x with GroupNormStatsPass (session 12) | 1.8 |
| WanCausalStage 540p bf16 static | 1.24-1.28x; 1.22x (fresh machine); 1.725x (H200), 1.789x (H100) with ConvPadFoldPass (session 18) | 1.5 |
| WanCausalStage 540p bf16 dynamic H/W | 1.72-1.73x; 1.65x; 2.938x (H200), 2.873x (H100) with ConvPadFoldPass (session 18) | 2.5 |
| GQAProjection h200 bf16, dynamic Hq and D, inference | 2.19x; 2.19x | 1.9 |
| Wan norm producer 512 x 5 x 272 x 480 bf16, NormRsqrtPass alone | 1.348x (session 10) | 1.25 |
| conv-GroupNorm-SiLU-conv 256 x 7 x 136 x 240 bf16, GroupNormStatsPass alone | 1.094x (session 12, probe) | 1.06 |
| Wan causal conv 256 x 5 x 272 x 480 bf16 with its cache, ConvPadFoldPass alone | 1.123x (H100 probe), 1.109x (H100, this test; session 18) | 1.05 |

Session 9 (device time behind a spin, the host's time reported beside it; docs/reliability.md):
1.073x, 1.467x, 1.237x, 1.635x and 2.192x in the order of the table. Before that change the two
Wan pairs timed the host on some machines (1.106x and 1.593x in one run, both below threshold).

Session 10 (same order, then the norm producer): 1.073x, 1.472x, **1.177x (FAIL; 1.169x on a
re-run on the same machine)**, 1.653x, 2.198x and 1.348x; on the next machine wan-540p-static
passed at 1.219x, and at 1.214x with session 9's code in the same call: machine, not code;
after the review commit 1.194x (FAIL) on another machine.

Session 12 (GroupNormStatsPass; docs/results/session12): vae-540p-static 1.126x (xfail),
vae-540p-dynamic 2.027x; the dynamic threshold rose from 1.4 to 1.8 with it.

Session 13 (the normalisation's mean and rsqrt stored per channel in static graphs;
docs/results/session13): vae-540p-static 1.212x, 1.213x (example) and 1.216x in three runs, so
its xfail is gone; vae-540p-dynamic 2.036x; the GroupNorm block 1.110-1.116x.

Session 14 (no pass changed; docs/results/session14): on an H200 2.190x, 1.112x (GroupNorm block),
1.348x, 2.024x, 1.213x (vae static), 1.673x and **1.167x (wan-540p-static, FAIL)**; on an H100
all passed, wan-540p-static 1.234x. In one process on an H200 that pair read 1.197-1.198x three
times: its device-side ratio is 1.20x, so the machine decides the verdict (docs/benchmarks.md,
"Session 14"). The threshold stays. With the conv weights of static graphs converted in one
kernel (ConvChannelsLastPass) all 7 passed on an H200: 2.194x, 1.125x, 1.347x, 2.025x, 1.219x,
1.639x and wan-540p-static 1.230x.

Session 15 (fixed Triton configs for GroupNormStatsPass's statistics and apply kernels,
`magi_passes.kernel_configs`; docs/results/session15): all 7 passed on an H200: 2.195x, 1.138x,
1.347x, 2.024x, vae-540p-static **1.249x** (2.3505 -> 1.8815 ms), 1.654x and 1.247x. The same
model in one process (`tools/probes/autotune_ab.py --pairs configs`) read 1.264x and 1.263x
against torch.compile, 1.036-1.037x against the configs off. The threshold stays at 1.2.

Session 18 (ConvPadFoldPass: the causal conv's spatial pad becomes the conv's padding;
docs/results/session18): on an H200 all 8 passed: gqa 2.195x, GroupNorm block 1.136x, norm producer
1.347x, vae-540p-dynamic 2.031x, vae-540p-static 1.269x (example 1.269x), **wan-540p-dynamic
2.938x and wan-540p-static 1.725x** (1.644x and 1.227x the session before, both now marked
host-bound: the candidate's host enqueue, 0.32-0.48 ms, exceeds its 0.26 ms of device time). On an
H100 wan-540p-dynamic 2.873x, wan-540p-static 1.789x, conv-pad-fold-540p 1.109x. The two Wan
thresholds rose to 1.5 and 2.5 to hold the gain, about 13% under the lower of the two machines.

Without --magi-perf the bodies still run: numerics against eager and proof that the passes fired.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from magi_passes import (
    ConvPadFoldPass,
    GroupNormStatsPass,
    MagiPass,
    NormRsqrtPass,
    PassConfig,
)
from pytest_magi.models import VAEDecoderLike, WanCausalStage

pytestmark = pytest.mark.requires_cuda(min_capability=(8, 0))


def _pair(compiled_pair, model_cls, dynamic: bool, label: str):
    torch.manual_seed(0)
    model = model_cls("540p").cuda().to(torch.bfloat16).eval()
    x = model.example_input(device="cuda", dtype=torch.bfloat16)
    pair = compiled_pair(
        model, x, dynamic_dims={0: model_cls.DYNAMIC_HW} if dynamic else None, label=label
    )
    pair.assert_close()
    assert pair.fired("conv_channels_last")
    return pair


@pytest.mark.min_speedup(1.2)
def test_vae_540p_static(compiled_pair) -> None:
    _pair(compiled_pair, VAEDecoderLike, dynamic=False, label="vae-540p-static")


@pytest.mark.min_speedup(1.8)
def test_vae_540p_dynamic_hw(compiled_pair) -> None:
    _pair(compiled_pair, VAEDecoderLike, dynamic=True, label="vae-540p-dynamic")


@pytest.mark.min_speedup(1.5)
def test_wan_540p_static(compiled_pair) -> None:
    _pair(compiled_pair, WanCausalStage, dynamic=False, label="wan-540p-static")


@pytest.mark.min_speedup(2.5)
def test_wan_540p_dynamic_hw(compiled_pair) -> None:
    _pair(compiled_pair, WanCausalStage, dynamic=True, label="wan-540p-dynamic")


@pytest.mark.min_speedup(1.9)
def test_gqa_projection_dynamic_inference(compiled_pair) -> None:
    """pytorch#181108's shape: B=4 T=4096 Hq=32 Hkv=4 D=64 bf16, Hq and D dynamic.

    Measured 0.357 -> 0.163 ms (2.19x) on an H200 with benchmarks/gqa.py; threshold a little under.
    """
    from pytest_magi.models import GQAProjection

    x = GQAProjection.example_input("h200", device="cuda", dtype=torch.bfloat16)
    pair = compiled_pair(
        GQAProjection(kv_heads=4),
        x,
        dynamic_dims={0: GQAProjection.DYNAMIC_DIMS},
        label="gqa-dynamic",
    )
    pair.assert_close()
    assert pair.fired("dynamic_reshape")
    assert pair.kernel_counts["candidate"] < pair.kernel_counts["baseline"]


def _pass_alone(compiled_pair, model, *inputs: torch.Tensor, cls: type[MagiPass], label: str):
    """One measured pass alone: the baseline has its `PassConfig` switch (`cls.measured_by`)
    off, the candidate on, decisions off on both; the pair must be as close to a
    high-precision run as eager, and the pass must fire."""
    assert cls.measured_by is not None
    pair = compiled_pair(
        model,
        *inputs,
        baseline=PassConfig(measure_decisions=False, **{cls.measured_by: False}),
        candidate=PassConfig(measure_decisions=False),
        label=label,
    )
    pair.assert_close()
    assert pair.fired(cls.name)
    return pair


class _NormProducer(torch.nn.Module):
    """The Wan 2.2 decoder's conv-input producer: `WanRMS_norm` (F.normalize of the fp32 input,
    rounded, times scale and gamma), SiLU, the causal pad, written channels-last for the conv."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.scale = channels**0.5
        self.gamma = torch.nn.Parameter(torch.randn(channels, 1, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.normalize(x.float(), dim=1).to(x.dtype) * self.scale * self.gamma + 0.0
        y = F.pad(F.silu(y), (1, 1, 1, 1, 2, 0))
        return y.contiguous(memory_format=torch.channels_last_3d)


@pytest.mark.min_speedup(1.25)
def test_norm_producer_540p(compiled_pair) -> None:
    """NormRsqrtPass alone (the only difference between the sides; decisions off on both), on
    the decoder's 512-channel producer at 5 x 272 x 480. Session 10, H200, torch 2.11
    (tools/probes/norm_rsqrt_ab.py): 1.3961 -> 1.0359 ms, 1.348x; threshold a little under."""
    torch.manual_seed(0)
    model = _NormProducer(512).cuda().to(torch.bfloat16).eval()
    x = torch.randn(1, 512, 5, 272, 480, device="cuda", dtype=torch.bfloat16)
    _pass_alone(
        compiled_pair,
        model,
        x,
        cls=NormRsqrtPass,
        label="norm-producer-540p",
    )


class _GroupNormBlock(torch.nn.Module):
    """conv3d -> GroupNorm(32) -> SiLU -> conv3d: a VAE decoder's resnet half."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = torch.nn.Conv3d(channels, channels, 3, padding=1)
        self.norm = torch.nn.GroupNorm(32, channels)
        self.conv2 = torch.nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2(F.silu(self.norm(self.conv1(x))))


@pytest.mark.min_speedup(1.06)
def test_group_norm_block_540p(compiled_pair) -> None:
    """GroupNormStatsPass alone (the only difference between the sides; decisions off on both),
    on a 256-channel block at 7 x 136 x 240. Session 12, H200, torch 2.11
    (tools/probes/gn_stats_ab.py, the same configurations): 2.6967 -> 2.4636 ms, 1.094x; threshold
    a little under. Written after that session's device time ran out, so first run as this test
    in the next GPU run (docs/benchmarks.md, "Session 12")."""
    torch.manual_seed(0)
    model = _GroupNormBlock(256).cuda().to(torch.bfloat16).eval()
    x = torch.randn(1, 256, 7, 136, 240, device="cuda", dtype=torch.bfloat16)
    _pass_alone(
        compiled_pair,
        model,
        x,
        cls=GroupNormStatsPass,
        label="group-norm-block-540p",
    )


class _CausalConv(torch.nn.Module):
    """The Wan 2.2 decoder's steady-chunk causal conv: `WanRMS_norm`, SiLU, the previous chunk's
    two frames concatenated in front, the spatial zero pad, a 3x3x3 conv with padding=0."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.scale = channels**0.5
        self.gamma = torch.nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.conv = torch.nn.Conv3d(channels, channels, 3)

    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> torch.Tensor:
        y = F.silu(F.normalize(x.float(), dim=1).to(x.dtype) * self.scale * self.gamma + 0.0)
        return self.conv(F.pad(torch.cat([cache, y], dim=2), (1, 1, 1, 1, 0, 0)))


@pytest.mark.min_speedup(1.05)
def test_conv_pad_fold_540p(compiled_pair) -> None:
    """ConvPadFoldPass alone (the only difference between the sides; decisions off on both), on
    the decoder's 256-channel causal conv at 5 x 272 x 480 with its cache. Session 18
    (tools/probes/conv_pad_fold_ab.py, the same block): 1.123x on an H100 (4.1194 -> 3.6619 ms;
    512 channels 1.073x, 512 x 3 x 136 x 240 1.078x); threshold under the smallest of those."""
    torch.manual_seed(0)
    model = _CausalConv(256).cuda().to(torch.bfloat16).eval()
    x = torch.randn(1, 256, 5, 272, 480, device="cuda", dtype=torch.bfloat16)
    cache = torch.randn(1, 256, 2, 272, 480, device="cuda", dtype=torch.bfloat16)
    _pass_alone(
        compiled_pair,
        model,
        x,
        cache,
        cls=ConvPadFoldPass,
        label="conv-pad-fold-540p",
    )
