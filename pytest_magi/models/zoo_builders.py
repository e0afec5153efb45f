"""How the zoo's models are built: `ZooSpec` (a model's library, sizes and call), the builds of
each library's classes with random weights, the calls users make, and `causal_frame_mask` (the
loop-free causal mask of HunyuanVideo-1.5's attention)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn


@dataclass(frozen=True)
class Built:
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
    build: Callable[[Mapping[str, Any], torch.device, torch.dtype], Built]
    run: Callable[[nn.Module, tuple[Any, ...]], Any]
    options: tuple[str, ...]  # the options `load(..., **options)` may override
    # names the library must export (a class added in a later release): checked when the zoo is
    # listed, never by building; a missing one makes the model unavailable with the reason
    needs: tuple[str, ...] = ()


def wan_build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> Built:
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
    z = randn((s["batch"], z_dim, s["frames"], s["height"], s["width"]), device, dtype)
    return Built(vae, "decoder", (z,))


def wan_run(vae: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return vae.decode(*inputs).sample  # type: ignore[operator]


def sd_build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> Built:
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
    z = randn((s["batch"], 4, s["resolution"], s["resolution"]), device, dtype)
    return Built(vae, "decoder", (z,))


def vae_run(vae: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return vae.decode(*inputs).sample  # type: ignore[operator]


def timm_build(arch: str) -> Callable[[Mapping[str, Any], torch.device, torch.dtype], Built]:
    def build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> Built:
        import timm

        net = timm.create_model(arch, pretrained=False, num_classes=s["num_classes"])
        net = net.to(device=device, dtype=dtype).eval()
        x = randn((s["batch"], 3, s["resolution"], s["resolution"]), device, dtype)
        return Built(net, None, (x,))

    return build


def call_run(net: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return net(*inputs)


# ------------------------------------------------------------------------------ video VAEs
# The video VAEs of diffusers beside Wan: each built from its class with the published model's
# config at "full" (the class default where that is the published one) and small widths at
# "tiny". `.run()` is `vae.decode(z)` with spatial tiling and batch slicing off (Allegro's decode
# is tiled-only); a class's own temporal chunking (CogVideoX's 2-frame batches, KVAE's
# segments, HunyuanVideo's frame-wise decode past 4 latent frames) is kept: it is how its decode
# works.
VIDEO_OPTIONS = ("batch", "frames", "height", "width")


def latent_channels(vae: Any) -> int:
    config = vae.config
    return int(config["latent_channels"] if "latent_channels" in config else config["z_channels"])


def video_vae_build(
    class_name: str,
    *,
    setup: Callable[[Any], None] | None = None,
    per_frame: bool = False,
) -> Callable[[Mapping[str, Any], torch.device, torch.dtype], Built]:
    """A build of diffusers ``class_name`` from ``s["config"]`` (constructor keywords; empty: the
    class defaults), decoding a latent ``(batch, C, frames, height, width)``; ``per_frame``: the
    latent is ``(batch * frames, C, height, width)`` and ``frames`` goes to ``decode`` too."""

    def build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> Built:
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
        channels, frames = latent_channels(vae), s["frames"]
        if per_frame:
            frame_latents = (s["batch"] * frames, channels, s["height"], s["width"])
            return Built(vae, "decoder", (randn(frame_latents, device, dtype), frames))
        latent = (s["batch"], channels, frames, s["height"], s["width"])
        return Built(vae, "decoder", (randn(latent, device, dtype),))

    return build


def decode_tensor_run(vae: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return vae.decode(*inputs)  # type: ignore[operator]  # VidTok: decode returns the video


def allegro_setup(vae: Any) -> None:
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
    and dynamo unrolls that loop into one slice assignment per row, so a 480p decode's compile
    time grows with its thousands of positions. Here the mask is two ``arange``s and a
    comparison (docs/results.md, "Cold compile")."""
    frame = torch.arange(n_frame * n_hw, device=device) // n_hw
    visible = frame.unsqueeze(0) <= frame.unsqueeze(1)  # [query, key]: key's frame <= query's
    mask = torch.zeros(visible.shape, dtype=dtype, device=device)
    mask = mask.masked_fill(~visible, float("-inf"))
    if batch_size is not None:
        mask = mask.unsqueeze(0).expand(batch_size, -1, -1)
    return mask


def hunyuanvideo15_setup(vae: Any) -> None:
    # the zoo decodes with the loop-free causal mask (equal values, tests/test_zoo_video.py): the
    # published loop makes a 480p decode uncompilable in practice for every backend alike
    for module in vae.modules():
        if type(module).__name__ == "HunyuanVideo15AttnBlock":
            module.prepare_causal_attention_mask = causal_frame_mask


def minimax_setup(vae: Any) -> None:
    # the class initialises each decoder block's layer scales to zero (the release's are learned):
    # on random weights every transformer block would be an identity
    for block in vae.decoder.transformer_blocks:
        nn.init.normal_(block.scale1, std=0.1)
        nn.init.normal_(block.scale2, std=0.1)


def video_spec(
    name: str,
    class_name: str,
    published: str,
    settings: Mapping[str, Mapping[str, Any]],
    *,
    run: Callable[[nn.Module, tuple[Any, ...]], Any] | None = None,
    options: tuple[str, ...] = VIDEO_OPTIONS,
    setup: Callable[[Any], None] | None = None,
    per_frame: bool = False,
) -> ZooSpec:
    return ZooSpec(
        name,
        "diffusers",
        f"diffusers {class_name}, {published} config; vae.decode of a video latent",
        settings,
        video_vae_build(class_name, setup=setup, per_frame=per_frame),
        run or vae_run,
        options,
        needs=(class_name,),
    )


def size_settings(*, frames: int, height: int, width: int, **config: Any) -> dict[str, Any]:
    """One size's settings: the latent (batch 1, ``frames`` x ``height`` x ``width``) and the
    constructor keywords (none: the class defaults)."""
    return {"config": config, "batch": 1, "frames": frames, "height": height, "width": width}


def randn(shape: Sequence[int], device: torch.device, dtype: torch.dtype) -> torch.Tensor:
    if device.type == "meta":
        return torch.empty(tuple(shape), device=device, dtype=dtype)
    return torch.randn(tuple(shape), device=device, dtype=dtype)
