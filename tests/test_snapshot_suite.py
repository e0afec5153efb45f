"""The project's own snapshots of the code Inductor generates for the reference models.

Fake-CUDA codegen on CPU (the real GPU where there is one: after normalisation both are meant
to be identical). Per case a coarse signature snapshot (`*.sig.txt`: one line per kernel or
extern call, readable in a review) and the full normalised code (`*.py`); FX graph snapshots
(`*.fx.txt`) where the magi passes rewrite the graph. Files:
`tests/__snapshots__/torch-<major>.<minor>/test_snapshot_suite/`.

Update after an intended change (or a torch upgrade, which starts a new version folder):
`python -m pytest tests/test_snapshot_suite.py --snapshot-update -p no:cacheprovider`
(one process: `-n 0`). Kernel counts asserted here are contract facts; everything else
about the code is in the snapshots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

from magi_passes import PassConfig
from pytest_magi.capture.codegen import GeneratedCode
from pytest_magi.models import GQAProjection, VAEDecoderLike, WanCausalStage
from pytest_magi.snapshots import torch_version_dirname

VERSION = torch_version_dirname()
BF16 = torch.bfloat16

Codegen = Callable[..., GeneratedCode]

# Triton kernel counts of GQAProjection(kv_heads=4) at its tiny size, bf16, Hq and D dynamic
# (pytorch#181108): (static, dynamic, dynamic + magi) inference graphs. torch 2.11: a real H200
# (torch 2.11.0+cu130, as at full size; the issue's own function gives 2, 3, 2,
# docs/results.md, "GQA projection");
# torch 2.13: fake CUDA (H100-like). The extra dynamic kernel is the copy DynamicReshapePass
# removes.
GQA_INFERENCE_COUNTS: dict[str, tuple[int, int, int]] = {
    "torch-2.11": (1, 2, 1),
    "torch-2.13": (1, 2, 1),
}
# training (forward, backward) with Hq and D dynamic: without and with the magi passes
GQA_TRAINING_COUNTS: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "torch-2.13": ((2, 2), (1, 1)),
}

SHAPES = [pytest.param(False, id="static"), pytest.param(True, id="dynamic")]
PASSES = [pytest.param(False, id="inductor"), pytest.param(True, id="magi")]


def _config(magi: bool) -> PassConfig | None:
    return PassConfig() if magi else None


def _extern(code: GeneratedCode, name: str) -> int:
    return sum(1 for call in code.extern_calls if call == name or call.endswith(f".{name}"))


def _applied(code: GeneratedCode) -> dict[str, bool]:
    """Whether each magi pass applied to any graph of `code`."""
    applied: dict[str, bool] = {}
    for result in code.pass_results:
        applied[result.name] = applied.get(result.name, False) or result.applied
    return applied


# --------------------------------------------------------------------------- VAE decoder
@pytest.fixture(scope="module")
def vae_tiny() -> tuple[VAEDecoderLike, torch.Tensor]:
    model = VAEDecoderLike("tiny").to(BF16)
    return model, model.example_input(dtype=BF16)


@pytest.mark.parametrize("magi", PASSES)
@pytest.mark.parametrize("dynamic", SHAPES)
def test_vae_decoder_tiny(
    vae_tiny: tuple[VAEDecoderLike, torch.Tensor],
    dynamic: bool,
    magi: bool,
    inductor_codegen: Codegen,
    signature_snapshot: Any,
    triton_snapshot: Any,
    fx_snapshot: Any,
) -> None:
    model, z = vae_tiny
    dims = {0: VAEDecoderLike.DYNAMIC_HW} if dynamic else None
    code = inductor_codegen(model, z, dynamic_dims=dims, config=_config(magi))
    assert signature_snapshot == code
    assert triton_snapshot == code
    # contract: every conv3d (conv_in, 2 per res block x 2, the upsample conv, conv_out) stays
    # an extern convolution call, with or without the passes
    assert _extern(code, "convolution") == 7, code.signature()
    if magi:
        # the candidate's passes ran (which ones fire is in the snapshots and their own tests)
        assert any(_applied(code).values()), code.pass_results
        assert fx_snapshot == code  # e.g. the channels-last clones in the post-pass graph
    if dynamic:
        assert "s0" in code.normalized()


@pytest.fixture(scope="module")
def vae_540p() -> tuple[VAEDecoderLike, torch.Tensor]:
    model = VAEDecoderLike("540p").to(BF16)
    return model, model.example_input(dtype=BF16)


# Fake-CUDA codegen of the 540p preset, CPU seconds per test (torch 2.13, this suite, one
# process): static 8 s, static + magi 9 s, dynamic 22 s, dynamic + magi 18 s. Not marked slow
# though: syrupy counts the snapshots of tests left out of an xdist run as unused and fails it.
@pytest.mark.parametrize("magi", PASSES)
@pytest.mark.parametrize(
    "dynamic",
    [pytest.param(False, id="static"), pytest.param(True, id="dynamic")],
)
def test_vae_decoder_540p_signature(
    vae_540p: tuple[VAEDecoderLike, torch.Tensor],
    dynamic: bool,
    magi: bool,
    inductor_codegen: Codegen,
    signature_snapshot: Any,
) -> None:
    model, z = vae_540p
    dims = {0: VAEDecoderLike.DYNAMIC_HW} if dynamic else None
    code = inductor_codegen(model, z, dynamic_dims=dims, config=_config(magi))
    assert signature_snapshot == code
    # conv_in, 2 stages x (res block 2 + upsample 1), a last res block 2, conv_out
    assert _extern(code, "convolution") == 10, code.signature()


# --------------------------------------------------------------------------- GQA projection
@pytest.fixture(scope="module")
def gqa() -> GQAProjection:
    return GQAProjection(kv_heads=4)


GQA_CASES = [
    pytest.param(False, False, id="static"),
    pytest.param(True, False, id="dynamic"),
    pytest.param(True, True, id="dynamic-magi"),
]


@pytest.mark.parametrize(("dynamic", "magi"), GQA_CASES)
def test_gqa_projection_inference(
    gqa: GQAProjection,
    dynamic: bool,
    magi: bool,
    inductor_codegen: Codegen,
    signature_snapshot: Any,
    triton_snapshot: Any,
    fx_snapshot: Any,
) -> None:
    x = GQAProjection.example_input("tiny", dtype=BF16)
    dims = {0: GQAProjection.DYNAMIC_DIMS} if dynamic else None
    code = inductor_codegen(gqa, x, dynamic_dims=dims, config=_config(magi))
    assert signature_snapshot == code
    assert triton_snapshot == code
    assert code.graph_kinds == ["inference"]
    if magi:
        assert fx_snapshot == code  # the view's size rewritten as the product of merged dims
        assert _applied(code)["dynamic_reshape"], code.pass_results


def test_gqa_dynamic_inference_kernel_counts(gqa: GQAProjection, inductor_codegen: Codegen) -> None:
    """pytorch#181108: dynamic Hq and D add a copy kernel; DynamicReshapePass removes it."""
    x = GQAProjection.example_input("tiny", dtype=BF16)
    dims = {0: GQAProjection.DYNAMIC_DIMS}
    static = inductor_codegen(gqa, x).kernel_count
    dynamic = inductor_codegen(gqa, x, dynamic_dims=dims).kernel_count
    magi = inductor_codegen(gqa, x, dynamic_dims=dims, config=PassConfig()).kernel_count
    assert (dynamic, magi) == (static + 1, static), (static, dynamic, magi)
    expected = GQA_INFERENCE_COUNTS.get(VERSION)
    if expected is not None:
        assert (static, dynamic, magi) == expected


@pytest.mark.parametrize(("dynamic", "magi"), GQA_CASES)
def test_gqa_projection_training(
    gqa: GQAProjection,
    dynamic: bool,
    magi: bool,
    inductor_codegen: Codegen,
    signature_snapshot: Any,
    triton_snapshot: Any,
) -> None:
    x = GQAProjection.example_input("tiny", dtype=BF16, requires_grad=True)
    dims = {0: GQAProjection.DYNAMIC_DIMS} if dynamic else None
    code = inductor_codegen(gqa, x, dynamic_dims=dims, backward=True, config=_config(magi))
    assert signature_snapshot == code
    assert triton_snapshot == code
    assert code.graph_kinds == ["forward", "backward"]
    counts = (len(code.forward), len(code.backward))
    expected = GQA_TRAINING_COUNTS.get(VERSION)
    if dynamic and expected is not None:
        assert counts == expected[magi], counts


# --------------------------------------------------------------------------- WAN causal stage
@pytest.fixture(scope="module")
def wan_tiny() -> tuple[WanCausalStage, torch.Tensor]:
    model = WanCausalStage("tiny").to(BF16)
    return model, model.example_input(dtype=BF16)


@pytest.mark.parametrize("magi", PASSES)
@pytest.mark.parametrize("dynamic", SHAPES)
def test_wan_causal_stage_tiny(
    wan_tiny: tuple[WanCausalStage, torch.Tensor],
    dynamic: bool,
    magi: bool,
    inductor_codegen: Codegen,
    signature_snapshot: Any,
    triton_snapshot: Any,
) -> None:
    model, x = wan_tiny
    dims = {0: WanCausalStage.DYNAMIC_HW} if dynamic else None
    code = inductor_codegen(model, x, dynamic_dims=dims, config=_config(magi))
    assert signature_snapshot == code
    assert triton_snapshot == code
    # two causal conv3d of the res block and the per-frame conv2d stay extern convolutions
    assert _extern(code, "convolution") == 3, code.signature()
