"""The zoo's table: every model's spec (library class, published config at "full", small widths
at "tiny", the call) as data; `VIDEO_VAES` names the video decoders."""

from __future__ import annotations

from .zoo_builders import (
    ZooSpec,
    allegro_setup,
    call_run,
    decode_tensor_run,
    hunyuanvideo15_setup,
    minimax_setup,
    sd_build,
    size_settings,
    timm_build,
    vae_run,
    video_spec,
    wan_build,
    wan_run,
)

SIZES = ("tiny", "full")

_VIDEO_SPECS = (
    # CogVideoX-2b: the class default (diffusers scripts/convert_cogvideox_to_diffusers.py builds
    # AutoencoderKLCogVideoX(scaling_factor=...); 5b differs in scaling_factor only). 16 latent
    # channels, 8x spatial / 4x temporal, decoded 2 latent frames at a time with a conv cache;
    # full = 480x720 (the pipeline's size), T=3 (9 frames)
    video_spec(
        "cogvideox-vae",
        "AutoencoderKLCogVideoX",
        "CogVideoX-2b",
        {
            "full": size_settings(frames=3, height=60, width=90),
            "tiny": size_settings(
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
    video_spec(
        "hunyuanvideo-vae",
        "AutoencoderKLHunyuanVideo",
        "HunyuanVideo",
        {
            "full": size_settings(frames=3, height=68, width=120),
            "tiny": size_settings(
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
    video_spec(
        "hunyuanvideo1.5-vae",
        "AutoencoderKLHunyuanVideo15",
        "HunyuanVideo-1.5",
        {
            "full": size_settings(frames=3, height=30, width=53),
            "tiny": size_settings(
                frames=3,
                height=2,
                width=3,
                latent_channels=4,
                block_out_channels=(8, 8, 16, 16, 16),
                layers_per_block=1,
            ),
        },
        setup=hunyuanvideo15_setup,
    ),
    # LTX-Video 0.9.0: the class default (= get_vae_config("0.9.0") in
    # scripts/convert_ltx_to_diffusers.py; diffusers/LTX-Video-0.9.0). 128 channels, 32x spatial /
    # 8x temporal; full = 512x704 (the pipeline's size), T=3 (17 frames)
    video_spec(
        "ltx-video-vae",
        "AutoencoderKLLTXVideo",
        "LTX-Video 0.9.0",
        {
            "full": size_settings(frames=3, height=16, width=22),
            "tiny": size_settings(
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
    video_spec(
        "ltx2-video-vae",
        "AutoencoderKLLTX2Video",
        "LTX-2",
        {
            "full": size_settings(frames=3, height=16, width=24),
            "tiny": size_settings(
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
    video_spec(
        "mochi-vae",
        "AutoencoderKLMochi",
        "Mochi 1 preview",
        {
            "full": size_settings(frames=3, height=60, width=106),
            "tiny": size_settings(
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
    video_spec(
        "allegro-vae",
        "AutoencoderKLAllegro",
        "Allegro",
        {
            "full": size_settings(frames=6, height=90, width=160),
            "tiny": size_settings(
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
        setup=allegro_setup,
    ),
    # EasyAnimate (AutoencoderKLMagvit): the class default (the pipeline docs load
    # alibaba-pai/EasyAnimateV5.1-7b-zh-diffusers; not checked against that config here, no
    # network). 16 channels, 8x / 4x, one decoder call per latent frame; full = 512x512 (the
    # pipeline's size), T=3
    video_spec(
        "easyanimate-vae",
        "AutoencoderKLMagvit",
        "EasyAnimate V5.1",
        {
            "full": size_settings(frames=3, height=64, width=64),
            "tiny": size_settings(
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
    video_spec(
        "cosmos-vae",
        "AutoencoderKLCosmos",
        "Cosmos-1.0 CV8x8x8",
        {
            "full": size_settings(frames=3, height=88, width=160),
            "tiny": size_settings(
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
    video_spec(
        "kvae-3d-vae",
        "AutoencoderKLKVAEVideo",
        "KVAE-3D-1.0",
        {
            "full": size_settings(frames=3, height=60, width=90),
            "tiny": size_settings(
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
    video_spec(
        "minimax-h3-vae",
        "AutoencoderKLMiniMaxH3",
        "MiniMax-H3",
        {
            "full": size_settings(frames=7, height=34, width=60),
            "tiny": size_settings(
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
        setup=minimax_setup,
    ),
    # VidTok (microsoft/VidTok): the class default is its KL causal 4x8x8 tokenizer with 4
    # channels; decode returns the video itself. full = 256x256, T=5 (17 frames: the clip size
    # VidTok is trained and evaluated at)
    video_spec(
        "vidtok-vae",
        "AutoencoderVidTok",
        "VidTok KL causal 4x8x8 4-channel",
        {
            "full": size_settings(frames=5, height=32, width=32),
            "tiny": size_settings(
                frames=3, height=4, width=6, ch=32, ch_mult=(1, 1, 1, 1), num_res_blocks=1
            ),
        },
        run=decode_tensor_run,
    ),
    # Kandinsky 6's K-VAE (Kandinsky6SRPipeline): the class default. 64 channels, 16x / 4x, a
    # 1.5B-parameter decoder run in cached segments of 16 frames; full = 480x864 (the pipeline
    # docs' size), T=3
    video_spec(
        "kandinsky6-sr-vae",
        "Kandinsky6SRVAE",
        "Kandinsky 6 SR K-VAE",
        {
            "full": size_settings(frames=3, height=30, width=54),
            "tiny": size_settings(
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
    video_spec(
        "svd-vae",
        "AutoencoderKLTemporalDecoder",
        "Stable Video Diffusion img2vid",
        {
            "full": size_settings(
                frames=4,
                height=72,
                width=128,
                block_out_channels=(128, 256, 512, 512),
                down_block_types=("DownEncoderBlock2D",) * 4,
                layers_per_block=2,
            ),
            "tiny": size_settings(
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
            wan_build,
            wan_run,
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
            sd_build,
            vae_run,
            ("batch", "resolution"),
        ),
        ZooSpec(
            "resnet50",
            "timm",
            "timm resnet50; an image classifier forward",
            _TIMM_SETTINGS,
            timm_build("resnet50"),
            call_run,
            ("batch", "resolution"),
        ),
        ZooSpec(
            "efficientnet_b0",
            "timm",
            "timm efficientnet_b0 (depthwise convs, squeeze-excite); an image classifier forward",
            _TIMM_SETTINGS,
            timm_build("efficientnet_b0"),
            call_run,
            ("batch", "resolution"),
        ),
        *_VIDEO_SPECS,
    )
}
VIDEO_VAES: tuple[str, ...] = ("wan2.2-vae", *(spec.name for spec in _VIDEO_SPECS))
"""The zoo's video VAEs (5-D latents; ``svd-vae``'s latent is per frame), in `names()` order."""
