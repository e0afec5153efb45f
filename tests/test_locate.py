"""`pytest_magi.locate`: which graph, output, node, module and source line of a compiled model
is wrong, and which pass or Inductor setting cures it (docs/locate.md).

CPU only, tiny modules: each `locate` compiles a few C++ kernels (plus one per retry).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn
from torch._inductor.custom_graph_pass import CustomGraphPass

from magi_passes import PassConfig
from magi_passes.fx.predicates import is_dynamic
from pytest_magi.capture.core import fresh_entry
from pytest_magi.capture.launches import KernelLaunch
from pytest_magi.numerics.config_sweep import ConfigRun, KernelSweep
from pytest_magi.numerics.locate import locate
from pytest_magi.numerics.locate_backend import LocatingBackend
from pytest_magi.numerics.locate_cures import CONTROL, REPLAY
from pytest_magi.numerics.locate_report import GraphRecord, LocateReport, OutputRecord, Retry
from pytest_magi.numerics.locate_tensors import (
    DEFAULT_SETTINGS,
    module_path,
    output_distance,
    strided_clone,
    validate_settings,
)

aten = torch.ops.aten


def _line_of(marker: str) -> int:
    return next(
        i
        for i, text in enumerate(Path(__file__).read_text().splitlines(), 1)
        if text.strip().endswith(marker)
    )


SOURCE_LINE = _line_of("# the line locate names")
REWRITTEN_LINE = _line_of("# the line the pass rewrites")
RESIDUAL_LINE = _line_of("# the residual, the graph's only output")


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(torch.relu(x))  # the line locate names


class TwoBlocks(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.block1 = Block()
        self.block2 = Block()

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        a = self.block1(x)
        return a, self.block2(a)


def _scale_after(graph: torch.fx.Graph, node: torch.fx.Node, factor: float) -> None:
    with graph.inserting_after(node):
        scaled = graph.call_function(aten.mul.Tensor, (node, factor))
    node.replace_all_uses_with(scaled, delete_user_cb=lambda user: user is not scaled)
    scaled.meta = dict(node.meta)


def scale_last_conv(graph: torch.fx.Graph) -> None:
    """A wrong pass: the graph's last convolution comes out 1.5 times too large."""
    convs = [n for n in graph.nodes if n.target == aten.convolution.default]
    _scale_after(graph, convs[-1], 1.5)


def scale_cos(graph: torch.fx.Graph) -> None:
    """A wrong pass: every cos comes out 1.5 times too large."""
    for node in list(graph.nodes):
        if node.target == aten.cos.default:
            _scale_after(graph, node, 1.5)


def sin_times_two(x: torch.Tensor) -> torch.Tensor:
    return x.sin() * 2


def cures(report: LocateReport) -> list[Any]:
    """The retries after the replay (the run's code rerun) and the control (the graph
    recompiled with nothing changed)."""
    first_two = [(r.kind, r.name) for r in report.retries[:2]]
    assert first_two == [("replay", REPLAY), ("control", CONTROL)]
    return report.retries[2:]


class OnlyTheFirstCompile(CustomGraphPass):
    """A fault that a recompile does not repeat: scales every sin on its first call only (as a
    fault that depends on the process's state, e.g. a stale cache hit, would)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        self.calls += 1
        if self.calls == 1:
            scale_sin(graph)

    def uuid(self) -> str:
        return f"tests.OnlyTheFirstCompile/{self.calls}"


def first_call_wrong_anywhere() -> Any:
    """A dynamo backend whose compiled code is wrong on the first call any of it makes in the
    process (as a fault needing the live run would be, e.g. work still queued on its inputs)."""
    calls = [0]

    def backend(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
        def run(*args: Any) -> Any:
            calls[0] += 1
            out = gm(*args)
            return [o * 1.5 for o in out] if calls[0] == 1 else out

        return run

    return backend


def model() -> TwoBlocks:
    torch.manual_seed(0)
    return TwoBlocks().eval()


@pytest.fixture(scope="module")
def pass_report() -> LocateReport:
    torch.manual_seed(1)
    x = torch.randn(1, 4, 8, 8, dtype=torch.bfloat16)
    settings = [{"comprehensive_padding": False}]
    return locate(
        model().to(torch.bfloat16), x, passes=[scale_last_conv], settings=settings, fp32_rerun=True
    )


# --------------------------------------------------------------------------- a wrong pass
def test_a_wrong_pass_is_located_to_its_graph_output_node_module_and_line(
    pass_report: LocateReport,
) -> None:
    report = pass_report
    assert not report.ok
    assert [g.index for g in report.graphs] == [0] and report.graphs[0].calls == 1
    graph = report.graphs[0]
    assert graph.n_outputs == 2 and graph.wrong == [1]  # block1's output is right
    assert graph.outputs[0].distance < 5e-2 < graph.outputs[1].distance
    first = report.first_bad
    assert first is not None
    assert (first.graph, first.output, first.n_outputs, first.call) == (0, 1, 2, 1)
    assert first.shape == (1, 4, 8, 8) and first.dtype == "bfloat16"
    assert first.distance == pytest.approx(0.5, abs=0.02)  # x1.5: ||0.5 y|| / ||y||
    assert (first.node, first.target) == ("conv2d_1", "torch.conv2d")
    assert (first.module, first.module_type) == ("block2.conv", "Conv2d")
    assert (first.file, first.line, first.function) == (__file__, SOURCE_LINE, "forward")
    assert first.code == "return self.conv(torch.relu(x))  # the line locate names"


def test_removing_the_pass_clears_it_and_fp32_says_logic(pass_report: LocateReport) -> None:
    report = pass_report
    assert report.clears == ["passes: without scale_last_conv"]
    assert report.reproduced is True  # the control, recompiled as compiled, is wrong again
    assert report.replayed is True  # and the run's own code, rerun, is wrong again
    assert report.kernels is None  # no Triton kernel on CPU: nothing to compare below the graph
    by_name = {r.name: r for r in cures(report)}
    assert list(by_name) == ["passes: without scale_last_conv", "comprehensive_padding=False"]
    cleared, padding = by_name.values()
    assert cleared.status == "cleared" and cleared.wrong == 0 and cleared.distance is not None
    assert cleared.distance < 5e-2
    assert padding.status == "wrong" and padding.wrong == 1
    assert padding.distance == pytest.approx(0.5, abs=0.02)
    assert report.fp32 is not None and report.fp32.verdict == "logic"  # wrong in fp32 too
    assert report.fp32.distance == pytest.approx(0.5, abs=0.02)


def test_a_fault_only_the_runs_compile_has_is_replayed_wrong_but_not_reproduced() -> None:
    fault = OnlyTheFirstCompile()
    report = locate(
        sin_times_two, torch.randn(64), passes=[fault], settings=[{"triton.max_tiles": 1}]
    )
    assert fault.calls > 1  # the control and the retries recompiled: the pass ran again
    assert report.first_bad is not None and report.first_bad.distance == pytest.approx(0.5)
    replay, control = report.retries[:2]
    assert (replay.kind, replay.status, replay.wrong) == ("replay", "wrong", 1)
    assert replay.distance == pytest.approx(0.5)
    assert (control.kind, control.status) == ("control", "cleared")
    assert report.replayed is True and report.reproduced is False
    # every retry "clears" a fault that a recompile does not repeat: none is named as a cure
    assert [r.status for r in cures(report)] == ["cleared", "cleared"]
    assert report.clears == []
    text = str(report)
    assert "not reproduced by a recompile: the code compiled in the run is wrong again" in text
    assert "no pass or setting can be named" in text and "clears it:" not in text
    data = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert (data["replayed"], data["reproduced"], data["clears"]) == (True, False, [])


def test_a_fault_needing_the_live_run_is_right_on_replay_and_recompile() -> None:
    report = locate(sin_times_two, torch.randn(64), backend=first_call_wrong_anywhere())
    assert report.first_bad is not None and report.first_bad.call == 1
    replay, control = report.retries[:2]
    assert (replay.status, control.status) == ("cleared", "cleared")
    assert report.replayed is False and report.reproduced is False and report.clears == []
    assert "the code compiled in the run and a fresh compile are both right" in str(report)


def scale_sin_if_dynamic(graph: torch.fx.Graph) -> None:
    """A wrong pass that only dynamic graphs meet (as a pass's symbolic-size path would be)."""
    if is_dynamic(graph):
        scale_sin(graph)


def test_a_dynamic_graph_is_retried_dynamic_so_its_fault_is_reproduced_and_cured() -> None:
    x = torch.randn(8, 64, dtype=torch.bfloat16)
    torch._dynamo.mark_dynamic(x, 0)
    settings = [{"triton.max_tiles": 1}]
    report = locate(
        sin_times_two, x, passes=[scale_sin_if_dynamic], settings=settings, fp32_rerun=True
    )
    assert report.first_bad is not None and report.first_bad.distance == pytest.approx(0.5, 0.02)
    # recompiled from real inputs the graph would be static and right: the control says
    # "reproduced" only because the retries compile the run's symbolic sizes
    assert report.replayed is True and report.reproduced is True
    assert report.clears == ["passes: without scale_sin_if_dynamic"]
    assert [r.status for r in cures(report)] == ["cleared", "wrong"]
    assert report.fp32 is not None and report.fp32.verdict == "logic"  # widened, still dynamic


def test_report_text_and_dict(pass_report: LocateReport) -> None:
    text = str(pass_report)
    assert text.startswith("locate TwoBlocks[passes[scale_last_conv]]: 1 of 1 graph(s) have")
    assert "first wrong output: graph 0, output 1 of 2, [1, 4, 8, 8] bfloat16, 0.5" in text
    assert "node    conv2d_1 (torch.conv2d)" in text
    assert "module  block2.conv (Conv2d)" in text
    assert f"source  {__file__}:{SOURCE_LINE}, in forward" in text
    assert "clears it: passes: without scale_last_conv" in text
    assert "fp32 rerun: still wrong in fp32: a logic error" in text
    data = json.loads(json.dumps(pass_report.to_dict(), allow_nan=False))
    assert data["ok"] is False and data["clears"] == ["passes: without scale_last_conv"]
    assert data["first_bad"]["module"] == "block2.conv"
    assert data["first_bad"]["line"] == SOURCE_LINE
    assert data["graphs"][0]["wrong"] == [1] and data["graphs"][0]["n_outputs"] == 2
    assert data["graphs"][0]["outputs"][1]["shape"] == [1, 4, 8, 8]
    assert data["fp32"]["verdict"] == "logic" and data["tolerance"]["bfloat16"] == 5e-2


def test_a_magi_side_retries_each_enabled_pass_and_skips_those_that_did_not_apply() -> None:
    report = locate(
        model(),
        torch.randn(1, 4, 8, 8),
        backend=PassConfig(),
        passes=[scale_last_conv],
        settings=[],
    )
    assert report.side == "magi+passes[scale_last_conv]"
    by_name = {r.name: r for r in cures(report)}
    default = PassConfig()  # the opt-in passes (off by default) are not retried
    enabled = [
        f for f in PassConfig.field_names() if f.startswith("enable_") and getattr(default, f)
    ]
    assert list(by_name) == [f"magi: {f}=False" for f in enabled] + [
        "passes: without scale_last_conv"
    ]
    for name in enabled:  # a conv2d graph of static shapes: none of them applies
        retry = by_name[f"magi: {name}=False"]
        assert retry.status == "skipped" and "did not apply to this graph" in retry.note, retry
    assert report.clears == ["passes: without scale_last_conv"]


# --------------------------------------------------------------------------- the pass's own diff
class DivSqrtToMulRsqrt(CustomGraphPass):
    """A slightly wrong pass: ``x / sqrt(y)`` becomes ``x * rsqrt(y) * 1.001``, built without
    copying any node's ``meta`` (as a quick pass would)."""

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        for node in list(graph.nodes):
            if node.target != aten.div.Tensor or not isinstance(node.args[1], torch.fx.Node):
                continue
            x, root = node.args
            if root.target != aten.sqrt.default:
                continue
            with graph.inserting_before(node):
                rsqrt = graph.call_function(aten.rsqrt.default, (root.args[0],))
                product = graph.call_function(aten.mul.Tensor, (x, rsqrt))
                scaled = graph.call_function(aten.mul.Tensor, (product, 1.001))
            node.replace_all_uses_with(scaled)
            graph.erase_node(node)

    def uuid(self) -> str:
        return "tests.DivSqrtToMulRsqrt/1"


class ResidualMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc1(x)
        h = h / torch.sqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)  # the line the pass rewrites
        h = torch.relu(h)
        return self.fc2(h) + x  # the residual, the graph's only output


@pytest.fixture(scope="module")
def rsqrt_report() -> LocateReport:
    torch.manual_seed(0)
    net = ResidualMLP().eval()
    return locate(net, torch.randn(4, 16), passes=[DivSqrtToMulRsqrt()], settings=[])


def test_a_slightly_wrong_rewrite_is_named_by_the_nodes_it_made_not_only_the_output(
    rsqrt_report: LocateReport,
) -> None:
    report = rsqrt_report
    first = report.first_bad
    assert first is not None and first.line == RESIDUAL_LINE  # the only output: the last line
    assert report.clears == ["passes: without DivSqrtToMulRsqrt"]
    # the pass's own diff of the post-grad graph, upstream of that output
    made = [(r.target, r.by) for r in report.rewritten]
    assert made == [
        ("aten.rsqrt.default", "DivSqrtToMulRsqrt"),
        ("aten.mul.Tensor", "DivSqrtToMulRsqrt"),
        ("aten.mul.Tensor", "DivSqrtToMulRsqrt"),
    ]
    assert [r.replaces for r in report.rewritten] == ["", "", "div (aten.div.Tensor)"]
    # no node the pass built has meta: each is traced to the div it replaced
    assert {(r.line, r.function, r.origin) for r in report.rewritten} == {
        (REWRITTEN_LINE, "forward", "div")
    }
    # the narrowest node whose value goes wrong: the rewrite's result, 1.001 times too large
    found = report.diverges
    assert found is not None and found.node == report.rewritten[-1].node
    assert found.replaces == "div (aten.div.Tensor)" and found.changed is True
    assert found.distance == pytest.approx(1e-3, rel=1e-2)
    assert (found.shape, found.dtype) == ((4, 32), "float32")
    assert (found.file, found.line) == (__file__, REWRITTEN_LINE)
    assert found.code.startswith("h = h / torch.sqrt(")


def test_the_rewrite_and_first_wrong_value_are_in_the_text_and_json(
    rsqrt_report: LocateReport,
) -> None:
    text = str(rsqrt_report)
    found = rsqrt_report.diverges
    assert found is not None
    assert (
        "first value that goes wrong: the post-grad graph with the passes against without" in text
    )
    assert f"  node    {found.node} (aten.mul.Tensor), in place of div (aten.div.Tensor)" in text
    assert f"  source  {__file__}:{REWRITTEN_LINE}, in forward" in text
    assert "rewritten by the passes, upstream of it (post-grad graph):" in text
    assert "by DivSqrtToMulRsqrt, replaces div (aten.div.Tensor)" in text
    assert text.index("first value that goes wrong") < text.index("retried graph 0 alone")
    data = json.loads(json.dumps(rsqrt_report.to_dict(), allow_nan=False))
    assert data["first_bad"]["line"] == RESIDUAL_LINE  # the existing fields stay
    assert data["diverges"]["line"] == REWRITTEN_LINE and data["diverges"]["shape"] == [4, 32]
    assert [r["by"] for r in data["rewritten"]] == ["DivSqrtToMulRsqrt"] * 3
    assert data["diverges_note"] == ""


def test_a_pass_that_keeps_meta_is_named_by_its_own_node(pass_report: LocateReport) -> None:
    found = pass_report.diverges
    assert found is not None and found.target == "aten.mul.Tensor" and found.changed
    assert (found.module, found.line, found.origin) == ("block2.conv", SOURCE_LINE, "")
    assert found.distance == pytest.approx(0.5, abs=0.02)
    (made,) = pass_report.rewritten  # the scaling mul, which took over the conv's users
    assert (made.node, made.by) == (found.node, "scale_last_conv")
    assert made.replaces == found.replaces == "convolution_1 (aten.convolution.default)"


def test_without_passes_there_is_no_diff_and_the_note_says_why() -> None:
    report = locate(sin_times_two, torch.randn(64), backend=first_call_wrong_anywhere())
    assert report.first_bad is not None
    assert report.rewritten == [] and report.diverges is None
    assert "runs no post-grad passes" in report.diverges_note
    assert "values with and without the passes: the side runs no post-grad passes" in str(report)


# --------------------------------------------------------------------------- settings
class Cancel(nn.Module):
    def forward(self, x: torch.Tensor, big: torch.Tensor) -> torch.Tensor:
        return (x + big) - big  # bf16 eager rounds x + big; Inductor keeps it in fp32


def _emulated_casts_clear(x: torch.Tensor, big: torch.Tensor) -> bool:
    from torch._inductor.compile_fx import compile_fx

    def backend(gm: torch.fx.GraphModule, inputs: list[torch.Tensor]):
        return compile_fx(gm, inputs, config_patches={"emulate_precision_casts": True})

    out = torch.compile(fresh_entry(Cancel(), "casts"), backend=backend)(x, big)
    expected = Cancel()(x, big).double()
    return float((out.double() - expected).norm() / expected.norm()) <= 5e-2


def test_a_precision_fault_is_named_by_the_setting_that_clears_it() -> None:
    torch.manual_seed(0)
    x = torch.randn(16, 16, dtype=torch.bfloat16)
    big = torch.full((16, 16), 256.0, dtype=torch.bfloat16)
    settings = [
        {"emulate_precision_casts": False},  # what the side has already: skipped
        {"comprehensive_padding": False},
        {"emulate_precision_casts": True},  # eager's roundings to bf16, emulated
    ]
    report = locate(Cancel(), x, big, settings=settings, fp32_rerun=True)
    first = report.first_bad
    assert first is not None and first.distance > 0.1 and first.module == ""
    assert first.module_type == "Cancel" and first.line is not None
    # what the setting really does, compiled directly: it clears the fault with torch 2.13's CPU
    # code; torch 2.11's CPU code keeps the sum in fp32 even then (seen on the GPU machine)
    cleared = _emulated_casts_clear(x, big)
    assert cleared or torch.__version__ < "2.13", "the premise of this test on CI's torch"
    assert [r.status for r in cures(report)] == [
        "skipped", "wrong", "cleared" if cleared else "wrong"
    ]  # fmt: skip
    assert "already has emulate_precision_casts=False" in cures(report)[0].note
    assert report.clears == (["emulate_precision_casts=True"] if cleared else [])
    assert report.fp32 is not None and report.fp32.verdict == "precision"  # right in fp32
    assert "fp32 rerun: right in fp32: precision, or a fault of the low-precision" in str(report)


class ScaleCos(CustomGraphPass):
    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        scale_cos(graph)

    def uuid(self) -> str:
        return "tests.ScaleCos/1"


def cos_plus_one(x: torch.Tensor) -> torch.Tensor:
    return x.cos() + 1


def test_a_fault_from_a_config_hook_is_cleared_by_resetting_it_and_nothing_leaks() -> None:
    before = torch._inductor.config.get_config_copy()
    report = locate(
        cos_plus_one,
        torch.randn(32),
        inductor_config={"post_grad_custom_pre_pass": ScaleCos()},
        settings=[{"max_fusion_size": 1}, {"post_grad_custom_pre_pass": None}],
    )
    assert torch._inductor.config.get_config_copy() == before
    assert report.side.startswith("inductor[post_grad_custom_pre_pass=<")
    assert [r.status for r in cures(report)] == ["wrong", "cleared"]
    assert report.clears == ["post_grad_custom_pre_pass=None"]


def test_the_settings_table_starts_with_comprehensive_padding_and_exists_here() -> None:
    assert DEFAULT_SETTINGS[0] == {"comprehensive_padding": False}
    table = validate_settings(None)
    keys = torch._inductor.config.get_config_copy()
    assert table and all(k in keys for entry in table for k in entry)
    assert {"emulate_precision_casts": True} in table and {"max_fusion_size": 1} == table[-1]


# --------------------------------------------------------------------------- correct
def test_a_correct_model_reports_nothing_and_tries_no_cure() -> None:
    before = torch._inductor.config.get_config_copy()
    report = locate(model(), torch.randn(1, 4, 8, 8), fp32_rerun=True, reference="fp64")
    assert report.ok and report.first_bad is None
    assert report.retries == [] and report.fp32 is None and report.clears == []
    assert [g.wrong for g in report.graphs] == [[]] and report.graphs[0].worst < 1e-4
    assert report.reference is not None and not report.reference.wrong
    assert report.reference.compiled < 1e-5 and report.reference.eager < 1e-5
    assert str(report).startswith("locate TwoBlocks[inductor]: no wrong output in 1 graph(s)")
    assert torch._inductor.config.get_config_copy() == before
    json.dumps(report.to_dict(), allow_nan=False)


def test_a_loose_tolerance_lets_the_same_fault_pass() -> None:
    x = torch.randn(64)
    strict = locate(sin_times_two, x, passes=[scale_sin], settings=[])
    loose = locate(sin_times_two, x, passes=[scale_sin], settings=[], tolerance=0.6)
    assert not strict.ok and strict.first_bad is not None
    assert strict.first_bad.distance == pytest.approx(0.5, abs=1e-3)
    assert loose.ok and loose.retries == []


def scale_sin(graph: torch.fx.Graph) -> None:
    for node in list(graph.nodes):
        if node.target == aten.sin.default:
            _scale_after(graph, node, 1.5)


def plus_noise(x: torch.Tensor) -> torch.Tensor:
    return x + torch.rand_like(x)


@pytest.mark.parametrize(
    "side", [{"backend": "eager"}, {"inductor_config": {"fallback_random": True}}]
)
def test_random_ops_draw_the_same_numbers_in_the_compiled_and_the_eager_run(
    side: dict[str, Any],
) -> None:
    x = torch.randn(256)
    torch.manual_seed(0)
    report = locate(plus_noise, x, **side)
    after_locate = torch.rand(4)
    assert report.ok, str(report)
    torch.manual_seed(0)
    plus_noise(x)
    assert torch.equal(after_locate, torch.rand(4))  # the stream moved as by one eager call


# --------------------------------------------------------------------------- strided clones
def test_strided_clone_keeps_sizes_strides_offsets_aliasing_and_values() -> None:
    base = torch.randn(400)
    channels_last = torch.randn(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
    offset = base[7:127].view(10, 12)
    transposed = base[200:260].view(6, 10).t()
    also_base = base[3:9]  # shares base's storage with `offset` and `transposed`
    values = [channels_last, offset, 3, transposed, None, also_base]
    clones = strided_clone(values)
    assert clones[2] == 3 and clones[4] is None
    for original, clone in zip(values, clones, strict=True):
        if not isinstance(original, torch.Tensor):
            continue
        assert clone.shape == original.shape and clone.dtype == original.dtype
        assert clone.stride() == original.stride()
        assert clone.storage_offset() == original.storage_offset()
        assert torch.equal(clone, original)
        assert clone.untyped_storage().data_ptr() != original.untyped_storage().data_ptr()
    assert clones[0].is_contiguous(memory_format=torch.channels_last)
    assert offset.storage_offset() == 7 and not transposed.is_contiguous()
    shared = {clones[i].untyped_storage().data_ptr() for i in (1, 3, 5)}
    assert len(shared) == 1  # aliasing among the inputs is kept
    clones[5].zero_()
    assert torch.equal(also_base, base[3:9]) and bool(also_base.ne(0).any())  # originals intact


def test_the_eager_graph_runs_on_clones_with_the_compiled_graphs_layout() -> None:
    seen: list[tuple[Any, ...]] = []

    def record(t: torch.Tensor) -> torch.Tensor:
        seen.append((tuple(t.shape), t.stride(), t.storage_offset(), t.data_ptr()))
        return t * 2

    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    graph.output((graph.call_function(record, (x,)),))
    gm = torch.fx.GraphModule(nn.Module(), graph)
    backend = LocatingBackend("eager", settings=[])
    run = backend(gm, [torch.randn(4)])
    arg = torch.randn(2, 3, 6, 5).contiguous(memory_format=torch.channels_last)[:, :, 1:]
    (out,) = run(arg)
    assert torch.equal(out, arg * 2)
    (compiled, eager) = seen  # the compiled run on the real input, then the eager graph
    assert compiled[:3] == eager[:3] == (tuple(arg.shape), arg.stride(), arg.storage_offset())
    assert compiled[3] == arg.data_ptr() and eager[3] != arg.data_ptr()
    report = backend.report()
    assert report.ok and report.graphs[0].calls == 1 and report.graphs[0].outputs[0].distance == 0


# --------------------------------------------------------------------------- graph breaks
class Broken(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Linear(8, 8)
        self.second = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.first(x).sin()
        torch._dynamo.graph_break()
        return self.second(x.cos())


def test_graphs_split_by_a_break_are_each_recorded_and_the_wrong_one_is_named() -> None:
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list

    torch.manual_seed(0)
    net = Broken().eval()
    report = locate(net, torch.randn(4, 8), passes=[scale_cos], settings=[])
    assert [g.index for g in report.graphs] == [0, 1]
    assert [g.calls for g in report.graphs] == [1, 1]
    assert report.graphs[0].wrong == [] and report.graphs[1].wrong == [0]
    first = report.first_bad
    assert first is not None and first.graph == 1 and first.module == "second"
    assert report.clears == ["passes: without scale_cos"]
    # the model's own code keeps no dynamo state: its frames were compiled on copies
    assert "forward" not in vars(net) and not _debug_get_cache_entry_list(Broken.forward.__code__)


def test_a_locating_backend_on_its_own_cures_once_and_honours_the_budget() -> None:
    backend = LocatingBackend(passes=[scale_sin], budget_s=1e-6)
    compiled = torch.compile(fresh_entry(sin_times_two, "test_locate"), backend=backend)
    x = torch.randn(16)
    with torch.no_grad():
        out = compiled(x)
        compiled(x)
    assert torch.allclose(out, x.sin() * 3)  # the compiled (wrong) outputs, unchanged
    report = backend.report()
    assert report.graphs[0].calls == 2 and report.first_bad is not None
    assert report.first_bad.call == 1
    replay, *rest = report.retries  # the replay compiles nothing: it runs within any budget
    assert replay.name == REPLAY and replay.status == "wrong" and report.replayed is True
    assert rest and {r.status for r in rest} == {"untried"}
    assert report.untried == [r.name for r in rest] and report.clears == []
    assert "over the budget of 1e-06 s" in str(report)
    assert backend.report().retries == report.retries  # cured once


# --------------------------------------------------------------------------- distances
def test_output_distance() -> None:
    y = torch.tensor([1.0, 2.0, 2.0])
    assert output_distance(y, y) == (0.0, 0, "")
    assert output_distance(y * 1.5, y)[0] == pytest.approx(0.5)
    nan = torch.tensor([1.0, float("nan"), 2.0])
    assert output_distance(nan, y)[:2] == (math.inf, 1)  # NaN where eager is finite
    assert output_distance(y, nan)[0] == 0.0  # eager's own NaN is not judged
    assert output_distance(y[:2], y)[0] == math.inf
    assert output_distance(torch.tensor([1, 2]), torch.tensor([1, 3]))[0] == math.inf
    assert output_distance(None, None) == (0.0, 0, "")
    assert output_distance(3, 4)[0] == math.inf


def test_an_infinite_distance_stays_json() -> None:
    graph = GraphRecord(0, calls=1, outputs=[OutputRecord(0, (2,), "float32", math.inf, 1, True)])
    report = LocateReport("f", "inductor", [graph], None)
    data = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert data["graphs"][0]["outputs"][0]["distance"] == "inf"
    assert data["graphs"][0]["worst"] == "inf" and data["graphs"][0]["wrong"] == [0]


def test_the_report_lists_the_kernels_the_replay_launched() -> None:
    """What compares a wrong run with a right one in another process (an autotuned config is
    picked per process): each kernel the replay launched, with its source hash and config."""
    graph = GraphRecord(0, calls=1, outputs=[OutputRecord(0, (2,), "bfloat16", 0.7, 1, True)])
    replay = Retry(REPLAY, "replay", "wrong", 0.7, 1)
    launched = ["k_cat_pad [abc123]: XBLOCK=64, YBLOCK=32, num_warps=4, num_stages=1 (x2)"]
    report = LocateReport("f", "magi", [graph], None, retries=[replay], launched=launched)
    text = str(report)
    assert "Triton kernels the replay launched (name [source]: config):" in text
    assert "  k_cat_pad [abc123]: XBLOCK=64, YBLOCK=32, num_warps=4, num_stages=1 (x2)" in text
    assert json.loads(json.dumps(report.to_dict()))["launched"] == launched
    quiet = LocateReport("f", "magi", [graph], None, retries=[replay])
    assert "replay launched" not in str(quiet)  # no Triton kernel (CPU): nothing listed


def test_module_paths_read_as_module_names() -> None:
    assert module_path("L['self'].up_blocks[2]._modules['conv']") == "up_blocks.2.conv"
    assert module_path("L['self'].mid.forward.__self__.to_k") == "mid.to_k"
    assert module_path("L['fn'].owner.__dict__['_modules']['decoder'].conv") == "owner.decoder.conv"
    assert module_path("L['self']") == ""


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"model": 3}, TypeError, r"locate\(model_or_fn=3\): expected an nn.Module or a callable"),
        ({"inputs": ()}, ValueError, r"needs the inputs of one call"),
        ({"tolerance": -1}, ValueError, r"tolerance for torch.bfloat16=-1: expected a positive"),
        ({"tolerance": "5%"}, TypeError, r"tolerance='5%': expected None"),
        ({"tolerance": {torch.int32: 1}}, TypeError, r"tolerance key torch.int32: expected a"),
        (
            {"settings": [{"comprehensive_paddin": False}]},
            ValueError,
            r"settings\[0\]: unknown torch._inductor.config key 'comprehensive_paddin': did you "
            r"mean 'comprehensive_padding'",
        ),
        ({"settings": {"comprehensive_padding": False}}, TypeError, r"expected a list of dicts"),
        ({"settings": [{}]}, TypeError, r"settings\[0\]=\{\}: expected a non-empty dict"),
        ({"budget_s": 0}, ValueError, r"budget_s=0: expected None \(no limit\) or a positive"),
        ({"calls": 0}, ValueError, r"calls=0\): expected an int >= 1"),
        ({"reference": "fp16"}, ValueError, r"reference='fp16': expected None, 'fp32' or 'fp64'"),
        ({"fp32_rerun": "yes"}, TypeError, r"fp32_rerun='yes': expected True or False"),
        ({"passes": scale_sin}, TypeError, r"passes=<a function>: expected a list"),
        ({"backend": "no-such-backend"}, ValueError, r"backend='no-such-backend' is not a regis"),
        (
            {"backend": "eager", "passes": [scale_sin]},
            ValueError,
            r"backend='eager' is a dynamo backend of its own",
        ),
        ({"label": 3}, TypeError, r"label=3: expected a str"),
    ],
)
def test_bad_input_says_the_value_and_the_fix(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    target = kwargs.pop("model", sin_times_two)
    inputs = kwargs.pop("inputs", (torch.randn(3),))
    with pytest.raises(error, match=message):
        locate(target, *inputs, **kwargs)


def test_a_compiled_model_is_refused_with_the_way_out() -> None:
    compiled = torch.compile(nn.Linear(2, 2))
    with pytest.raises(TypeError, match=r"give the eager model.*compiled._orig_mod"):
        locate(compiled, torch.randn(2))


# --------------------------------------------------------------------------- the pairs and the plugin
def test_compiled_pair_locate_names_the_users_wrong_pass() -> None:
    from pytest_magi.numerics.judgment import NumericsFailed
    from pytest_magi.pairs.compiled import CompiledPair

    net = model()
    x = torch.randn(1, 4, 8, 8)
    pair = CompiledPair.build(net, x, passes=[scale_last_conv])
    with pytest.raises(NumericsFailed) as info:
        pair.assert_close()
    assert info.value.side == "candidate" and callable(info.value.locate)
    report = info.value.locate()
    assert report.first_bad is not None and report.first_bad.module.startswith("block2")
    assert any("scale_last_conv" in name for name in report.clears), report.clears
    assert pair.locate("baseline").ok  # the baseline compiles right


def test_magi_locate_option_attaches_the_report(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import torch
        from torch import nn

        aten = torch.ops.aten

        def corrupt(graph):
            for node in graph.nodes:
                if node.op == "call_function" and node.target == aten.relu.default:
                    node.target = aten.neg.default

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(8, 8)

            def forward(self, x):
                return torch.relu(self.lin(x)) + 1

        def test_pass(compiled_pair):
            torch.manual_seed(0)
            pair = compiled_pair(Net().eval(), torch.randn(4, 8), passes=[corrupt])
            pair.assert_close()
        """
    )
    report_path = pytester.path / "report.json"
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--magi-locate", "--magi-locate-budget", "60",
        "--magi-report", str(report_path),
    )  # fmt: skip
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*magi locate*", "*first wrong output: graph 0*", "*clears it:*corrupt*"]
    )
    # the failure does not tell the user to run what already runs
    assert "or run pytest with --magi-locate" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*locate it: pair.locate(side='candidate'); its report follows*"])
    import json

    data = json.loads(report_path.read_text())
    (record,) = data["locate"]
    assert record["test"].endswith("test_pass") and record["failing_side"] == "candidate"
    assert data["options"]["locate"] is True
    bad = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--magi-locate-budget", "soon")
    bad.stderr.fnmatch_lines(
        ["*--magi-locate-budget='soon': expected a positive number of seconds*"]
    )


def test_the_locate_hint_drops_the_option_while_the_plugin_locates() -> None:
    from pytest_magi.numerics.judgment import locate_call, plugin_locates

    assert locate_call("candidate").endswith("or run pytest with --magi-locate")
    with plugin_locates():
        assert "--magi-locate" not in locate_call("candidate")
        with plugin_locates(False):
            assert locate_call("baseline").endswith("or run pytest with --magi-locate")
    assert locate_call("candidate").endswith("or run pytest with --magi-locate")


# --------------------------------------------------------------------------- config sweep
def _launching(monkeypatch: pytest.MonkeyPatch) -> None:
    """CPU code launches no Triton kernel: the replay's record gets one, as on a GPU."""
    import contextlib

    import pytest_magi.numerics.locate_cures as locating

    @contextlib.contextmanager
    def recorded() -> Any:
        yield [KernelLaunch("triton_poi_fused_sin_0", "XBLOCK=1024, num_warps=4", "abc")]

    monkeypatch.setattr(locating, "recorded_launches", recorded)


def test_a_wrong_replay_has_its_kernels_configs_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrong graph's own code, each kernel with each candidate config: a kernel whose output
    depends on its config is listed (config_sweep; a stand-in sweep here, the real one needs a
    GPU), on the same inputs the replay ran."""
    import pytest_magi.numerics.config_sweep as config_sweep

    _launching(monkeypatch)
    seen: list[Any] = []
    bad = KernelSweep(
        "triton_poi_fused_sin_0",
        "XBLOCK=1024, num_warps=4",
        runs=(ConfigRun("XBLOCK=256", 7, 0.5),),
    )

    def sweep(fn: Any, *inputs: Any, pattern: str = "") -> list[KernelSweep]:
        seen.append((fn, inputs))
        return [bad, KernelSweep("triton_poi_fused_cos_1", "XBLOCK=64")]

    monkeypatch.setattr(config_sweep, "sweep_configs", sweep)
    x = torch.randn(64)
    report = locate(sin_times_two, x, passes=[scale_sin], settings=[])
    assert report.replayed is True and len(seen) == 1
    fn, (saved,) = seen[0]
    assert callable(fn) and torch.equal(saved, x)
    assert report.configs == [bad.text()]
    # the kernel with no other config to compare is not called agreeing: a note says why
    (note,) = [n for n in report.notes if n.startswith("config sweep:")]
    assert note.startswith("config sweep: 1 of 2 kernels had no other config to compare")
    assert "autotune_local_cache=False" in note
    text = str(report)
    assert "Triton kernels whose output depends on their config" in text
    assert (
        "  triton_poi_fused_sin_0 (kept XBLOCK=1024, num_warps=4): 1 of 1 configs disagree" in text
    )
    assert json.loads(json.dumps(report.to_dict()))["configs"] == [bad.text()]


def test_a_sweep_that_fails_or_finds_agreement_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import pytest_magi.numerics.config_sweep as config_sweep

    _launching(monkeypatch)
    monkeypatch.setattr(config_sweep, "sweep_configs", lambda fn, *a, **k: [])
    report = locate(sin_times_two, torch.randn(64), passes=[scale_sin], settings=[])
    assert report.configs == []
    assert "every candidate config of each agrees with the one kept" in str(report)

    def broken(fn: Any, *inputs: Any, **kwargs: Any) -> Any:
        raise RuntimeError("private API changed")

    monkeypatch.setattr(config_sweep, "sweep_configs", broken)
    report = locate(sin_times_two, torch.randn(64), passes=[scale_sin], settings=[])
    assert report.configs is None
    assert "config sweep failed: RuntimeError: private API changed" in report.notes
    # a right replay (a fault only the run had) is not swept
    report = locate(
        sin_times_two, torch.randn(64), backend=first_call_wrong_anywhere(), settings=[]
    )
    assert report.configs is None
