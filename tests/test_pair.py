"""`CompiledPair`: isolation of the two compilations (proven), numerics, counts, timing hooks."""

from __future__ import annotations

import re
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch._inductor.custom_graph_pass import CustomGraphPass

from magi_passes import MagiBackend, PassConfig
from pytest_magi.capture.core import validate_dynamic_dims
from pytest_magi.capture.kernels import count_kernels, kernel_names
from pytest_magi.measure.timing import Speedup
from pytest_magi.numerics.compare import DEFAULT_TOLERANCES, default_tolerances
from pytest_magi.pairs.compiled import CompiledPair


class DoubleOutputPass(CustomGraphPass):
    """Test-only post-grad pass: multiplies the graph's first output by 2 (a visible op)."""

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        out = next(iter(graph.find_nodes(op="output")))
        first, *rest = out.args[0]
        with graph.inserting_before(out):
            doubled = graph.call_function(torch.ops.aten.mul.Tensor, (first, 2))
        doubled.meta.update(first.meta)
        out.args = ((doubled, *rest),)

    def uuid(self) -> str:
        return "tests.test_pair.DoubleOutputPass/1"


class Affine(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.lin(x)) + 1


class ConvNet(nn.Module):
    """A tiny conv model: conv2d -> GroupNorm -> SiLU -> conv2d."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(4, 8, 3, padding=1)
        self.norm = nn.GroupNorm(2, 8)
        self.conv2 = nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2(F.silu(self.norm(self.conv1(x))))


def perturbing_backend(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
    """A deliberately wrong candidate: adds 0.5 to element 3 of the first output."""

    def run(*args: Any) -> Any:
        outs = list(gm(*args))
        wrong = outs[0].clone()
        wrong.view(-1)[3] += 0.5
        outs[0] = wrong
        return tuple(outs)

    return run


@pytest.fixture(scope="module")
def doubled() -> tuple[CompiledPair, torch.Tensor]:
    """Baseline: plain Inductor. Candidate: Inductor with DoubleOutputPass as a config patch,
    the exact case where a shared Dynamo cache makes the candidate silently run the baseline."""
    torch.manual_seed(0)
    x = torch.randn(4, 8)
    pair = CompiledPair.build(
        Affine(),
        x,
        dynamic_dims={0: 0},
        candidate={"post_grad_custom_post_pass": DoubleOutputPass()},
    )
    return pair, x


@pytest.fixture(scope="module")
def conv_pair() -> CompiledPair:
    torch.manual_seed(0)
    # conv2d-only graphs are rewritten only when asked (PassConfig.channels_last_conv2d_graphs)
    config = PassConfig(channels_last_conv2d_graphs=True)
    return CompiledPair.build(ConvNet(), torch.randn(2, 4, 8, 8), candidate=config)


# --------------------------------------------------------------------------- isolation
def test_each_side_runs_its_own_code_when_called_alternately(doubled) -> None:
    pair, x = doubled
    compiles = pair.compiles
    for i in range(10):
        order = ("baseline", "candidate") if i % 2 == 0 else ("candidate", "baseline")
        out = {side: getattr(pair, side)(x) for side in order}
        torch.testing.assert_close(out["baseline"], pair.eager(x))
        torch.testing.assert_close(out["candidate"], 2 * pair.eager(x))
    assert pair.compiles == compiles == {"baseline": 1, "candidate": 1}


def test_each_side_captured_its_own_code_and_graphs(doubled) -> None:
    pair, _ = doubled
    assert "aten.mul.Tensor" in pair.graphs["candidate"][0]
    assert "aten.mul.Tensor" not in pair.graphs["baseline"][0]
    # the doubling fused into the candidate's C++ kernel, and only there
    assert "static_cast<float>(2.0)" in pair.code["candidate"]
    assert "static_cast<float>(2.0)" not in pair.code["baseline"]
    assert pair.kernel_counts == {"baseline": 1, "candidate": 1}
    assert pair.candidate_results == []  # not a magi candidate


def test_new_shapes_under_dynamic_dims_stay_on_their_side(doubled) -> None:
    pair, _ = doubled
    before = pair.compiles
    x9 = torch.randn(9, 8)  # the dynamic dim changes: no recompile
    torch.testing.assert_close(pair.candidate(x9), 2 * pair.baseline(x9))
    assert pair.compiles == before
    x1 = torch.randn(1, 8)  # size 1 fails the dynamic guard: each side recompiles, on its own
    torch.testing.assert_close(pair.candidate(x1), 2 * pair.eager(x1))
    assert pair.compiles == {"baseline": before["baseline"], "candidate": before["candidate"] + 1}
    torch.testing.assert_close(pair.baseline(x1), pair.eager(x1))
    assert pair.compiles == {
        "baseline": before["baseline"] + 1,
        "candidate": before["candidate"] + 1,
    }
    for _ in range(3):
        torch.testing.assert_close(pair.candidate(x9), 2 * pair.baseline(x9))
        torch.testing.assert_close(pair.candidate(x1), 2 * pair.baseline(x1))
    assert len(pair.graphs["candidate"]) == 2
    assert all("aten.mul.Tensor" in g for g in pair.graphs["candidate"])


def test_control_naive_second_compile_silently_reuses_the_first() -> None:
    """Why the pair isolates: compiled the naive way, the candidate's pass never runs."""
    torch.manual_seed(0)
    model, x = Affine(), torch.randn(4, 8)
    baseline = torch.compile(model)
    expected = baseline(x)
    with torch._inductor.config.patch(post_grad_custom_post_pass=DoubleOutputPass()):
        candidate = torch.compile(model)
        got = candidate(x)
    assert torch.equal(got, expected)  # not doubled: the baseline's code ran


def test_build_detects_a_side_that_runs_someone_elses_code(monkeypatch) -> None:
    """Break isolation on purpose (both sides get one compiled function): build must refuse."""
    real_compile = torch.compile
    shared: dict[str, Any] = {}

    def one_compiled_function(fn: Any, **kwargs: Any) -> Any:
        if "fn" not in shared:
            shared["fn"] = real_compile(fn, **kwargs)
        return shared["fn"]

    monkeypatch.setattr(torch, "compile", one_compiled_function)
    with pytest.raises(RuntimeError, match="candidate's first call did not invoke its own backend"):
        CompiledPair.build(Affine(), torch.randn(4, 8), baseline="eager", candidate="aot_eager")


def test_build_fails_when_nothing_compiles() -> None:
    with pytest.raises(RuntimeError, match="baseline's first call did not invoke its own backend"):
        CompiledPair.build(lambda x: x, torch.randn(3))


# --------------------------------------------------------------------------- magi candidate
# measured on torch 2.13 CPU: the baseline keeps a weight re-layout and an output copy kernel
# the candidate clones its conv weights in the graph (the default; 2 kernels with the opt-in
# channels_last_weights_once), its activations' clones fuse into their producers
MEASURED_CONV_KERNELS = {("2.13", "cpu"): {"baseline": 3, "candidate": 3}}


def test_magi_candidate_kernel_counts_results_and_code(conv_pair: CompiledPair) -> None:
    counts = conv_pair.kernel_counts
    assert counts == {s: len(kernel_names(c)) for s, c in conv_pair.code.items()}
    assert counts["baseline"] > 0
    assert counts["candidate"] <= counts["baseline"]  # an activation's clone costs no kernel
    measured = MEASURED_CONV_KERNELS.get((".".join(torch.__version__.split(".")[:2]), "cpu"))
    if measured is not None:
        assert counts == measured
    assert conv_pair.fired("conv_channels_last")
    converted = [r for r in conv_pair.candidate_results if r.name == "conv_channels_last"]
    assert converted and converted[0].counts["convs_converted"] == 2
    assert "channels_last" in conv_pair.graphs["candidate"][0]
    assert "channels_last" not in conv_pair.graphs["baseline"][0]
    assert conv_pair.code["baseline"] != conv_pair.code["candidate"]
    assert conv_pair.results["baseline"] == []
    assert conv_pair.label == "ConvNet[inductor vs magi(channels_last_conv2d_graphs=True)]"
    assert conv_pair.device == "cpu"


def test_magi_pair_is_close_to_eager(conv_pair: CompiledPair) -> None:
    conv_pair.assert_close()
    conv_pair.assert_close(torch.randn(2, 4, 8, 8))


def test_benchmark_and_profile(conv_pair: CompiledPair) -> None:
    s = conv_pair.benchmark(rounds=3, repetitions=2, warmup=1, lock=False)
    assert isinstance(s, Speedup) and s.rounds == 3 and conv_pair.last_speedup is s
    assert s.baseline_ms > 0 and s.candidate_ms > 0 and "CPU" in s.device
    text = conv_pair.profile(top=3, iterations=2)
    assert re.search(r"^baseline: self CPU total", text, re.M)
    assert re.search(r"^candidate: self CPU total", text, re.M)
    assert "%" in text


def test_build_fails_when_the_magi_pass_manager_never_ran(monkeypatch) -> None:
    from magi_passes.compile.manager import PassManager

    monkeypatch.setattr(PassManager, "__call__", lambda self, graph: None)
    with pytest.raises(RuntimeError, match="PassManager never ran on the post-grad graph"):
        CompiledPair.build(Affine(), torch.randn(4, 8), baseline="eager")


def test_pass_config_side_is_described() -> None:
    pair = CompiledPair.build(
        Affine(), torch.randn(4, 8), baseline="eager", candidate=PassConfig(enable_nd_tiling=False)
    )
    assert "enable_nd_tiling=False" in pair.label
    assert pair.candidate_results and all(r.name for r in pair.candidate_results)
    assert pair.kernel_counts["baseline"] == 0  # eager generates no kernels


# --------------------------------------------------------------------------- numerics
def test_assert_close_failure_shows_errors_and_worst_index() -> None:
    torch.manual_seed(0)
    x = torch.randn(2, 8)
    pair = CompiledPair.build(Affine(), x, baseline="eager", candidate=perturbing_backend)
    with pytest.raises(AssertionError) as info:
        pair.assert_close()
    text = str(info.value)
    assert "baseline vs eager: ok" in text
    assert "candidate vs eager: MISMATCH: 1 of 16 elements" in text
    assert "candidate vs baseline" not in text  # judged against eager, not the baseline
    assert text.endswith(
        "locate it: pair.locate(side='candidate'), or run pytest with --magi-locate"
    )
    assert "max abs error 0.5," in text
    assert "max rel error" in text
    assert "worst element at index (0, 3)" in text
    assert "rtol=0.0001, atol=1e-05" in text  # fp32 defaults
    pair.assert_close(atol=0.6)  # a loose enough atol passes
    with pytest.raises(AssertionError, match="candidate vs baseline: MISMATCH"):
        pair.assert_close(against="baseline")  # the delta alone compares with the baseline too


def test_default_tolerances_per_dtype() -> None:
    assert default_tolerances(torch.float32) == DEFAULT_TOLERANCES[torch.float32]
    assert default_tolerances(torch.bfloat16)[0] == 1.6e-2
    assert default_tolerances(torch.float16)[0] == 1e-3
    assert default_tolerances(torch.int64) == (0.0, 0.0)


# --------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("dynamic_dims", "message"),
    [
        ([0], r"expected None or a dict"),
        ({"0": 1}, r"key '0' is not an input index"),
        ({1: 0}, r"key 1 is out of range: there are 1 example input"),
        ({0: 5}, r"dim 5, out of range for input 0 of shape \(4, 8\)"),
        ({0: "1"}, r"expected a dim \(int\) or a sequence"),
        ({0: [0, -2]}, r"names dim 0 twice"),
        ({0: []}, r"is empty"),
        ({0: [1.0]}, r"contains 1.0, which is not an int dim"),
    ],
)
def test_dynamic_dims_errors_name_the_value_and_the_fix(dynamic_dims: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CompiledPair.build(Affine(), torch.randn(4, 8), dynamic_dims=dynamic_dims)


def test_dynamic_dims_specialised_sizes_and_non_tensors() -> None:
    with pytest.raises(ValueError, match=r"its size is 1: Dynamo specialises sizes 0 and 1"):
        validate_dynamic_dims({0: 0}, [torch.randn(1, 8)])
    with pytest.raises(ValueError, match=r"a int, not a tensor"):
        validate_dynamic_dims({1: 0}, [torch.randn(2), 3])
    assert validate_dynamic_dims({0: [-1, 0]}, [torch.randn(2, 3)]) == {0: (1, 0)}
    assert validate_dynamic_dims(None, []) == {}


def test_side_arguments_are_validated() -> None:
    x = torch.randn(4, 8)
    with pytest.raises(
        ValueError,
        match=r"unknown torch._inductor.config key 'triton.max_tile': did you mean 'triton.max_tiles'",
    ):
        CompiledPair.build(Affine(), x, candidate={"triton.max_tile": 2})
    with pytest.raises(TypeError, match=r"candidate=3: expected None"):
        CompiledPair.build(Affine(), x, candidate=3)
    backend = MagiBackend()
    with pytest.raises(ValueError, match="same backend object"):
        CompiledPair.build(Affine(), x, baseline=backend, candidate=backend)
    with pytest.raises(ValueError, match="needs at least one example input"):
        CompiledPair.build(Affine())


def test_count_kernels_reads_triton_and_cpp_definitions() -> None:
    triton_code = (
        "triton_poi_fused_add_0 = async_compile.triton('triton_poi_fused_add_0', '''\n"
        "@triton_heuristics.pointwise(size_hints={'x': 16})\n@triton.jit\n"
        "def triton_poi_fused_add_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
        "    pass\n''')\n"
    )
    cpp_code = "cpp_fused_relu_0 = async_compile.cpp_pybinding(['float*'], r'''\n'''\n"
    assert count_kernels(triton_code) == 1
    assert count_kernels(cpp_code) == 1
    assert kernel_names(triton_code + cpp_code) == ["triton_poi_fused_add_0", "cpp_fused_relu_0"]
    assert count_kernels("") == 0


def test_training_pair_captures_the_backward_graph() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 8, requires_grad=True)
    pair = CompiledPair.build(Affine(), x, inference=False)
    assert len(pair.graphs["baseline"]) == 2  # forward and backward, each side
    assert len(pair.backends["candidate"].code) == 2
    pair.candidate(x).sum().backward()
    assert x.grad is not None


def test_low_precision_relative_l2_criterion_and_baseline_floor() -> None:
    from pytest_magi.numerics.compare import compare_outputs

    torch.manual_seed(0)
    e = torch.randn(4096).bfloat16()
    near = (e.float() + 0.004 * torch.randn(4096)).bfloat16()  # ~0.4% relative L2
    far = (e.float() + 0.05 * torch.randn(4096)).bfloat16()  # ~5%
    ok, lines = compare_outputs(near, e)
    assert ok and "relative L2 error" in lines[0]
    ok, lines = compare_outputs(far, e)
    assert not ok and "> 0.01 for torch.bfloat16" in lines[0]
    # a noisy baseline raises the floor a candidate is held to, never the other way round
    ok, lines = compare_outputs(far, e, norm_floor=0.08)
    assert ok and "baseline noise floor" in lines[0]
    ok, _ = compare_outputs(far, e, rtol=1e-2, atol=1e-2)  # explicit tolerances: elementwise only
    assert not ok


def test_dynamic_pair_does_not_make_a_later_static_pair_dynamic() -> None:
    """Entry code objects are unique per build: dynamo's automatic-dynamic state cannot carry over."""
    import re

    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.SiLU()).eval()
    x = torch.randn(1, 3, 8, 8)
    symbolic = re.compile(r"\bs\d+ = arg")
    dynamic = CompiledPair.build(model, x, dynamic_dims={0: (2, 3)}, candidate={})
    assert symbolic.search(dynamic.code["baseline"])
    static = CompiledPair.build(model, x.clone(), candidate={})
    assert not symbolic.search(static.code["baseline"]), static.code["baseline"][:2000]
    assert not symbolic.search(static.code["candidate"])
