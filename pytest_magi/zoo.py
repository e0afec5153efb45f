"""`pytest_magi.zoo`: real models from the libraries people use, random weights, never a download.

Every model is built from its own library's classes (diffusers, timm) with random initialisation,
at two sizes: ``"tiny"`` (CPU tests and fake-CUDA codegen: seconds to compile) and ``"full"`` (the
real size, for the GPU benchmarks in ``benchmarks/zoo.py``). A model whose library is not
importable here, or whose class the installed version lacks, is absent from `names()`;
`unavailable()` says why (checked by name when listed, never by building).

| name | library class | what `.module` is | what `.run()` does |
| --- | --- | --- | --- |
| ``wan2.2-vae`` | diffusers ``AutoencoderKLWan``, Wan 2.2 TI2V-5B config | ``vae.decoder`` | ``vae.decode(z).sample`` (per-frame causal chunks) |
| ``sd-vae`` | diffusers ``AutoencoderKL``, SD-style 4x ``UpDecoderBlock2D`` | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``resnet50`` | timm | the network | ``model(x)`` |
| ``efficientnet_b0`` | timm | the network | ``model(x)`` |
| ``cogvideox-vae`` | diffusers ``AutoencoderKLCogVideoX``, CogVideoX-2b | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``hunyuanvideo-vae`` | diffusers ``AutoencoderKLHunyuanVideo``, HunyuanVideo | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``hunyuanvideo1.5-vae`` | diffusers ``AutoencoderKLHunyuanVideo15``, HunyuanVideo-1.5 | ``vae.decoder`` | ``vae.decode(z).sample`` (loop-free causal mask: `causal_frame_mask`) |
| ``ltx-video-vae`` | diffusers ``AutoencoderKLLTXVideo``, LTX-Video 0.9.0 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``ltx2-video-vae`` | diffusers ``AutoencoderKLLTX2Video``, LTX-2 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``mochi-vae`` | diffusers ``AutoencoderKLMochi``, Mochi 1 preview | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``allegro-vae`` | diffusers ``AutoencoderKLAllegro``, Allegro | ``vae.decoder`` | ``vae.decode(z).sample`` (tiled: its only decode) |
| ``easyanimate-vae`` | diffusers ``AutoencoderKLMagvit``, EasyAnimate V5.1 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``cosmos-vae`` | diffusers ``AutoencoderKLCosmos``, Cosmos-1.0 CV8x8x8 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``kvae-3d-vae`` | diffusers ``AutoencoderKLKVAEVideo``, KVAE-3D-1.0 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``minimax-h3-vae`` | diffusers ``AutoencoderKLMiniMaxH3``, MiniMax-H3 (ViT decoder) | ``vae.decoder`` | ``vae.decode(z).sample`` (tiling off) |
| ``vidtok-vae`` | diffusers ``AutoencoderVidTok``, VidTok KL causal 4x8x8 | ``vae.decoder`` | ``vae.decode(z)`` |
| ``kandinsky6-sr-vae`` | diffusers ``Kandinsky6SRVAE``, Kandinsky 6 SR K-VAE | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``svd-vae`` | diffusers ``AutoencoderKLTemporalDecoder``, SVD img2vid | ``vae.decoder`` | ``vae.decode(z, frames).sample`` |

Sizes (``full``): Wan latent (1, 48, 21, 34, 60) — a 540p video of 81 frames; SD latent
(1, 4, 64, 64) — a 512x512 image; timm batch 16 at 224x224; the other video VAEs at their
model's own resolution and a few latent frames (T=3, or one tile / clip / VidTok's 17 frames;
`VIDEO_VAES` lists them, each spec's comment gives its latent). Options of `load` change the
input shape (``frames`` for the Wan decode, ``batch``, ``frames``, ``height`` and ``width`` of
the latent for the other video VAEs, ``batch`` and ``resolution`` for the others).

`ZooModel.compile(backend=...)` compiles ``.module`` *in place on a copy* of the whole model, the
way users do it (``vae.decoder = torch.compile(vae.decoder)``), and returns a new `ZooModel` whose
``.run()`` goes through the compiled module. ``.flops()`` counts the FLOPs of ``.run()`` with
``torch.utils.flop_counter.FlopCounterMode`` on a copy built on the meta device (no memory, no
compute), so it is cheap even at full size.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import difflib
import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

from magi_passes.compile.dynamo_fixes import attach_call_options
from magi_passes.compile.frames import isolate_forward_code
from magi_passes.compile.weights import convert_conv_parameters

SIZES = ("tiny", "full")

# ---------------------------------------------------------------------------------- specs


@dataclass(frozen=True)
class _Built:
    owner: nn.Module  # the whole model (the VAE, the network)
    attr: str | None  # owner.<attr> is the module to compile; None: the owner itself
    inputs: tuple[Any, ...]


@dataclass(frozen=True)
class ZooSpec:
    """How one zoo model is built: its library, its sizes' settings and its call."""

    name: str
    library: str  # the module that must import ("diffusers", "timm")
    description: str
    settings: Mapping[str, Mapping[str, Any]]  # size -> options (input shape and widths)
    build: Callable[[Mapping[str, Any], torch.device, torch.dtype], _Built]
    run: Callable[[nn.Module, tuple[Any, ...]], Any]
    options: tuple[str, ...]  # the options `load(..., **options)` may override
    # names the library must export (a class added in a later release): checked when the zoo is
    # listed, never by building; a missing one makes the model unavailable with the reason
    needs: tuple[str, ...] = ()


def _wan_build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> _Built:
    from diffusers import AutoencoderKLWan

    z_dim = s["z_dim"]
    vae: Any = AutoencoderKLWan(
        base_dim=s["base_dim"],
        decoder_base_dim=s["decoder_base_dim"],
        z_dim=z_dim,
        dim_mult=list(s["dim_mult"]),
        num_res_blocks=s["num_res_blocks"],
        temperal_downsample=[False, True, True],
        is_residual=True,
        in_channels=12,
        out_channels=12,
        patch_size=2,
        scale_factor_spatial=16,
        scale_factor_temporal=4,
        latents_mean=[0.0] * z_dim,
        latents_std=[1.0] * z_dim,
    )
    # nn.Module.to: diffusers' own .to warns on any dtype (its fp32-module list is empty here)
    vae = nn.Module.to(vae, device=device, dtype=dtype).eval()
    z = _randn((s["batch"], z_dim, s["frames"], s["height"], s["width"]), device, dtype)
    return _Built(vae, "decoder", (z,))


def _wan_run(vae: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return vae.decode(*inputs).sample  # type: ignore[operator]


def _sd_build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> _Built:
    from diffusers import AutoencoderKL

    blocks = len(s["block_out_channels"])
    vae: Any = AutoencoderKL(
        in_channels=3,
        out_channels=3,
        down_block_types=("DownEncoderBlock2D",) * blocks,
        up_block_types=("UpDecoderBlock2D",) * blocks,
        block_out_channels=tuple(s["block_out_channels"]),
        layers_per_block=s["layers_per_block"],
        latent_channels=4,
        norm_num_groups=s["norm_num_groups"],
    )
    # nn.Module.to: diffusers' own .to warns on any dtype (its fp32-module list is empty here)
    vae = nn.Module.to(vae, device=device, dtype=dtype).eval()
    z = _randn((s["batch"], 4, s["resolution"], s["resolution"]), device, dtype)
    return _Built(vae, "decoder", (z,))


def _vae_run(vae: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return vae.decode(*inputs).sample  # type: ignore[operator]


def _timm_build(arch: str) -> Callable[[Mapping[str, Any], torch.device, torch.dtype], _Built]:
    def build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> _Built:
        import timm

        net = timm.create_model(arch, pretrained=False, num_classes=s["num_classes"])
        net = net.to(device=device, dtype=dtype).eval()
        x = _randn((s["batch"], 3, s["resolution"], s["resolution"]), device, dtype)
        return _Built(net, None, (x,))

    return build


def _call_run(net: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return net(*inputs)


# ------------------------------------------------------------------------------ video VAEs
# The video VAEs of diffusers beside Wan: each built from its class with the published model's
# config at "full" (the class default where that is the published one) and small widths at
# "tiny". `.run()` is `vae.decode(z)` with spatial tiling and batch slicing off (Allegro's decode
# is tiled-only); a class's own temporal chunking (CogVideoX's 2-frame batches, KVAE's
# segments, HunyuanVideo's frame-wise decode past 4 latent frames) is kept: it is how its decode
# works.
_VIDEO_OPTIONS = ("batch", "frames", "height", "width")


def _latent_channels(vae: Any) -> int:
    config = vae.config
    return int(config["latent_channels"] if "latent_channels" in config else config["z_channels"])


def _video_vae_build(
    class_name: str,
    *,
    setup: Callable[[Any], None] | None = None,
    per_frame: bool = False,
) -> Callable[[Mapping[str, Any], torch.device, torch.dtype], _Built]:
    """A build of diffusers ``class_name`` from ``s["config"]`` (constructor keywords; empty: the
    class defaults), decoding a latent ``(batch, C, frames, height, width)``; ``per_frame``: the
    latent is ``(batch * frames, C, height, width)`` and ``frames`` goes to ``decode`` too."""

    def build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> _Built:
        import diffusers

        # created on the device: a full-size model (MiniMax-H3's 2.4B-parameter decoder) is never
        # initialised on the host first
        with torch.device(device):
            vae: Any = getattr(diffusers, class_name)(**s["config"])
        for attr in ("use_tiling", "use_slicing"):
            if hasattr(vae, attr):
                setattr(vae, attr, False)
        if setup is not None:
            setup(vae)
        # nn.Module.to: diffusers' own .to warns on any dtype (its fp32-module list is empty here)
        vae = nn.Module.to(vae, device=device, dtype=dtype).eval()
        channels, frames = _latent_channels(vae), s["frames"]
        if per_frame:
            frame_latents = (s["batch"] * frames, channels, s["height"], s["width"])
            return _Built(vae, "decoder", (_randn(frame_latents, device, dtype), frames))
        latent = (s["batch"], channels, frames, s["height"], s["width"])
        return _Built(vae, "decoder", (_randn(latent, device, dtype),))

    return build


def _decode_tensor_run(vae: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return vae.decode(*inputs)  # type: ignore[operator]  # VidTok: decode returns the video


def _allegro_setup(vae: Any) -> None:
    # diffusers 0.42.1 AutoencoderKLAllegro._decode: "Decoding without tiling has not been
    # implemented yet"; its decode is the tiled one (24 frames x sample_size^2 tiles, blended)
    vae.use_tiling = True


def causal_frame_mask(
    n_frame: int,
    n_hw: int,
    dtype: torch.dtype,
    device: torch.device | str,
    batch_size: int | None = None,
) -> torch.Tensor:
    """The mask of diffusers ``HunyuanVideo15AttnBlock.prepare_causal_attention_mask``, without
    its Python loop: position ``i`` of a ``n_frame * n_hw`` sequence attends to every position
    of its own and earlier frames (0), not to later ones (-inf); same arguments, equal values.

    The published method fills the mask one query row at a time (``for i in range(seq_len)``),
    and dynamo unrolls that loop into one slice assignment per row: compiling the attention block
    alone on CPU took 56 s at 300 positions and 145 s at 1,200, and the 480p decode (4,770
    positions) did not finish compiling in 150 s on an H200 (docs/benchmarks.md). Here the mask
    is two ``arange``s and a comparison; with it torch.compile compiled that decode in 53 s."""
    frame = torch.arange(n_frame * n_hw, device=device) // n_hw
    visible = frame.unsqueeze(0) <= frame.unsqueeze(1)  # [query, key]: key's frame <= query's
    mask = torch.zeros(visible.shape, dtype=dtype, device=device)
    mask = mask.masked_fill(~visible, float("-inf"))
    if batch_size is not None:
        mask = mask.unsqueeze(0).expand(batch_size, -1, -1)
    return mask


def _hunyuanvideo15_setup(vae: Any) -> None:
    # the zoo decodes with the loop-free causal mask (equal values, tests/test_zoo_video.py): the
    # published loop makes a 480p decode uncompilable in practice for every backend alike
    for module in vae.modules():
        if type(module).__name__ == "HunyuanVideo15AttnBlock":
            module.prepare_causal_attention_mask = causal_frame_mask


def _minimax_setup(vae: Any) -> None:
    # the class initialises each decoder block's layer scales to zero (the release's are learned):
    # on random weights every transformer block would be an identity
    for block in vae.decoder.transformer_blocks:
        nn.init.normal_(block.scale1, std=0.1)
        nn.init.normal_(block.scale2, std=0.1)


def _video_spec(
    name: str,
    class_name: str,
    published: str,
    settings: Mapping[str, Mapping[str, Any]],
    *,
    run: Callable[[nn.Module, tuple[Any, ...]], Any] | None = None,
    options: tuple[str, ...] = _VIDEO_OPTIONS,
    setup: Callable[[Any], None] | None = None,
    per_frame: bool = False,
) -> ZooSpec:
    return ZooSpec(
        name,
        "diffusers",
        f"diffusers {class_name}, {published} config; vae.decode of a video latent",
        settings,
        _video_vae_build(class_name, setup=setup, per_frame=per_frame),
        run or _vae_run,
        options,
        needs=(class_name,),
    )


def _size(*, frames: int, height: int, width: int, **config: Any) -> dict[str, Any]:
    """One size's settings: the latent (batch 1, ``frames`` x ``height`` x ``width``) and the
    constructor keywords (none: the class defaults)."""
    return {"config": config, "batch": 1, "frames": frames, "height": height, "width": width}


_VIDEO_SPECS = (
    # CogVideoX-2b: the class default (diffusers scripts/convert_cogvideox_to_diffusers.py builds
    # AutoencoderKLCogVideoX(scaling_factor=...); 5b differs in scaling_factor only). 16 latent
    # channels, 8x spatial / 4x temporal, decoded 2 latent frames at a time with a conv cache;
    # full = 480x720 (the pipeline's size), T=3 (9 frames)
    _video_spec(
        "cogvideox-vae",
        "AutoencoderKLCogVideoX",
        "CogVideoX-2b",
        {
            "full": _size(frames=3, height=60, width=90),
            "tiny": _size(
                frames=3,
                height=4,
                width=6,
                block_out_channels=(8, 8, 16, 16),
                latent_channels=4,
                layers_per_block=1,
                norm_num_groups=4,
            ),
        },
    ),
    # HunyuanVideo: the class default (scaling_factor 0.476986, hunyuanvideo-community/HunyuanVideo).
    # 16 channels, 8x / 4x, attention in the mid block; full = 544x960 (its 540p), T=3
    _video_spec(
        "hunyuanvideo-vae",
        "AutoencoderKLHunyuanVideo",
        "HunyuanVideo",
        {
            "full": _size(frames=3, height=68, width=120),
            "tiny": _size(
                frames=3,
                height=4,
                width=6,
                latent_channels=4,
                block_out_channels=(8, 8, 16, 16),
                layers_per_block=1,
                norm_num_groups=4,
            ),
        },
    ),
    # HunyuanVideo-1.5: the class default (scripts/convert_hunyuan_video1_5_to_diffusers.py builds
    # AutoencoderKLHunyuanVideo15()). 32 channels, 16x / 4x; full = 480x848 (the 480p model), T=3
    _video_spec(
        "hunyuanvideo1.5-vae",
        "AutoencoderKLHunyuanVideo15",
        "HunyuanVideo-1.5",
        {
            "full": _size(frames=3, height=30, width=53),
            "tiny": _size(
                frames=3,
                height=2,
                width=3,
                latent_channels=4,
                block_out_channels=(8, 8, 16, 16, 16),
                layers_per_block=1,
            ),
        },
        setup=_hunyuanvideo15_setup,
    ),
    # LTX-Video 0.9.0: the class default (= get_vae_config("0.9.0") in
    # scripts/convert_ltx_to_diffusers.py; diffusers/LTX-Video-0.9.0). 128 channels, 32x spatial /
    # 8x temporal; full = 512x704 (the pipeline's size), T=3 (17 frames)
    _video_spec(
        "ltx-video-vae",
        "AutoencoderKLLTXVideo",
        "LTX-Video 0.9.0",
        {
            "full": _size(frames=3, height=16, width=22),
            "tiny": _size(
                frames=3,
                height=2,
                width=3,
                latent_channels=8,
                block_out_channels=(8, 8, 8, 8),
                decoder_block_out_channels=(8, 8, 8, 8),
                layers_per_block=(1, 1, 1, 1, 1),
                decoder_layers_per_block=(1, 1, 1, 1, 1),
            ),
        },
    ),
    # LTX-2: the class default (Lightricks/LTX-2; its loaders build AutoencoderKLLTX2Video()).
    # 128 channels, 32x / 8x, causal decoder with residual 2x upsamplers; full = 512x768 (the
    # pipeline's size), T=3 (17 frames). Tiny keeps the 2x channel-halving upsamplers
    _video_spec(
        "ltx2-video-vae",
        "AutoencoderKLLTX2Video",
        "LTX-2",
        {
            "full": _size(frames=3, height=16, width=24),
            "tiny": _size(
                frames=3,
                height=2,
                width=3,
                latent_channels=8,
                block_out_channels=(8, 8, 8, 8),
                decoder_block_out_channels=(8, 16, 32),
                layers_per_block=(1, 1, 1, 1, 1),
                decoder_layers_per_block=(1, 1, 1, 1),
            ),
        },
    ),
    # Mochi 1 preview: the class default (genmo/mochi-1-preview). 12 channels, 8x spatial / 6x
    # temporal; full = 480x848 (the pipeline's size), T=3 (13 frames). Its group norms have 32
    # groups, so tiny widths are 32
    _video_spec(
        "mochi-vae",
        "AutoencoderKLMochi",
        "Mochi 1 preview",
        {
            "full": _size(frames=3, height=60, width=106),
            "tiny": _size(
                frames=3,
                height=4,
                width=6,
                encoder_block_out_channels=(32, 32, 32, 32),
                decoder_block_out_channels=(32, 32, 32, 32),
                layers_per_block=(1, 1, 1, 1, 1),
            ),
        },
    ),
    # Allegro: the class default (rhymes-ai/Allegro). 4 channels, 8x / 4x; decode is tiled only:
    # tiles of 6 latent frames x sample_size/8 squared, so full = 720x1280 (its only size) at
    # T=6 (one temporal tile, 24 frames, 15 spatial tiles). The output is (B, frames, C, H, W);
    # the tile buffer holds one video, so no batch option. Tiny: sample_size 128 is the smallest
    # tile its fixed 120-pixel overlap leaves a stride in
    _video_spec(
        "allegro-vae",
        "AutoencoderKLAllegro",
        "Allegro",
        {
            "full": _size(frames=6, height=90, width=160),
            "tiny": _size(
                frames=6,
                height=16,
                width=16,
                block_out_channels=(4, 4, 8, 8),
                layers_per_block=1,
                norm_num_groups=2,
                sample_size=128,
            ),
        },
        options=("frames", "height", "width"),
        setup=_allegro_setup,
    ),
    # EasyAnimate (AutoencoderKLMagvit): the class default (the pipeline docs load
    # alibaba-pai/EasyAnimateV5.1-7b-zh-diffusers; not checked against that config here, no
    # network). 16 channels, 8x / 4x, one decoder call per latent frame; full = 512x512 (the
    # pipeline's size), T=3
    _video_spec(
        "easyanimate-vae",
        "AutoencoderKLMagvit",
        "EasyAnimate V5.1",
        {
            "full": _size(frames=3, height=64, width=64),
            "tiny": _size(
                frames=3,
                height=4,
                width=6,
                latent_channels=4,
                block_out_channels=(8, 8, 16, 16),
                layers_per_block=1,
                norm_num_groups=4,
            ),
        },
    ),
    # Cosmos-1.0 tokenizer CV8x8x8: the class default (= VAE_CONFIGS["CV8x8x8-1.0"] in
    # scripts/convert_cosmos_to_diffusers.py; Cosmos-1.0-Diffusion-*-Text2World). 16 channels,
    # 8x spatial / 8x temporal (haar patching); full = 704x1280 (the pipeline's size), T=3 (17
    # frames). Tiny keeps the attention levels (attention_resolutions, resolution)
    _video_spec(
        "cosmos-vae",
        "AutoencoderKLCosmos",
        "Cosmos-1.0 CV8x8x8",
        {
            "full": _size(frames=3, height=88, width=160),
            "tiny": _size(
                frames=3,
                height=4,
                width=6,
                latent_channels=4,
                encoder_block_out_channels=(8, 8, 8, 8),
                decode_block_out_channels=(8, 8, 8, 8),
                num_layers=1,
                latents_mean=None,
                latents_std=None,
            ),
        },
    ),
    # KVAE-3D-1.0 (kandinskylab/KVAE-3D-1.0, diffusers' docs): the class default. 16 channels,
    # 8x / 4x, decoded in cached segments of 16 frames; full = 480x720, T=3. Its group norms have
    # 32 groups, so tiny widths are 32
    _video_spec(
        "kvae-3d-vae",
        "AutoencoderKLKVAEVideo",
        "KVAE-3D-1.0",
        {
            "full": _size(frames=3, height=60, width=90),
            "tiny": _size(
                frames=3,
                height=4,
                width=6,
                ch=32,
                ch_mult=(1, 1, 1, 1),
                num_res_blocks=1,
                z_channels=4,
            ),
        },
    ),
    # MiniMax-H3's video VAE: the class default (= MINIMAX_H3_VIDEO_VAE_CONFIG in
    # scripts/convert_minimax_h3_to_diffusers.py). A 36-layer ViT decoder (2.4B parameters), 24
    # channels, 16x / 4x, decoded in clips of 7 latent frames (17n+5 frames <-> 5n+2 latents);
    # released with spatial tiling on, decoded here whole like the others. full = 544x960, T=7
    # (22 frames, one clip)
    _video_spec(
        "minimax-h3-vae",
        "AutoencoderKLMiniMaxH3",
        "MiniMax-H3",
        {
            "full": _size(frames=7, height=34, width=60),
            "tiny": _size(
                frames=3,
                height=2,
                width=3,
                latent_channels=4,
                block_out_channels=(32,) * 6,
                layers_per_block=1,
                decoder_num_layers=2,
                decoder_num_attention_heads=2,
                decoder_attention_head_dim=16,
                latents_mean=(0.0,) * 4,
                latents_std=(1.0,) * 4,
            ),
        },
        setup=_minimax_setup,
    ),
    # VidTok (microsoft/VidTok): the class default is its KL causal 4x8x8 tokenizer with 4
    # channels; decode returns the video itself. full = 256x256, T=5 (17 frames: the clip size
    # VidTok is trained and evaluated at)
    _video_spec(
        "vidtok-vae",
        "AutoencoderVidTok",
        "VidTok KL causal 4x8x8 4-channel",
        {
            "full": _size(frames=5, height=32, width=32),
            "tiny": _size(
                frames=3, height=4, width=6, ch=32, ch_mult=(1, 1, 1, 1), num_res_blocks=1
            ),
        },
        run=_decode_tensor_run,
    ),
    # Kandinsky 6's K-VAE (Kandinsky6SRPipeline): the class default. 64 channels, 16x / 4x, a
    # 1.5B-parameter decoder run in cached segments of 16 frames; full = 480x864 (the pipeline
    # docs' size), T=3
    _video_spec(
        "kandinsky6-sr-vae",
        "Kandinsky6SRVAE",
        "Kandinsky 6 SR K-VAE",
        {
            "full": _size(frames=3, height=30, width=54),
            "tiny": _size(
                frames=3,
                height=2,
                width=3,
                latent_channels=4,
                encoder_block_out_channels=(8, 8, 8, 8, 8),
                decoder_block_out_channels=(8, 8, 8, 8, 8),
                layers_per_block=1,
            ),
        },
    ),
    # Stable Video Diffusion's VAE: a per-frame 2-D latent (batch * frames, 4, h, w) decoded with
    # temporal mixing (decode(z, num_frames)). The class default (64,) is not SVD's: its config is
    # SD's widths (sgm's svd.yaml decoder: ch 128, ch_mult 1,2,4,4, num_res_blocks 2, z 4, i.e.
    # stabilityai/stable-video-diffusion-img2vid's vae). full = 576x1024 (the pipeline's size),
    # 4 frames; the output is (batch * frames, 3, H, W). Its norms have 32 groups: tiny widths 32
    _video_spec(
        "svd-vae",
        "AutoencoderKLTemporalDecoder",
        "Stable Video Diffusion img2vid",
        {
            "full": _size(
                frames=4,
                height=72,
                width=128,
                block_out_channels=(128, 256, 512, 512),
                down_block_types=("DownEncoderBlock2D",) * 4,
                layers_per_block=2,
            ),
            "tiny": _size(
                frames=3,
                height=4,
                width=6,
                block_out_channels=(32, 32, 32, 32),
                down_block_types=("DownEncoderBlock2D",) * 4,
                layers_per_block=1,
            ),
        },
        per_frame=True,
    ),
)


_TIMM_SETTINGS = {
    "tiny": {"batch": 2, "resolution": 64, "num_classes": 10},
    "full": {"batch": 16, "resolution": 224, "num_classes": 1000},
}

SPECS: dict[str, ZooSpec] = {
    spec.name: spec
    for spec in (
        ZooSpec(
            "wan2.2-vae",
            "diffusers",
            "diffusers AutoencoderKLWan, Wan 2.2 TI2V-5B config; vae.decode of a video latent",
            {
                # the TI2V-5B VAE: base_dim 160, decoder_base_dim 256, z_dim 48, residual,
                # 12 in/out channels (patch_size 2), 16x spatial / 4x temporal; full = 540p, T=21
                "full": {
                    "base_dim": 160,
                    "decoder_base_dim": 256,
                    "z_dim": 48,
                    "dim_mult": (1, 2, 4, 4),
                    "num_res_blocks": 2,
                    "batch": 1,
                    "frames": 21,
                    "height": 34,
                    "width": 60,
                },
                "tiny": {
                    "base_dim": 8,
                    "decoder_base_dim": 8,
                    "z_dim": 4,
                    "dim_mult": (1, 2, 2, 2),
                    "num_res_blocks": 1,
                    "batch": 1,
                    "frames": 2,
                    "height": 2,
                    "width": 3,
                },
            },  # fmt: skip
            _wan_build,
            _wan_run,
            ("batch", "frames", "height", "width"),
        ),
        ZooSpec(
            "sd-vae",
            "diffusers",
            "diffusers AutoencoderKL, SD-style 4x UpDecoderBlock2D; vae.decode of an image latent",
            {
                "full": {
                    "block_out_channels": (128, 256, 512, 512),
                    "layers_per_block": 2,
                    "norm_num_groups": 32,
                    "batch": 1,
                    "resolution": 64,
                },
                "tiny": {
                    "block_out_channels": (8, 8, 16, 16),
                    "layers_per_block": 1,
                    "norm_num_groups": 4,
                    "batch": 1,
                    "resolution": 4,
                },
            },  # fmt: skip
            _sd_build,
            _vae_run,
            ("batch", "resolution"),
        ),
        ZooSpec(
            "resnet50",
            "timm",
            "timm resnet50; an image classifier forward",
            _TIMM_SETTINGS,
            _timm_build("resnet50"),
            _call_run,
            ("batch", "resolution"),
        ),
        ZooSpec(
            "efficientnet_b0",
            "timm",
            "timm efficientnet_b0 (depthwise convs, squeeze-excite); an image classifier forward",
            _TIMM_SETTINGS,
            _timm_build("efficientnet_b0"),
            _call_run,
            ("batch", "resolution"),
        ),
        *_VIDEO_SPECS,
    )
}
VIDEO_VAES: tuple[str, ...] = ("wan2.2-vae", *(spec.name for spec in _VIDEO_SPECS))
"""The zoo's video VAEs (5-D latents; ``svd-vae``'s latent is per frame), in `names()` order."""


def _randn(shape: Sequence[int], device: torch.device, dtype: torch.dtype) -> torch.Tensor:
    if device.type == "meta":
        return torch.empty(tuple(shape), device=device, dtype=dtype)
    return torch.randn(tuple(shape), device=device, dtype=dtype)


# ------------------------------------------------------------------------------ library check
_LIBRARY_ERRORS: dict[str, str | None] = {}


def _library_error(library: str) -> str | None:
    """Why ``library`` cannot be used here (None: it imports). Checked once per process."""
    if library not in _LIBRARY_ERRORS:
        try:
            importlib.import_module(library)
        except Exception as exc:  # ImportError, or a broken install (torchvision's nms op)
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            _LIBRARY_ERRORS[library] = (
                f"{library} is not importable here ({type(exc).__name__}: {first}); "
                f"install it with `pip install 'pytest-magi[models]'`"
                + (
                    " (timm needs a torchvision that matches the installed torch)"
                    if library == "timm"
                    else ""
                )
            )
        else:
            _LIBRARY_ERRORS[library] = None
    return _LIBRARY_ERRORS[library]


@functools.cache
def _export_error(library: str, export: str) -> str | None:
    """Why ``library`` (which imports) has no usable ``export`` here (None: it has). Looks the
    name up (diffusers imports its submodule then), builds nothing."""
    module = importlib.import_module(library)
    version = getattr(module, "__version__", "(unknown version)")
    upgrade = f"upgrade it with `pip install -U {library}`"
    try:
        getattr(module, export)
    except AttributeError:
        return f"{library} {version} has no {export} (a later release adds it); {upgrade}"
    except Exception as exc:  # the submodule fails to import (a missing optional dependency)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return (
            f"{library} {version} cannot import {export} ({type(exc).__name__}: {first}); "
            f"{upgrade}, or `pip install` what it names"
        )
    return None


def _spec_error(spec: ZooSpec) -> str | None:
    """Why zoo model ``spec`` cannot be built here (None: it can)."""
    error = _library_error(spec.library)
    if error is not None:
        return error
    return next(
        (e for e in (_export_error(spec.library, n) for n in spec.needs) if e is not None), None
    )


def names() -> list[str]:
    """The zoo models usable in this environment, in a stable order."""
    return [name for name, spec in SPECS.items() if _spec_error(spec) is None]


def all_names() -> list[str]:
    """Every zoo model, usable here or not."""
    return list(SPECS)


def unavailable() -> dict[str, str]:
    """``{name: reason}`` for the zoo models that cannot be built here: their library does not
    import, or lacks the class (`ZooSpec.needs`) in the installed version."""
    out: dict[str, str] = {}
    for name, spec in SPECS.items():
        error = _spec_error(spec)
        if error is not None:
            out[name] = error
    return out


# ----------------------------------------------------------------------------------- models
@dataclass
class ZooModel:
    """One zoo model, ready to run or compile. See the module docstring."""

    name: str
    size: str
    owner: nn.Module
    attr: str | None
    inputs: tuple[Any, ...]
    settings: Mapping[str, Any]
    spec: ZooSpec = field(repr=False)
    backend: Any = None  # what `.compile` compiled with (None: eager)
    compile_kwargs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def module(self) -> nn.Module:
        """The `nn.Module` users compile (the VAE's decoder; the whole network)."""
        return self.owner if self.attr is None else getattr(self.owner, self.attr)

    @property
    def device(self) -> torch.device:
        return next(t for t in self.inputs if isinstance(t, torch.Tensor)).device

    @property
    def dtype(self) -> torch.dtype:
        return next(t for t in self.inputs if isinstance(t, torch.Tensor)).dtype

    @property
    def compiled(self) -> bool:
        return self.backend is not None

    def run(self, *inputs: Any) -> Any:
        """The call users make (``vae.decode(z).sample``, ``model(x)``), on ``inputs`` or
        the example inputs."""
        with torch.no_grad():
            return self.spec.run(self.owner, tuple(inputs) if inputs else self.inputs)

    __call__ = run

    def compile(
        self,
        backend: Any = "inductor",
        *,
        isolate: str = "class",
        dynamo_fixes: bool = False,
        contiguous_inputs: bool = False,
        channels_last_parameters: bool = False,
        **torch_compile_kwargs: Any,
    ) -> ZooModel:
        """A new `ZooModel`: a deep copy whose ``.module`` is ``torch.compile(module, ...)``.

        The copy shares nothing with this model (weights included), and its modules get
        ``forward`` code objects of their own (`magi_passes.frames.isolate_forward_code`):
        ``isolate="class"`` (default) makes the copy behave as if it were the only compiled copy
        in the process — two copies sharing the classes' code share dynamo's frames and recompile
        limits (measured on the Wan 2.2 decode on the GPU: the second copy ran its up blocks
        eagerly); ``isolate="instance"`` gives every module instance its own frames, as
        `magi_compile` does; ``isolate="root"`` gives the compiled module alone one (enough for
        a model that is one graph, and dynamo then traces its submodules as torch.compile does:
        `magi_passes.frames.isolate_forward_code`). ``dynamo_fixes=True`` runs every call of
        the compiled module inside `magi_passes.dynamo_fixes.tensor_constant_compare`, and
        ``contiguous_inputs=True`` makes its positional tensor arguments contiguous first
        (`magi_passes.dynamo_fixes.attach_contiguous_inputs`), as `magi_compile` does with them;
        ``channels_last_parameters=True`` lays the copy's conv weights out channels-last first
        (`magi_passes.channels_last.convert_conv_parameters`; the eager model is not touched).
        """
        for name, value in (
            ("dynamo_fixes", dynamo_fixes),
            ("contiguous_inputs", contiguous_inputs),
            ("channels_last_parameters", channels_last_parameters),
        ):
            if not isinstance(value, bool):
                raise TypeError(f"ZooModel.compile({name}={value!r}): expected True or False")
        if self.compiled:
            raise ValueError(
                f"zoo model {self.name!r} is already compiled (backend={self.backend!r}); "
                f"call .compile() on the eager model returned by zoo.load()"
            )
        owner: Any = copy.deepcopy(self.owner)
        target = owner if self.attr is None else getattr(owner, self.attr)
        if channels_last_parameters:
            convert_conv_parameters(target)
        isolate_forward_code(target, isolate)
        if self.attr is None:
            owner = compiled = torch.compile(owner, backend=backend, **torch_compile_kwargs)
        else:
            module = getattr(owner, self.attr)
            compiled = torch.compile(module, backend=backend, **torch_compile_kwargs)
            setattr(owner, self.attr, compiled)
        assert isinstance(compiled, nn.Module)  # torch.compile of a module is a module
        attach_call_options(
            compiled, dynamo_fixes=dynamo_fixes, contiguous_inputs=contiguous_inputs
        )
        return dataclasses.replace(
            self,
            owner=owner,
            backend=backend,
            compile_kwargs={
                "isolate": isolate,
                "dynamo_fixes": dynamo_fixes,
                "contiguous_inputs": contiguous_inputs,
                "channels_last_parameters": channels_last_parameters,
                **torch_compile_kwargs,
            },
        )

    def as_module(self) -> nn.Module:
        """An ``nn.Module`` whose ``forward(*inputs)`` is ``.run()``: the whole call as one
        module (for ``inductor_codegen`` / ``kernel_counts``, which compile a module whole)."""
        return _RunModule(self.owner, self.spec.run)

    def with_inputs(self, *inputs: Any) -> ZooModel:
        """The same model (shared, not copied) with other example inputs."""
        if not inputs:
            raise ValueError("with_inputs() needs at least one input")
        return dataclasses.replace(self, inputs=tuple(inputs))

    def with_frames(self, frames: int) -> ZooModel:
        """The same model (shared, not copied) with a new latent of ``frames`` latent frames:
        its first input's dim 2 at ``frames``, drawn like its own (standard normal, on its device
        and in its dtype), the other inputs kept. For the video decoders whose latent is
        ``(batch, channels, frames, height, width)`` (the Wan 2.2 decode, most of
        `VIDEO_VAES`); a model with another first input raises ``ValueError``. One compiled
        copy decoding several lengths is how session 19's wrong Wan decode came about
        (docs/benchmarks.md)."""
        if isinstance(frames, bool) or not isinstance(frames, int) or frames < 1:
            raise ValueError(
                f"with_frames(frames={frames!r}): expected a positive number of latent frames, "
                f"e.g. with_frames(5)"
            )
        z, *rest = self.inputs
        if not isinstance(z, torch.Tensor) or z.dim() != 5:
            got = tuple(z.shape) if isinstance(z, torch.Tensor) else type(z).__name__
            raise ValueError(
                f"zoo model {self.name!r}: with_frames needs a (batch, channels, frames, height, "
                f"width) latent as its first input, got {got}: only the video decoders with "
                f"such a latent have latent frames to change (zoo.VIDEO_VAES)"
            )
        shape = list(z.shape)
        shape[2] = frames
        return self.with_inputs(_randn(shape, z.device, z.dtype), *rest)

    def flops(self, **options: Any) -> int:
        """FLOPs of ``.run()`` (``torch.utils.flop_counter``), counted on a meta-device copy.

        ``options`` override the input shape as in `load` (e.g. ``frames=3``), so the cost of
        one more latent frame is ``m.flops(frames=T + 1) - m.flops(frames=T)``.
        """
        from torch.utils.flop_counter import FlopCounterMode

        settings = _settings(self.spec, self.size, {**self._input_options(), **options})
        with torch.device("meta"):
            built = self.spec.build(settings, torch.device("meta"), self.dtype)
        counter = FlopCounterMode(display=False)
        with counter, torch.no_grad():
            self.spec.run(built.owner, built.inputs)
        return int(counter.get_total_flops())

    def _input_options(self) -> dict[str, Any]:
        return {k: self.settings[k] for k in self.spec.options if k in self.settings}

    def __repr__(self) -> str:
        shapes = ", ".join(str(tuple(t.shape)) for t in self.inputs if isinstance(t, torch.Tensor))
        state = f"compiled backend={self.backend!r}" if self.compiled else "eager"
        return (
            f"ZooModel({self.name!r}, size={self.size!r}, inputs=[{shapes}], "
            f"{self.dtype}, {self.device}, {state})"
        )


class _RunModule(nn.Module):
    def __init__(self, owner: nn.Module, run: Callable[[nn.Module, tuple[Any, ...]], Any]) -> None:
        super().__init__()
        self.owner = owner
        self._run = run

    def forward(self, *inputs: Any) -> Any:
        return self._run(self.owner, inputs)


def _settings(spec: ZooSpec, size: str, options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise ValueError(
            f"zoo.load({spec.name!r}): unknown option(s) {', '.join(map(repr, unknown))}; "
            f"{spec.name!r} accepts {', '.join(spec.options)}"
        )
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(
                f"zoo.load({spec.name!r}): option {key}={value!r} must be a positive int"
            )
    return {**spec.settings[size], **options}


def _check_choice(what: str, value: Any, choices: Sequence[str]) -> None:
    if value in choices:
        return
    close = difflib.get_close_matches(str(value), list(choices), n=2)
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    raise ValueError(f"unknown zoo {what} {value!r}; choose one of {list(choices)}{hint}")


def load(
    name: str,
    size: str = "tiny",
    *,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float32,
    seed: int = 0,
    **options: Any,
) -> ZooModel:
    """Build zoo model ``name`` at ``size`` ("tiny" or "full") with random weights, in eval mode.

    ``device``/``dtype``: where the weights and example inputs live; ``device="meta"`` builds
    on the meta device (no memory, no compute: shapes, ``.run()`` shapes and ``.flops()``, even
    at full size). ``seed``: weights and inputs are deterministic given it. ``options``:
    input-shape overrides (see the module docstring; e.g. ``load("wan2.2-vae", "full",
    frames=5)``). Unknown names, sizes and options raise ``ValueError`` naming the choices; a
    model whose library does not import here, or lacks its class, raises
    ``ModuleNotFoundError`` with the reason.
    """
    _check_choice("model name", name, list(SPECS))
    _check_choice("size", size, SIZES)
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise TypeError(
            f"zoo.load(dtype={dtype!r}): expected a floating torch.dtype such as torch.bfloat16"
        )
    spec = SPECS[name]
    error = _spec_error(spec)
    if error is not None:
        raise ModuleNotFoundError(f"zoo model {name!r} needs {spec.library}: {error}")
    settings = _settings(spec, size, options)
    dev = torch.device(device)
    with torch.random.fork_rng(devices=[dev] if dev.type == "cuda" else []):
        torch.manual_seed(seed)
        # on meta the model is created there (a full-size model never exists in memory)
        with torch.device(dev) if dev.type == "meta" else contextlib.nullcontext():
            built = spec.build(settings, dev, dtype)
    return ZooModel(name, size, built.owner, built.attr, built.inputs, settings, spec)


# ------------------------------------------------------------------------------------ pairs
class ZooPair:
    """Two compiled copies of one zoo model, the way users compile it: ``baseline`` (plain
    ``torch.compile``) and ``candidate`` (``backend="magi"`` by default).

    The candidate's modules get frames of their own as `magi_compile` gives them
    (``candidate_isolate``, None: as its form says, ``CompileForm.frames``, else per
    instance; or ``"instance"``, ``"class"``, ``"root"``), and a magi candidate is compiled
    in the model's measured form as `magi_compile` compiles it (``candidate_form="auto"``,
    `magi_passes.forms`: the Wan decoder
    one static graph a chunk with contiguous inputs and its dynamo fix, and, where the pair
    builds the ``MagiBackend`` itself (``candidate="magi"``), the form's `PassConfig` fields);
    ``candidate_form=None`` compiles the generic form. ``candidate_dynamo_fixes`` (None: as the
    form says, else off) runs the candidate's calls with `magi_compile`'s dynamo fixes
    (`magi_passes.dynamo_fixes`). The baseline is compiled as users compile it. Timed by
    ``@pytest.mark.min_speedup`` like a ``CompiledPair`` (the ``zoo_pair`` fixture
    registers it), or directly with ``pytest_magi.timing.measure_pair(pair)``.
    ``candidate_backend`` is the ``MagiBackend`` when the candidate is magi: its managers say
    what each pass did to each graph (``pair.fired("conv_channels_last")``).
    A magi candidate compiles with Inductor's FX graph and AOTAutograd caches off (scoped to its
    compiles, as a ``CompiledPair``'s sides compile), so its passes run on every graph and
    ``fired``/``results`` see them whatever an earlier process left in the cache folder.

    Compile health per side, as for a ``CompiledPair``: ``pair.compile_stats[side]`` (graphs,
    frames, graph breaks, recompiles, frames that hit the recompile limit and ran eagerly, dims
    made dynamic automatically), ``pair.expect_compile(...)``, and the report's compile column.
    Each side's backend reports the graphs it compiles; the other counts are read while a call
    made through the pair runs (``pair.run(side)``, ``assert_close``, the first timed call), not
    during calls of ``pair.baseline.run()`` made directly. A string backend given with
    ``mode=``/``options=`` is left to ``torch.compile`` and its graphs are not counted (a note
    in the stats says so).
    """

    def __init__(
        self,
        model: ZooModel,
        *,
        baseline: Any = "inductor",
        candidate: Any = "magi",
        label: str | None = None,
        candidate_isolate: str | None = None,
        candidate_dynamo_fixes: bool | None = None,
        candidate_form: Any = "auto",
        **torch_compile_kwargs: Any,
    ) -> None:
        if not isinstance(model, ZooModel):
            raise TypeError(
                f"ZooPair(model={model!r}): expected a ZooModel from pytest_magi.zoo.load(...)"
            )
        if label is not None and not isinstance(label, str):
            raise TypeError(f"ZooPair(label={label!r}): expected a str or None")
        if candidate_dynamo_fixes is not None and not isinstance(candidate_dynamo_fixes, bool):
            raise TypeError(
                f"ZooPair(candidate_dynamo_fixes={candidate_dynamo_fixes!r}): expected True, "
                f"False or None; None (the default) does as the candidate's form says"
            )
        from magi_passes import MagiBackend
        from magi_passes.compile import forms

        is_magi = candidate == "magi" or isinstance(candidate, MagiBackend)
        # the model's measured form, as magi_compile picks it (a magi candidate only)
        form = forms.resolve("ZooPair", candidate_form, model.module, arg="candidate_form")
        form = form if is_magi else None
        if candidate == "magi":
            candidate = (
                MagiBackend(form.config(), form.backend_options())
                if form is not None
                else MagiBackend()
            )
        from .compile_stats import CompileStatsCollector

        self.model = model
        self.form = form
        # what each side compiles with, as given (``locate`` compiles a side again from it)
        self.side_backends = {"baseline": baseline, "candidate": candidate}
        settings = forms.options(
            form,
            dynamic=torch_compile_kwargs.get("dynamic"),
            dynamo_fixes=candidate_dynamo_fixes,
            contiguous_inputs=None,
            channels_last_parameters=None,
        )
        # the form's settings over the caller's torch.compile arguments (dynamic left to torch
        # where neither sets it)
        chosen = {k: v for k, v in settings.items() if v is not None}
        self.side_options: dict[str, dict[str, Any]] = {
            "baseline": {"isolate": "class", **torch_compile_kwargs},
            "candidate": {
                # the form's frames where the caller gives none, as magi_compile isolates them
                "isolate": candidate_isolate or (form.frames if form is not None else "instance"),
                **torch_compile_kwargs,
                **chosen,
            },
        }
        self.compile_kwargs = dict(torch_compile_kwargs)
        self.candidate_backend = candidate if hasattr(candidate, "managers") else None
        self._stats = {"baseline": CompileStatsCollector(), "candidate": CompileStatsCollector()}
        self._watched: set[str] = set()
        self.baseline = model.compile(
            backend=_counted(baseline, self._stats["baseline"], torch_compile_kwargs),
            **torch_compile_kwargs,
        )
        self.candidate = model.compile(
            backend=_counted(
                candidate,
                self._stats["candidate"],
                torch_compile_kwargs,
                caches_off=self.candidate_backend is not None,
            ),
            **self.side_options["candidate"],
        )
        self.label = label or f"{model.name}-{model.size}"
        self.device = str(model.device)
        # the last assert_close's outcome in one line (`numerics.numerics_summary`), None
        # before any: the report's numerics column beside the pair's speedup
        self.numerics: str | None = None

    def run(self, side: str) -> Any:
        """One call of ``side`` ("baseline" or "candidate") on the model's inputs, with what
        dynamo reports meanwhile counted in ``compile_stats[side]``."""
        from .sides import check_side_name

        check_side_name(side)
        with self._stats[side].watch():
            out = getattr(self, side).run()
        self._watched.add(side)
        return out

    def timing_callables(self) -> tuple[Callable[[], Any], Callable[[], Any]]:
        """Each side's call; a side's first call goes through ``run`` (it compiles), the timed
        ones call the compiled model directly (no bookkeeping per call)."""

        def side(name: str) -> Callable[[], Any]:
            model = getattr(self, name)

            def call() -> Any:
                return model.run() if name in self._watched else self.run(name)

            return call

        return side("baseline"), side("candidate")

    @property
    def compile_stats(self) -> dict[str, Any]:
        """``{side: pytest_magi.compile_stats.CompileStats}`` of the calls made through the pair."""
        return {side: c.stats() for side, c in self._stats.items()}

    @property
    def compile_note(self) -> str | None:
        """A note when the candidate compiles more graphs than the baseline, or its magi
        backend compiled a graph again after one of torch's sympy failures."""
        from .compile_stats import compile_health_note

        backend = self.candidate_backend
        return compile_health_note(self.compile_stats, {"candidate": backend} if backend else {})

    def expect_compile(self, *, side: str = "both", **maximums: int) -> None:
        """Fail naming each count over its maximum, as ``CompiledPair.expect_compile``:
        ``pair.expect_compile(eager_fallbacks=0, automatic_dynamic=0, side="candidate")``."""
        from .compile_stats import check_maximums
        from .sides import check_side_name

        check_side_name(side, allow_both=True)
        check_maximums(self.compile_stats, maximums, self.label, owner="ZooPair", side=side)

    @property
    def decisions(self) -> dict[str, list[Any]]:
        """``{"candidate": [Decision, ...]}`` when the candidate is a ``MagiBackend``: how each
        graph's variant was chosen (``magi_passes.decisions``), for the compile-health table."""
        backend = self.candidate_backend
        decisions = getattr(backend, "decisions", None)
        return {"candidate": list(decisions)} if decisions is not None else {}

    def fired(self, name: str) -> bool:
        """Whether the candidate's magi pass ``name`` applied to any graph compiled so far."""
        backend = self.candidate_backend
        return backend is not None and backend.fired(name)

    def results(self) -> list[Any]:
        """Every ``PassResult`` of every graph the candidate compiled, in order."""
        backend = self.candidate_backend
        return [r for m in backend.managers for r in m.results] if backend is not None else []

    def assert_close(self, reference: str | None = None, against: str = "eager") -> str:
        """Both sides against a reference run of the same model, by the rule of
        ``pytest_magi.numerics.judge_against_reference`` (docs/testing-a-pass.md).

        ``reference``: ``"eager"`` (the model itself), ``"fp32"`` or ``"fp64"`` (a copy cast
        to that dtype); default ``"fp32"`` for bf16/fp16 models and ``"eager"`` otherwise.
        ``against="eager"`` (default): each compiled side within ``max(2 x eager's distance,
        the dtype's floor)``; a failing candidate raises ``AssertionError``, a failing baseline
        beside a good candidate ``pytest_magi.numerics.BaselineMiscompiled``.
        ``against="baseline"``: the candidate's delta alone (within 2 x the baseline's distance).
        Returns the judgement text; a failure ends with the call that locates it.
        """
        from .numerics import (
            REFERENCE_DTYPES,
            REFERENCES,
            assert_judged,
            check_against,
            numerics_summary,
            reference_outputs,
        )

        if reference is None:
            low = self.model.dtype in (torch.bfloat16, torch.float16)
            reference = "fp32" if low else "eager"
        if reference not in REFERENCES:
            raise ValueError(
                f"assert_close(reference={reference!r}): expected one of {list(REFERENCES)}"
            )
        check_against(against, "ZooPair.assert_close")
        base, cand = self.run("baseline"), self.run("candidate")
        dtype = REFERENCE_DTYPES.get(reference, self.model.dtype)
        eager = self.model.run()
        if dtype == self.model.dtype:
            ref, eager = eager, None
        else:  # a copy of the whole call cast to the reference dtype
            ref = reference_outputs(self.model.as_module(), self.model.inputs, dtype, True)
        judgment = assert_judged(
            base,
            cand,
            ref,
            reference,
            eager=eager,
            against=against,
            owner=f"ZooPair {self.label!r}",
            locate=self.locate,
            keep=lambda j: setattr(self, "numerics", numerics_summary(j, reference, against)),
        )
        return f"{self.label}: " + "; ".join(judgment.lines)

    def locate(
        self, side: str = "candidate", reference: str | None = "fp32", **options: Any
    ) -> Any:
        """Where ``side``'s numbers go wrong on this zoo model: a fresh copy compiled with that
        side's backend wrapped in a ``pytest_magi.locating.LocatingBackend`` runs ``.run()`` once;
        each compiled graph is checked against the same FX graph run eagerly, and the first
        wrong graph is retried without each pass and with each Inductor setting.
        ``reference``: also judge the final output against a run at that precision (None: no).
        ``options``: ``settings``, ``fp32_rerun``, ``tolerance``, ``budget_s`` (docs/locate.md).
        """
        from .locating import LocatingBackend, check_reference
        from .sides import check_side_name

        check_side_name(side)
        backend = self.side_backends[side]
        if side == "candidate" and self.candidate_backend is not None:
            from magi_passes import MagiBackend

            # a copy of the candidate's MagiBackend: the pair's own results stay as they are
            magi = self.candidate_backend
            backend = MagiBackend(magi.config, magi.inductor_config_patches)
        options = dict(options)
        patches = self.compile_kwargs.get("options")
        if isinstance(backend, str) and patches:
            options.setdefault("inductor_config", patches)
        locating = LocatingBackend(backend, label=f"{self.label} {side}", **options)
        # the side's own call options and static/dynamic choice; mode/options are the
        # locating backend's to apply
        again = {k: v for k, v in self.side_options[side].items() if k not in ("mode", "options")}
        compiled = self.model.compile(backend=locating, **again)
        out = compiled.run()
        del compiled
        report = locating.report()
        if reference is not None and self.model.dtype in (torch.bfloat16, torch.float16):
            report.reference = check_reference(
                self.model.as_module(), self.model.inputs, out, reference,
                eager_output=self.model.run(),
            )  # fmt: skip
        return report

    def profile(self, side: str = "candidate", **options: Any) -> Any:
        """Where ``side``'s GPU time goes on this zoo model: ``pytest_magi.profiling.profile``
        of ``pair.<side>.run`` (a side not called yet compiles first, through ``run``, so its
        compile is counted). ``flops`` defaults to the model's (``model.flops()``, counted on a
        meta copy); other ``options`` as ``profile``'s (``rounds``, ``warmup``, ``peak_tflops``,
        ``hbm_gbps``, ``divide_by``, ``unit``, ``label``). Returns a ``ProfileReport``; needs a
        CUDA device."""
        from .profiling import profile, require_cuda
        from .sides import check_side_name

        check_side_name(side)
        require_cuda("ZooPair.profile()")
        if side not in self._watched:
            self.run(side)
        options.setdefault("label", f"{self.label} {side}")
        if options.get("flops") is None:
            options["flops"] = self.model.flops()
        return profile(getattr(self, side).run, **options)

    def __repr__(self) -> str:
        return f"ZooPair({self.label!r}, device={self.device!r})"


class _CountedBackend:
    """A side's dynamo backend that reports each graph it compiles to the side's collector.

    ``caches_off``: each compile runs with Inductor's FX graph cache and the AOTAutograd cache
    off (scoped to the call), as a ``CompiledPair``'s sides compile, so a magi candidate's passes
    really run: a graph served from those caches runs no pass, and ``pair.fired(name)`` and
    ``pair.results()`` would not see what the passes did to it (session 24's GPU run: a Wan
    decode compiled by an earlier process in the same cache folder read as "conv_channels_last
    never fired")."""

    def __init__(
        self, backend: Callable[..., Any], collector: Any, name: str, caches_off: bool = False
    ) -> None:
        self.backend = backend
        self.collector = collector
        self.name = name
        self.caches_off = caches_off

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Any, **kwargs: Any) -> Any:
        self.collector.on_compile()
        if not self.caches_off:
            return self.backend(gm, example_inputs, **kwargs)
        from .capture import graph_caches_off

        with graph_caches_off():
            return self.backend(gm, example_inputs, **kwargs)

    def __repr__(self) -> str:
        return self.name


def _counted(
    backend: Any, collector: Any, compile_kwargs: Mapping[str, Any], caches_off: bool = False
) -> Any:
    if isinstance(backend, str):
        if "mode" in compile_kwargs or "options" in compile_kwargs:
            # torch.compile applies mode/options itself only for a backend given by name
            collector.note(f"graphs of backend {backend!r} with mode/options are not counted")
            return backend
        from torch._dynamo import lookup_backend

        return _CountedBackend(lookup_backend(backend), collector, repr(backend), caches_off)
    return _CountedBackend(backend, collector, repr(backend), caches_off)
