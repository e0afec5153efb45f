"""The zoo at its real sizes on a GPU, bf16: magi is never slower than torch.compile, and the
Wan 2.2 decode holds its measured gain. Timed with `pytest --magi-perf`; without it the bodies
still check numerics (each side against an fp32 run of the same model) and the passes' decisions.

Thresholds are measured numbers (docs/results.md, on an H200, torch 2.11):
0.98 for every model is the issue's "never slower" bar; the Wan decode threshold sits under its
measured median by more than the run's spread.
"""

from __future__ import annotations

import contextlib

import pytest
import torch

from magi_passes import MagiBackend, PassConfig
from magi_passes.compile import forms
from magi_passes.passes.padding_workaround import has_padding_miscompile
from pytest_magi import zoo
from pytest_magi.measure.timing import measure_pair
from pytest_magi.numerics.judgment import BaselineMiscompiled
from pytest_magi.numerics.locate import check_reference

pytestmark = pytest.mark.requires_cuda

# Wan 2.2 decode at T=3 latent frames (9 video frames), magi_compile-style candidate (passes and
# a dynamo frame per module instance, weights converted in the graph) against
# torch.compile(vae.decoder). Held at 1.5, under the generic form's 1.63x; the Wan form's ratio
# and its video's distance from fp32 are in docs/results.md, "Wan 2.2 decode".
WAN_FRAMES = 3
WAN_MIN_SPEEDUP = 1.5
# timm nets at batch 16 are launch-bound on an H200 (resnet50: 1.01 ms of kernels in a 2.4 ms
# call): their wall-clock ratios measured host overhead, which differed by up to 14% between two
# compiled copies with identical code. At batch
# 128 the kernels outlast the host's launches and a ratio measures the code.
TIMM_BATCH = 128
A_A_BOUND = 0.02
# The tests that compile the Wan decoder in its shipped form share one worker under
# `--magi-perf -n N --dist loadgroup`, so the second reuses the first's Inductor, Triton and
# decision caches as it does in one process (the workers' caches are kept apart).
WAN_FORM_GROUP = pytest.mark.xdist_group("wan2.2-form")


def _load_options(name: str) -> dict[str, int]:
    return {"batch": TIMM_BATCH} if name in ("resnet50", "efficientnet_b0") else {}


@pytest.mark.min_speedup(0.98)
@pytest.mark.parametrize("name", ["resnet50", "efficientnet_b0", "sd-vae"])
def test_zoo_model_is_never_slower(zoo_pair, name: str) -> None:
    pair = zoo_pair(name, "full", device="cuda", dtype=torch.bfloat16, **_load_options(name))
    pair.assert_close()  # both sides within 2 x eager's distance from an fp32 run
    # conv2d-only networks are left to Inductor's own layout optimisation (the measured gate)
    assert not pair.fired("conv_channels_last")


@pytest.mark.min_speedup(0.98)
@pytest.mark.parametrize("name", [n for n in zoo.VIDEO_VAES if n != "wan2.2-vae"])
def test_video_vae_is_never_slower(zoo_pair, name: str) -> None:
    """Every video VAE of diffusers at its published size (the zoo's "full": a few latent frames
    at the model's own resolution), decoded as users compile it (``vae.decoder``), bf16. The
    Wan 2.2 decode has its own test below, with its measured gain."""
    pair = zoo_pair(name, "full", device="cuda", dtype=torch.bfloat16)
    # a torch.compile baseline that miscompiles raises BaselineMiscompiled; that is only raised
    # when the candidate passes, so the candidate is still held to the bound (each side within
    # 2 x eager's distance from an fp32 run)
    with contextlib.suppress(BaselineMiscompiled):
        pair.assert_close()


@pytest.mark.min_speedup(1 - A_A_BOUND)
def test_a_zoo_pair_of_one_backend_times_even(zoo_pair, request) -> None:
    """A/A: two copies compiled the same way time 1.00 +- 0.02 (the harness's own error)."""
    pair = zoo_pair(
        "resnet50", "full", device="cuda", dtype=torch.bfloat16, candidate="inductor",
        batch=TIMM_BATCH,
    )  # fmt: skip
    pair.assert_close()
    if request.config.getoption("--magi-perf"):
        speedup = measure_pair(pair)
        assert abs(speedup.ratio - 1) <= A_A_BOUND, str(speedup)


@WAN_FORM_GROUP
@pytest.mark.min_speedup(WAN_MIN_SPEEDUP)
def test_wan_decode_holds_its_gain(zoo_pair) -> None:
    """The decode as `magi_compile(vae.decoder)` compiles it, in the Wan decoder's form
    (`magi_passes.forms`: one static graph a chunk; its ratio at T=3 is in docs/results.md,
    "Wan 2.2 decode"). The candidate's output is correct (held to eager's
    distance); on a torch with
    pytorch#194281 the baseline's is not, and that finding is expected, strictly: once torch is
    fixed the baseline decodes right, this raises nothing, and the test fails until the gate
    (magi_passes.workarounds.FIXED_IN) is moved."""
    pair = zoo_pair("wan2.2-vae", "full", device="cuda", dtype=torch.bfloat16, frames=WAN_FRAMES)
    if has_padding_miscompile():
        with pytest.raises(BaselineMiscompiled, match="the baseline compiler miscompiles"):
            pair.assert_close()
    else:
        pair.assert_close()
    assert pair.fired("conv_channels_last")
    assert pair.fired("padding_miscompile_workaround") is has_padding_miscompile()


def _assert_right(eager: zoo.ZooModel, out: torch.Tensor, frames: int) -> None:
    """``out``, a compiled decode of ``eager``'s latent, within 2 x eager's distance from fp32."""
    check = check_reference(eager.as_module(), eager.inputs, out, "fp32", eager_output=eager.run())
    assert check is not None
    assert check.compiled <= check.bound, (
        f"T={frames}: the compiled decode is {check.compiled:.3g} from fp32, eager "
        f"{check.eager:.3g}, bound {check.bound:.3g}"
    )


def test_wan_decode_is_right_after_another_length() -> None:
    """One compiled copy decoding two lengths, T=3 then T=5, in the generic form (split where
    torch 2.11 breaks the graph; the conv pad fold on; decisions off, so that the code, not a
    decision, is what is checked). The
    second length's latent slices have other strides, so the decoder's conv_in recompiles with
    them symbolic: the graph of a T=21 decode once found wrong with the
    fold off. Each decode within 2 x eager's distance from an
    fp32 decode of the same latent."""
    model = zoo.load("wan2.2-vae", "full", device="cuda", dtype=torch.bfloat16, frames=3)
    backend = MagiBackend(PassConfig(measure_decisions=False))
    compiled = model.compile(backend, isolate="instance")
    for frames in (3, 5):
        eager = model.with_frames(frames)
        out = compiled.with_inputs(*eager.inputs).run()
        _assert_right(eager, out, frames)


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(False, id="generic-static"),
        pytest.param(True, id="wan-form", marks=WAN_FORM_GROUP),
    ],
)
def test_wan_decode_static_form_is_right_and_reuses_its_graphs_at_every_length(
    form: bool,
) -> None:
    """The static one-graph-a-chunk form: the dynamo fix (one
    graph a chunk on torch 2.11), static shapes and contiguous inputs, with the generic
    `PassConfig` (decisions measured), and the Wan decoder's compile form as `magi_compile`
    ships it (`magi_passes.forms.WAN_DECODER`: norm inputs pinned, weights channels-last, pads
    through the cache concat, decisions recorded for H100s). One copy decodes T=3
    then T=5: each decode within 2 x eager's distance from fp32 (plain torch.compile with the
    fix miscompiled that one graph, 1.02), and the second length compiles nothing (its chunks
    reuse the first length's static graphs; with channels-last weights that needs the cache
    list's size-1 strides made one, `magi_passes.dynamo_fixes.unit_strides_canonical`)."""
    model = zoo.load("wan2.2-vae", "full", device="cuda", dtype=torch.bfloat16, frames=3)
    if form:
        backend = MagiBackend(forms.WAN_DECODER.config())
        compiled = model.compile(backend, isolate="instance", **forms.options(forms.WAN_DECODER))
    else:
        backend = MagiBackend(PassConfig.from_env())
        compiled = model.compile(
            backend, isolate="instance", dynamo_fixes=True, contiguous_inputs=True, dynamic=False
        )
    graphs = []
    for frames in (3, 5):
        eager = model.with_frames(frames)
        out = compiled.with_inputs(*eager.inputs).run()
        graphs.append(len(backend.managers))
        _assert_right(eager, out, frames)
    assert graphs[0] == graphs[1] == 3, graphs  # first, second and steady chunk; reused at T=5
    if not form:
        assert all(d.source != "static" or d.passes == () for d in backend.decisions), [
            d.describe() for d in backend.decisions
        ]  # every graph a measured pass changed was measured: none is dynamic
        return
    assert backend.count("conv_channels_last", "norm_inputs_channels_last") > 0
    assert backend.count("conv_channels_last", "pads_into_cat") > 0
