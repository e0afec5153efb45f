"""NormRsqrtPass: the rewrite on real post-grad graphs, its gates, its numerics and the CUDA
kernels Inductor generates with it (fake CUDA: generated, never run). Its speed is held on the GPU
by tests/test_perf_gpu.py::test_norm_producer_540p."""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torch.nn.functional as F
from fake_timers import FakeTimer
from torch._inductor import config as inductor_config

from magi_passes import MagiBackend, NormRsqrtPass, PassConfig
from magi_passes.compile.decisions import Decider, DecisionCache
from magi_passes.passes.norm_rsqrt import eps_squared
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.numerics.judgment import _relative_l2 as rel_l2

aten = torch.ops.aten


class Recording(NormRsqrtPass):
    """The pass, keeping the graph's text before and after it ran."""

    def __init__(self, config: PassConfig | None = None) -> None:
        super().__init__(config)
        self.before: list[str] = []
        self.after: list[str] = []
        self.graphs: list[torch.fx.Graph] = []

    def apply(self, graph: torch.fx.Graph):  # noqa: ANN201 - PassResult
        self.before.append(str(graph))
        result = super().apply(graph)
        self.after.append(str(graph))
        self.graphs.append(graph)
        return result


def run_pass(fn: Any, *inputs: Any, dynamic: bool = False) -> tuple[Recording, Any]:
    """Compile `fn` on CPU with only the pass as the post-grad pass; its result and output."""
    torch._dynamo.reset()
    p = Recording()
    with (
        inductor_config.patch(post_grad_custom_post_pass=p, force_disable_caches=True),
        torch.no_grad(),
    ):
        out = torch.compile(fn, dynamic=dynamic)(*inputs)
    assert p.last_result is not None
    return p, out


def rms_silu(x: torch.Tensor, gamma: torch.Tensor) -> torch.Tensor:
    """diffusers' WanRMS_norm (channel first) and the SiLU that follows it in the decoder."""
    y = F.normalize(x.float(), dim=1).to(x.dtype) * x.shape[1] ** 0.5 * gamma + 0.0
    return F.silu(y)


def targets(graph: torch.fx.Graph) -> list[Any]:
    return [n.target for n in graph.nodes if n.op == "call_function"]


def bf16_inputs(c: int = 16) -> tuple[torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    x = torch.randn(1, c, 3, 6, 8, dtype=torch.bfloat16)
    return x, torch.randn(c, 1, 1, 1, dtype=torch.bfloat16)


# --------------------------------------------------------------------------- the rewrite
def test_the_division_by_the_norm_becomes_a_product_with_its_rsqrt() -> None:
    x, g = bf16_inputs()
    p, out = run_pass(rms_silu, x, g)
    result = p.last_result
    assert result.applied and result.counts["norms_rewritten"] == 1
    after = p.graphs[-1]
    assert aten.rsqrt.default in targets(after)
    # the root and the division by it are gone; the reduction is kept as it was
    assert aten.pow.Tensor_Scalar in targets(after)  # the square, still feeding the sum
    assert "pow_2" in p.before[-1] and "pow_2" not in p.after[-1]  # pow(sum, 0.5)
    assert p.before[-1].count("aten.div.Tensor") == 2  # the norm's and SiLU's
    assert p.after[-1].count("aten.div.Tensor") == 1  # SiLU's is not a norm's
    assert p.before[-1].count("aten.sum.dim_IntList") == p.after[-1].count("aten.sum.dim_IntList")
    (clamp,) = [n for n in after.nodes if n.target is aten.clamp_min.default]
    # F.normalize's eps 1e-12, squared in fp32
    assert clamp.args[1] == pytest.approx(1e-24, rel=1e-6) and clamp.args[0].name == "sum_1"
    ref = rms_silu(x.double(), g.double())
    assert rel_l2(out, ref) <= 2 * rel_l2(rms_silu(x, g), ref)


def test_divisions_sharing_one_norm_share_one_rsqrt() -> None:
    def two_uses(x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        root = xf.pow(2).sum(1, keepdim=True).sqrt().clamp_min(1e-6)
        return (xf / root).to(x.dtype), ((xf * 2) / root).to(x.dtype)

    x, _ = bf16_inputs()
    p, (a, b) = run_pass(two_uses, x)
    assert p.last_result.counts["norms_rewritten"] == 2
    assert targets(p.graphs[-1]).count(aten.rsqrt.default) == 1
    ref = x.double() / x.double().pow(2).sum(1, keepdim=True).sqrt()
    torch.testing.assert_close(a.double(), ref, rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(b.double(), 2 * ref, rtol=1e-2, atol=1e-2)


def test_dynamic_shapes() -> None:
    """The broadcast's sizes are `sym_size` nodes under dynamic shapes (the first GPU run of the
    Wan decode's second call, which recompiles dynamic, failed there)."""
    x, g = bf16_inputs()
    p, out = run_pass(rms_silu, x, g, dynamic=True)
    assert p.last_result.counts["norms_rewritten"] == 1
    (expand,) = [n for n in p.graphs[-1].nodes if n.target is aten.expand.default]
    assert expand.args[0].target is aten.rsqrt.default
    assert any(isinstance(size, torch.fx.Node) for size in expand.args[1])  # symbolic sizes
    ref = rms_silu(x.double(), g.double())
    assert rel_l2(out, ref) <= 2 * rel_l2(rms_silu(x, g), ref)


# --------------------------------------------------------------------------- the gates
def test_a_full_precision_result_is_left_alone() -> None:
    x, g = bf16_inputs()
    p, out = run_pass(rms_silu, x.float(), g.float())
    assert not p.last_result.applied
    assert p.last_result.counts["norms_skipped_precision"] == 1
    assert p.before == p.after
    torch.testing.assert_close(out, rms_silu(x.float(), g.float()))


def test_a_root_of_what_may_be_negative_is_left_alone() -> None:
    def not_squares(x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        root = xf.sum(1, keepdim=True).abs().sqrt().clamp_min(1e-6)
        return (xf / root).to(x.dtype)

    def signed(x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        return (xf / xf.sum(1, keepdim=True).pow(0.5).clamp_min(1e-6)).to(x.dtype)

    x, _ = bf16_inputs()
    for fn in (not_squares, signed):
        p, _out = run_pass(fn, x)
        assert p.last_result.counts == {
            "norms_rewritten": 0,
            "norms_skipped_precision": 0,
            "norms_skipped_eps": 0,
            "norms_skipped_not_square_sum": 1,
        }, fn.__name__
        assert p.before == p.after


@pytest.mark.parametrize("eps", [0.0, 1e-30])
def test_an_eps_whose_square_is_not_a_normal_fp32_is_left_alone(eps: float) -> None:
    def norm(x: torch.Tensor) -> torch.Tensor:
        return F.normalize(x.float(), dim=1, eps=eps).to(x.dtype)

    x, _ = bf16_inputs()
    p, out = run_pass(norm, x)
    assert p.last_result.counts["norms_skipped_eps"] == 1 and p.before == p.after
    torch.testing.assert_close(out, norm(x))


def test_eps_squared() -> None:
    assert eps_squared(1e-12) == pytest.approx(1e-24, rel=1e-6)
    assert eps_squared(1e-6) == float(torch.tensor(1e-6).square())
    for bad in (0.0, -1e-6, 1e-30, float("inf"), float("nan"), True, "1e-6", None):
        assert eps_squared(bad) is None, bad


def test_edge_values_match_the_division() -> None:
    """All-zero rows stay 0 (x * 1/eps); NaN and inf propagate as the division's do."""
    x = torch.ones(2, 4, 3, dtype=torch.bfloat16)
    x[0] = 0
    x[1, :, 0] = float("nan")
    x[1, 0, 1] = float("inf")

    def norm(t: torch.Tensor) -> torch.Tensor:
        return F.normalize(t.float(), dim=1).to(t.dtype)

    p, out = run_pass(norm, x)
    assert p.last_result.counts["norms_rewritten"] == 1
    torch.testing.assert_close(out, norm(x), equal_nan=True)


def test_the_config_switch_and_env_var(monkeypatch: pytest.MonkeyPatch) -> None:
    assert NormRsqrtPass(PassConfig()).enabled()
    assert not NormRsqrtPass(PassConfig(enable_norm_rsqrt=False)).enabled()
    monkeypatch.setenv("MAGI_PASSES__ENABLE_NORM_RSQRT", "0")
    assert PassConfig.from_env().enable_norm_rsqrt is False
    assert NormRsqrtPass.measured_by == "enable_norm_rsqrt"


# --------------------------------------------------------------------------- CUDA codegen
def test_fake_cuda_kernels_take_rsqrt_instead_of_root_and_division() -> None:
    """What the GPU runs: the producer kernel computes `libdevice.rsqrt` and a product where it
    computed `tl.sqrt_rn` and a division per element; the kernels are the same ones."""
    x, g = bf16_inputs(64)

    def producer(x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        return F.pad(rms_silu(x, g), (1, 1, 1, 1, 2, 0))

    with torch.no_grad():
        on = inductor_codegen(producer, x, g, config=PassConfig())
        off = inductor_codegen(producer, x, g, config=PassConfig(enable_norm_rsqrt=False))
    assert on.kernel_count == off.kernel_count
    assert [k.kind for k in on.kernels] == [k.kind for k in off.kernels]
    (apply_on,) = [k for k in on.kernels if k.kind == "pointwise"]
    (apply_off,) = [k for k in off.kernels if k.kind == "pointwise"]
    assert "sqrt_rn" in apply_off.source and "rsqrt" not in apply_off.source
    assert "libdevice.rsqrt" in apply_on.source and "sqrt_rn" not in apply_on.source
    # one division per element left, SiLU's; the norm's was the other
    assert apply_off.source.count(" / ") == 2 and apply_on.source.count(" / ") == 1
    # the reduction kernel is untouched
    reductions_on = [k.source for k in on.kernels if k.kind != "pointwise"]
    reductions_off = [k.source for k in off.kernels if k.kind != "pointwise"]
    assert len(reductions_on) == len(reductions_off) == 1


# --------------------------------------------------------------------------- measured
@pytest.mark.parametrize(
    ("magi_ms", "plain_ms", "choice"), [(1.0, 2.0, "magi"), (2.0, 1.0, "plain")]
)
def test_a_graph_with_a_norm_and_no_convolution_is_measured(
    tmp_path: Any, magi_ms: float, plain_ms: float, choice: str
) -> None:
    torch._dynamo.reset()
    x, g = bf16_inputs()
    timer = FakeTimer(magi_ms, plain_ms)
    backend = MagiBackend(decider=Decider(timer=timer, rounds=1, cache=DecisionCache(tmp_path)))
    # (caches off: a variant served by the FX graph cache runs no pass, so none would be named)
    with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
        out = torch.compile(rms_silu, backend=backend)(x, g)
    (decision,) = backend.decisions
    assert (decision.source, decision.choice, decision.passes) == (
        "measured",
        choice,
        ("norm_rsqrt",),
    )
    assert set(timer.calls) == {"magi", "plain"}
    (dropped,) = backend.discarded
    kept = backend.managers[0]
    assert kept.fired("norm_rsqrt") == (choice == "magi")
    assert dropped.fired("norm_rsqrt") == (choice == "plain")
    ref = rms_silu(x.double(), g.double())
    assert rel_l2(out, ref) <= 2 * rel_l2(rms_silu(x, g), ref)
    # where the compile time went: both variants and the timing are accounted for
    seconds = backend.seconds
    assert seconds["compile"] > 0 and seconds["compile_discarded"] > 0 and seconds["measure"] > 0
    text = backend.seconds_text()
    assert (
        "(1 graphs)" in text and "(1 measured, 0 cached)" in text and "discarded variants" in text
    )
    assert f"kept plain {int(choice == 'plain')} of 1 decided" in text
    # the call holds both compiles and the timing; what is left is the backend's own work
    parts = seconds["compile"] + seconds["compile_discarded"] + seconds["measure"]
    assert seconds["calls"] >= parts
    assert backend.own_seconds() == pytest.approx(seconds["calls"] - parts)
    assert f"the backend's own work {backend.own_seconds():.1f} s" in text


def test_a_root_read_elsewhere_is_kept() -> None:
    """The pass erases only the nodes it orphaned: a clamped root that is also an output stays."""

    def norm_and_root(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        xf = x.float()
        root = xf.pow(2).sum(1, keepdim=True).sqrt().clamp_min(1e-6)
        return (
            (xf / root.expand_as(xf)).to(x.dtype),
            (xf * 3 / root.expand_as(xf)).to(x.dtype),
            root,
        )

    x, _ = bf16_inputs()
    p, (a, b, root) = run_pass(norm_and_root, x)
    assert p.last_result.counts["norms_rewritten"] == 2
    graph = p.graphs[-1]
    graph.lint()
    assert targets(graph).count(aten.clamp_min.default) == 2  # the output's and the new one
    assert targets(graph).count(aten.rsqrt.default) == 1
    ref = x.double().pow(2).sum(1, keepdim=True).sqrt()
    torch.testing.assert_close(root.double(), ref, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(a.double(), x.double() / ref, rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(b.double(), 3 * x.double() / ref, rtol=1e-2, atol=1e-2)
