"""UpcastMatmulPass: an fp32 batched matmul whose operands are upcasts of bf16/fp16 tensors runs
on those tensors with an fp32 output (`aten.bmm.dtype`). Its switch, the operand chains it
follows and those it refuses, and PyTorch's math attention (one head of 512 channels, as in
Cosmos's decoder) generated for CUDA (fake CUDA: generated, never run), its rewritten graph
evaluated on the CPU with `bmm.dtype` emulated against the graph without the pass."""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from magi_passes import PassConfig, UpcastMatmulPass
from magi_passes.passes.upcast_matmul import upcast_source
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.capture.fake_cuda import fake_cuda_status

ON = PassConfig(measure_decisions=False, enable_upcast_matmul=True)
SPLIT = PassConfig(measure_decisions=False, enable_upcast_matmul=True, upcast_matmul_split=True)
OFF = PassConfig(measure_decisions=False)
BMM_DTYPE = torch.ops.aten.bmm.dtype


def test_off_by_default_measured_and_switched_on_by_config_or_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not UpcastMatmulPass(PassConfig()).enabled()
    assert UpcastMatmulPass(ON).enabled()
    monkeypatch.setenv("MAGI_PASSES__ENABLE_UPCAST_MATMUL", "1")
    assert PassConfig.from_env().enable_upcast_matmul is True
    assert UpcastMatmulPass.measured_by == "enable_upcast_matmul"
    assert UpcastMatmulPass.mutates_inductor_config == ()
    assert UpcastMatmulPass(ON).uuid() != UpcastMatmulPass(OFF).uuid()
    assert PassConfig().upcast_matmul_split is False
    monkeypatch.setenv("MAGI_PASSES__UPCAST_MATMUL_SPLIT", "1")
    assert PassConfig.from_env().upcast_matmul_split is True
    assert UpcastMatmulPass(SPLIT).uuid() != UpcastMatmulPass(ON).uuid()
    assert not UpcastMatmulPass(PassConfig(upcast_matmul_split=True)).enabled()


# --------------------------------------------------------------------------- operand chains
def _traced(fn: Any, *inputs: torch.Tensor) -> torch.fx.Graph:
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.proxy_tensor import make_fx

    with FakeTensorMode():
        fakes = [torch.empty_strided(t.shape, t.stride(), dtype=t.dtype) for t in inputs]
        return make_fx(fn)(*fakes).graph


def _bmm_operands(graph: torch.fx.Graph) -> list[Any]:
    (bmm,) = graph.find_nodes(op="call_function", target=torch.ops.aten.bmm.default)
    return list(bmm.args[:2])


def test_an_operand_is_followed_through_shape_ops_and_scalar_factors_to_its_upcast() -> None:
    def fn(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        a = (q.float() * 0.5).unsqueeze(1).expand(2, 1, 8, 16).reshape(2, 8, 16)
        b = k.float().permute(0, 2, 1) * 3.0
        return torch.bmm(a, b)

    graph = _traced(fn, torch.ones(2, 8, 16, dtype=torch.bfloat16), torch.ones(2, 8, 16).half())
    (a, a_chain, a_scale), (b, b_chain, b_scale) = map(upcast_source, _bmm_operands(graph))
    assert [a.meta["val"].dtype, b.meta["val"].dtype] == [torch.bfloat16, torch.float16]
    assert a.op == b.op == "placeholder"
    assert (a_scale, b_scale) == (0.5, 3.0)
    assert [n.target.__name__ for n in a_chain] == [
        "unsqueeze.default",
        "expand.default",
        "view.default",
    ]
    assert [n.target.__name__ for n in b_chain] == ["permute.default"]


def test_an_fp32_operand_a_non_scalar_factor_or_an_add_is_not_an_upcast() -> None:
    def fp32(p: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return torch.bmm(p, v.float())

    def tensor_factor(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        return torch.bmm(q.float() * k.float(), k.float().transpose(1, 2))

    def added(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        return torch.bmm(q.float() + 1, k.float().transpose(1, 2))

    low = torch.ones(2, 8, 8, dtype=torch.bfloat16)
    p, v = _bmm_operands(_traced(fp32, torch.ones(2, 8, 8), low))
    assert upcast_source(p) is None and upcast_source(v) is not None
    for fn in (tensor_factor, added):
        first, second = _bmm_operands(_traced(fn, low, low))
        assert upcast_source(first) is None, fn.__name__
        assert upcast_source(second) is not None, fn.__name__


# --------------------------------------------------------------------------- math attention
class OneHeadAttention(nn.Module):
    """`F.scaled_dot_product_attention` of one head of 512 channels: given them channels first
    (`_qkv`), no fused kernel takes them, so PyTorch runs its math attention (bf16 upcast to
    fp32, two fp32 bmms)."""

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return F.scaled_dot_product_attention(q, k, v)


def _qkv(dtype: torch.dtype = torch.bfloat16) -> list[torch.Tensor]:
    gen = torch.Generator().manual_seed(0)
    # channels first, as Cosmos's attention takes them from its convolutions: a last dimension of
    # stride 64, which no fused kernel takes, so a real GPU runs the math attention too
    return [
        torch.randn(3, 512, 64, generator=gen).to(dtype).transpose(1, 2).unsqueeze(1)
        for _ in range(3)
    ]


def _needs_fake_cuda() -> None:
    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)


def _graph_after_passes(
    config: PassConfig, inputs: list[torch.Tensor], model: nn.Module | None = None
) -> tuple[Any, Any]:
    """The code generated for `model` (`OneHeadAttention` by default) in fake CUDA with
    `config`, and a copy of its post-grad graph after the magi passes (taken by a user pass)."""
    copies: list[torch.fx.Graph] = []

    def capture(graph: torch.fx.Graph) -> None:
        copy = torch.fx.Graph()
        copy.output(copy.graph_copy(graph, {}))
        copies.append(copy)

    model = OneHeadAttention() if model is None else model
    code = inductor_codegen(model, *inputs, config=config, passes=[capture])
    (graph,) = copies
    return code, graph


def test_math_attentions_first_matmul_runs_on_the_bf16_operands_in_fake_cuda() -> None:
    _needs_fake_cuda()
    inputs = _qkv()
    plain, plain_graph = _graph_after_passes(OFF, inputs)
    code, graph = _graph_after_passes(ON, inputs)
    (result,) = [r for r in code.pass_results if r.name == "upcast_matmul"]
    assert result.applied
    # q @ k^T: both operands upcast; probabilities @ v: the probabilities are fp32 (left alone)
    assert result.counts["rewritten"] == 1
    assert result.counts["skipped_not_upcast"] == 1
    (low,) = graph.find_nodes(op="call_function", target=BMM_DTYPE)
    assert [a.meta["val"].dtype for a in low.args[:2]] == [torch.bfloat16, torch.bfloat16]
    assert low.meta["val"].dtype == torch.float32
    assert not plain_graph.find_nodes(op="call_function", target=BMM_DTYPE)
    # the fp32 copies of q and k are gone: one upcast is left, v's
    upcasts = [
        n
        for n in graph.find_nodes(
            op="call_function", target=torch.ops.prims.convert_element_type.default
        )
        if n.args[1] == torch.float32 and n.args[0].op == "placeholder"
    ]
    assert len(upcasts) == 1
    assert code.kernel_count <= plain.kernel_count


def _run_on_cpu(graph: torch.fx.Graph, inputs: list[torch.Tensor]) -> torch.Tensor:
    """`graph` (generated for CUDA) evaluated on the CPU: `bmm.dtype`, which runs on CUDA only,
    as an fp32 bmm of its operands (the same values and output dtype), devices as the CPU."""

    class OnCpu(torch.fx.Interpreter):
        def call_function(self, target: Any, args: Any, kwargs: Any) -> Any:
            if target is BMM_DTYPE:
                a, b, dtype = args
                return torch.bmm(a.to(dtype), b.to(dtype))
            if "device" in kwargs:
                kwargs = {**kwargs, "device": torch.device("cpu")}
            return super().call_function(target, args, kwargs)

    (out,) = OnCpu(torch.fx.GraphModule(nn.Module(), graph)).run(*inputs)
    return out


def test_the_rewritten_attention_has_the_fp32_graphs_values() -> None:
    """The rewrite's algebra (the operands replayed on bf16, the scale moved out of the sum),
    checked on the CPU: the graph with the pass and the graph without it, both evaluated in
    fp32 from the same bf16 inputs, agree to fp32 rounding; both are eager's to bf16's."""
    _needs_fake_cuda()
    inputs = _qkv()
    _, plain = _graph_after_passes(OFF, inputs)
    _, rewritten = _graph_after_passes(ON, inputs)
    want = _run_on_cpu(plain, inputs)
    got = _run_on_cpu(rewritten, inputs)
    # the bf16 outputs one ulp apart at most (2**-7 of the value), and few of them apart at all
    torch.testing.assert_close(got, want, rtol=2**-7, atol=1e-6)
    assert (got != want).float().mean() < 0.01
    eager = F.scaled_dot_product_attention(*(t.float() for t in inputs))
    torch.testing.assert_close(got.float(), eager, rtol=2e-2, atol=2e-2)


class UpcastAttention(nn.Module):
    """The math attention written out (the CPU's own SDPA kernel takes any head size); its
    output fp32 with `fp32_out`."""

    def __init__(self, fp32_out: bool = False) -> None:
        super().__init__()
        self.fp32_out = fp32_out

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        scale = q.shape[-1] ** -0.25
        scores = (q.float() * scale).flatten(0, 1) @ (k.float() * scale).flatten(0, 1).mT
        out = (scores.softmax(-1) @ v.float().flatten(0, 1)).unflatten(0, q.shape[:2])
        return out if self.fp32_out else out.to(q.dtype)


# ------------------------------------------------------------- the split second operand
def test_with_the_split_the_probabilities_matmul_runs_as_two_bf16_matmuls_in_fake_cuda() -> None:
    """`upcast_matmul_split`: the second matmul's fp32 operand (the softmax's output) becomes
    two bf16 parts, each multiplied by v's bf16 source; no fp32 matmul is left."""
    _needs_fake_cuda()
    inputs = _qkv()
    plain, _ = _graph_after_passes(OFF, inputs)
    code, graph = _graph_after_passes(SPLIT, inputs)
    (result,) = [r for r in code.pass_results if r.name == "upcast_matmul"]
    assert (result.counts["rewritten"], result.counts["split"]) == (1, 1)
    assert result.counts["skipped_not_upcast"] == 0
    assert "1 with the other operand split" in result.reason
    assert not graph.find_nodes(op="call_function", target=torch.ops.aten.bmm.default)
    lows = graph.find_nodes(op="call_function", target=BMM_DTYPE)
    assert len(lows) == 3
    for low in lows:
        assert [a.meta["val"].dtype for a in low.args[:2]] == [torch.bfloat16] * 2
    (total,) = {u for low in lows for u in low.users if u.target == torch.ops.aten.add.Tensor}
    halves = [low.args[0] for low in total.args]
    hi, lo = halves
    assert lo.args[0].target == torch.ops.aten.sub.Tensor and lo.args[0].args[1].args[0] is hi
    # three cuBLAS calls; the two parts are written by the softmax's own kernel, so no kernel
    # is added (fake CUDA, torch 2.13: 2 Triton kernels against Inductor's 5)
    assert code.extern_calls == ["bmm_dtype"] * 3
    assert plain.extern_calls == ["bmm"] * 2
    assert code.kernel_count <= plain.kernel_count


def test_an_fp16_attention_keeps_its_fp32_probabilities_matmul_with_the_split_on() -> None:
    """fp16 has no room for every fp32 value (above 65504 it overflows), so where the upcast
    operand is fp16 the other is not split: only the first matmul is rewritten."""
    _needs_fake_cuda()
    code, graph = _graph_after_passes(SPLIT, _qkv(torch.float16))
    (result,) = [r for r in code.pass_results if r.name == "upcast_matmul"]
    assert (result.counts["rewritten"], result.counts["split"]) == (1, 0)
    assert result.counts["skipped_not_upcast"] == 1
    (fp32,) = graph.find_nodes(op="call_function", target=torch.ops.aten.bmm.default)
    assert fp32.meta["val"].dtype == torch.float32


def test_the_split_matmul_keeps_fp32s_values_where_rounding_the_probabilities_does_not() -> None:
    """On the CPU (`bmm.dtype` emulated), the fp32 output of an attention with the split second
    matmul against the graph without the pass: 16 bits of each probability kept, so 2.6e-6
    apart here (about the same at Cosmos's shape), where the probabilities rounded to bf16 move
    it 1.7e-3, 660 times more."""
    _needs_fake_cuda()
    inputs = _qkv()
    model = UpcastAttention(fp32_out=True)
    _, plain = _graph_after_passes(OFF, inputs, model)
    _, split = _graph_after_passes(SPLIT, inputs, model)
    want = _run_on_cpu(plain, inputs)
    got = _run_on_cpu(split, inputs)
    assert got.dtype == want.dtype == torch.float32

    def rel(x: torch.Tensor) -> float:
        return ((x - want).norm() / want.norm()).item()

    q, k, v = (t.float().flatten(0, 1) for t in inputs)
    probs = ((q @ k.mT) * q.shape[-1] ** -0.5).softmax(-1)
    rounded = (probs.bfloat16().float() @ v).unflatten(0, (3, 1))
    assert rel(got) < 2e-5
    assert rel(rounded) > 50 * rel(got)


def test_on_the_cpu_nothing_is_rewritten() -> None:
    """`bmm.dtype` runs on CUDA only: a CPU graph keeps its fp32 matmuls (`skipped_device`)."""
    from graphs import compile_on_cpu, pass_result

    inputs = _qkv()
    out, backend = compile_on_cpu(UpcastAttention(), ON, *inputs)
    result = pass_result(backend, "upcast_matmul")
    assert not result.applied
    assert result.counts["skipped_device"] == 2
    torch.testing.assert_close(out, UpcastAttention()(*inputs))


def test_an_attention_graph_is_measured_where_the_pass_is_on() -> None:
    """Read from dynamo's graph before compiling: a graph with attention and no convolution can
    be changed only by this pass, so the decision times it where the pass is on and compiles it
    once, untimed, where it is off."""
    from magi_passes.compile.gates import _measured_passes_cannot_fire

    graphs: list[torch.fx.GraphModule] = []

    def grab(gm: torch.fx.GraphModule, _inputs: Any) -> Any:
        graphs.append(gm)
        return gm.forward

    for model in (OneHeadAttention(), UpcastAttention()):
        graphs.clear()
        torch._dynamo.reset()
        torch.compile(model, backend=grab)(*_qkv())
        (gm,) = graphs
        assert _measured_passes_cannot_fire(gm, ON) is None, type(model).__name__
        why = _measured_passes_cannot_fire(gm, OFF)
        assert why is not None and "no convolution" in why, type(model).__name__
    torch._dynamo.reset()


@pytest.mark.requires_cuda(min_capability=(8, 0))
def test_on_a_gpu_the_rewritten_attention_runs_and_matches_fp32() -> None:
    """On a GPU, where `bmm.dtype` runs: math attention of one 512-channel head compiled with
    the pass, its first matmul rewritten, its output as close to an fp32 attention as Inductor's
    own compile of it (each in bf16 out)."""
    from graphs import pass_result

    from magi_passes import MagiBackend

    q, k, v = (t.cuda() for t in _qkv())
    reference = F.scaled_dot_product_attention(q.float(), k.float(), v.float())
    outputs = {}
    for name, backend in (("inductor", "inductor"), ("magi", MagiBackend(ON))):
        torch._dynamo.reset()
        # compiled afresh: a graph Inductor's FX graph cache serves (a machine that ran this
        # before) runs no post-grad pass, and the rewrite would not be seen
        with torch.no_grad(), torch._inductor.config.patch(force_disable_caches=True):
            outputs[name] = torch.compile(OneHeadAttention(), backend=backend)(q, k, v)
        if name == "magi":
            assert pass_result(backend, "upcast_matmul").counts["rewritten"] == 1
    torch._dynamo.reset()
    errors = {
        n: ((o.float() - reference).norm() / reference.norm()).item() for n, o in outputs.items()
    }
    assert errors["magi"] <= 1.05 * errors["inductor"] + 1e-6, errors
