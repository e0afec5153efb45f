"""GroupNormStatsPass: the rewrite on real post-grad graphs, its gates, its numerics (against
fp64, on data that makes a naive variance cancel) and the CUDA kernels Inductor generates with it
(fake CUDA: generated, never run). Its speed is measured on the GPU by
tests/test_perf_gpu.py::test_vae_540p_static and ::test_group_norm_block_540p."""

from __future__ import annotations

import re
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from fake_timers import FakeTimer
from torch._inductor import config as inductor_config

from magi_passes import GroupNormStatsPass, MagiBackend, PassConfig, PassManager
from magi_passes.compile.decisions import Decider, DecisionCache
from magi_passes.passes.group_norm import is_group_norm_stats
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.numerics.judgment import _relative_l2 as rel_l2

aten = torch.ops.aten


class Block(torch.nn.Module):
    """conv3d -> GroupNorm -> SiLU -> conv3d, a VAE decoder's resnet half."""

    def __init__(self, channels: int = 64, groups: int = 32, conv: bool = True) -> None:
        super().__init__()
        self.conv1 = torch.nn.Conv3d(channels, channels, 3, padding=1) if conv else None
        self.norm = torch.nn.GroupNorm(groups, channels)
        self.conv2 = torch.nn.Conv3d(channels, channels, 3, padding=1) if conv else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.conv1 is not None:
            x = self.conv1(x)
        y = F.silu(self.norm(x))
        return self.conv2(y) if self.conv2 is not None else y


def compile_with(
    model: torch.nn.Module, x: torch.Tensor, config: PassConfig, *, dynamic: bool = False
) -> tuple[MagiBackend, torch.Tensor]:
    """`model(x)` compiled on CPU by the magi backend (caches off, so every pass runs)."""
    torch._dynamo.reset()
    backend = MagiBackend(config)
    with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
        out = torch.compile(model, backend=backend, dynamic=dynamic)(x)
    return backend, out


def gn_result(backend: MagiBackend) -> Any:
    (result,) = [r for r in backend.managers[-1].results if r.name == "group_norm_stats"]
    return result


def block_inputs(channels: int = 64, dtype: torch.dtype = torch.bfloat16) -> tuple[Any, Any]:
    torch.manual_seed(0)
    model = Block(channels).to(dtype).eval()
    return model, torch.randn(1, channels, 3, 6, 8, dtype=dtype)


STATIC = PassConfig(measure_decisions=False)
CHUNKED = STATIC.replace(group_norm_chunked_stats=True)  # the statistics cut into chunks


# --------------------------------------------------------------------------- the rewrite
def test_group_norm_statistics_are_reduced_per_channel_then_per_group() -> None:
    model, x = block_inputs()
    backend, out = compile_with(model, x, STATIC)
    result = gn_result(backend)
    assert result.applied and result.counts["group_norms_rewritten"] == 1
    graph = backend.managers[-1].graphs[-1]
    # one var_mean left, over the positions of each channel; two means combine the channels
    assert graph.count("aten.var_mean.correction") == 1
    assert "var_mean.correction](args = (%view, [3])" in graph.replace("%reshape", "%view")
    assert graph.count("aten.mean.dim") == 2
    # Inductor's CPU decomposition already applies GroupNorm as a per-channel scale and shift,
    # so there is no per-group operand to store per channel (the CUDA one: the tests below)
    assert result.counts["group_norm_operands_per_channel"] == 0
    with torch.no_grad():
        ref = model.double()(x.double())
        eager = model.to(torch.bfloat16)(x)
    assert rel_l2(out, ref) <= 2 * rel_l2(eager, ref)


def test_the_statistics_match_fp64_where_a_naive_variance_cancels() -> None:
    """Channels far from zero and from each other (offsets of 1e3, spread 1e-2): the group's
    variance is mostly the spread of the channel means. In fp32 the rewritten statistics are as
    close to fp64 as Inductor's own single reduction."""
    torch.manual_seed(0)
    c = 16
    offsets = 1000.0 + torch.randn(1, c, 1, 1, 1) * 0.05
    x = offsets + torch.randn(1, c, 3, 6, 8) * 1e-2
    model = Block(c, groups=4).eval()
    backend, on = compile_with(model, x, STATIC)
    assert gn_result(backend).counts["group_norms_rewritten"] == 1  # fp32 statistics
    _, off = compile_with(model, x, STATIC.replace(enable_group_norm_stats=False))
    with torch.no_grad():
        ref = model.double()(x.double())
    err_on, err_off = rel_l2(on, ref), rel_l2(off, ref)
    assert err_on <= max(2 * err_off, 1e-5), (err_on, err_off)


def test_dynamic_shapes() -> None:
    model, x = block_inputs()
    backend, out = compile_with(model, x, STATIC, dynamic=True)
    assert gn_result(backend).counts["group_norms_rewritten"] == 1
    with torch.no_grad():
        ref = model.double()(x.double())
        eager = model.to(torch.bfloat16)(x)
    assert rel_l2(out, ref) <= 2 * rel_l2(eager, ref)
    x2 = torch.randn(1, 64, 2, 4, 10, dtype=torch.bfloat16)  # another size, the same graph
    with torch.no_grad():
        out2 = torch.compile(model, backend=backend, dynamic=True)(x2)
        ref2 = model.double()(x2.double())
        eager2 = model.to(torch.bfloat16)(x2)
    assert rel_l2(out2, ref2) <= 2 * rel_l2(eager2, ref2)


@pytest.mark.parametrize("config", [STATIC, CHUNKED], ids=["per-channel", "chunked"])
def test_training_gradients_match_eager(config: PassConfig) -> None:
    """In a training graph the forward's statistics are also saved for backward."""
    torch.manual_seed(0)
    model = Block(32).eval()
    x = torch.randn(1, 32, 3, 6, 8, requires_grad=True)
    torch._dynamo.reset()
    backend = MagiBackend(config)
    with inductor_config.patch(force_disable_caches=True):
        torch.compile(model, backend=backend)(x).square().sum().backward()
    assert backend.fired("group_norm_stats")
    chunked = [
        r for m in backend.managers for rs in m.history for r in rs if r.name == "group_norm_stats"
    ]
    assert sum(r.counts.get("group_norms_chunked", 0) for r in chunked) == (config is CHUNKED)
    compiled_grads = [x.grad.clone(), *(p.grad.clone() for p in model.parameters())]
    x.grad = None
    model.zero_grad()
    model(x).square().sum().backward()
    eager_grads = [x.grad, *(p.grad for p in model.parameters())]
    for got, want in zip(compiled_grads, eager_grads, strict=True):
        torch.testing.assert_close(got, want, rtol=1e-3, atol=1e-4)


# --------------------------------------------------------------------------- the gates
def test_channels_first_activations_are_left_alone() -> None:
    """Without the channels-last rewrite (switched off, or no convolution) GroupNorm's own
    reduction already reads contiguous positions."""
    model, x = block_inputs()
    backend, _ = compile_with(model, x, STATIC.replace(enable_conv_channels_last=False))
    result = gn_result(backend)
    assert not result.applied and result.counts["group_norms_skipped_layout"] == 1
    assert backend.managers[-1].graphs[-1].count("aten.var_mean.correction") == 1
    torch.manual_seed(0)
    backend, _ = compile_with(Block(64, conv=False).to(torch.bfloat16).eval(), x, STATIC)
    assert not gn_result(backend).applied
    assert gn_result(backend).counts["group_norms_skipped_layout"] == 1


def test_statistics_in_half_precision_are_left_alone() -> None:
    torch.manual_seed(0)
    w = torch.randn(16, 16, 3, 3, 3, dtype=torch.bfloat16)

    def half_stats(x: torch.Tensor) -> torch.Tensor:
        y = F.conv3d(x, w, padding=1)
        g = y.reshape(1, 8, 2, -1)
        var, mean = torch.var_mean(g, [2, 3], correction=0, keepdim=True)
        return F.conv3d(((g - mean) * var).reshape(y.shape), w, padding=1)

    x = torch.randn(1, 16, 3, 6, 8, dtype=torch.bfloat16)
    backend, _ = compile_with(half_stats, x, STATIC)  # type: ignore[arg-type]
    result = gn_result(backend)
    assert result.counts["group_norms_skipped_dtype"] == 1 and not result.applied


def test_a_var_mean_that_is_not_group_norms_is_not_matched() -> None:
    """Over dims 2 and 3 of a 4-D tensor that is no grouping reshape (an instance norm of
    images), or with the sample variance, or without keepdim: not GroupNorm's statistics."""
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    x.meta["val"] = torch.empty(2, 8, 5, 6)
    grouped = graph.call_function(aten.reshape.default, (x, [2, 4, 2, 30]))
    grouped.meta["val"] = torch.empty(2, 4, 2, 30)
    cases = {
        "group norm": (grouped, [2, 3], {"correction": 0, "keepdim": True}, True),
        "negative dims": (grouped, [-2, -1], {"correction": 0, "keepdim": True}, True),
        "no reshape": (x, [2, 3], {"correction": 0, "keepdim": True}, False),
        "sample variance": (grouped, [2, 3], {"correction": 1, "keepdim": True}, False),
        "no keepdim": (grouped, [2, 3], {"correction": 0, "keepdim": False}, False),
        "one dim": (grouped, [3], {"correction": 0, "keepdim": True}, False),
        "every dim": (grouped, None, {"correction": 0, "keepdim": True}, False),
    }
    for label, (arg, dims, kwargs, expected) in cases.items():
        node = graph.call_function(aten.var_mean.correction, (arg, dims), kwargs)
        assert is_group_norm_stats(node) is expected, label
    ungrouped = graph.call_function(aten.reshape.default, (x, [2, 3, 2, 40]))
    ungrouped.meta["val"] = torch.empty(2, 3, 2, 40)  # 3 * 2 != 8 channels
    node = graph.call_function(
        aten.var_mean.correction, (ungrouped, [2, 3]), {"correction": 0, "keepdim": True}
    )
    assert not is_group_norm_stats(node)


def test_the_config_switch_env_var_and_order(monkeypatch: pytest.MonkeyPatch) -> None:
    assert GroupNormStatsPass(PassConfig()).enabled()
    assert not GroupNormStatsPass(PassConfig(enable_group_norm_stats=False)).enabled()
    monkeypatch.setenv("MAGI_PASSES__ENABLE_GROUP_NORM_STATS", "0")
    assert PassConfig.from_env().enable_group_norm_stats is False
    assert GroupNormStatsPass.measured_by == "enable_group_norm_stats"
    names = [p.name for p in PassManager().passes]
    assert names.index("conv_channels_last") < names.index("group_norm_stats")
    model, x = block_inputs()
    backend, _ = compile_with(model, x, STATIC.replace(enable_group_norm_stats=False))
    assert not backend.fired("group_norm_stats")
    assert backend.managers[-1].graphs[-1].count("aten.mean.dim") == 0


# --------------------------------------------------------------------------- CUDA codegen
def test_fake_cuda_the_statistics_read_channels_last_contiguously() -> None:
    """What the GPU runs: without the pass, the group's reduction loads channels-last data one
    group of channels at a time (Inductor's "inner" reduction hint, the channel stride inside
    the index); with it, the first reduction is an "outer" one whose loads run along the
    channels, and a small kernel combines the channels of each group."""
    model, x = block_inputs(128)
    x = torch.randn(1, 128, 3, 16, 24, dtype=torch.bfloat16)
    with torch.no_grad():
        on = inductor_codegen(model, x, config=STATIC)
        off = inductor_codegen(model, x, config=STATIC.replace(enable_group_norm_stats=False))
    # a small kernel combines each group's channels and stores the mean and rsqrt per channel;
    # the per-channel reduction may take one split stage more than the group's did (7 against 5
    # kernels at this size)
    assert off.kernel_count < on.kernel_count <= off.kernel_count + 2

    def hints(code: Any) -> list[str]:
        return [
            line.split("ReductionHint.")[1].rstrip(",").strip()
            for k in code.kernels
            if k.kind != "pointwise"
            for line in k.source.splitlines()
            if "reduction_hint=ReductionHint." in line
        ]

    assert "OUTER" in hints(on) and "OUTER" not in hints(off)
    (first_on,) = [k for k in on.kernels if "reduction_hint=ReductionHint.OUTER," in k.source]
    # the conv output's load: the channel (x0) is the contiguous index, positions stride 128
    assert "in_ptr0 + (x0 + 128*" in first_on.source


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic-positions"])
def test_fake_cuda_the_apply_kernel_reads_its_statistics_per_channel(dynamic: bool) -> None:
    """The normalise + SiLU kernel over the whole activation: without the pass it loads the
    group's mean and rsqrt through `x0 // 4` (a gather per element, 4 channels a group); with it
    every load of that kernel is at the element or at its channel, and the group's values are
    stored per channel by a small kernel before it. Only in static graphs: with dynamic
    positions the GPU measured a loss, so the gathers stay."""
    model, _ = block_inputs(128)
    x = torch.randn(1, 128, 3, 16, 24, dtype=torch.bfloat16)
    dims = {0: (2, 3, 4)} if dynamic else None
    with torch.no_grad():
        on = inductor_codegen(model, x, config=STATIC, dynamic_dims=dims)
        off = inductor_codegen(
            model, x, config=STATIC.replace(enable_group_norm_stats=False), dynamic_dims=dims
        )
    (result,) = [r for r in on.pass_results if r.name == "group_norm_stats"]
    assert result.counts["group_norms_rewritten"] == 1
    # the mean and the rsqrt, statically; none with dynamic positions
    assert result.counts["group_norm_operands_per_channel"] == (0 if dynamic else 2)

    def apply_kernel(code: Any) -> str:
        (kernel,) = [
            k.source
            for k in code.kernels
            if k.kind == "pointwise" and "libdevice.exp" in k.source and "tl.store(" in k.source
        ]
        return kernel

    def loads(source: str) -> list[str]:
        return [
            line.split("tl.load(")[1].split(",")[0]
            for line in source.splitlines()
            if "tl.load(" in line
        ]

    assert any("x0 // 4" in load for load in loads(apply_kernel(off)))
    on_loads = loads(apply_kernel(on))
    if dynamic:
        assert any("x0 // 4" in load for load in on_loads)
        return
    # the activation at the element's index (x2 or x3, by torch version), then its bias, the
    # mean, the rsqrt and the affine at the channel's (x0): no arithmetic in any index
    assert all(re.fullmatch(r"in_ptr\d+ \+ \(x\d\)", load) for load in on_loads), on_loads
    assert sum(load.endswith("+ (x0)") for load in on_loads) >= 3, on_loads


@pytest.mark.parametrize("config", [STATIC, CHUNKED], ids=["per-channel", "chunked"])
def test_fake_cuda_the_rewrite_leaves_no_unused_node_for_inductor_to_lower(
    config: PassConfig,
) -> None:
    """Once the normalisation reads its operands per channel, the per-group statistics and the
    ops that made the old operands from them (the variance plus eps, its rsqrt) are unused;
    the pass erases them, so Inductor neither lowers them nor weighs them for fusion (it would
    drop their buffers unrun: the same kernels either way). HunyuanVideo's decoder
    had 210 such nodes, 60 of them mean reductions."""
    model, _ = block_inputs(128)
    x = torch.randn(1, 128, 3, 16, 24, dtype=torch.bfloat16)
    unused: list[str] = []

    def record(graph: torch.fx.Graph) -> None:  # runs after the magi passes
        unused.extend(str(n.target) for n in graph.nodes if n.op == "call_function" and not n.users)

    with torch.no_grad():
        code = inductor_codegen(model, x, config=config, passes=[record])
    (result,) = [r for r in code.pass_results if r.name == "group_norm_stats"]
    assert result.counts["group_norms_rewritten"] == 1
    assert result.counts["group_norm_operands_per_channel"] == 2
    assert unused == []


# --------------------------------------------------------------------------- chunked statistics
# --------------------------------------------------------------------------- chunked statistics


def test_chunk_plan_takes_the_most_chunks_that_divide_the_positions() -> None:
    from magi_passes.passes.group_norm import chunk_plan

    # HunyuanVideo's 512 channels in 32 groups over 3 x 60 x 106 positions: 16 x 60 chunks
    assert chunk_plan((1, 32, 16, 19080)) == (60, 318)
    assert chunk_plan((1, 32, 4, 384)) == (12, 32)  # the chunks keep 32 positions or more
    assert chunk_plan((1, 32, 2, 1 << 20)) == (512, 2048)  # 2 x 512 = 1024 of a group
    assert chunk_plan((1, 32, 4, 2 * 1009)) == (2, 1009)  # 2018 has no divisor between 2 and 63
    assert chunk_plan((1, 32, 4, 1009)) is None  # a prime number of positions: per channel
    assert chunk_plan((1, 32, 4, 48)) is None  # too few positions for two chunks of 32
    assert chunk_plan((1, 32, 4, object())) is None  # a symbolic size: per channel


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_chunked_statistics_decode_as_eager(dtype: torch.dtype) -> None:
    """On CPU (Inductor's CPU form applies the statistics per channel already, so the twins go
    unused): the group's statistics from 12 chunks of 32 positions, within 2x eager's distance
    from fp64, and the channel-offset data of the cancellation test as close as the per-channel
    form."""
    model, _ = block_inputs(64, dtype)
    x = torch.randn(1, 64, 4, 12, 8, dtype=dtype)  # 384 positions
    backend, out = compile_with(model, x, CHUNKED)
    result = gn_result(backend)
    assert result.counts["group_norms_chunked"] == 1 and result.counts["group_norms_rewritten"] == 1
    graph = backend.managers[-1].graphs[-1]
    assert "[1, 32, 2, 12, 32]" in graph  # (N, G, C/G, chunks, positions)
    with torch.no_grad():
        ref = model.double()(x.double())
        eager = model.to(dtype)(x)
    assert rel_l2(out, ref) <= max(2 * rel_l2(eager, ref), 1e-6)
    if dtype != torch.float32:
        return
    torch.manual_seed(0)
    c = 16
    far = 1000.0 + torch.randn(1, c, 1, 1, 1) * 0.05 + torch.randn(1, c, 4, 12, 8) * 1e-2
    block = Block(c, groups=4).eval()
    _, chunked = compile_with(block, far, CHUNKED)
    _, per_channel = compile_with(block, far, STATIC)
    with torch.no_grad():
        ref = block.double()(far.double())
    assert rel_l2(chunked, ref) <= max(2 * rel_l2(per_channel, ref), 1e-5)


@pytest.mark.slow
def test_chunked_statistics_fall_back_per_channel_where_the_positions_do_not_divide() -> None:
    model, _ = block_inputs(64)
    x = torch.randn(1, 64, 1, 1, 1009, dtype=torch.bfloat16)  # a prime number of positions
    backend, _ = compile_with(model, x, CHUNKED)
    result = gn_result(backend)
    assert result.counts["group_norms_rewritten"] == 1 and result.counts["group_norms_chunked"] == 0
    backend, _ = compile_with(
        model, torch.randn(1, 64, 4, 12, 8, dtype=torch.bfloat16), CHUNKED, dynamic=True
    )
    assert gn_result(backend).counts["group_norms_chunked"] == 0  # symbolic positions


def test_fake_cuda_chunked_statistics_are_two_kernels() -> None:
    """What the GPU would run: the chunks' statistics in one reduction whose loads run along the
    channels (the channel, x0, is the contiguous index), and each channel's group operands in
    one reduction over the group's channels x chunks, stored per channel; the
    per-channel form takes four (three stages of Inductor's split, then the operands)."""
    model, _ = block_inputs(128)
    x = torch.randn(1, 128, 3, 32, 48, dtype=torch.bfloat16)  # 4608 positions: 144 chunks of 32
    with torch.no_grad():
        chunked = inductor_codegen(model, x, config=CHUNKED)
        per_channel = inductor_codegen(model, x, config=STATIC)
    (result,) = [r for r in chunked.pass_results if r.name == "group_norm_stats"]
    assert result.counts["group_norms_chunked"] == 1
    assert result.counts["group_norm_operands_per_channel"] == 2

    def stats(code: Any) -> list[Any]:  # every GroupNorm kernel before the normalise + SiLU
        return [k for k in code.kernels if "group_norm" in k.name and "silu" not in k.name]

    # at this size the per-channel form's split takes one stage (a looped reduction, the
    # per-group combine, the operands stored): 3 kernels; at HunyuanVideo's, 4
    assert len(stats(chunked)) == 2 < len(stats(per_channel)) == 3
    assert chunked.kernel_count == per_channel.kernel_count - 1
    first, combine = stats(chunked)
    # 128 channels x 144 chunks of 32 positions, loaded along the channels
    assert "xnumel = 18432" in first.source and "r0_numel = 32" in first.source
    assert "in_ptr0 + (x0 + 128*" in first.source
    # 4 channels x 144 chunks a group, for each of the 128 channels: one reduction, persistent
    # on torch 2.13, looped on torch 2.11 (Inductor's persistence rule differs)
    assert combine.kind in ("persistent_reduction", "reduction")
    assert "r0_numel = 576" in combine.source and "xnumel = 128" in combine.source


# --------------------------------------------------------------------------- measured
@pytest.mark.parametrize(
    ("magi_ms", "plain_ms", "choice"), [(1.0, 2.0, "magi"), (2.0, 1.0, "plain")]
)
def test_the_rewrite_is_measured(
    tmp_path: Any, magi_ms: float, plain_ms: float, choice: str
) -> None:
    model, x = block_inputs()
    torch._dynamo.reset()
    backend = MagiBackend(
        decider=Decider(timer=FakeTimer(magi_ms, plain_ms), rounds=1, cache=DecisionCache(tmp_path))
    )
    with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
        torch.compile(model, backend=backend)(x)
    (decision,) = backend.decisions
    assert decision.source == "measured" and decision.choice == choice
    assert "group_norm_stats" in decision.passes
    (dropped,) = backend.discarded
    assert backend.managers[0].fired("group_norm_stats") == (choice == "magi")
    assert dropped.fired("group_norm_stats") == (choice == "plain")
