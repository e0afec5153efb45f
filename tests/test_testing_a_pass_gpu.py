"""Testing a pass on a real GPU: the kernel diff with per-kernel times, compile health, and the
bf16 judgment against an fp32 reference (the CUDA default)."""

from __future__ import annotations

import pytest
import torch

from magi_passes import PassConfig
from pytest_magi.models import VAEDecoderLike
from pytest_magi.pairs.compiled import CompiledPair

aten = torch.ops.aten


@pytest.mark.requires_cuda
def test_channels_last_pair_on_cuda_diff_times_health_and_numerics() -> None:
    torch.manual_seed(0)
    model = VAEDecoderLike("tiny").to("cuda", torch.bfloat16).eval()
    x = model.example_input(device="cuda", dtype=torch.bfloat16)
    # the pass as written (a measured decision may keep plain Inductor on this small model)
    config = PassConfig(
        enable_nd_tiling=False, enable_dynamic_reshape=False, measure_decisions=False
    )
    pair = CompiledPair.build(model, x, candidate=config)
    assert pair.fired("conv_channels_last")
    assert pair.op_count(aten.clone, stage="after") > pair.op_count(aten.clone, stage="before")
    diff = pair.kernel_diff(timed=True)
    assert diff.changed, str(diff)
    assert all(k.name.startswith("triton_") for k in diff.only_baseline + diff.only_candidate)
    timed = diff.times_ms.get("candidate", {})
    assert any(k.name in timed for k in diff.only_candidate), (str(diff), sorted(timed))
    assert "ms" in str(diff)
    pair.expect_compile(graph_breaks=0, recompiles=0, eager_fallbacks=0)
    pair.assert_close()  # bf16 on CUDA: judged against an fp32 run of the model


@pytest.mark.requires_cuda
def test_user_pass_on_real_gpu_codegen() -> None:
    from pytest_magi.capture.codegen import inductor_codegen

    def double_to_add(graph: torch.fx.Graph) -> None:
        for n in list(graph.nodes):
            if n.op == "call_function" and n.target == aten.mul.Tensor and n.args[1] == 2:
                n.target, n.args = aten.add.Tensor, (n.args[0], n.args[0])

    x = torch.randn(64, 64, device="cuda")
    code = inductor_codegen(lambda t: (t * 2).sin(), x, passes=[double_to_add])
    assert code.op_count(aten.mul, stage="before") == 1
    assert code.op_count(aten.mul) == 0 and code.op_count(aten.add) == 1
    assert code.kernel_count == 1 and code.compile_stats.graph_breaks == 0
