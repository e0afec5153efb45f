"""The zoo benchmark's variants: what each compiles a `ZooModel` with, by name.

`build_variant(model, name, recompile_limit)` compiles a copy of ``model`` (lazily:
`ZooModel.compile`, nothing runs until its first call) and returns it with its `MagiBackend`
(``None`` for plain Inductor). Every copy has code objects of its own, so variants never share
dynamo's frames.

Baselines:

- `torch.compile`: `torch.compile(module)` as users write it;
- `torch.compile-copy`: a second copy built the same way, the harness's own error (an A/A pair,
  must read 1.00);
- `torch.compile+frames`: a dynamo frame per module instance, no passes (what the isolation
  alone buys);
- `torch.compile+limit`: dynamo's recompile limit raised to ``recompile_limit`` (the accumulated
  limit to 16 times that), scoped to every call of the variant;
- `torch.compile+fix`: `magi_passes.dynamo_fixes` without passes;
- `torch.compile+frames+static`: frames of their own and `dynamic=False`.

The magi variants in the model's measured form (`magi_passes.forms`, as `magi_compile` picks it;
a model without a form compiles them in the generic one), each named by what it changes:

- `magi`: `magi_compile(module)`;
- `magi-form-cl-state`, `-weights-once`, `-no-pad-cat`, `-no-cl-slices`, `-recompute`,
  `-sympy-first`, `-gn-chunks`, `-cl-norm`, `-no-gn-stats`, `-no-nd-tiling`, `-sympy-min-max`:
  one `PassConfig` field set on top of the form's (`VARIANTS` says which);
- `magi-form-cl-params` / `magi-form-no-cl-params`: the conv weights made channels-last in place
  (or left as the model has them) whatever the form says; `-cl-params-norm` and
  `-cl-params-gn-chunks` add the norm-input pin or the chunked GroupNorm statistics;
- `magi-form-no-pad-cat-no-cl-params`: both the pad-through-cat and the weights in place off;
- `magi-form-no-model-levers`: the form without the levers its model was given beyond the
  generic form's (`MODEL_LEVERS`: LTX-Video's and HunyuanVideo's weights in place and norm pin,
  Allegro's weights in place and chunked GroupNorm statistics);
- `magi-form-norm-pin-trust-fake`: the norm-input pin leaving alone an activation whose fake
  value is channels-last already (`norm_pin_rule(trust_fake_layout=True)`);
- `magi-form-no-pw-autotune`: Inductor's `triton.autotune_pointwise` off;
- `magi-form-root-frames` / `magi-form-instance-frames`: one dynamo frame for the decoder, or
  one per module instance, whatever the form says;
- `magi-form-passes`: the decisions recorded as kept magi on H100s and H200s, transposed
  convolutions left to cuDNN and the weights as the model has them (`-cl-params`: in place);
  `magi-form-deconv-interleave` the same with `DeconvInterleavePass`;
- `magi-form-upcast-matmul`: `UpcastMatmulPass` on (fp32 batched matmuls of upcast bf16/fp16
  operands on the low-precision operands); `magi-form-upcast-matmul-bf16x2` also its fp32
  operand split into two bf16 parts (`PassConfig.upcast_matmul_split`).

The magi variants of the generic form: `magi-split` (`magi` there), `magi-backend`
(`torch.compile(module, backend="magi")`: the passes alone, no frames), `magi-static`,
`magi-contiguous`, `magi-dynamo-fix` / `-static` / `-static-cl-norm` (dynamo fixes, static
shapes, contiguous inputs), and one `PassConfig` field each: `magi-no-cl`, `magi-cl-always`,
`magi-cl-conv2d`, `magi-weights-once`, `magi-no-workaround`, `magi-no-state`, `magi-cl-state`,
`magi-no-norm-rsqrt`, `magi-no-gn-stats`, `magi-conv-input`, `magi-no-pad-fold`,
`magi-no-cl-cat`, `magi-pad-trim`, `magi-no-pad-trim`, `magi-cl-norm`.

Block by block (`REGIONAL_VARIANTS`, `ZooModel.compile(regional=True)`): `torch.compile-regional`
(the blocks sharing dynamo's frames), `magi-regional` (the generic form, each block instance
with frames of its own, as `magi_compile(block)` gives them) and `magi-regional-shared` (the
same, the frames shared as torch.compile's are: `isolate_frames=False`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import torch

from magi_passes import MagiBackend, PassConfig
from magi_passes.compile import forms
from pytest_magi import zoo

# the decisions of a form recorded as "kept magi" on H100s and H200s, for the variants that time
# a form's passes where it records plain Inductor
KEPT_EVERYWHERE = {"decided_on": "H100,H200", "decided_plain_on": ""}
# the form's passes with its transposed convolutions left to cuDNN
PASSES_NO_DECONV = {"enable_deconv_interleave": False, **KEPT_EVERYWHERE}
# name -> (PassConfig overrides, or None for plain Inductor; frame isolation of the copy)
VARIANTS: dict[str, tuple[dict[str, Any] | None, str]] = {
    "torch.compile": (None, "class"),
    "torch.compile-copy": (None, "class"),
    "torch.compile+frames": (None, "instance"),
    "torch.compile+limit": (None, "class"),
    "magi": ({}, "instance"),
    "magi-split": ({}, "instance"),
    "magi-form-cl-state": ({"channels_last_conv_state": True}, "instance"),
    "magi-form-weights-once": ({"channels_last_weights_once": True}, "instance"),
    "magi-form-no-pad-cat": ({"channels_last_pad_through_cat": False}, "instance"),
    "magi-form-no-cl-params": ({}, "instance"),
    "magi-form-no-pad-cat-no-cl-params": ({"channels_last_pad_through_cat": False}, "instance"),
    "magi-form-norm-pin-trust-fake": ({}, "instance"),
    "magi-form-cl-params": ({}, "instance"),
    "magi-form-cl-norm": ({"channels_last_norm_inputs": True}, "instance"),
    "magi-form-no-model-levers": ({}, "instance"),
    "magi-form-gn-chunks": ({"group_norm_chunked_stats": True}, "instance"),
    "magi-form-cl-params-norm": ({"channels_last_norm_inputs": True}, "instance"),
    "magi-form-cl-params-gn-chunks": ({"group_norm_chunked_stats": True}, "instance"),
    "magi-form-no-pw-autotune": ({}, "instance"),
    "magi-form-no-gn-stats": ({"enable_group_norm_stats": False}, "instance"),
    "magi-form-no-nd-tiling": ({"enable_nd_tiling": False}, "instance"),
    "magi-form-sympy-min-max": ({"torch_index_min_max": False}, "instance"),
    "magi-form-root-frames": ({}, "root"),
    "magi-form-instance-frames": ({}, "instance"),
    "magi-form-no-cl-slices": ({"channels_last_through_slices": False}, "instance"),
    "magi-form-recompute": ({"recompute_norm_producers": True}, "instance"),
    "magi-form-sympy-first": ({"work_around_sympy_first": True}, "instance"),
    "magi-form-passes": (dict(PASSES_NO_DECONV), "instance"),
    "magi-form-passes-cl-params": (dict(PASSES_NO_DECONV), "instance"),
    "magi-form-deconv-interleave": (
        {"enable_deconv_interleave": True, **KEPT_EVERYWHERE},
        "instance",
    ),
    "magi-form-upcast-matmul": ({"enable_upcast_matmul": True}, "instance"),
    "magi-form-upcast-matmul-bf16x2": (
        {"enable_upcast_matmul": True, "upcast_matmul_split": True},
        "instance",
    ),
    "magi-backend": ({}, "class"),
    "magi-no-cl": ({"enable_conv_channels_last": False}, "instance"),
    "magi-cl-always": ({"channels_last_conv2d_graphs": True}, "class"),
    "magi-cl-conv2d": ({"channels_last_conv2d_graphs": True}, "instance"),
    "magi-cl-always-weights-once": (
        {"channels_last_conv2d_graphs": True, "channels_last_weights_once": True},
        "class",
    ),
    "magi-weights-once": ({"channels_last_weights_once": True}, "instance"),
    "magi-no-workaround": ({"work_around_inductor_bugs": False}, "instance"),
    "magi-no-state": ({"channels_last_conv_state": False}, "instance"),
    "magi-cl-state": ({"channels_last_conv_state": True}, "instance"),
    "magi-no-norm-rsqrt": ({"enable_norm_rsqrt": False}, "instance"),
    "magi-no-gn-stats": ({"enable_group_norm_stats": False}, "instance"),
    "magi-conv-input": ({"enable_conv_input_windows": True}, "instance"),
    "magi-no-pad-fold": ({"enable_conv_pad_fold": False}, "instance"),
    "magi-no-cl-cat": ({"channels_last_through_cat": False}, "instance"),
    "magi-static": ({}, "instance"),
    "magi-pad-trim": ({"enable_causal_pad_trim": True}, "instance"),
    "magi-no-pad-trim": ({"enable_causal_pad_trim": False}, "instance"),
    "torch.compile+frames+static": (None, "instance"),
    "magi-dynamo-fix": ({}, "instance"),
    "magi-dynamo-fix-static": ({}, "instance"),
    "magi-contiguous": ({}, "instance"),
    "magi-cl-norm": ({"channels_last_norm_inputs": True}, "instance"),
    "magi-dynamo-fix-static-cl-norm": ({"channels_last_norm_inputs": True}, "instance"),
    "torch.compile+fix": (None, "class"),
    "torch.compile-regional": (None, "class"),
    "magi-regional": ({}, "instance"),
    "magi-regional-shared": ({}, "class"),
}
# the variants compiled in the model's measured form where it has one (`magi_passes.forms`), as
# magi_compile compiles it; `magi-split` is `magi` in the generic form
FORM_VARIANTS = ("magi", *(v for v in VARIANTS if v.startswith("magi-form-")))
# the form variants compiled with their own frames (VARIANTS), not the form's (`CompileForm.frames`)
FRAME_VARIANTS = ("magi-form-root-frames", "magi-form-instance-frames")
# the `magi-form-*` variants that change one of the form's own options (`magi_passes.forms`)
FORM_OPTION_OVERRIDES: dict[str, dict[str, Any]] = {
    "magi-form-no-cl-params": {"channels_last_parameters": False},
    "magi-form-no-pad-cat-no-cl-params": {"channels_last_parameters": False},
    "magi-form-cl-params": {"channels_last_parameters": True},
    "magi-form-cl-params-norm": {"channels_last_parameters": True},
    "magi-form-cl-params-gn-chunks": {"channels_last_parameters": True},
    "magi-form-passes-cl-params": {"channels_last_parameters": True},
    "magi-form-passes": {"channels_last_parameters": False},
    "magi-form-deconv-interleave": {"channels_last_parameters": False},
}
# the `magi-form-*` variants compiled with Inductor options of their own (`MagiBackend`'s)
FORM_INDUCTOR_OPTIONS: dict[str, dict[str, Any]] = {
    "magi-form-no-pw-autotune": {"triton.autotune_pointwise": False},
}
# `magi-form-no-model-levers`: per form, the levers it has beyond the generic form's (its
# options, its PassConfig fields) taken back; a form not listed is the form itself
MODEL_LEVERS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "ltx-video-decoder": (
        {"channels_last_parameters": False},
        {"channels_last_norm_inputs": False},
    ),
    "hunyuanvideo-decoder": ({"channels_last_parameters": False}, {}),
    "allegro-decoder": (
        {"channels_last_parameters": False},
        {"group_norm_chunked_stats": False},
    ),
}
# variants compiled with `dynamic=False`: every shape dynamo sees gets a static graph of its own
STATIC_VARIANTS = (
    "magi-static",
    "torch.compile+frames+static",
    "magi-dynamo-fix-static",
    "magi-dynamo-fix-static-cl-norm",
)
# variants compiled and called with dynamo's recompile limit raised
LIMIT_VARIANTS = ("torch.compile+limit",)
# the baselines that give plain torch.compile what magi_compile's frames give it: the passes'
# own share is magi against the faster of these
FAIR_BASELINES = ("torch.compile+frames", "torch.compile+limit", "torch.compile+fix")
# the variants compiled with magi_compile's opt-in dynamo fixes (magi_passes.dynamo_fixes)
FIX_VARIANTS = (
    "magi-dynamo-fix",
    "magi-dynamo-fix-static",
    "magi-dynamo-fix-static-cl-norm",
    "torch.compile+fix",
)
# the variants whose calls make their tensor arguments contiguous first (magi_compile's opt-in
# contiguous_inputs): with static shapes, a chunk graph is then reused at every decode length
CONTIGUOUS_VARIANTS = (
    "magi-dynamo-fix-static",
    "magi-dynamo-fix-static-cl-norm",
    "magi-contiguous",
)
# variants compiled block by block (`ZooModel.compile(regional=True)`): torch.compile's and magi's
# blocks sharing dynamo's frames per class, `magi-regional`'s each with frames of its own
REGIONAL_VARIANTS = ("torch.compile-regional", "magi-regional", "magi-regional-shared")
ACCUMULATED_LIMIT_FACTOR = 16


@contextlib.contextmanager
def raised_recompile_limit(limit: int) -> Iterator[None]:
    """dynamo's per-frame recompile limit raised to ``limit`` (accumulated: 16 x), scoped.

    torch >= 2.6 names them ``recompile_limit`` / ``accumulated_recompile_limit`` (2.13 keeps
    ``cache_size_limit`` / ``accumulated_cache_size_limit`` as aliases); older torch has only
    the ``cache_size_limit`` names."""
    from torch._dynamo import config

    if hasattr(config, "recompile_limit"):
        names = ("recompile_limit", "accumulated_recompile_limit")
    else:
        names = ("cache_size_limit", "accumulated_cache_size_limit")
    accumulated = max(int(getattr(config, names[1])), ACCUMULATED_LIMIT_FACTOR * limit)
    patches: dict[str, Any] = {names[0]: limit, names[1]: accumulated}
    with config.patch(**patches):
        yield


@dataclass
class ScopedModel:
    """A compiled zoo model whose every call (the compiling one included) runs inside
    ``scope()``: ``torch.compile+limit`` under a raised recompile limit."""

    model: zoo.ZooModel
    scope: Callable[[], contextlib.AbstractContextManager[Any]]

    def run(self, *inputs: Any) -> Any:
        with self.scope():
            return self.model.run(*inputs)

    def with_inputs(self, *inputs: Any) -> ScopedModel:
        return ScopedModel(self.model.with_inputs(*inputs), self.scope)


Runnable = zoo.ZooModel | ScopedModel


def variant_form(model: zoo.ZooModel, variant: str) -> forms.CompileForm | None:
    """The measured form `variant` compiles ``model`` in (`magi_passes.forms`): ``magi``'s (and
    the `magi-form-*` variants') is the model's own, as `magi_compile` picks it; every other
    variant's is the generic form."""
    return forms.form_for(model.module) if variant in FORM_VARIANTS else None


class NormPinTrustFakeBackend(MagiBackend):
    """`MagiBackend` whose graphs pin only the norm inputs whose fake value is not channels-last
    already (`magi-form-norm-pin-trust-fake`)."""

    def __call__(self, gm: Any, example_inputs: Any, **kwargs: Any) -> Any:
        from magi_passes.passes.channels_last import norm_pin_rule

        # no Inductor caches: the pass manager's cache key does not see the rule, so this
        # variant's graphs would be served to `magi` (and the other way round)
        with (
            norm_pin_rule(trust_fake_layout=True),
            torch._inductor.config.patch(force_disable_caches=True),
        ):
            return super().__call__(gm, example_inputs, **kwargs)


def _form_changes(variant: str, form: forms.CompileForm) -> tuple[dict[str, Any], dict[str, Any]]:
    """(form options, PassConfig fields) ``variant`` sets on top of ``form``."""
    if variant == "magi-form-no-model-levers":
        return MODEL_LEVERS.get(form.name, ({}, {}))
    return FORM_OPTION_OVERRIDES.get(variant, {}), dict(VARIANTS[variant][0] or {})


def build_variant(
    model: zoo.ZooModel, variant: str, recompile_limit: int = 64
) -> tuple[Runnable, MagiBackend | None]:
    """A copy of ``model`` compiled as ``variant`` (lazily) and its `MagiBackend` (``None`` for
    plain Inductor)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose from {list(VARIANTS)}")
    overrides, isolate = VARIANTS[variant]
    form = variant_form(model, variant)
    if form is not None:
        option_overrides, overrides = _form_changes(variant, form)
        settings = forms.options(form, **option_overrides)
        backend_class = (
            NormPinTrustFakeBackend if variant == "magi-form-norm-pin-trust-fake" else MagiBackend
        )
        backend = backend_class(
            form.config().replace(**overrides),
            form.backend_options(FORM_INDUCTOR_OPTIONS.get(variant)),
        )
        # the form's frames, as magi_compile gives them, unless the variant sets its own
        isolate = isolate if variant in FRAME_VARIANTS else form.frames
        return model.compile(backend=backend, isolate=isolate, **settings), backend
    kwargs: dict[str, Any] = {"dynamic": False} if variant in STATIC_VARIANTS else {}
    kwargs["dynamo_fixes"] = variant in FIX_VARIANTS
    if variant in REGIONAL_VARIANTS:
        kwargs = {"regional": True}
    if variant in CONTIGUOUS_VARIANTS:
        kwargs["contiguous_inputs"] = True
    if overrides is None:
        compiled = model.compile(backend="inductor", isolate=isolate, **kwargs)
        if variant in LIMIT_VARIANTS:
            return ScopedModel(compiled, lambda: raised_recompile_limit(recompile_limit)), None
        return compiled, None
    config = PassConfig.from_env().replace(**overrides) if overrides else PassConfig.from_env()
    backend = MagiBackend(config)
    return model.compile(backend=backend, isolate=isolate, **kwargs), backend


def variant_changes(variant: str, form: forms.CompileForm | None = None) -> str:
    """What a `magi-form-*` variant sets on top of ``form`` (options and `PassConfig` fields),
    for its log line; empty for a variant that sets nothing there."""
    if variant not in FORM_VARIANTS:
        return ""
    if form is None and variant == "magi-form-no-model-levers":
        return ""
    options, fields = (
        _form_changes(variant, form)
        if form is not None
        else (FORM_OPTION_OVERRIDES.get(variant, {}), dict(VARIANTS[variant][0] or {}))
    )
    changes = {**options, **fields}
    if not changes:
        return ""
    return "; this variant: " + ", ".join(f"{k}={v!r}" for k, v in changes.items())


def passes_summary(backend: MagiBackend | None) -> str:
    """Which passes fired in how many of ``backend``'s graphs."""
    if backend is None:
        return ""
    fired: dict[str, int] = {}
    for manager in backend.managers:
        for result in manager.results:
            if result.applied:
                fired[result.name] = fired.get(result.name, 0) + 1
    graphs = len(backend.managers)
    text = ", ".join(f"{k} {v}/{graphs}" for k, v in fired.items()) or f"none fired ({graphs})"
    if backend.unseen:
        text += (
            f"; {backend.unseen} of the {graphs} graphs were served by Inductor's FX graph cache "
            f"and ran no pass here (the counts leave them out)"
        )
    return text
