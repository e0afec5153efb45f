"""The recorded compile forms, as data: each model family's `CompileForm` and the entry of
docs/results.md that measured it. `forms.form_for` tries them in `KNOWN_FORMS` order."""

from __future__ import annotations

from .compile_form import CompileForm, decided_form

#: where the measurements behind the forms are written down
WAN_DECODE = 'docs/results.md, "Wan 2.2 decode"'
NEVER_SLOWER = 'docs/results.md, "Never slower: the zoo"'
COLD_COMPILE = 'docs/results.md, "Cold compile"'

_AUTOENCODERS = "diffusers.models.autoencoders"


#: the Wan VAE's decoder: each chunk one static graph, reused at every length, its RMS norms'
#: inputs and conv weights channels-last, its decisions recorded for H100s and H200s
WAN_DECODER = CompileForm(
    name="wan-decoder",
    classes=("diffusers.models.autoencoders.autoencoder_kl_wan.WanDecoder3d",),
    dynamic=False,
    dynamo_fixes=True,
    contiguous_inputs=True,
    channels_last_parameters=True,
    pass_config={
        "channels_last_norm_inputs": True,
        "channels_last_pad_through_cat": True,
        "decided_on": "H100,H200",
    },
    evidence=WAN_DECODE,
)


#: video VAE decoders whose measured decisions are recorded, with the levers measured for each
DECIDED_DECODERS: tuple[CompileForm, ...] = (
    decided_form(
        "cogvideox-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_cogvideox.CogVideoXDecoder3D",
        "H100,H200",
        NEVER_SLOWER,
    ),
    decided_form(
        "ltx-video-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_ltx.LTXVideoDecoder3d",
        "H100,H200",
        NEVER_SLOWER,
        channels_last_parameters=True,
        pass_config={"channels_last_norm_inputs": True},
    ),
    decided_form(
        "hunyuanvideo-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_hunyuan_video.HunyuanVideoDecoder3D",
        "H100,H200",
        NEVER_SLOWER,
        channels_last_parameters=True,
        frames="root",
    ),
    decided_form(
        "cosmos-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_cosmos.CosmosDecoder3d",
        "H100,H200",
        NEVER_SLOWER,
        channels_last_parameters=True,
        pass_config={"enable_deconv_interleave": True},
        frames="root",
    ),
    decided_form(
        "hunyuanvideo1.5-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_hunyuanvideo15.HunyuanVideo15Decoder3D",
        "H200",
        NEVER_SLOWER,
    ),
    decided_form(
        "kvae-3d-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_kvae_video.KVAECachedDecoder3D",
        "H100,H200",
        NEVER_SLOWER,
        pass_config={"work_around_sympy_first": True},
        frames="root",
    ),
    decided_form(
        "kandinsky6-sr-decoder",
        f"{_AUTOENCODERS}.autoencoder_kandinsky6_sr.Kandinsky6SRDecoder3D",
        "H100,H200",
        NEVER_SLOWER,
        channels_last_parameters=True,
        pass_config={"channels_last_norm_inputs": True},
        frames="root",
    ),
    decided_form(
        "mochi-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_mochi.MochiDecoder3D",
        "",
        NEVER_SLOWER,
        plain_on="H100,H200",
    ),
    decided_form(
        "svd-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_temporal_decoder.TemporalDecoder",
        "H100,H200",
        NEVER_SLOWER,
        frames="root",
    ),
    decided_form(
        "allegro-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_allegro.AllegroDecoder3D",
        "H100,H200",
        NEVER_SLOWER,
        channels_last_parameters=True,
        frames="root",
        pass_config={"group_norm_chunked_stats": True},
    ),
    decided_form(
        "easyanimate-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_magvit.EasyAnimateDecoder",
        "H100,H200",
        NEVER_SLOWER,
        channels_last_parameters=True,
        pass_config={"group_norm_chunked_stats": True},
    ),
    decided_form(
        "vidtok-decoder",
        f"{_AUTOENCODERS}.autoencoder_vidtok.VidTokDecoder3D",
        "H100,H200",
        NEVER_SLOWER,
        frames="root",
    ),
    decided_form(
        "ltx2-video-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_ltx2.LTX2VideoDecoder3d",
        "H100,H200",
        NEVER_SLOWER,
        channels_last_parameters=True,
        frames="root",
        pass_config={"channels_last_norm_inputs": True},
    ),
)

#: models that compile to one graph no measured pass changes: the compiled module's frame only
ONE_GRAPH_FORMS: tuple[CompileForm, ...] = tuple(
    CompileForm(name=name, classes=(cls,), frames="root", evidence=COLD_COMPILE)
    for name, cls in (
        (
            "minimax-h3-decoder",
            f"{_AUTOENCODERS}.autoencoder_kl_minimax_h3.MiniMaxH3VideoViTDecoder3d",
        ),
        ("timm-resnet", "timm.models.resnet.ResNet"),
        ("timm-efficientnet", "timm.models.efficientnet.EfficientNet"),
    )
)

#: every measured form, in the order `form_for` tries them
KNOWN_FORMS: tuple[CompileForm, ...] = (WAN_DECODER, *DECIDED_DECODERS, *ONE_GRAPH_FORMS)
