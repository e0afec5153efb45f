"""The zoo's video VAEs (`pytest_magi.zoo.VIDEO_VAES` beside ``wan2.2-vae``) on CPU: each tiny
model decodes a finite video of its model's geometry, deterministically, through ``vae.decoder``;
its FLOPs grow with the latent frames; the full size is checked on the meta device (shapes and
FLOPs, no memory, no compute). No Inductor compile here: the GPU runs them (tests/test_zoo_gpu.py).

The geometry below is each model's own (latent channels, spatial / temporal compression, the
published resolution), written down independently of the zoo's settings so that a wrong spec
fails here. The full-size FLOPs are measured numbers (torch 2.13, diffusers 0.42.1).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import pytest
import torch
from packaging.version import Version
from torch.utils.flop_counter import FlopCounterMode

from pytest_magi import zoo
from pytest_magi.models.zoo_builders import Built, ZooSpec, vae_run
from pytest_magi.models.zoo_specs import SIZES, SPECS


def _causal(ratio: int) -> Callable[[int], int]:
    """A causal VAE: the first latent frame decodes to one frame, each further one to ``ratio``."""
    return lambda t: ratio * (t - 1) + 1


@dataclass(frozen=True)
class Geometry:
    spatial: int  # pixels per latent pixel
    frames: Callable[[int], int]  # latent frames -> video frames
    full_latent: tuple[int, ...]
    full_video: tuple[int, int, int]  # (frames, height, width) of the published size
    full_tflop: float  # FLOPs of one full-size decode (measured, FlopCounterMode on meta)
    layout: str = "BCTHW"  # of the output; "BTCHW" (frames first), "(BT)CHW" (a latent per frame)
    step: int = 1  # latent frames that add work (one more tile / clip where decode is chunked)


GEOMETRY = {
    "cogvideox-vae": Geometry(8, _causal(4), (1, 16, 3, 60, 90), (9, 480, 720), 58.7527),
    "hunyuanvideo-vae": Geometry(8, _causal(4), (1, 16, 3, 68, 120), (9, 544, 960), 86.1892),
    "hunyuanvideo1.5-vae": Geometry(16, _causal(4), (1, 32, 3, 30, 53), (9, 480, 848), 94.3898),
    "ltx-video-vae": Geometry(32, _causal(8), (1, 128, 3, 16, 22), (17, 512, 704), 5.6171),
    "ltx2-video-vae": Geometry(32, _causal(8), (1, 128, 3, 16, 24), (17, 512, 768), 9.0180),
    "mochi-vae": Geometry(8, _causal(6), (1, 12, 3, 60, 106), (13, 480, 848), 115.8005),
    # tiled decode: a tile is 6 latent frames (24 frames); one more frame adds no tile
    "allegro-vae": Geometry(
        8, lambda t: 4 * t, (1, 4, 6, 90, 160), (24, 720, 1280), 457.4162, "BTCHW", step=4
    ),
    "easyanimate-vae": Geometry(8, _causal(4), (1, 16, 3, 64, 64), (9, 512, 512), 37.0555),
    "cosmos-vae": Geometry(8, _causal(8), (1, 16, 3, 88, 160), (17, 704, 1280), 10.6835),
    "kvae-3d-vae": Geometry(8, _causal(4), (1, 16, 3, 60, 90), (9, 480, 720), 70.2235),
    # clips of 7 latent frames (5n+2 latents <-> 17n+5 frames); T=3 pads one clip and trims it
    # back to 4 (T - 1) + 1 frames, T=7 is one clip of 22 frames; 5 more latents add a clip
    "minimax-h3-vae": Geometry(
        16, lambda t: {3: 9, 7: 22}[t], (1, 24, 7, 34, 60), (22, 544, 960), 129.3841, step=5
    ),
    "vidtok-vae": Geometry(8, _causal(4), (1, 4, 5, 32, 32), (17, 256, 256), 14.8669),
    "kandinsky6-sr-vae": Geometry(16, _causal(4), (1, 64, 3, 30, 54), (9, 480, 864), 71.9393),
    "svd-vae": Geometry(8, lambda t: t, (4, 4, 72, 128), (4, 576, 1024), 27.7719, "(BT)CHW"),
}
NEW = [name for name in zoo.VIDEO_VAES if name != "wan2.2-vae"]  # Wan: tests/test_zoo.py


def _require(name: str) -> None:
    missing = zoo.unavailable()
    if name in missing:
        pytest.skip(f"zoo model {name!r}: {missing[name]}")


@functools.cache
def _tiny(name: str) -> tuple[zoo.ZooModel, torch.Tensor]:
    """The tiny model (seed 0) and its decoded video, shared by the tests of one model."""
    model = zoo.load(name)
    return model, model.run()


def _video_shape(name: str, latent: tuple[int, ...]) -> tuple[int, ...]:
    """The decoded video's shape, from the latent's and the model's geometry."""
    g = GEOMETRY[name]
    s = g.spatial
    if g.layout == "(BT)CHW":
        return (latent[0], 3, latent[2] * s, latent[3] * s)
    batch, _, t, height, width = latent
    n = g.frames(t)
    if g.layout == "BTCHW":
        return (batch, n, 3, height * s, width * s)
    return (batch, 3, n, height * s, width * s)


def test_video_vaes_follow_the_first_four_in_a_stable_order() -> None:
    names = zoo.all_names()
    assert names[:4] == ["wan2.2-vae", "sd-vae", "resnet50", "efficientnet_b0"]
    assert list(zoo.VIDEO_VAES) == ["wan2.2-vae", *names[4:]]
    assert sorted(NEW) == sorted(GEOMETRY)  # every video VAE has its geometry written down
    for name in NEW:
        spec = SPECS[name]
        (class_name,) = spec.needs
        assert spec.library == "diffusers" and class_name in spec.description, spec
        assert set(spec.settings) == set(SIZES)
        assert "frames" in spec.options


def test_a_class_missing_from_the_installed_library_is_unavailable_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spec whose class this diffusers lacks is listed by `unavailable()`, not built: listing
    looks names up only, and `load` says what to upgrade."""
    pytest.importorskip("diffusers")
    import diffusers

    def build(*args: object) -> Built:
        raise AssertionError("listing the zoo built a model")

    future = ZooSpec(
        "future-vae", "diffusers", "diffusers AutoencoderKLFutureVideo", {"tiny": {}, "full": {}},
        build, vae_run, (), needs=("AutoencoderKLFutureVideo",),
    )  # fmt: skip
    monkeypatch.setitem(SPECS, "future-vae", future)
    assert "future-vae" in zoo.all_names() and "future-vae" not in zoo.names()
    reason = zoo.unavailable()["future-vae"]
    assert f"diffusers {diffusers.__version__} has no AutoencoderKLFutureVideo" in reason, reason
    assert "pip install -U diffusers" in reason
    with pytest.raises(ModuleNotFoundError, match="zoo model 'future-vae' needs diffusers: .*Fut"):
        zoo.load("future-vae")


def test_unavailable_entries_carry_a_reason() -> None:
    missing = zoo.unavailable()
    for name, reason in missing.items():
        assert isinstance(reason, str) and SPECS[name].library in reason, (name, reason)
        assert "pip install" in reason, (name, reason)
    diffusers = pytest.importorskip("diffusers")
    if Version(diffusers.__version__) >= Version("0.42.1"):
        # the release these specs were written against has every class
        assert not set(NEW) & set(missing), missing


@pytest.mark.parametrize("name", NEW)
def test_tiny_decode_is_a_finite_video_of_the_models_geometry(name: str) -> None:
    _require(name)
    model, video = _tiny(name)
    assert model.attr == "decoder" and model.module is model.owner.decoder
    assert not model.compiled and model.device.type == "cpu"
    latent = tuple(model.inputs[0].shape)
    assert video.shape == _video_shape(name, latent)
    assert torch.isfinite(video).all()
    assert video.float().std() > 0.05  # a video, not a constant
    # .run() goes through .module: what a compiled decoder replaces is what decodes
    calls: list[int] = []
    handle = model.module.register_forward_pre_hook(lambda *_: calls.append(1))
    try:
        torch.testing.assert_close(model.run(), video, rtol=0, atol=0)
    finally:
        handle.remove()
    assert calls


@pytest.mark.parametrize("name", NEW)
def test_tiny_decode_is_deterministic_under_the_seed(name: str) -> None:
    _require(name)
    _, video = _tiny(name)
    again = zoo.load(name, seed=0)
    torch.testing.assert_close(again.run(), video, rtol=0, atol=0)
    other = zoo.load(name, seed=1)
    assert not torch.equal(other.run(), video)


@pytest.mark.parametrize("name", NEW)
def test_tiny_flops_are_the_runs_and_grow_with_frames(name: str) -> None:
    """``.flops()`` (counted on a meta-device copy) is what the real tiny ``.run()`` counts, and
    one more latent frame (tile, clip) costs more. Attention is the one difference: the CPU's
    fused attention kernel has no FLOP formula, the meta device's decomposition counts it as
    ``bmm`` (measured: equal without attention, at most 4.6% more, MiniMax's ViT decoder)."""
    _require(name)
    model, _ = _tiny(name)
    counter = FlopCounterMode(display=False)
    with counter:
        model.run()
    counted, flops = counter.get_total_flops(), model.flops()
    assert 0 < counted <= flops <= 1.05 * counted
    frames = model.settings["frames"]
    assert model.flops(frames=frames + GEOMETRY[name].step) > flops


@pytest.mark.parametrize("name", NEW)
def test_full_size_latent_and_flops_on_meta(name: str) -> None:
    """The published size, built on the meta device: its latent is the model's (channels,
    compression, resolution) and one decode costs the measured FLOPs."""
    _require(name)
    g = GEOMETRY[name]
    full = zoo.load(name, "full", device="meta")
    assert all(p.device.type == "meta" for p in full.owner.parameters())
    latent = tuple(full.inputs[0].shape)
    assert latent == g.full_latent
    shape = _video_shape(name, latent)
    assert (g.frames(full.settings["frames"]), *shape[-2:]) == g.full_video
    assert full.flops() == pytest.approx(g.full_tflop * 1e12, rel=1e-4)


@pytest.mark.parametrize("name", NEW)
def test_tiling_and_slicing_are_off(name: str) -> None:
    """The whole latent goes through one decode (Allegro's decode is tiled-only)."""
    _require(name)
    vae = _tiny(name)[0].owner
    assert getattr(vae, "use_tiling", False) is (name == "allegro-vae")
    assert getattr(vae, "use_slicing", False) is False


def test_latent_options_change_the_latent_and_the_video() -> None:
    _require("mochi-vae")
    mochi = zoo.load("mochi-vae", batch=2, frames=2, height=3, width=5)
    assert mochi.inputs[0].shape == (2, 12, 2, 3, 5)
    assert mochi.run().shape == (2, 3, 7, 24, 40)


def test_svd_latent_is_one_per_frame() -> None:
    _require("svd-vae")
    svd = zoo.load("svd-vae", batch=2, frames=4)
    z, frames = svd.inputs
    assert z.shape == (8, 4, 4, 6) and frames == 4
    assert svd.run().shape == (8, 3, 32, 48)


def test_allegro_has_no_batch_option() -> None:
    """Allegro's tiled decode fills a one-video tile buffer: a batch is not an option."""
    _require("allegro-vae")
    with pytest.raises(ValueError, match="unknown option.*'batch'.*accepts frames, height, width"):
        zoo.load("allegro-vae", batch=2)


def test_minimax_decoder_blocks_are_not_identities() -> None:
    """The class initialises the ViT decoder's layer scales to zero; the zoo gives them random
    values, so each transformer block changes the video."""
    _require("minimax-h3-vae")
    model, video = _tiny("minimax-h3-vae")
    blocks = model.module.transformer_blocks
    assert all(b.scale1.abs().min() > 0 and b.scale2.abs().min() > 0 for b in blocks)
    as_built = zoo.load("minimax-h3-vae")  # the class's own initialisation: zero scales
    for block in as_built.module.transformer_blocks:
        torch.nn.init.zeros_(block.scale1)
        torch.nn.init.zeros_(block.scale2)
    assert not torch.allclose(as_built.run(), video)


@pytest.mark.parametrize("batch_size", [None, 3])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize(("frames", "hw"), [(1, 1), (1, 6), (3, 6), (4, 5), (2, 7)])
def test_hunyuanvideo15_loop_free_mask_equals_the_published_one(
    frames: int, hw: int, dtype: torch.dtype, batch_size: int | None
) -> None:
    """`zoo.causal_frame_mask` is the published ``prepare_causal_attention_mask`` (a Python loop
    over query rows that dynamo unrolls) bit for bit: shape, dtype, zeros and -infs."""
    _require("hunyuanvideo1.5-vae")
    from diffusers.models.autoencoders.autoencoder_kl_hunyuanvideo15 import (
        HunyuanVideo15AttnBlock,
    )

    published = HunyuanVideo15AttnBlock.prepare_causal_attention_mask(
        frames, hw, dtype, "cpu", batch_size=batch_size
    )
    ours = zoo.causal_frame_mask(frames, hw, dtype, "cpu", batch_size=batch_size)
    assert ours.shape == published.shape and ours.dtype == published.dtype
    assert torch.equal(ours, published)


def test_hunyuanvideo15_decodes_with_the_loop_free_mask() -> None:
    """Every attention block of the zoo's HunyuanVideo-1.5 VAE uses the loop-free mask, and the
    decode is the one the published mask gives."""
    _require("hunyuanvideo1.5-vae")
    model = zoo.load("hunyuanvideo1.5-vae")  # its own copy: the blocks are changed below
    video = model.run()
    blocks = [m for m in model.owner.modules() if type(m).__name__ == "HunyuanVideo15AttnBlock"]
    assert blocks and all(
        vars(b).get("prepare_causal_attention_mask") is zoo.causal_frame_mask for b in blocks
    )
    for b in blocks:  # back to the class's own method
        del b.prepare_causal_attention_mask
    torch.testing.assert_close(model.run(), video, rtol=0, atol=0)
