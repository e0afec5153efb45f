"""Testing a pass of your own: `passes=[...]`, ops before/after, compile health, kernel diff,
numerics against a higher-precision reference (docs/testing-a-pass.md).

CPU only and small: the pairs compile C++ kernels of a few ops; the kernel diff of the
channels-last pass runs through fake-CUDA codegen, where it is about CUDA kernels.
"""

from __future__ import annotations

import re
import textwrap

import pytest
import torch
from torch import nn
from torch._inductor.custom_graph_pass import CustomGraphPass

from magi_passes import MagiPass, PassConfig, PassResult
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.capture.compile_stats import CompileStats
from pytest_magi.capture.kernel_diff import kernel_diff
from pytest_magi.numerics.judgment import (
    BaselineMiscompiled,
    BaselineNumericsWarning,
    judge_against_reference,
)
from pytest_magi.pairs.compiled import CompiledPair

aten = torch.ops.aten


class MulByTwoToAdd(CustomGraphPass):
    """`aten.mul(x, 2)` -> `aten.add(x, x)`: the same numbers, another op."""

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        for node in list(graph.nodes):
            if node.op == "call_function" and node.target == aten.mul.Tensor:
                x, other = node.args
                if other == 2:
                    node.target = aten.add.Tensor
                    node.args = (x, x)

    def uuid(self) -> str:
        return "tests.MulByTwoToAdd/1"


class ScaleOutput(MagiPass):
    """A deliberately wrong pass: multiplies the graph's first output by 1.05."""

    name = "scale_output"

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        out = next(iter(graph.find_nodes(op="output")))
        first = out.args[0][0]
        with graph.inserting_before(out):
            scaled = graph.call_function(aten.mul.Tensor, (first, 1.05))
        scaled.meta = dict(first.meta)
        out.args = ((scaled, *out.args[0][1:]),)
        return PassResult(self.name, applied=True, reason="scaled the output", counts={"n": 1})


def times_two_sin(x: torch.Tensor) -> torch.Tensor:
    return (x * 2).sin()


@pytest.fixture(scope="module")
def mul_pair() -> CompiledPair:
    return CompiledPair.build(times_two_sin, torch.randn(8, 8), passes=[MulByTwoToAdd()])


# --------------------------------------------------------------------------- ops before/after
def test_user_pass_is_seen_in_op_count_before_and_after(mul_pair: CompiledPair) -> None:
    assert mul_pair.op_count(aten.mul, stage="before") == 1
    assert mul_pair.op_count(aten.mul) == 0  # stage="after" by default
    assert mul_pair.op_count(aten.add.Tensor) == 1
    assert mul_pair.op_count("aten.add") == mul_pair.op_count("add") == 1
    # the baseline ran no pass: the same graph before and after
    assert mul_pair.op_count(aten.mul, side="baseline", stage="before") == 1
    assert mul_pair.op_count(aten.mul, side="baseline") == 1
    mul_pair.assert_ops(before={aten.mul: 1, aten.add: 0}, after={aten.mul: 0, aten.add: 1})
    assert mul_pair.label == "times_two_sin[inductor vs passes[MulByTwoToAdd]]"
    mul_pair.assert_close()


def test_assert_ops_failure_lists_ops_present_and_absent(mul_pair: CompiledPair) -> None:
    with pytest.raises(AssertionError) as info:
        mul_pair.assert_ops(after={aten.mul: 1, aten.cos: 0})
    text = str(info.value)
    assert "after the passes: aten.mul expected 1, found 0" in text
    assert "ops present after (1 graph(s)): aten.add.Tensor=1, aten.sin.default=1" in text
    assert "absent after: aten.mul, aten.cos" in text


def test_fx_graphs_are_copies_kept_as_graphs(mul_pair: CompiledPair) -> None:
    before, after = mul_pair.fx_graphs(stage="before"), mul_pair.fx_graphs(stage="after")
    assert all(isinstance(g, torch.fx.Graph) for g in before + after)
    assert before[0] is not after[0] and str(before[0]) != str(after[0])
    with pytest.raises(ValueError, match="stage='middle': expected 'before'"):
        mul_pair.op_count(aten.mul, stage="middle")


def test_a_plain_callable_pass_and_composition_with_the_magi_passes() -> None:
    def rewrite(graph: torch.fx.Graph) -> None:
        MulByTwoToAdd()(graph)

    pair = CompiledPair.build(
        times_two_sin, torch.randn(4, 4), passes=[rewrite], candidate=PassConfig()
    )
    assert pair.label.endswith("vs magi+passes[rewrite]]")
    assert pair.op_count(aten.mul, stage="before") == 1 and pair.op_count(aten.mul) == 0
    assert "conv_channels_last" in {r.name for r in pair.results["candidate"]}  # magi ran too


# --------------------------------------------------------------------------- kernel diff
def test_kernel_diff_of_the_pair_names_the_changed_kernel(mul_pair: CompiledPair) -> None:
    diff = mul_pair.kernel_diff()
    assert len(diff.only_baseline) == 1 and len(diff.only_candidate) == 1 and not diff.shared
    assert diff.changed
    text = str(diff)
    assert text.startswith("kernel diff: 0 shared, 1 only in the baseline (removed), 1 only")
    # the same kernel name and fused ops, another body: shown as one kernel that changed
    assert "~ cpp_fused_mul_sin_0 -> cpp_fused_mul_sin_0 [inference cpp: body changed" in text
    assert len(diff.changed_pairs) == 1


class Conv3dNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv3d(4, 8, 3, padding=1)
        self.conv2 = nn.Conv3d(8, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2(torch.nn.functional.silu(self.conv1(x)) + 1)


def test_kernel_diff_of_the_channels_last_pass_on_fake_cuda() -> None:
    """CUDA code generated without a GPU: the channels-last rewrite changes the layout of the
    pointwise kernels around the convolutions, and the diff lists exactly those."""
    net = Conv3dNet().eval()
    x = torch.randn(1, 4, 4, 8, 8)
    base = inductor_codegen(net, x)
    cand = inductor_codegen(
        net, x, config=PassConfig(enable_nd_tiling=False, enable_dynamic_reshape=False)
    )
    diff = kernel_diff(base, cand)
    assert diff.changed, str(diff)
    names = {k.name for k in diff.only_baseline + diff.only_candidate}
    assert names and all(n.startswith("triton_") for n in names), names
    assert len(diff.shared) + len(diff.only_baseline) == base.kernel_count
    assert len(diff.shared) + len(diff.only_candidate) == cand.kernel_count
    assert base.kernel_diff(base).changed is False  # a program against itself: all shared
    assert cand.op_count(aten.clone, stage="after") > cand.op_count(aten.clone, stage="before")


# --------------------------------------------------------------------------- compile health
def breaks_once(x: torch.Tensor) -> torch.Tensor:
    x = x.sin()
    torch._dynamo.graph_break()
    return x * 3


def test_a_deliberate_graph_break_is_counted_with_its_reason() -> None:
    pair = CompiledPair.build(breaks_once, torch.randn(8), passes=[MulByTwoToAdd()])
    for side in ("baseline", "candidate"):
        stats = pair.compile_stats[side]
        assert isinstance(stats, CompileStats)
        assert (stats.graphs, stats.frames, stats.graph_breaks) == (2, 2, 1), stats
        assert "graph_break()" in stats.break_reasons[0]
        assert stats.recompiles == 0 and stats.eager_fallbacks == 0
    pair.expect_compile(graphs=2, recompiles=0)
    with pytest.raises(AssertionError) as info:
        pair.expect_compile(graph_breaks=0, side="candidate")
    assert "candidate graph_breaks=1 > 0: Call to `torch._dynamo.graph_break()`" in str(info.value)


def test_a_forced_recompile_is_counted_with_its_reason(mul_pair: CompiledPair) -> None:
    pair = CompiledPair.build(times_two_sin, torch.randn(8, 8), passes=[MulByTwoToAdd()])
    pair.candidate(torch.randn(5, 8))  # a new static shape: the guard on size 8 fails
    stats = pair.compile_stats
    assert stats["baseline"].recompiles == 0
    assert stats["candidate"].recompiles == 1 and stats["candidate"].graphs == 2
    assert any(
        "size mismatch at index 0. expected 8, actual 5" in r
        for r in stats["candidate"].recompile_reasons
    ), stats["candidate"]
    assert pair.compile_note == "candidate compiles more graphs than the baseline (2 > 1)"
    with pytest.raises(AssertionError, match=r"candidate recompiles=1 > 0: tensor '.*' size"):
        pair.expect_compile(recompiles=0)
    with pytest.raises(TypeError, match="unknown count; accepted: frames, graphs"):
        pair.expect_compile(breaks=0)


def test_a_frame_over_the_recompile_limit_is_an_eager_fallback() -> None:
    pair = CompiledPair.build(times_two_sin, torch.randn(8, 8), passes=[MulByTwoToAdd()])
    with torch._dynamo.config.patch(recompile_limit=2, automatic_dynamic_shapes=False):
        for n in (3, 4, 5):
            pair.candidate(torch.randn(n, 8))
    stats = pair.compile_stats["candidate"]
    assert stats.eager_fallbacks == 1 and stats.recompiles == 1, stats
    with pytest.raises(AssertionError, match="candidate eager_fallbacks=1 > 0"):
        pair.expect_compile(eager_fallbacks=0)


# --------------------------------------------------------------------------- numerics
class SmallMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 16)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def test_fp32_reference_passes_rounding_noise_and_fails_a_wrong_result() -> None:
    torch.manual_seed(0)
    model = SmallMLP().to(torch.bfloat16).eval()
    x = torch.randn(16, 32, dtype=torch.bfloat16)
    # rounding only: MulByTwoToAdd finds nothing here, the candidate is plain Inductor
    right = CompiledPair.build(model, x, passes=[MulByTwoToAdd()])
    assert right.numerics is None  # nothing checked yet: the report says "not checked"
    right.assert_close(reference="fp32")
    # what the report's numerics column shows beside the pair's speedup
    assert re.fullmatch(
        r"fp32 rel-L2: candidate \S+, baseline \S+, eager \S+; bound 1\.00e-02; ok", right.numerics
    ), right.numerics
    wrong = CompiledPair.build(model, x, passes=[ScaleOutput()])
    assert wrong.fired("scale_output")
    with pytest.raises(AssertionError) as info:
        wrong.assert_close()  # bf16 output on CPU: the fp64 reference by default
    # kept though assert_close raised
    assert re.fullmatch(
        r"fp64 rel-L2: candidate [45]\.\d\de-02, baseline \S+, eager \S+; bound 1\.00e-02; "
        r"candidate OVER",
        wrong.numerics,
    ), wrong.numerics
    assert not isinstance(info.value, BaselineMiscompiled)
    text = str(info.value)
    assert "the candidate is clearly further from the fp64 reference than eager\n" in text
    assert re.search(r"eager 0\.00\d+, baseline 0\.00\d+, candidate 0\.0[45]\d* \(bfloat16\)", text)
    assert "bound max(2 x eager, floor 0.01) = 0.01: candidate OVER, baseline ok" in text
    assert text.endswith(
        "locate it: pair.locate(side='candidate'), or run pytest with --magi-locate"
    )
    with pytest.raises(AssertionError, match="fp32 reference"):
        wrong.assert_close(reference="fp32")
    with pytest.raises(AssertionError, match="than the baseline"):
        wrong.assert_close(against="baseline")  # the delta alone: 0.05 > 2 x the baseline's too


def _noisy(ref: torch.Tensor, scale: float, seed: int) -> torch.Tensor:
    noise = torch.randn(ref.shape, generator=torch.Generator().manual_seed(seed))
    return (ref + scale * noise * ref.norm() / noise.norm()).to(torch.bfloat16)


def test_a_candidate_as_wrong_as_a_miscompiled_baseline_fails() -> None:
    """The Wan 2.2 decode on torch 2.11 (eager 0.014 from fp32, every compiled side 0.878): the
    old rule passed the candidate for matching its baseline; now both are held to eager's."""
    ref = torch.randn(4096, dtype=torch.float64)
    eager, baseline = _noisy(ref, 0.014, 1), _noisy(ref, 0.878, 2)
    judgment = judge_against_reference(baseline, baseline.clone(), ref, "fp32", eager=eager)
    assert not judgment.candidate_ok and not judgment.baseline_ok, judgment.lines
    (leaf,) = judgment.distances
    assert leaf.eager == pytest.approx(0.014, rel=0.05) and leaf.bound == pytest.approx(
        0.028, rel=0.05
    )
    assert leaf.candidate == pytest.approx(0.878, rel=0.05)
    assert "candidate OVER, baseline OVER" in judgment.lines[0]


def test_a_miscompiled_baseline_beside_a_correct_candidate_is_a_finding_of_its_own() -> None:
    ref = torch.randn(4096, dtype=torch.float64)
    eager, baseline, candidate = _noisy(ref, 0.014, 1), _noisy(ref, 0.878, 2), _noisy(ref, 0.01, 3)
    judgment = judge_against_reference(baseline, candidate, ref, "fp32", eager=eager)
    assert judgment.candidate_ok and not judgment.baseline_ok, judgment.lines
    from pytest_magi.numerics.judgment import verdict

    with pytest.raises(BaselineMiscompiled) as info:
        verdict(judgment, owner="ZooPair 'x'", reference_name="fp32", against="eager",
                locate=lambda side: f"pair.locate(side={side!r})")  # fmt: skip
    text = str(info.value)
    assert isinstance(info.value, AssertionError)
    assert re.search(r"eager 0\.014\d*, baseline 0\.87\d*, candidate 0\.01\d*", text), text
    assert "locate it: pair.locate(side='baseline')" in text and "against='baseline'" in text
    assert info.value.distances == judgment.distances
    # judged by the delta alone, the baseline is no verdict: a warning, and the candidate passes
    with pytest.warns(BaselineNumericsWarning, match=r"the baseline is 0\.87\d* from the fp32"):
        delta = judge_against_reference(
            baseline, candidate, ref, "fp32", eager=eager, against="baseline"
        )
    assert delta.candidate_ok and delta.baseline_ok


def test_a_candidate_within_twice_eager_passes_whatever_the_baseline() -> None:
    ref = torch.randn(4096, dtype=torch.float64)
    eager = _noisy(ref, 0.02, 1)
    close, far = _noisy(ref, 0.035, 2), _noisy(ref, 0.05, 3)
    ok = judge_against_reference(far, close, ref, "fp32", eager=eager)
    assert ok.candidate_ok and not ok.baseline_ok
    over = judge_against_reference(close, far, ref, "fp32", eager=eager)
    assert not over.candidate_ok and over.baseline_ok
    with pytest.raises(ValueError, match=r"against='both'\): expected 'eager'"):
        judge_against_reference(close, far, ref, "fp32", eager=eager, against="both")


def test_non_finite_outputs_are_named_and_never_pass() -> None:
    """Seen on the GPU: a Wan 2.2 candidate decoded NaN ("candidate nan" was all it said)."""
    ref = torch.randn(4096, dtype=torch.float64)
    finite = _noisy(ref, 0.01, 1)
    broken = finite.clone()
    broken[:3] = float("nan")
    broken[3] = float("inf")
    judgment = judge_against_reference(finite, broken, ref, "fp32", eager=finite)
    assert not judgment.candidate_ok and judgment.baseline_ok
    assert "non-finite elements (NaN/inf): candidate 4, baseline 0 of 4096" in judgment.lines[0]
    judgment = judge_against_reference(broken, finite, ref, "fp32", eager=finite)
    assert judgment.candidate_ok and not judgment.baseline_ok, judgment.lines
    assert "candidate 0, baseline 4" in judgment.lines[0]
    judgment = judge_against_reference(broken, broken, ref, "fp32")  # both: both fail
    assert not judgment.candidate_ok and not judgment.baseline_ok


def test_without_eager_outputs_the_reference_is_eager() -> None:
    ref = torch.randn(4096, dtype=torch.float64)
    judgment = judge_against_reference(ref, ref.clone(), ref, "eager")
    assert judgment.candidate_ok and judgment.baseline_ok
    assert "eager (the reference itself) 0" in judgment.lines[0], judgment.lines


def test_compiled_pair_raises_baseline_miscompiled_for_a_wrong_baseline() -> None:
    """A baseline built to be wrong (its own corrupting pass) beside a correct candidate."""
    torch.manual_seed(0)
    model = SmallMLP().to(torch.bfloat16).eval()
    x = torch.randn(16, 32, dtype=torch.bfloat16)
    pair = CompiledPair.build(
        model, x, baseline=MagiBackendWith(ScaleOutput()), candidate=PassConfig()
    )
    with pytest.raises(BaselineMiscompiled, match="the baseline compiler miscompiles this model"):
        pair.assert_close()
    assert pair.numerics.endswith("; baseline OVER (miscompiled)"), pair.numerics
    with pytest.warns(BaselineNumericsWarning):
        pair.assert_close(against="baseline")  # the candidate's delta alone is fine
    assert pair.numerics.endswith(" (against the baseline); ok"), pair.numerics
    fp32 = CompiledPair.build(
        SmallMLP().eval(), torch.randn(16, 32), baseline=MagiBackendWith(ScaleOutput())
    )
    with pytest.raises(BaselineMiscompiled, match="baseline differs from eager"):
        fp32.assert_close()  # the eager reference (fp32 outputs) follows the same rule
    assert fp32.numerics == "eager elementwise: baseline MISMATCH"
    with pytest.raises(AssertionError, match="outputs differ") as info:
        fp32.assert_close(against="baseline")
    assert "candidate vs baseline: MISMATCH" in str(info.value)
    assert fp32.numerics == "eager elementwise (against the baseline): candidate MISMATCH"


def MagiBackendWith(user_pass: MagiPass):  # noqa: N802 - a backend factory, read as a class
    """A dynamo backend: plain Inductor running ``user_pass`` (a wrong baseline for tests)."""
    from torch._inductor.compile_fx import compile_fx

    def backend(gm: torch.fx.GraphModule, inputs):
        return compile_fx(gm, inputs, config_patches={"post_grad_custom_post_pass": user_pass})

    return backend


def test_empty_passes_mean_no_passes(inductor_codegen, kernel_counts) -> None:
    x = torch.randn(1, 4, 3, 6, 6)
    model = Conv3dNet().eval()
    plain = CompiledPair.build(model, x, passes=[])
    spec = plain.backends["candidate"].spec
    assert (spec.kind, spec.description, spec.passes) == ("inductor", "inductor", ())
    assert plain.candidate_results == [] and not plain.kernel_diff().changed
    default = CompiledPair.build(model, x, passes=None)
    assert default.backends["candidate"].spec.kind == "magi" and default.candidate_results
    # codegen: passes=[] is plain Inductor, as without passes; with a PassConfig, the magi passes
    assert (
        inductor_codegen(model, x, passes=[]).signature() == inductor_codegen(model, x).signature()
    )
    assert kernel_counts(model, x, passes=[]) == kernel_counts(model, x)
    magi = inductor_codegen(model, x, config=PassConfig(), passes=[])
    assert magi.signature() == inductor_codegen(model, x, config=PassConfig()).signature()


def test_pytester_user_pass_through_the_fixture_and_markers(pytester: pytest.Pytester) -> None:
    """The fixture takes passes=; no_graph_breaks fails a pair that breaks, naming the reason."""
    pytester.makepyfile(
        textwrap.dedent(
            """
            import pytest
            import torch
            from torch._inductor.custom_graph_pass import CustomGraphPass

            aten = torch.ops.aten

            class NegNeg(CustomGraphPass):
                def __call__(self, graph):
                    for n in list(graph.nodes):
                        if n.op == "call_function" and n.target == aten.neg.default:
                            n.target = aten.mul.Tensor
                            n.args = (n.args[0], -1)
                def uuid(self):
                    return "negneg"

            @pytest.mark.no_graph_breaks
            def test_my_pass(compiled_pair):
                pair = compiled_pair(lambda x: (-x).exp(), torch.randn(8), passes=[NegNeg()])
                pair.assert_ops(before={aten.neg: 1}, after={aten.neg: 0, aten.mul: 1})
                pair.assert_close()

            @pytest.mark.no_graph_breaks(side="candidate")
            def test_breaks(compiled_pair):
                def f(x):
                    x = x.cos()
                    torch._dynamo.graph_break()
                    return -x
                compiled_pair(f, torch.randn(8), passes=[NegNeg()], label="breaking")
            """
        )
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*@pytest.mark.no_graph_breaks: CompiledPair 'breaking': compile health over the*",
            "  candidate graph_breaks=1 > 0: Call to `torch._dynamo.graph_break()`*",
            "*magi: compile health (graphs/frames, breaks, recompiles)*",
        ]
    )


def test_a_magi_pass_given_as_a_user_pass_leaks_no_config() -> None:
    """ConvChannelsLastPass sets layout_optimization (declared): through passes=[...] it lasts
    for the candidate's compile only, as through the magi backend."""
    from magi_passes import ConvChannelsLastPass

    before = torch._inductor.config.layout_optimization
    net = Conv3dNet().eval()
    pair = CompiledPair.build(net, torch.randn(1, 4, 4, 8, 8), passes=[ConvChannelsLastPass()])
    assert pair.fired("conv_channels_last")
    assert pair.op_count(aten.clone, stage="before") == 0 < pair.op_count(aten.clone)
    assert torch._inductor.config.layout_optimization == before
    pair.assert_close()
