"""Compile forms (`magi_passes.forms`): a model whose best way to compile was measured.

`magi_compile(model)` looks the module's class up (``form="auto"``) and uses the form's options
where the caller left them unset and its `PassConfig` fields where no config was given (an
environment variable still wins); ``form=None`` compiles any model in the generic form. The zoo's
pair and benchmark compile their magi candidate the same way. Checked without compiling where
torch.compile is lazy, and end to end on the tiny Wan 2.2 decoder on CPU.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import torch
from graphs import launches
from torch import nn

from magi_passes import CompileForm, MagiBackend, PassConfig, form_for, magi_compile
from magi_passes.compile import forms
from pytest_magi import zoo
from pytest_magi.models import VAEDecoderLike

WAN = "wan2.2-vae"


def _decoder(name: str = WAN) -> nn.Module:
    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    return zoo.load(name, "tiny", dtype=torch.float32).module


def test_the_wan_decoder_has_its_measured_form_and_other_models_none() -> None:
    assert form_for(_decoder()) is forms.WAN_DECODER
    assert forms.class_name(_decoder()) in forms.WAN_DECODER.classes
    for other in (_decoder("sd-vae"), VAEDecoderLike(), nn.Linear(2, 2), lambda x: x):
        assert form_for(other) is None
    # every known form says where its measurement is written down
    assert all(f.evidence.startswith("docs/") for f in forms.KNOWN_FORMS)


# each decided decoder's recorded decisions, (decided_on, decided_plain_on), and the levers
# measured for it on top of them (sessions 30, 31, 38, 40, 42, 43, 45, 46, 47, 48): (conv weights
# channels-last in place, PassConfig fields)
DECIDED = {
    "cogvideox-decoder": (("H100,H200", ""), False, {}),
    "ltx-video-decoder": (("H100,H200", ""), True, {"channels_last_norm_inputs": True}),
    "hunyuanvideo-decoder": (("H100,H200", ""), True, {}),
    "cosmos-decoder": (("H100,H200", ""), True, {"enable_deconv_interleave": True}),
    "hunyuanvideo1.5-decoder": (("H200", ""), False, {}),
    "kvae-3d-decoder": (("H100,H200", ""), False, {"work_around_sympy_first": True}),
    "kandinsky6-sr-decoder": (("H100,H200", ""), True, {"channels_last_norm_inputs": True}),
    "mochi-decoder": (("", "H100,H200"), False, {}),
    "svd-decoder": (("H100,H200", ""), False, {}),
    "allegro-decoder": (("H100,H200", ""), True, {"group_norm_chunked_stats": True}),
    "easyanimate-decoder": (("H100,H200", ""), True, {"group_norm_chunked_stats": True}),
    "vidtok-decoder": (("H100,H200", ""), False, {}),
    "ltx2-video-decoder": (("H100,H200", ""), True, {"channels_last_norm_inputs": True}),
}
DEVICES = {"H100": "NVIDIA H100 80GB HBM3", "H200": "NVIDIA H200"}
# the forms measured to compile as well with one frame for the decoder (Cosmos on the CPU and
# on an H200; KVAE-3D and Kandinsky-6 SR on the CPU)
ROOT_FRAMES = {
    "cosmos-decoder",
    "kvae-3d-decoder",
    "kandinsky6-sr-decoder",
    "hunyuanvideo-decoder",
    "vidtok-decoder",
    "ltx2-video-decoder",
    "svd-decoder",
    "allegro-decoder",
}


def test_decoders_measured_on_a_device_compile_once_there_and_generically_elsewhere() -> None:
    """`forms.DECIDED_DECODERS`: the generic form with the decisions recorded for the device
    each was measured on (`PassConfig.decided_on`, or `decided_plain_on` where the measurement
    kept plain Inductor), and only the levers measured for it."""
    assert {f.name for f in forms.DECIDED_DECODERS} == set(DECIDED)
    for form in forms.DECIDED_DECODERS:
        (magi_on, plain_on), weights_in_place, fields = DECIDED[form.name]
        assert forms.options(form) == {
            **forms.options(None),
            "channels_last_parameters": weights_in_place,
        }
        assert form.frames == ("root" if form.name in ROOT_FRAMES else "instance")
        config = form.config({})
        assert config == PassConfig(decided_on=magi_on, decided_plain_on=plain_on, **fields)
        for short, device in DEVICES.items():
            assert (config.decided_for(device) is not None) == (short in magi_on.split(","))
            assert (config.decided_plain_for(device) is not None) == (short in plain_on.split(","))
        assert config.decided_for("NVIDIA A100-SXM4-80GB") is None
        assert config.decided_plain_for("NVIDIA A100-SXM4-80GB") is None
    names = {f.name for f in forms.KNOWN_FORMS}
    assert len(names) == len(forms.KNOWN_FORMS)  # one form a name
    classes = [c for f in forms.KNOWN_FORMS for c in f.classes]
    assert len(classes) == len(set(classes))  # one form a class
    for form in forms.DECIDED_DECODERS:  # each applies to its zoo model's decoder
        zoo_name = form.name.replace("-decoder", "-vae")
        if zoo_name in zoo.names():
            assert form_for(_decoder(zoo_name)) is form
    with pytest.raises(ValueError, match=r"decided_form: devices must be .* plain_on="):
        forms.decided_form("x", "m.X", "", "docs/")


def test_one_graph_models_take_the_root_frame_and_nothing_else() -> None:
    """`forms.ONE_GRAPH_FORMS`: MiniMax-H3's decoder and timm's ResNet and
    EfficientNet compile to one graph on which no measured pass fires, so their forms set one
    frame for the compiled module and nothing else (no decision to record, no pass field, no
    option); each applies to its zoo model where that model loads here."""
    expected = {
        "minimax-h3-decoder": "minimax-h3-vae",
        "timm-resnet": "resnet50",
        "timm-efficientnet": "efficientnet_b0",
    }
    assert {f.name for f in forms.ONE_GRAPH_FORMS} == set(expected)
    for form in forms.ONE_GRAPH_FORMS:
        assert form in forms.KNOWN_FORMS and form.frames == "root"
        assert forms.options(form) == forms.options(None)
        assert form.pass_config == {} and form.inductor_options == {}
        assert form.config({}) == PassConfig()
        if expected[form.name] in zoo.names():
            assert form_for(zoo.load(expected[form.name], "tiny").module) is form


def test_a_form_sets_only_the_options_the_caller_left_unset() -> None:
    wan = forms.WAN_DECODER
    assert forms.options(wan) == {
        "dynamic": False,
        "dynamo_fixes": True,
        "contiguous_inputs": True,
        "channels_last_parameters": True,
    }
    assert forms.options(wan, dynamic=True, dynamo_fixes=False, channels_last_parameters=False) == {
        "dynamic": True,
        "dynamo_fixes": False,
        "contiguous_inputs": True,
        "channels_last_parameters": False,
    }
    assert forms.options(None) == {
        "dynamic": None,
        "dynamo_fixes": False,
        "contiguous_inputs": False,
        "channels_last_parameters": False,
    }


def test_the_environment_wins_over_a_forms_config() -> None:
    wan = forms.WAN_DECODER
    fields = {
        "channels_last_norm_inputs": True,
        "channels_last_pad_through_cat": True,
        "decided_on": "H100,H200",
    }
    assert wan.config({}) == PassConfig(**fields)
    unpinned = wan.config({"MAGI_PASSES__CHANNELS_LAST_NORM_INPUTS": "0"})
    assert unpinned == PassConfig(**{**fields, "channels_last_norm_inputs": False})
    both = wan.config({"MAGI_PASSES__ENABLE_ND_TILING": "off"})
    assert both == PassConfig(enable_nd_tiling=False, **fields)
    # an empty MAGI_PASSES__DECIDED_ON measures the form's decisions again on any device
    assert wan.config({"MAGI_PASSES__DECIDED_ON": ""}).decided_on == ""


@pytest.fixture
def compile_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The keyword arguments of every torch.compile call (still compiled, lazily)."""
    calls: list[dict[str, object]] = []
    real = torch.compile

    def spy(model: object, **kwargs: object) -> object:
        calls.append(kwargs)
        return real(model, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(torch, "compile", spy)
    return calls


def _hooks(compiled: nn.Module) -> tuple[int, int]:
    return len(compiled._forward_pre_hooks), len(compiled._forward_hooks)


def test_magi_compile_compiles_a_known_model_in_its_form(compile_calls) -> None:
    compiled = magi_compile(_decoder())
    assert compiled.magi_form is forms.WAN_DECODER
    assert compiled.magi_backend.config.channels_last_norm_inputs is True
    assert compile_calls[-1]["dynamic"] is False
    # the dynamo fixes (a pre-hook and an always-called exit hook) and contiguous inputs
    assert _hooks(compiled) == (2, 1)


def test_what_the_caller_sets_wins_over_the_form(compile_calls) -> None:
    generic = magi_compile(_decoder(), form=None)
    assert generic.magi_form is None and _hooks(generic) == (0, 0)
    assert compile_calls[-1]["dynamic"] is None
    assert generic.magi_backend.config is None  # PassConfig.from_env() when it compiles

    mine = magi_compile(_decoder(), config=PassConfig(), dynamo_fixes=False, dynamic=True)
    assert mine.magi_form is forms.WAN_DECODER
    assert mine.magi_backend.config == PassConfig()
    assert compile_calls[-1]["dynamic"] is True
    assert _hooks(mine) == (1, 0)  # contiguous inputs, from the form; no fixes

    own = CompileForm("my-decoder", dynamic=False, pass_config={"enable_nd_tiling": False})
    compiled = magi_compile(VAEDecoderLike(), form=own)
    assert compiled.magi_form is own and compile_calls[-1]["dynamic"] is False
    assert compiled.magi_backend.config.enable_nd_tiling is False
    assert magi_compile(_decoder(), form="wan-decoder").magi_form is forms.WAN_DECODER


def test_a_forms_inductor_options_reach_the_backend_under_the_callers(compile_calls) -> None:
    """A form's ``inductor_options`` are the backend's Inductor options; the caller's
    ``options`` go on top, key by key; the generic form and the known forms set none."""
    own = CompileForm("mine", inductor_options={"triton.autotune_pointwise": False})
    compiled = magi_compile(VAEDecoderLike(), form=own)
    assert compiled.magi_backend.inductor_config_patches == {"triton.autotune_pointwise": False}
    assert "options" not in compile_calls[-1]  # the backend applies them, not torch.compile
    mine = magi_compile(
        VAEDecoderLike(),
        form=own,
        options={"triton.autotune_pointwise": True, "triton.max_tiles": 2},
    )
    assert mine.magi_backend.inductor_config_patches == {
        "triton.autotune_pointwise": True,
        "triton.max_tiles": 2,
    }
    assert magi_compile(VAEDecoderLike(), form=None).magi_backend.inductor_config_patches == {}
    assert all(f.inductor_options == {} for f in forms.KNOWN_FORMS)
    assert own.describe() == "mine (dynamic=None, inductor triton.autotune_pointwise=False)"
    assert own.backend_options() == {"triton.autotune_pointwise": False}
    assert CompileForm("plain").backend_options() is None
    decided = forms.decided_form(
        "d", "m.D", "H100", "here", inductor_options={"triton.autotune_pointwise": False}
    )
    assert decided.inductor_options == {"triton.autotune_pointwise": False}
    # a form's options are its own copy: changing the dict given changes no form
    given = {"triton.max_tiles": 2}
    copied = CompileForm("copied", inductor_options=given)
    given["triton.max_tiles"] = 3
    assert copied.inductor_options == {"triton.max_tiles": 2}


def test_a_forms_inductor_options_are_applied_while_it_compiles() -> None:
    """The option is in force inside the compile and restored after it (CPU, fp32)."""
    seen: list[bool] = []

    def spy(graph: torch.fx.Graph) -> None:
        seen.append(torch._inductor.config.triton.autotune_pointwise)

    own = CompileForm(
        "spied",
        inductor_options={"triton.autotune_pointwise": False, "post_grad_custom_pre_pass": spy},
    )
    before = torch._inductor.config.triton.autotune_pointwise
    model = nn.Sequential(nn.Linear(8, 8), nn.SiLU())
    torch._dynamo.reset()
    with torch.no_grad():
        out = magi_compile(model, form=own)(torch.randn(2, 8))
    torch._dynamo.reset()
    assert out.shape == (2, 8)
    assert seen == [False] and torch._inductor.config.triton.autotune_pointwise is before


def test_channels_last_parameters_converts_the_models_conv_weights_first() -> None:
    """Off in every form so far; asked for (or set by a form of one's own), the model's conv
    weights are channels-last in place before it compiles, the same Parameters."""
    model = VAEDecoderLike()
    convs = [m for m in model.modules() if isinstance(m, nn.Conv3d)]
    weights = [m.weight for m in convs]
    magi_compile(model)
    assert not any(w.is_contiguous(memory_format=torch.channels_last_3d) for w in weights)
    magi_compile(model, channels_last_parameters=True)
    assert all(m.weight is w for m, w in zip(convs, weights, strict=True))
    assert all(w.is_contiguous(memory_format=torch.channels_last_3d) for w in weights)
    own = CompileForm("mine", channels_last_parameters=True)
    other = VAEDecoderLike()
    magi_compile(other, form=own)
    conv = next(m for m in other.modules() if isinstance(m, nn.Conv3d))
    assert conv.weight.is_contiguous(memory_format=torch.channels_last_3d)
    with pytest.raises(TypeError, match=r"channels_last_parameters=True\) needs an nn.Module"):
        magi_compile(lambda x: x, channels_last_parameters=True)


def test_bad_forms_name_the_value_and_the_fix() -> None:
    with pytest.raises(
        ValueError,
        match=r"form must be 'auto', None, .*\(allegro-decoder, cogvideox-decoder, .*, wan-decoder\), "
        r"got 'wan'",
    ):
        magi_compile(VAEDecoderLike(), form="wan")
    with pytest.raises(TypeError, match=r"got 3 \(int\); fix: magi_compile\(model, form=None\)"):
        magi_compile(VAEDecoderLike(), form=3)
    with pytest.raises(TypeError, match=r"CompileForm: classes must be a tuple of"):
        CompileForm("x", classes="mylib.Decoder")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"CompileForm: dynamo_fixes must be True or False"):
        CompileForm("x", dynamo_fixes=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"unknown PassConfig field\(s\) \['nd_tiling'\]"):
        CompileForm("x", pass_config={"nd_tiling": False})
    with pytest.raises(TypeError, match=r"CompileForm: name must be a non-empty str"):
        CompileForm("")
    with pytest.raises(
        ValueError,
        match=r"inductor_options must be torch._inductor.config keys \('autotune_pointwise' is "
        r"not one\), got .*; fix: CompileForm\(\.\.\., inductor_options=",
    ):
        CompileForm("x", inductor_options={"autotune_pointwise": False})
    with pytest.raises(
        ValueError,
        match=r"\('enable_nd_tiling' is a PassConfig field\).*fix: CompileForm\(\.\.\., "
        r"pass_config=\{'enable_nd_tiling': \.\.\.\}\)",
    ):
        CompileForm("x", inductor_options={"enable_nd_tiling": False})
    with pytest.raises(TypeError, match=r"CompileForm: inductor_options must be a dict with str"):
        CompileForm("x", inductor_options=[("triton.max_tiles", 2)])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"ZooPair: candidate_form must be .* got 'x'.*"
                       r"fix: ZooPair\(model, candidate_form=None\)"):  # fmt: skip
        zoo.ZooPair(zoo.load("sd-vae"), candidate_form="x")
    with pytest.raises(TypeError, match=r"contiguous_inputs must be True, False or None"):
        magi_compile(VAEDecoderLike(), contiguous_inputs="yes")
    with pytest.raises(
        ValueError, match=r"CompileForm: frames must be one of \('instance', 'root'\).*got 'class'"
    ):
        CompileForm("x", frames="class")
    with pytest.raises(
        TypeError,
        match=r"isolate_frames must be True or None \(as the model's form says\), False, or one "
        r"of \('instance', 'root'\), got 'all'.*fix: magi_compile\(model, isolate_frames=",
    ):
        magi_compile(VAEDecoderLike(), isolate_frames="all")


def _fresh_forwards(model: nn.Module) -> list[str]:
    """The modules of ``model`` (by name, "" the root) with a forward of their own."""
    return [name for name, m in model.named_modules() if "forward" in vars(m)]


def test_a_forms_frames_decide_magi_compiles_isolation_unless_the_caller_says() -> None:
    """`CompileForm.frames`: ``"root"`` gives the compiled module alone a frame of its own
    (its submodules traced inline, as torch.compile traces them), ``"instance"`` (the generic
    form's) every module instance; an ``isolate_frames`` level given wins over the form's."""
    root = CompileForm("root-decoder", frames="root")
    assert "frames='root'" in root.describe()
    assert "frames" not in CompileForm("instance-decoder").describe()
    model = VAEDecoderLike()
    magi_compile(model, form=root)
    assert _fresh_forwards(model) == [""]
    model = VAEDecoderLike()
    magi_compile(model, form=root, isolate_frames=None)  # None: as the form says, like True
    assert _fresh_forwards(model) == [""]
    model = VAEDecoderLike()
    magi_compile(model, form=root, isolate_frames="instance")
    assert _fresh_forwards(model) == [name for name, _ in model.named_modules()]
    model = VAEDecoderLike()
    magi_compile(model, form=None)
    assert _fresh_forwards(model) == [name for name, _ in model.named_modules()]
    model = VAEDecoderLike()
    magi_compile(model, form=None, isolate_frames="root")
    assert _fresh_forwards(model) == [""]
    model = VAEDecoderLike()
    magi_compile(model, form=root, isolate_frames=False)
    assert _fresh_forwards(model) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "cosmos-vae",
        "kvae-3d-vae",
        "kandinsky6-sr-vae",
        "vidtok-vae",
        "ltx2-video-vae",
        "hunyuanvideo-vae",
        "svd-vae",
        "allegro-vae",
        "minimax-h3-vae",
        "resnet50",
        "efficientnet_b0",
    ],
)
def test_a_decoder_with_root_frames_is_one_graph_with_eagers_numbers(name: str) -> None:
    """The decoders whose forms take one frame (``frames="root"``) trace with it as one
    graph, no break, the output eager's (dynamo alone, a counting backend: the frames change
    what dynamo traces, not what Inductor makes of the graph); the zoo pair and the benchmark's
    ``magi`` give the candidate the form's frames, ``magi-form-instance-frames`` a frame each."""
    from pytest_magi.bench import variants as bench

    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    model = zoo.load(name, "tiny", dtype=torch.float32)
    form = form_for(model.module)
    assert form is not None and form.frames == "root"
    assert zoo.ZooPair(model).side_options["candidate"]["isolate"] == "root"
    pair = zoo.ZooPair(model, candidate_isolate="instance")
    assert pair.side_options["candidate"]["isolate"] == "instance"
    assert bench.build_variant(model, "magi", 64)[0].compile_kwargs["isolate"] == "root"
    instance = bench.build_variant(model, "magi-form-instance-frames", 64)[0]
    assert instance.compile_kwargs["isolate"] == "instance"

    graphs: list[torch.fx.GraphModule] = []

    def counting(gm: torch.fx.GraphModule, example_inputs: object) -> object:
        graphs.append(gm)
        if name == "cosmos-vae":
            # Cosmos's dynamo graph run as traced (backend "eager") is 14.1 off eager's output
            # on torch 2.13 with either frame level; functionalized, as Inductor takes it, it
            # is eager's to the bit
            return torch._dynamo.lookup_backend("aot_eager")(gm, example_inputs)
        return gm.forward

    torch._dynamo.reset()
    compiled = model.compile(backend=counting, isolate=form.frames)
    torch.testing.assert_close(compiled.run(), model.run(), rtol=0, atol=0)
    assert len(graphs) == 1


def test_the_zoo_pair_compiles_its_magi_candidate_in_the_form() -> None:
    model = zoo.load(WAN, "tiny", dtype=torch.float32) if WAN in zoo.names() else None
    if model is None:
        pytest.skip(zoo.unavailable().get(WAN, WAN))
    pair = zoo.ZooPair(model)
    assert pair.form is forms.WAN_DECODER
    assert pair.candidate_backend.config.channels_last_norm_inputs is True
    options = pair.side_options["candidate"]
    assert options == {
        "isolate": "instance",
        "dynamo_fixes": True,
        "contiguous_inputs": True,
        "channels_last_parameters": True,
        "dynamic": False,
    }
    assert pair.side_options["baseline"] == {"isolate": "class"}
    assert pair.candidate.compile_kwargs["contiguous_inputs"] is True

    generic = zoo.ZooPair(model, candidate_form=None)
    assert generic.form is None and generic.side_options["candidate"]["dynamo_fixes"] is False
    # a candidate that is not magi has no form; a MagiBackend given keeps its own config
    assert zoo.ZooPair(model, candidate="inductor").form is None
    mine = zoo.ZooPair(model, candidate=MagiBackend(PassConfig()))
    assert mine.form is forms.WAN_DECODER and mine.candidate_backend.config == PassConfig()
    assert zoo.ZooPair(zoo.load("sd-vae")).form is None


def test_the_zoo_benchmarks_magi_is_the_form_and_magi_split_the_generic_one() -> None:
    from pytest_magi.bench import variants as bench

    if WAN not in zoo.names():
        pytest.skip(zoo.unavailable().get(WAN, WAN))
    model = zoo.load(WAN, "tiny", dtype=torch.float32)
    magi, backend = bench.build_variant(model, "magi", 64)
    assert backend is not None and backend.config.channels_last_norm_inputs is True
    assert magi.compile_kwargs["dynamo_fixes"] is True and magi.compile_kwargs["dynamic"] is False
    split, backend = bench.build_variant(model, "magi-split", 64)
    assert backend is not None and backend.config == PassConfig.from_env()
    assert split.compile_kwargs["dynamo_fixes"] is False and "dynamic" not in split.compile_kwargs
    levers, backend = bench.build_variant(model, "magi-form-cl-state", 64)
    assert backend is not None and levers.compile_kwargs == magi.compile_kwargs
    assert backend.config == forms.WAN_DECODER.config().replace(channels_last_conv_state=True)
    convs = [m for m in magi.module.modules() if isinstance(m, nn.Conv3d)]
    assert convs and all(
        m.weight.is_contiguous(memory_format=torch.channels_last_3d) for m in convs
    )
    assert not any(  # the copy's weights, not the model's
        m.weight.is_contiguous(memory_format=torch.channels_last_3d)
        for m in model.module.modules()
        if isinstance(m, nn.Conv3d) and m.weight.shape[2:].numel() > 1
    )
    # the form's levers, each taken back: no pad through the cat, the weights as they are
    both_off, backend = bench.build_variant(model, "magi-form-no-pad-cat-no-cl-params", 64)
    assert both_off.compile_kwargs["channels_last_parameters"] is False
    assert backend is not None and backend.config.channels_last_pad_through_cat is False
    assert backend.config.channels_last_norm_inputs is True
    # the form with the norm-input pin trusting fake layouts
    trusting, backend = bench.build_variant(model, "magi-form-norm-pin-trust-fake", 64)
    assert isinstance(backend, bench.NormPinTrustFakeBackend)
    assert trusting.compile_kwargs == magi.compile_kwargs
    assert backend.config == forms.WAN_DECODER.config()
    assert bench.variant_form(zoo.load("sd-vae"), "magi") is None


def test_the_zoo_benchmarks_cl_params_variant_is_a_decided_decoders_form_with_its_weights_in_place() -> (
    None
):
    """``magi-form-cl-params``: the model's own form (its recorded decisions) with the conv
    weights of the compiled copy made channels-last, the model's own left alone."""
    from pytest_magi.bench import variants as bench

    name = "ltx-video-vae"
    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    model = zoo.load(name, "tiny", dtype=torch.float32)
    compiled, backend = bench.build_variant(model, "magi-form-cl-params", 64)
    form = forms.form_for(model.module)
    assert form is not None and form.name == "ltx-video-decoder"
    assert backend is not None and backend.config == form.config()
    assert compiled.compile_kwargs["channels_last_parameters"] is True
    convs = [m for m in compiled.module.modules() if isinstance(m, nn.Conv3d)]
    assert convs and all(
        m.weight.is_contiguous(memory_format=torch.channels_last_3d) for m in convs
    )
    assert not any(
        m.weight.is_contiguous(memory_format=torch.channels_last_3d)
        for m in model.module.modules()
        if isinstance(m, nn.Conv3d) and m.weight.shape[2:].numel() > 1
    )
    # with it the norm-input pin, or the chunked GroupNorm statistics
    for variant, field in (
        ("magi-form-cl-params-norm", "channels_last_norm_inputs"),
        ("magi-form-cl-params-gn-chunks", "group_norm_chunked_stats"),
    ):
        compiled, backend = bench.build_variant(model, variant, 64)
        assert backend is not None and backend.config == form.config().replace(**{field: True})
        assert compiled.compile_kwargs["channels_last_parameters"] is True
    # the form with pointwise autotuning off: an Inductor option of the backend's
    compiled, backend = bench.build_variant(model, "magi-form-no-pw-autotune", 64)
    assert backend is not None and backend.config == form.config()
    assert backend.inductor_config_patches == {"triton.autotune_pointwise": False}
    # the form without the GroupNorm statistics rewrite, or without ND tiling
    for variant, field in (
        ("magi-form-no-gn-stats", "enable_group_norm_stats"),
        ("magi-form-no-nd-tiling", "enable_nd_tiling"),
    ):
        compiled, backend = bench.build_variant(model, variant, 64)
        assert backend is not None and backend.config == form.config().replace(**{field: False})
        assert backend.inductor_config_patches == {}


@pytest.mark.slow
def test_the_wan_decoder_in_its_form_decodes_as_eager_and_reuses_its_graphs() -> None:
    """`magi_compile(vae.decoder)` as users call it, on the tiny Wan 2.2 VAE (CPU, fp32): the
    decode is eager's to fp32 rounding at T=3 and then T=5, the second length compiles nothing
    (each chunk graph static and reused), and the RMS norms' inputs are pinned."""
    torch.manual_seed(0)
    torch._dynamo.reset()
    model = zoo.load(WAN, "tiny", dtype=torch.float32, frames=3) if WAN in zoo.names() else None
    if model is None:
        pytest.skip(zoo.unavailable().get(WAN, WAN))
    owner = copy.deepcopy(model.owner)
    owner.decoder = compiled = magi_compile(owner.decoder)
    graphs = []
    for frames in (3, 5):
        eager = model.with_frames(frames)
        with torch.no_grad(), torch._inductor.config.patch(force_disable_caches=True):
            expected = eager.run()
            out = eager.spec.run(owner, eager.inputs)
        torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-5)
        graphs.append(len(compiled.magi_backend.managers))
    assert graphs[0] > 0 and graphs[1] == graphs[0], graphs
    assert compiled.magi_backend.count("conv_channels_last", "norm_inputs_channels_last") > 0
    torch._dynamo.reset()


@pytest.mark.parametrize(
    ("name", "field", "untouched"),
    [
        ("ltx-video-vae", "channels_last_norm_inputs", WAN),
        ("allegro-vae", "group_norm_chunked_stats", "svd-vae"),
    ],
)
def test_the_zoo_benchmarks_no_model_levers_variant_takes_back_the_forms_own_levers(
    name: str, field: str, untouched: str
) -> None:
    """``magi-form-no-model-levers``: LTX-Video's form without its weights in place and without
    the norm-input pin, Allegro's without its weights in place and without the chunked GroupNorm
    statistics. Each keeps the form's recorded decisions (for timing the two forms against each
    other); a form without such levers (Wan's, SVD's) is the form itself."""
    from pytest_magi.bench import variants as bench

    variant = "magi-form-no-model-levers"
    for needed in (name, untouched):
        if needed not in zoo.names():
            pytest.skip(zoo.unavailable().get(needed, needed))
    model = zoo.load(name, "tiny", dtype=torch.float32)
    form = forms.form_for(model.module)
    assert form is not None and form.config().replace(**{field: False}) != form.config()
    old, backend = bench.build_variant(model, variant, 64)
    assert backend is not None
    assert backend.config == form.config().replace(**{field: False})
    assert backend.config.decided_on == form.config().decided_on != ""
    assert old.compile_kwargs["channels_last_parameters"] is False
    assert bench.variant_changes(variant, form) == (
        f"; this variant: channels_last_parameters=False, {field}=False"
    )
    new, backend = bench.build_variant(model, "magi", 64)
    assert backend is not None and getattr(backend.config, field) is True
    assert new.compile_kwargs["channels_last_parameters"] is True
    other = zoo.load(untouched, "tiny", dtype=torch.float32)
    other_form = forms.form_for(other.module)
    _, backend = bench.build_variant(other, variant, 64)
    assert backend is not None and other_form is not None
    assert backend.config == other_form.config()
    assert bench.variant_changes(variant, other_form) == ""


def test_the_zoo_benchmarks_gn_chunks_variant_is_the_form_with_chunked_statistics() -> None:
    """``magi-form-gn-chunks``: the form with the chunked GroupNorm statistics, its own options
    (LTX-Video's weights in place) kept."""
    from pytest_magi.bench import variants as bench

    name = "ltx-video-vae"
    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    model = zoo.load(name, "tiny", dtype=torch.float32)
    form = forms.form_for(model.module)
    assert form is not None
    chunked, backend = bench.build_variant(model, "magi-form-gn-chunks", 64)
    assert backend is not None
    assert backend.config == form.config().replace(group_norm_chunked_stats=True)
    assert chunked.compile_kwargs["channels_last_parameters"] is True


def _tiny_in_fake_cuda(name: str) -> tuple[Any, CompileForm, Any]:
    """Zoo model ``name`` (tiny, fp32), its form (which takes the conv weights channels-last in
    place) and its decode as a module, for fake-CUDA code generation; skips where the model or
    fake CUDA is missing here."""
    from pytest_magi.capture.fake_cuda import fake_cuda_status

    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)
    model = zoo.load(name, "tiny", dtype=torch.float32)
    form = form_for(model.module)
    assert form is not None and form.channels_last_parameters
    return model, form, model.as_module()


def _codegen_in_form(model: Any, form: CompileForm, decode: Any) -> Any:
    """The code Inductor generates for ``decode`` in ``form``: its conv weights channels-last in
    place (a copy), its `PassConfig`."""
    from magi_passes.compile.weights import convert_conv_parameters
    from pytest_magi.capture.codegen import inductor_codegen

    in_place = copy.deepcopy(decode)
    convert_conv_parameters(in_place)
    return inductor_codegen(in_place, *model.inputs, config=form.config())


@pytest.mark.slow
def test_allegros_form_generates_fewer_kernels_with_its_compile_levers_in_fake_cuda() -> None:
    """Allegro's form takes its conv weights channels-last in place and its GroupNorm statistics
    in chunks, for its compile time: at full size (fake CUDA, torch 2.13, height 45,
    width 80) the form before them made 1413 launches (kernels and extern calls, as
    the zoo benchmark's compile-time mode counts them) for Inductor to generate, against Inductor's 1179;
    with them 1077. Tiny: 134 Triton kernels (505 launches) before, 118 (419)
    with them on torch 2.13; 120 (401) and 111 (400) on torch 2.11. Every GroupNorm's statistics
    are chunked, and no chunk reduction Inductor makes persistent carries a fixed config (on the
    GPU Triton refused one)."""
    from pytest_magi.capture.codegen import inductor_codegen

    model, form, decode = _tiny_in_fake_cuda("allegro-vae")
    assert form.config().group_norm_chunked_stats
    before = inductor_codegen(
        decode, *model.inputs, config=form.config().replace(group_norm_chunked_stats=False)
    )
    magi = _codegen_in_form(model, form, decode)
    (result,) = [r for r in magi.pass_results if r.name == "group_norm_stats"]
    assert result.counts["group_norms_chunked"] == result.counts["group_norms_rewritten"] > 0
    assert magi.kernel_count < before.kernel_count, (magi.kernel_count, before.kernel_count)
    assert launches(magi) <= launches(before), (launches(magi), launches(before))
    assert not [k for k in magi.kernels if k.kind == "persistent_reduction" and k.fixed_config]


@pytest.mark.slow
def test_the_ltx2_decoders_form_generates_fewer_kernels_than_inductor_in_fake_cuda() -> None:
    """LTX-2's form takes LTX-Video's levers: its conv weights channels-last in
    place and its RMS norms' inputs pinned channels-last. Without them magi's rewrite left each
    norm's input realised channels-first beside its channels-last copy (full size: 67 Triton
    kernels against Inductor's 48 on torch 2.11); with them 32. Tiny, on torch 2.13: Inductor
    29, the form without its levers 39, with them 27."""
    from pytest_magi.capture.codegen import inductor_codegen

    model, form, decode = _tiny_in_fake_cuda("ltx2-video-vae")
    assert form.config().channels_last_norm_inputs
    plain = inductor_codegen(decode, *model.inputs)
    magi = _codegen_in_form(model, form, decode)
    result = next(r for r in magi.pass_results if r.name == "conv_channels_last")
    assert result.applied and result.counts["norm_inputs_channels_last"] > 0
    assert magi.kernel_count <= plain.kernel_count, (magi.kernel_count, plain.kernel_count)


@pytest.mark.slow
def test_cosmos_weights_in_place_leave_no_conv_weight_to_convert_in_fake_cuda() -> None:
    """Cosmos's form takes its conv weights channels-last in place, for its compile
    time: at full size (fake CUDA, torch 2.13) the form without them made 80 Triton kernels and
    329 launches for Inductor to generate (Inductor alone: 63 and 304), with them 77 and 310; on
    two H200s its cold compile took 1.058x torch.compile's without them and 0.900x and 0.945x
    with them. The form also turns its transposed convolutions into fused products
    (`DeconvInterleavePass`; the form's docstring). In the graph each conv weight is then already channels-last:
    the layout pass inserts no clone for it, and there are fewer kernels. (Tiny, torch 2.13,
    with the interleave: 51 kernels against 52, but 175 launches against 162, where at full
    size they are 242 against 260; without it: 69 kernels against 71 and 243
    launches against 231. A conv output is then channels-last
    already and goes into its causal cache's concatenation as it is, so the bias add Inductor
    peels off the convolution is the kernel that writes it there, where before a channels-last
    clone of the output did that fused with the concatenation's other inputs.)"""
    from pytest_magi.capture.codegen import inductor_codegen

    model, form, decode = _tiny_in_fake_cuda("cosmos-vae")
    before = inductor_codegen(decode, *model.inputs, config=form.config())
    magi = _codegen_in_form(model, form, decode)
    old, new = (
        next(r for r in code.pass_results if r.name == "conv_channels_last")
        for code in (before, magi)
    )
    assert old.applied and new.applied
    assert new.counts["convs_converted"] == old.counts["convs_converted"] > 0
    # one clone fewer for each conv argument found channels-last instead: the weights, and the
    # activations that now come channels-last out of the convolutions before them
    found = new.counts["already_channels_last"] - old.counts["already_channels_last"]
    assert found >= new.counts["convs_converted"]
    assert new.counts["clones_inserted"] == old.counts["clones_inserted"] - found
    assert new.counts["weight_clones_batched"] < old.counts["weight_clones_batched"]
    assert magi.kernel_count < before.kernel_count, (magi.kernel_count, before.kernel_count)


# --------------------------------------------------------------------------- form files
class _ConvBlock(nn.Module):
    """A conv3d block (the channels-last rewrite, a measured pass, changes its graph); with
    ``broken``, a graph break splits it into two graphs at two shapes."""

    def __init__(self, broken: bool = False) -> None:
        super().__init__()
        self.conv = nn.Conv3d(4, 4, 3, padding=1)
        self.broken = broken

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.nn.functional.silu(self.conv(x))
        if self.broken:
            y = y[..., :4].contiguous()
            torch._dynamo.graph_break()
            y = torch.nn.functional.silu(self.conv(y))
        return y


class _Timer:
    """A fake timer: ``faster(width)`` names the variant that wins on a graph whose 5-d input is
    ``width`` wide (its widest 5-d input); the calls are counted."""

    def __init__(self, faster) -> None:
        self.faster = faster
        self.calls = 0

    def __call__(self, variant, args) -> float:
        variant(*args)
        self.calls += 1
        width = max(a.shape[-1] for a in args if isinstance(a, torch.Tensor) and a.dim() == 5)
        return 1.0 if variant.name == self.faster(width) else 2.0


def _measured(model: nn.Module, timer: _Timer, x: torch.Tensor, form: Any = None) -> Any:
    """``magi_compile(model, form=form)`` (the generic form by default), measured with ``timer``
    (CPU timings count when a timer is given), called once on ``x``."""
    from magi_passes.decisions import Decider

    compiled = magi_compile(model, form=form)
    compiled.magi_backend.decider = Decider(timer=timer, rounds=1, use_cache=False)
    with torch.no_grad():
        compiled(x)
    return compiled


@pytest.mark.parametrize(
    ("winner", "field"), [("magi", "decided_on"), ("plain", "decided_plain_on")]
)
def test_a_measured_run_records_a_form_that_compiles_once_on_its_device(
    tmp_path, monkeypatch, winner, field
) -> None:
    """`record_form` after a measured run: the model's class, the device in ``decided_on`` (or
    ``decided_plain_on``), written to a file that `MAGI_FORMS_FILE` makes `magi_compile` use, so
    the next compile of the same class (another instance, other shapes) measures nothing."""
    from magi_passes.forms import FORMS_ENV, read_form_file, record_form

    x = torch.randn(1, 4, 3, 6, 6)
    compiled = _measured(_ConvBlock(), _Timer(lambda width: winner), x)
    path = tmp_path / "form.json"
    form = record_form(compiled, path, name="my-block")
    assert form.classes == (forms.class_name(_ConvBlock()),)
    assert form.pass_config == {field: "cpu"}, form.pass_config
    assert "1 of 1 graphs measured on cpu" in form.evidence and f"kept {winner}" in form.evidence
    assert read_form_file(path) == form
    assert form_for(_ConvBlock()) is None  # the file is not named yet
    monkeypatch.setenv(FORMS_ENV, str(path))
    assert form_for(_ConvBlock()) == form and form_for(NoForm()) is None
    again = _Timer(lambda width: winner)
    other = _measured(_ConvBlock(), again, torch.randn(1, 4, 3, 8, 8), form="auto")
    assert again.calls == 0
    (decision,) = other.magi_backend.decisions
    assert (decision.source, decision.choice) == ("static", winner)
    assert decision.reason.startswith("decided "), decision.reason
    assert other.magi_form == form


class NoForm(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x


def test_a_run_whose_graphs_disagree_records_no_form_and_says_to_share_decisions() -> None:
    from magi_passes.forms import record_form

    x = torch.randn(1, 4, 3, 6, 6)
    compiled = _measured(
        _ConvBlock(broken=True), _Timer(lambda w: "magi" if w == 6 else "plain"), x
    )
    assert [d.choice for d in compiled.magi_backend.decisions] == ["magi", "plain"]
    with pytest.raises(ValueError, match=r"do not agree \(kept: \{'magi': 1, 'plain': 1\}.*export"):
        record_form(compiled)


def test_record_form_refuses_what_it_cannot_record() -> None:
    from magi_passes.forms import record_form

    with pytest.raises(TypeError, match=r"compiled must be what magi_compile\(model\) returned"):
        record_form(torch.compile(NoForm()))
    compiled = magi_compile(_ConvBlock(), form=None)  # CPU, no timer: the static rule decides
    with torch.no_grad():
        compiled(torch.randn(1, 4, 3, 6, 6))
    with pytest.raises(ValueError, match=r"no graph of this run was measured .*not a CUDA graph"):
        record_form(compiled)


def _form_file(tmp_path, **changes: Any):
    import json

    from magi_passes.forms import write_form_file

    path = write_form_file(tmp_path / "form.json", CompileForm(name="f", classes=("m.C",)))
    data = json.loads(path.read_text())
    for key, value in changes.items():
        if key in data["form"]:
            data["form"][key] = value
        else:
            data[key] = value
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        pytest.param(
            {"torch": "2.0.1"}, r"stale, recorded with torch 2\.0\.1 and this is", id="stale"
        ),
        pytest.param({"schema": "magi-form/0"}, r"schema must be 'magi-form/1'", id="schema"),
        pytest.param({"extra": 1}, r"unknown or missing fields \(\['extra'\]\)", id="field"),
        pytest.param({"frames": "module"}, r"frames must be one of", id="value"),
    ],
)
def test_a_bad_or_stale_form_file_is_named_and_ignored_with_a_warning(
    tmp_path, monkeypatch, changes, message
) -> None:
    from magi_passes.forms import (
        FORMS_ENV,
        FormFileError,
        FormFileWarning,
        read_form_file,
        user_forms,
    )

    path = _form_file(tmp_path, **changes)
    with pytest.raises(FormFileError, match=message):
        read_form_file(path)
    monkeypatch.setenv(FORMS_ENV, str(path))
    with pytest.warns(FormFileWarning, match=f"{message}.*ignored"):
        assert user_forms() == ()


def test_a_form_file_that_is_not_json_is_named_with_the_fix(tmp_path) -> None:
    from magi_passes.forms import FormFileError, read_form_file

    path = tmp_path / "form.json"
    path.write_text("{not json")
    with pytest.raises(
        FormFileError, match=r"form\.json: cannot be read as JSON .*fix: record it again"
    ):
        read_form_file(path)
