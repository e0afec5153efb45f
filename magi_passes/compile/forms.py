"""Compile forms: how `magi_compile` compiles a model whose best way to compile was measured.

Most of what makes a compiled model fast is decided per graph, by the passes and their measured
decisions (`magi_passes.decisions`). Some of it cannot be: whether dynamo traces a model as one
graph or many, whether its graphs are static or dynamic, and how its inputs are laid out are
settled before the backend sees a graph. For a model whose best settings of those were measured
on real decodes, a `CompileForm` records them with the measurement, and ``magi_compile(model)``
(``form="auto"``, the default) uses them for every option the caller leaves unset; any model
without one is compiled as before (the generic form). The rule is measured per model family,
never guessed: a form is listed only beside a side-by-side run on the GPU in which it is right
(each output within 2x eager's distance from an fp32 decode) and at least as fast as the
generic form and torch.compile at every length measured.

A form applies to a module by its class (module and qualified name, so that its library need not
be imported here): the module passed to `magi_compile` (``vae.decoder``), not a module holding it.
What it sets:
- ``dynamic``, ``dynamo_fixes``, ``contiguous_inputs``, ``channels_last_parameters``:
  `magi_compile`'s arguments of those names, where the caller passes ``None`` (their default);
- ``frames``: the dynamo frames `magi_compile` gives the model where the caller leaves
  ``isolate_frames=True`` (the default): one per module instance (``"instance"``, the generic
  form's), or the compiled module's own only (``"root"``: its submodules traced inline, as
  torch.compile traces them; for a model that compiles to one graph, where the frames per
  instance only cost dynamo's tracing);
- ``pass_config``: `PassConfig` fields set on top of `PassConfig.from_env()`, where the caller
  passes no ``config``; a field set by its ``MAGI_PASSES__<FIELD>`` variable keeps the
  environment's value;
- ``inductor_options``: `torch._inductor.config` keys the backend compiles with (`MagiBackend`'s
  ``inductor_config_patches``), under the caller's ``options`` (a key the caller gives wins).
``magi_compile(model, form=None)`` compiles any model in the generic form; ``form=<CompileForm>``
applies a form of one's own. `form_for(model)` says which form ``"auto"`` picks.

The forms:
- ``wan-decoder`` (diffusers ``WanDecoder3d``, the decoder of ``AutoencoderKLWan``): each chunk
  of the causal decode one graph (`magi_passes.dynamo_fixes`: torch 2.11 breaks the graph where
  the upsamplers compare a cache with a string; torch 2.13 traces it whole unpatched), every
  chunk graph static and reused at every decode length (``dynamic=False``, contiguous inputs),
  the RMS norms' inputs pinned channels-last (`PassConfig.channels_last_norm_inputs`), the conv
  weights laid out channels-last once (``channels_last_parameters``), the causal caches' zero
  frames padded onto the cache concatenation's inputs (`PassConfig.channels_last_pad_through_cat`),
  and its decisions recorded for H100s and H200s (`PassConfig.decided_on`).
  Measured on the Wan 2.2 TI2V-5B decode at 540p, bf16, decisions on, in one run (H100, torch
  2.11, docs/benchmarks.md "Session 26"): T=21 1304.3 ms against 1342.6 ms in the generic form
  and 1718.8 ms for torch.compile with frames isolated (1.318x); T=3 138.6 against 146.1 and
  194.4 ms; output 1.13e-2 from fp32 at both lengths (eager 1.40e-2 and 1.43e-2); compiled cold
  in 101.3 s against 183.4 s for the generic form and 113.2 s for torch.compile in that run.
  The weights and pads ("Session 27", H100, torch 2.11, against the form without them in one
  run): T=3 1.071x (137.0 -> 127.9 ms), T=21 1.037x (1285.4 -> 1239.1 ms), 63.7 -> 61.5 ms a
  further latent frame, output 9.7e-3 and 1.01e-2 from fp32. Its three chunk graphs, measured
  on that H100 with and without the levers, each kept magi (without them plain Inductor took
  28.7, 81.7 and 81.7 ms against magi's 10.9, 66.7 and 59.7 ms); measured on an H200 with
  the form as it stands ("Session 31", torch 2.11) each kept magi again (plain 21.07, 65.96
  and 69.01 ms against 9.39, 56.21 and 55.86), so on H100s and H200s they compile once; any
  other device measures them. On torch 2.13 the generic
  form would leave the steady chunk one dynamic graph (81.1 ms a further frame on torch 2.11
  with the fix and dynamic shapes, "Session 24"); the form keeps it static there too. The Wan
  2.1 configuration of the same class was not measured on a GPU.
- ``cogvideox-decoder``, ``ltx-video-decoder``, ``hunyuanvideo-decoder``, ``cosmos-decoder``
  (`DECIDED_DECODERS`, `decided_form`): the generic form with the decisions recorded for H100s
  and H200s. Each decoder is one graph; measured cold on an H100 (torch 2.11, bf16, "Session
  27") its graph kept magi (1.118-1.305x over torch.compile, output right), so there it
  compiles once instead of twice and a timing: cold compile 57.9, 35.5, 42.0 and 30.6 s against
  torch.compile's 59.6, 30.5, 31.6 and 32.2 s. Measured on two H200s ("Session 43", torch
  2.11, bf16, the zoo's full size): every graph kept magi there too (1.285x, 1.372x, 1.137x,
  1.230x, output right), so H200s are recorded; cold compile there 68.4, 27.5, 35.8 and 34.5 s
  against torch.compile's 72.1, 35.0, 44.3 and 34.5 s on the other GPU at the same time. Any
  other device measures them.
  LTX-Video and HunyuanVideo also take their conv weights channels-last in place
  (``channels_last_parameters``: no weight conversion in the graph, 28 and 27 fewer launches),
  and LTX-Video its RMS norms' inputs pinned (`PassConfig.channels_last_norm_inputs`: its norms
  move the channels last and reduce over them). Measured on an H100 ("Session 30", torch 2.11,
  bf16, each against the form before in one run): LTX-Video 1.035x with the weights in place and
  1.061x with the pin, output right; cold compile 30.1 -> 28.1 s (LTX-Video) and
  43.5 -> 38.8 s (HunyuanVideo) with the weights in place, runtime unchanged on HunyuanVideo.
  Cosmos's decoder takes one frame for the decoder (``frames="root"``, "Session 44"): its cold
  compile on two H200s took 1.059x torch.compile's (two rounds, with the stack room), its
  dynamo tracing 3.3-5.2 s against torch.compile's 2.8-3.4; on the CPU (torch 2.13, full size,
  dynamo alone) the root frame made the same one graph (388 call nodes, the same ops) in
  1.15-1.46 s against 1.55-1.99 with a frame per module instance, and on an H200 ("Session 45")
  it ran as fast (94.01 against 94.18 ms) with dynamo's tracing 2.3-2.7 s against
  torch.compile's 2.7-2.8, but the compile still took 1.058x torch.compile's (two rounds): its
  rewritten graph had more to fuse and generate (fake CUDA: 80 Triton kernels and 329 launches
  against Inductor's 63 and 304). So it also takes its conv weights channels-last in place
  (``channels_last_parameters``: 77 kernels, 310 launches): compiled cold on two H200s (torch
  2.11, bf16, the zoo's full size, both sides at once, the GPUs swapped) in 0.900x and 0.945x
  torch.compile's time (two runs, two rounds each) and 0.867x the form's without it, output
  right. But the "same speed" there (1.015x and 0.994x) compared two forms timed in processes
  where the form with the weights in place had run first, and on an H200 ("Session 47") one
  graph of Cosmos's decoded in 94 or 122 ms by what had run before it in the process: its
  never-slower test measured the form at 0.960x torch.compile's and the form without the
  weights at 0.950x. Both speeds come from its inverse Haar wavelet's 28 transposed
  convolutions, which cuDNN runs as 264 `setTensor5d_kernel` and 264
  `convolveNd_dgrad_float_engine` launches a decode, torch.compile's graph included: profiled in
  one process ("Session 48"), a fast and a slow copy launched the same kernels, the slow one's
  `setTensor5d_kernel` summing 198.6 ms against 49.4. So the form turns those convolutions
  into products Inductor fuses (`DeconvInterleavePass`, `PassConfig.enable_deconv_interleave`):
  on an H200 ("Session 48", torch 2.11, bf16, the zoo's full size) 44.97-45.56 ms against
  torch.compile's 116.0-116.7 (2.562-2.597x, both orders, and in its never-slower test twice),
  output 1.22e-2 from fp32 against torch.compile's 1.31e-2 and eager's 1.66e-2, so H200s are
  recorded. That form compiled cold in 37.4 and 37.8 s against torch.compile's 32.0 and 36.6
  (1.096x, alternated), so it takes its conv weights channels-last in place again (no cuDNN
  transposed convolution is left for them to slow): fake CUDA 59 Triton kernels and 242
  launches against 61 and 260 without them (Inductor: 63 and 304); on an H200 cold in 26.9 and
  24.9 s against torch.compile's 29.8 (0.869x), at the same speed (46.31 against 46.52 ms
  without the weights in place, 45.14 against torch.compile's 116.59: 2.583x), output 1.23e-2.
  H100s keep the passes as measured in sessions 27 and 28 (1.256-1.260x, cold compile 30.6 s
  against 32.2) with the interleave and the weights in place on top, not timed on an H100 (the
  same Hopper chip and cuDNN; the rewrite removes the cuDNN calls that cost most of the decode
  there too). In "Session 49" (an H200) its never-slower test passed in this form (2.586x, output
  1.23e-2), and it compiled cold in 31.0 and 28.1 s against torch.compile's 27.4 and 30.0
  (1.030x; over both sessions' seven cold compiles magi's mean 27.7 s against 29.1, 0.954x).
  Its spatial attention's first matmul on the bf16 operands (`UpcastMatmulPass`,
  `PassConfig.enable_upcast_matmul`) decoded in 33.6-33.9 ms against this form's 44.8-45.1
  (3.44-3.46x torch.compile, both orders; 3.445x in the never-slower test), output as close to
  fp32; it is not in the form: it compiled 2.5-2.7 s slower in process (both orders), its cold
  compile is not measured, and this form's compile has no margin to spend.
- ``hunyuanvideo1.5-decoder``, ``kvae-3d-decoder``, ``kandinsky6-sr-decoder`` (`DECIDED_DECODERS`):
  the generic form with the decisions recorded for H200s. Measured on an H200 ("Session 31",
  torch 2.11, bf16, the zoo's full size), each compiled cold by the static rules with
  torch.compile timed beside it: 1.475x, 1.375x and 1.231x, output right; cold compile 77.3,
  88.7 and 64.2 s against torch.compile's 79.4, 84.0 and 62.1 s (each alone in its process).
  KVAE-3D's and Kandinsky-6 SR's were measured again on an H100 ("Session 32", torch 2.11):
  1.380x and 1.193x, output right, so they are recorded for H100s too; cold compile 85.8 s
  against torch.compile's 87.2 (KVAE-3D). Kandinsky-6 SR's form also takes its conv weights
  channels-last in place and pins its RMS norms' inputs (both its norms and LTX-Video's reduce
  over the channels): 78 Triton kernels instead of the generic form's 118 (torch.compile's 95),
  cold compile 59.1 s against the generic form's 65.0 and torch.compile's 65.1, at the generic
  form's speed (1.001x, one run) with the output right. KVAE-3D's and Kandinsky-6 SR's take one
  frame for the decoder (``frames="root"``, "Session 45"): their only H200 cold rounds ("Session
  31") took 1.056x and 1.034x torch.compile's, and on the CPU (torch 2.13, full size, dynamo
  alone, four rounds a side alternated) the root frame made the same one graph (832 and 1089
  call nodes, the same ops) in 4.79-6.35 and 4.21-7.73 s (medians 5.06 and 4.79) against
  5.76-7.48 and 6.25-6.80 with a frame per module instance (each side's first round left out);
  in fake CUDA Kandinsky-6 SR's magi side traced 4.4-4.6 s against torch.compile's 3.0-3.1
  with a frame per instance, 3.0-3.2 against 3.1-3.3 with the root frame.
  On two H200s ("Session 46", torch 2.11, bf16, the zoo's full size, both sides at once, the
  GPUs swapped) the root frame ran at a frame per instance's speed (173.10 against 172.91 ms,
  150.06 against 149.77) with the output right; Kandinsky-6 SR compiled cold in 53.4 and 55.0 s
  against torch.compile's 66.7 and 58.9 (0.863x). KVAE-3D's took 75.9 and 76.2 s against 71.0
  and 60.0: its graph raises one of torch's sympy failures in Inductor at its first try (an
  index variable without a range, from the pointwise concatenation of its replicate-padded
  causal frames), and the compile done again inside the workaround's scopes had cost 17.2 s
  more (its AOT dispatch and post-grad passes twice torch.compile's). So KVAE-3D's form
  compiles inside the scopes from the first try (``work_around_sympy_first``): 45.0 and 47.9 s
  against torch.compile's 53.1 and 60.7 (0.816x), the code and output those of the retry.
- ``mochi-decoder`` (`DECIDED_DECODERS`): the generic form with the decision recorded as plain
  Inductor for H200s (`PassConfig.decided_plain_on`): by the static rules its graph ran 0.653x
  torch.compile there (432.7 against 282.6 ms, "Session 31"), as its measurements kept plain in
  sessions 6 and 22; there it compiles once with the measured passes off. Recorded for H100s
  too: session 22's measurement there kept plain (magi 445.9 against plain 302.9 ms), and
  compiled that way on an H100 ("Session 32") it ran as torch.compile (300.0 against
  300.3 ms), output right.
- ``svd-decoder``, ``allegro-decoder``, ``easyanimate-decoder``, ``vidtok-decoder``,
  ``ltx2-video-decoder`` (`DECIDED_DECODERS`): the generic form with the decisions recorded for
  H100s and H200s. Measured on an H100 ("Session 34", torch 2.11, bf16, the zoo's full size) by
  the zoo's never-slower test, which compiles each as ``magi_compile`` does with nothing recorded:
  every graph (EasyAnimate's two, the others' one) kept magi against plain Inductor, the output
  was right and magi faster than torch.compile (1.843x, 1.396x, 1.298x, 1.270x and 1.185x). Any
  other device measures them. VidTok's and LTX-2's decoders, like HunyuanVideo's, compile with one
  frame for the decoder (``frames="root"``): measured cold on an H100 ("Session 37", torch 2.11,
  bf16, each compile alone with empty caches) against a frame per module instance, the same one
  graph ran at the same speed (VidTok 67.82 against 67.75 ms, LTX-2 21.10 against 21.08,
  HunyuanVideo 208.62 against 208.76), with the output right and dynamo's tracing 2.4 against 3.1
  s, 1.3 against 1.9 and 1.5 against 3.0. SVD's and Allegro's too ("Session 38": on an H100 74.08
  and 1478.0 ms, as with a frame per instance, output right; dynamo made the same graph in 1.3-1.6
  against 2.1-2.6 s and 2.8-3.1 against 4.9-5.5 s on the CPU). LTX-2's also takes LTX-Video's two
  levers ("Session 38", H100, torch 2.11, one run): its weights in place and its RMS norms' inputs
  pinned, 19.71 ms against 20.98 without them (torch.compile 24.72), output right, 32 Triton
  kernels against 67 (torch.compile 48). Compiled cold with these forms on an H100 ("Session 39",
  torch 2.11, each compile alone in a fresh process, torch.compile and the form alternated): LTX-2
  23.7 s against torch.compile's 27.1 (two rounds a side), SVD 39.5 against 56.6 (one), Allegro
  95.0 against 76.3 (two; its channels-last graph has 1413 kernel launches to generate against
  Inductor's 1179). So Allegro's form takes two more levers ("Session 40"): its conv weights
  channels-last in place and its GroupNorm statistics in chunks
  (`PassConfig.group_norm_chunked_stats`: 1077 launches in fake CUDA). Measured on two H200s
  (torch 2.11, each side cold in a process of its own, the two at once): its graph's compile (AOT
  and Inductor) 46.3 s against the former form's 69.5 and torch.compile's 55.0 (of its whole cold
  compile, 73.6 s); every measurement there kept magi (so its decisions are recorded for H200s
  too) with the output right, one steady call 1.39 s against 1.37 and torch.compile's 1.86. Its
  whole cold compile on two H200s ("Session 41"): 61.8 and 59.5 s against torch.compile's 68.1,
  and 1.350x faster than torch.compile; on an H100 it is still to be measured. EasyAnimate's form
  takes the same two levers ("Session 42", two H200s, two rounds): 1.074x faster than without
  them, 1.496x and 1.508x over torch.compile, every output right; its cold compiles there measured
  both graphs (nothing was recorded for H200s) and took 1.89x torch.compile's time, every
  measurement keeping magi, so H200s are recorded too; its cold compile with them recorded
  ("Session 43"): 59.2 s against torch.compile's 61.1. SVD's, VidTok's and LTX-2's measured their
  graphs on two H200s ("Session 43", torch 2.11): each kept magi (1.786x, 1.241x, 1.272x, output
  right), so H200s are recorded; cold compile with them recorded 49.2, 41.1 and 33.1 s against
  torch.compile's 55.5, 40.8 and 34.6 s on the other GPU at the same time.
- ``minimax-h3-decoder``, ``timm-resnet``, ``timm-efficientnet`` (`ONE_GRAPH_FORMS`): models
  that compile to one graph and on which no measured pass fires, so there is nothing to decide;
  their forms take one frame for the compiled module (``frames="root"``), as the decoders above
  do. Compiled cold on two H200s with a frame per module instance ("Session 40", one round),
  MiniMax-H3 took 43.3 s against torch.compile's 42.6 and ResNet-50 19.0 against 14.8, dynamo's
  tracing 6.8 against 5.3 s and 3.3 against 2.2; on the CPU dynamo made the same one graph with
  one frame in 3.8-6.2 s against 7.9-9.7 (MiniMax-H3), 0.9-1.2 against 1.7-2.2 (ResNet-50) and
  1.0-1.4 against 2.4-2.9 (EfficientNet-B0). With it ("Session 41", two rounds, the GPUs
  swapped) ResNet-50 compiled cold in 0.926x torch.compile's time and EfficientNet-B0 in
  0.909x; MiniMax-H3 took 1.019x (no pass fires on it; the 0.8 s not located).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _validate
from ..config import ENV_PREFIX, PassConfig

AUTO = "auto"

# the options a form sets, with the value each has without one
FORM_OPTIONS = {
    "dynamic": None,
    "dynamo_fixes": False,
    "contiguous_inputs": False,
    "channels_last_parameters": False,
}
# the frame isolation a form may ask for (`CompileForm.frames`): `magi_compile`'s, per module
# instance, or the compiled module's own frame only (its submodules traced inline, as
# torch.compile traces them), for a model that compiles to one graph
FORM_FRAMES = ("instance", "root")


@dataclass(frozen=True)
class CompileForm:
    """How to compile a model family: `magi_compile`'s options and `PassConfig` fields (module
    docstring). ``classes``: the ``"module.QualifiedName"`` of the modules it applies to;
    ``evidence``: where the measurement that chose it is written down."""

    name: str
    classes: tuple[str, ...] = ()
    dynamic: bool | None = None
    dynamo_fixes: bool = False
    contiguous_inputs: bool = False
    channels_last_parameters: bool = False
    frames: str = "instance"
    pass_config: Mapping[str, Any] = field(default_factory=dict)
    inductor_options: Mapping[str, Any] = field(default_factory=dict)
    evidence: str = ""

    def __post_init__(self) -> None:
        where = "CompileForm"
        if not isinstance(self.name, str) or not self.name:
            _validate.fail(TypeError, where, "name", self.name, "a non-empty str", "'my-decoder'")
        if isinstance(self.classes, str) or not all(isinstance(c, str) for c in self.classes):
            _validate.fail(
                TypeError, where, "classes", self.classes,
                "a tuple of 'module.QualifiedName' strings", "classes=('mylib.models.Decoder',)",
            )  # fmt: skip
        for option, default in FORM_OPTIONS.items():  # dynamic may be None, the rest are bools
            check = _validate.check_optional_bool if default is None else _validate.check_bool
            check(where, option, getattr(self, option))
        if self.frames not in FORM_FRAMES:
            _validate.fail(
                ValueError, where, "frames", self.frames,
                f"one of {FORM_FRAMES} (magi_passes.frames.isolate_forward_code's per=)",
                "frames='root'",
            )  # fmt: skip
        if not isinstance(self.pass_config, Mapping):
            _validate.fail(
                TypeError, where, "pass_config", self.pass_config,
                "a mapping of PassConfig fields to values", "{'channels_last_norm_inputs': True}",
            )  # fmt: skip
        PassConfig().replace(**self.pass_config)  # an unknown field or a bad value fails here
        inductor = _validate.check_optional_mapping(
            where, "inductor_options", self.inductor_options, "{'triton.autotune_pointwise': False}"
        )
        _check_inductor_keys(inductor)
        object.__setattr__(self, "classes", tuple(self.classes))
        object.__setattr__(self, "pass_config", dict(self.pass_config))
        object.__setattr__(self, "inductor_options", inductor)

    def applies_to(self, model: object) -> bool:
        return class_name(model) in self.classes

    def config(self, environ: Mapping[str, str] | None = None) -> PassConfig:
        """`PassConfig.from_env(environ)` with this form's fields set, except those the
        environment sets itself."""
        env = os.environ if environ is None else environ
        from_env = {var[len(ENV_PREFIX) :].lower() for var in env if var.startswith(ENV_PREFIX)}
        overrides = {k: v for k, v in self.pass_config.items() if k not in from_env}
        return PassConfig.from_env(environ).replace(**overrides)

    def describe(self) -> str:
        parts = [f"dynamic={self.dynamic}"]
        parts += [f"{f}=True" for f, d in FORM_OPTIONS.items() if d is False and getattr(self, f)]
        parts += [f"frames={self.frames!r}"] if self.frames != "instance" else []
        parts += [f"{k}={v!r}" for k, v in self.pass_config.items()]
        parts += [f"inductor {k}={v!r}" for k, v in self.inductor_options.items()]
        return f"{self.name} ({', '.join(parts)})"

    def backend_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        """The backend's Inductor options: this form's ``inductor_options`` with ``given`` (the
        caller's ``options``) on top; None when both are empty."""
        merged = {**self.inductor_options, **(given or {})}
        return merged or None


def _check_inductor_keys(options: Mapping[str, Any]) -> None:
    """Each key a `torch._inductor.config` key; a `PassConfig` field belongs in ``pass_config``."""
    if not options:
        return  # (every known form: no copy of Inductor's config at import)
    from torch._inductor import config as inductor_config

    known = inductor_config.get_config_copy()
    for key in options:
        if key in PassConfig.field_names():
            _validate.fail(
                ValueError, "CompileForm", "inductor_options", dict(options),
                f"torch._inductor.config keys ({key!r} is a PassConfig field)",
                f"CompileForm(..., pass_config={{{key!r}: ...}})",
            )  # fmt: skip
        if key not in known:
            _validate.fail(
                ValueError, "CompileForm", "inductor_options", dict(options),
                f"torch._inductor.config keys ({key!r} is not one)",
                "CompileForm(..., inductor_options={'triton.autotune_pointwise': False})",
            )  # fmt: skip


def class_name(model: object) -> str:
    cls = type(model)
    return f"{cls.__module__}.{cls.__qualname__}"


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
    evidence='docs/benchmarks.md "Session 26", "Session 27", "Session 31"',
)


def decided_form(
    name: str,
    cls: str,
    devices: str,
    evidence: str,
    *,
    plain_on: str = "",
    channels_last_parameters: bool = False,
    frames: str = "instance",
    pass_config: Mapping[str, Any] | None = None,
    inductor_options: Mapping[str, Any] | None = None,
) -> CompileForm:
    """The generic form of a model whose every measured graph kept magi in a run on
    ``devices`` (`PassConfig.decided_on`), or kept plain Inductor in a run on ``plain_on``
    (`PassConfig.decided_plain_on`): there it compiles once, elsewhere it measures. With the
    levers measured for it on top, if any: its conv weights channels-last in place
    (``channels_last_parameters``), a frame for the decoder only (``frames="root"``),
    `PassConfig` fields (``pass_config``) and Inductor options (``inductor_options``)."""
    recorded = {k: v for k, v in (("decided_on", devices), ("decided_plain_on", plain_on)) if v}
    if not recorded:
        _validate.fail(
            ValueError, "decided_form", "devices", devices,
            "the device names a measurement kept magi on, or plain_on= those it kept plain on",
            f"decided_form({name!r}, ..., 'H100', ...)",
        )  # fmt: skip
    return CompileForm(
        name=name,
        classes=(cls,),
        channels_last_parameters=channels_last_parameters,
        frames=frames,
        pass_config={**(pass_config or {}), **recorded},
        inductor_options=inductor_options or {},
        evidence=evidence,
    )


_AUTOENCODERS = "diffusers.models.autoencoders"
_SESSION_27 = 'docs/benchmarks.md "Session 27"'
_SESSION_30 = 'docs/benchmarks.md "Session 27", "Session 30"'
_SESSION_31 = 'docs/benchmarks.md "Session 31"'
_SESSION_32 = 'docs/benchmarks.md "Session 31", "Session 32"'
_SESSION_34 = 'docs/benchmarks.md "Session 34"'
_SESSION_37 = 'docs/benchmarks.md "Session 34", "Session 37"'
_SESSION_38 = 'docs/benchmarks.md "Session 34", "Session 37", "Session 38"'
_SESSION_40 = (
    'docs/benchmarks.md "Session 34", "Session 38", "Session 39", "Session 40", "Session 41"'
)
_SESSION_42 = 'docs/benchmarks.md "Session 34", "Session 38", "Session 41", "Session 42"'
_SESSION_46 = 'docs/benchmarks.md "Session 31", "Session 32", "Session 45", "Session 46"'
_SESSION_40_FRAMES = 'docs/benchmarks.md "Session 37", "Session 38", "Session 40", "Session 41"'
# video VAE decoders of the zoo, each one graph, each measured cold on an H100 (torch 2.11,
# bf16, the zoo's full size) as magi_compile compiles it: the graph's decision kept magi, the
# output was right and magi faster than torch.compile (cogvideox 1.305x, ltx-video 1.242x,
# hunyuanvideo 1.118x, cosmos 1.260x); with the decision recorded, the cold compile is one
# compile instead of two and a timing (94.5 -> 57.9, 50.6 -> 35.5, 55.2 -> 42.0, 43.4 -> 30.6 s).
# LTX-Video and HunyuanVideo also have their conv weights channels-last in place (no conversion
# in the graph, 28 and 27 fewer launches: the cold compile 30.1 -> 28.1 and 43.5 -> 38.8 s on an
# H100, LTX-Video 1.035x faster, "Session 30"), and LTX-Video its RMS norms' inputs pinned
# channels-last (their reductions read along the channels: 1.061x). Cosmos's weights are in place
# too since "Session 45": its cold compile took 1.058x torch.compile's on two H200s without them,
# 0.900x and 0.945x with them (two runs), at the same speed.
# These four (and SVD's, VidTok's and LTX-2's below) recorded H100s only until "Session 43",
# so on an H200 each measured its graph at every cold compile. Measured there (two H200s, torch
# 2.11, bf16, the zoo's full size, each process cold): on one GPU torch.compile, then the form
# with nothing recorded for H200s, which measured its graph (plain Inductor against magi) and
# kept magi every time, faster than torch.compile with the output right (cogvideox 1.285x,
# ltx-video 1.372x, hunyuanvideo 1.137x, cosmos 1.230x, svd 1.786x, vidtok 1.241x, ltx2-video
# 1.272x); on the other GPU at the same time the form with H200s recorded compiled cold in
# 68.4, 27.5, 35.8, 34.5, 49.2, 41.1 and 33.1 s against torch.compile's 72.1, 35.0, 44.3, 34.5,
# 55.5, 40.8 and 34.6 s there (the measuring form: 125.2, 53.0, 69.6, 50.0, 87.7, 57.9, 55.5 s),
# so H200s are recorded for all seven
DECIDED_DECODERS: tuple[CompileForm, ...] = (
    decided_form(
        "cogvideox-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_cogvideox.CogVideoXDecoder3D",
        "H100,H200",
        f'{_SESSION_27}, "Session 43"',
    ),
    decided_form(
        "ltx-video-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_ltx.LTXVideoDecoder3d",
        "H100,H200",
        f'{_SESSION_30}, "Session 43"',
        channels_last_parameters=True,
        pass_config={"channels_last_norm_inputs": True},
    ),
    decided_form(
        "hunyuanvideo-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_hunyuan_video.HunyuanVideoDecoder3D",
        "H100,H200",
        f'{_SESSION_30}, "Session 37", "Session 43"',
        channels_last_parameters=True,
        frames="root",
    ),
    decided_form(
        "cosmos-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_cosmos.CosmosDecoder3d",
        "H100,H200",
        f'{_SESSION_27}, "Session 43", "Session 44", "Session 45", "Session 47", "Session 48"',
        channels_last_parameters=True,
        pass_config={"enable_deconv_interleave": True},
        frames="root",
    ),
    # measured on an H200 (torch 2.11, bf16, the zoo's full size, "Session 31"), each model
    # compiled cold with its decisions taken as recorded and torch.compile timed beside it:
    # magi faster with the output right (hunyuanvideo1.5 1.475x, kvae-3d 1.375x, kandinsky6-sr
    # 1.231x), so their decisions are recorded for H200s; mochi's decoder by the static rules
    # ran at 0.653x (432.7 against 282.6 ms), as its measurement kept plain Inductor in sessions
    # 6 and 22, so its decision is recorded as plain for H200s (one compile, the measured passes
    # off, instead of two and a timing; session 22's measurement on an H100 kept plain too, so
    # H100s are recorded as well). Measured again on an H100 ("Session 32"): kvae-3d 1.380x
    # and kandinsky6-sr 1.193x by the same rules, output right, so H100s are recorded too; with
    # its conv weights channels-last in place and its RMS norms' inputs pinned (the norms
    # reduce over the channels), Kandinsky-6 SR's decoder has 78 Triton kernels instead of 118
    # (torch.compile's: 95) and compiled cold in 59.1 s against the form's 65.0 and
    # torch.compile's 65.1 s, at the form's speed (1.001x) and with the output right
    decided_form(
        "hunyuanvideo1.5-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_hunyuanvideo15.HunyuanVideo15Decoder3D",
        "H200",
        _SESSION_31,
    ),
    decided_form(
        "kvae-3d-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_kvae_video.KVAECachedDecoder3D",
        "H100,H200",
        _SESSION_46,
        pass_config={"work_around_sympy_first": True},
        frames="root",
    ),
    decided_form(
        "kandinsky6-sr-decoder",
        f"{_AUTOENCODERS}.autoencoder_kandinsky6_sr.Kandinsky6SRDecoder3D",
        "H100,H200",
        _SESSION_46,
        channels_last_parameters=True,
        pass_config={"channels_last_norm_inputs": True},
        frames="root",
    ),
    decided_form(
        "mochi-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_mochi.MochiDecoder3D",
        "",
        _SESSION_32,
        plain_on="H100,H200",
    ),
    # measured on an H100 (torch 2.11, bf16, the zoo's full size, "Session 34"): the zoo's
    # never-slower test compiled each as magi_compile does with no decision recorded, measured
    # every graph (plain Inductor against magi, 2% margin) and timed it beside torch.compile;
    # each graph kept magi and the output was right (svd 1.843x, allegro 1.396x, easyanimate's
    # two graphs 1.298x, vidtok 1.270x, ltx2-video 1.185x), so they compile once on H100s
    # instead of twice and a timing. MiniMax-H3's decoder has no measured pass (no decision; its
    # form, below, takes the root frame only).
    # VidTok's and LTX-2's decoders (and HunyuanVideo's above) take one frame for the decoder
    # (``frames="root"``): measured cold on an H100 ("Session 37", torch 2.11, each compile
    # alone with empty caches), the same one graph at the same speed (67.82 vs 67.75, 21.10 vs
    # 21.08 and 208.62 vs 208.76 ms), and dynamo's tracing 2.4 vs 3.1, 1.3 vs 1.9 and 1.5 vs
    # 3.0 s against a frame per module instance
    # SVD's and Allegro's decoders take one frame for the decoder too: compiled so on an H100
    # ("Session 38", torch 2.11, cold), the same speed as with a frame per instance (74.08
    # against 74.18 ms, 1478.0 against 1482.4, sessions 36 and 38) with the output right; on the
    # CPU (torch 2.11) dynamo made the same one graph in 1.3-1.6 against 2.1-2.6 s and 2.8-3.1
    # against 4.9-5.5 s
    decided_form(
        "svd-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_temporal_decoder.TemporalDecoder",
        "H100,H200",
        f'{_SESSION_38}, "Session 43"',
        frames="root",
    ),
    # Allegro's decoder also takes its conv weights channels-last in place and its GroupNorm
    # statistics in chunks (`PassConfig.group_norm_chunked_stats`), for its compile time: with
    # the form above it compiled cold in 1.245x torch.compile's time on an H100 ("Session 39"),
    # its channels-last graph 1413 kernel launches to generate against Inductor's 1179 (fake
    # CUDA); with the two levers 1077. Measured on two H200s ("Session 40", torch 2.11, bf16,
    # the zoo's full size, each cold in a process of its own, torch.compile on the other GPU at
    # the same time): its graph's compile (AOT and Inductor; the decision measured there besides,
    # none recorded for H200s then) 46.3 s against the form's 69.5 and torch.compile's 55.0 (of
    # its whole cold compile, 73.6 s); every measurement there kept magi against plain Inductor
    # (so H200s are recorded too), the output right (5.85e-02 from fp32, eager 8.13e-02), and
    # one steady call 1.39 s against the form's 1.37 and torch.compile's 1.86. Its whole cold
    # compile on two H200s ("Session 41", the same way, the GPUs swapped between rounds): 61.8
    # and 59.5 s against torch.compile's 68.1; timed in the same processes, 1.350x faster than
    # torch.compile and 1.3% slower than the form before (1.013x), every output right
    decided_form(
        "allegro-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_allegro.AllegroDecoder3D",
        "H100,H200",
        _SESSION_40,
        channels_last_parameters=True,
        frames="root",
        pass_config={"group_norm_chunked_stats": True},
    ),
    # EasyAnimate's decoder takes Allegro's two levers: its conv weights channels-last in place
    # and its GroupNorm statistics in chunks. Measured on two H200s ("Session 42", torch 2.11,
    # bf16, the zoo's full size, two rounds, each process cold with nothing recorded for H200s,
    # so each measured its two graphs): every measurement of both forms kept magi against
    # plain Inductor (so H200s are recorded too); in the same processes the form with the
    # levers ran 90.59 and 91.45 ms against the form without them 97.25 and 98.26 (1.074x),
    # 1.496x and 1.508x over torch.compile, every output 1.83e-02 from fp32 (eager 2.72e-02);
    # 239 Triton configs to autotune at the first call against 287 (Inductor's: 215; fake
    # CUDA, torch 2.13, "Session 41")
    decided_form(
        "easyanimate-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_magvit.EasyAnimateDecoder",
        "H100,H200",
        _SESSION_42,
        channels_last_parameters=True,
        pass_config={"group_norm_chunked_stats": True},
    ),
    decided_form(
        "vidtok-decoder",
        f"{_AUTOENCODERS}.autoencoder_vidtok.VidTokDecoder3D",
        "H100,H200",
        f'{_SESSION_37}, "Session 43"',
        frames="root",
    ),
    # LTX-2's decoder takes LTX-Video's two levers too (its RMS norms reduce over the channels
    # as LTX-Video's do): measured on an H100 ("Session 38", torch 2.11, bf16, the zoo's full
    # size, in one run) 19.71 ms against the form without them 20.98 (1.064x) and
    # torch.compile's 24.72, output right; 32 Triton kernels against 67 (torch.compile 48)
    decided_form(
        "ltx2-video-decoder",
        f"{_AUTOENCODERS}.autoencoder_kl_ltx2.LTX2VideoDecoder3d",
        "H100,H200",
        f'{_SESSION_38}, "Session 43"',
        channels_last_parameters=True,
        frames="root",
        pass_config={"channels_last_norm_inputs": True},
    ),
)

# zoo models that compile to one graph on which no measured pass fires (nothing to decide): their
# forms give the compiled module one frame only (``frames="root"``), dynamo tracing its
# submodules inline as torch.compile does. Measured cold on two H200s ("Session 40", torch 2.11,
# bf16, the zoo's full size, one round) with a frame per module instance: MiniMax-H3's decoder
# 43.3 s against torch.compile's 42.6, dynamo's tracing 6.8 s against 5.3; ResNet-50 19.0
# against 14.8, dynamo 3.3 against 2.2. Dynamo alone on the CPU (torch 2.11, full size, two
# rounds, tools/probes/dynamo_frames.py) made the same one graph in 6.22 and 3.78 s against
# 9.66 and 7.87 (MiniMax-H3), 0.94 and 1.22 against 2.15 and 1.72 (ResNet-50), 1.42 and 0.98
# against 2.86 and 2.44 (EfficientNet-B0). With the root frame ("Session 41", two rounds, the
# GPUs swapped): ResNet-50 13.7 and 16.4 s against 15.9 and 16.6, EfficientNet-B0 19.8 and 22.1
# against 22.7 and 23.4, MiniMax-H3 43.1 and 42.8 against 42.1 and 42.2 (dynamo 6.1-6.3 s on
# both sides now); the frame per instance timed against it in the same process ran at
# 0.999-1.002x, so the root frame costs no speed
ONE_GRAPH_FORMS: tuple[CompileForm, ...] = tuple(
    CompileForm(name=name, classes=(cls,), frames="root", evidence=_SESSION_40_FRAMES)
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


def form_for(model: object) -> CompileForm | None:
    """The known form ``magi_compile(model)`` uses for ``model``, or None (the generic form)."""
    return next((f for f in KNOWN_FORMS if f.applies_to(model)), None)


def resolve(
    where: str, form: object, model: object, *, arg: str = "form", fix: str | None = None
) -> CompileForm | None:
    """``form`` as given to ``where`` (its argument ``arg``): ``"auto"`` (the model's known
    form, if any), None (the generic form), a known form's name, or a `CompileForm`."""
    if form is None or isinstance(form, CompileForm):
        return form
    if form == AUTO:
        return form_for(model)
    by_name = {f.name: f for f in KNOWN_FORMS}
    if isinstance(form, str) and form in by_name:
        return by_name[form]
    _validate.fail(
        ValueError if isinstance(form, str) else TypeError, where, arg, form,
        f"'auto', None, a CompileForm or a known form's name ({', '.join(sorted(by_name))})",
        fix or f"{where}(model, {arg}=None) for the generic form",
    )  # fmt: skip


def options(form: CompileForm | None, **given: Any) -> dict[str, Any]:
    """`FORM_OPTIONS` as the caller gave them (None: unset), unset ones from ``form``."""
    unknown = set(given) - set(FORM_OPTIONS)
    assert not unknown, unknown
    out = {}
    for name, default in FORM_OPTIONS.items():
        value = given.get(name)
        if value is None:
            value = getattr(form, name) if form is not None else default
        out[name] = value
    return out
