"""The entry points: the `"magi"` backend function (`magi_backend`), `inductor_options()` for
`backend="inductor"`, and `magi_compile()`, which applies a model's recorded compile form."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import torch

from .. import _validate
from ..config import PassConfig, check_pass_config
from . import forms
from .backend import MagiBackend
from .manager import PassManager
from .options import config_snapshot
from .workers import warm_compile_workers


def inductor_options(config: PassConfig | None = None, **inductor_patches: Any) -> dict[str, Any]:
    """Options for users who keep `backend="inductor"`: `torch.compile(m, options=inductor_options())`.

    The dict installs a fresh `PassManager` (chaining an already-installed user pass) and pins the
    passes' declared config keys to their current values, so Inductor restores them after each
    compilation. The values are those at the time of this call. Where a GPU is present, the call
    also starts Inductor's compile workers (`warm_compile_workers`), as the magi backend does.
    """
    config = check_pass_config("inductor_options", config)
    _validate.check_inductor_keys("inductor_options", inductor_patches)
    warm_compile_workers(inductor_patches)
    manager = PassManager.chained_with_current(
        config if config is not None else PassConfig.from_env()
    )
    return {
        **config_snapshot(manager),
        **inductor_patches,
        "post_grad_custom_post_pass": manager,
    }


def magi_backend(
    gm: torch.fx.GraphModule,
    example_inputs: Sequence[Any],
    *,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> Callable[..., Any]:
    """The backend registered as `"magi"` (entry point `torch_dynamo_backends`)."""
    _validate.check_backend_call("magi_backend", gm, example_inputs, options)
    # the options given to the backend, so that its compile workers see their compile_threads
    return MagiBackend(inductor_config_patches=options)(gm, example_inputs, mode=mode)


def magi_compile(
    model: Any,
    *,
    config: PassConfig | None = None,
    dynamic: bool | None = None,
    isolate_frames: bool | str | None = True,
    dynamo_fixes: bool | None = None,
    contiguous_inputs: bool | None = None,
    channels_last_parameters: bool | None = None,
    form: Any = "auto",
    **torch_compile_kwargs: Any,
) -> Any:
    """`torch.compile(model, backend=MagiBackend(config), dynamic=dynamic, **kwargs)`.

    ``form`` (default ``"auto"``): a model whose best way to compile was measured has a
    `magi_passes.forms.CompileForm`, which sets ``dynamic``, ``dynamo_fixes``,
    ``contiguous_inputs`` and ``channels_last_parameters`` where they are left at None, and
    `PassConfig` fields where ``config`` is left at None (a ``MAGI_PASSES__<FIELD>`` variable
    still wins), and Inductor options under the caller's ``options``. The Wan VAE's decoder
    (diffusers ``WanDecoder3d``) is compiled so: each chunk one static graph, reused at every
    length, its RMS norms' inputs and its conv weights channels-last, its decisions recorded for
    H100s and H200s. ``form=None``:
    the generic form for any model; `magi_passes.forms.form_for`
    says which form ``"auto"`` picks. The form used is ``compiled.magi_form`` (None: generic).

    ``isolate_frames`` (default on; an ``nn.Module`` only): every submodule instance gets a
    ``forward`` on a code object of its own first (`magi_passes.frames.isolate_forward_code`),
    so graph breaks inside repeated blocks never make instances share dynamo's frames, exhaust
    its recompile limit and fall back to eager. The module computes the same;
    `restore_forward_code` undoes it.
    ``True`` (or None) isolates as the model's form says (``CompileForm.frames``: per
    instance, or, for a decoder measured to compile to one graph, its own frame only,
    ``"root"``); ``"instance"`` or ``"root"`` asks for that level whatever the form says;
    ``False`` gives no frames.

    ``dynamo_fixes`` (off in the generic form): every call of the compiled model runs inside
    `magi_passes.compile.dynamo_fixes.tensor_constant_compare`, so dynamo traces a tensor
    compared with a string as Python evaluates it instead of breaking the graph (torch 2.11
    breaks there). On its own, with dynamic shapes, it makes the Wan 2.2 decode's steady chunk
    one dynamic graph, which is slower; the Wan form uses it with static shapes and contiguous
    inputs.

    ``contiguous_inputs`` (off in the generic form; an ``nn.Module`` only): each call's
    positional tensor arguments are made contiguous before dynamo sees them, and the tensors in
    its list arguments (a cache list) get one stride for their size-1 dims
    (`magi_passes.compile.dynamo_fixes.attach_contiguous_inputs`), so a decoder fed slices of a longer
    latent reuses its static graphs at every length instead of compiling them again.

    ``channels_last_parameters`` (off in the generic form, on in the Wan decoder's; an
    ``nn.Module`` only): the model's conv weights are laid out channels-last in place before
    compiling (`magi_passes.compile.weights.convert_conv_parameters`): no weight is re-laid out per
    call and eager's activations come out channels-last. Values are unchanged; the module's
    weights keep their new strides (diffusers' ``save_pretrained`` saves them contiguous itself;
    call ``.contiguous()`` before a direct ``safetensors`` save).

    The returned object carries the backend as `.magi_backend` (its managers, results).

    Measured: docs/results.md, "Wan 2.2 decode".
    """
    _validate.check_compile_target("magi_compile", model)
    config = check_pass_config("magi_compile", config)
    _validate.check_optional_bool("magi_compile", "dynamic", dynamic)
    if "backend" in torch_compile_kwargs:
        raise TypeError(
            "magi_compile() chooses the backend itself; call torch.compile(..., backend=...) "
            "directly to use another one"
        )
    if not (
        isolate_frames is None
        or isinstance(isolate_frames, bool)
        or (isinstance(isolate_frames, str) and isolate_frames in forms.FORM_FRAMES)
    ):
        _validate.fail(
            TypeError, "magi_compile", "isolate_frames", isolate_frames,
            f"True or None (as the model's form says), False, or one of {forms.FORM_FRAMES}",
            "magi_compile(model, isolate_frames='instance')",
        )  # fmt: skip
    _validate.check_optional_bool("magi_compile", "dynamo_fixes", dynamo_fixes)
    _validate.check_optional_bool("magi_compile", "contiguous_inputs", contiguous_inputs)
    _validate.check_optional_bool(
        "magi_compile", "channels_last_parameters", channels_last_parameters
    )
    chosen = forms.resolve("magi_compile", form, model)
    settings = forms.options(
        chosen,
        dynamic=dynamic,
        dynamo_fixes=dynamo_fixes,
        contiguous_inputs=contiguous_inputs,
        channels_last_parameters=channels_last_parameters,
    )
    if config is None and chosen is not None:
        config = chosen.config()
    if settings["contiguous_inputs"] and not isinstance(model, torch.nn.Module):
        raise TypeError(
            f"magi_compile(contiguous_inputs=True) needs an nn.Module, got {model!r}; fix: call "
            f".contiguous() on a function's inputs yourself"
        )
    if settings["channels_last_parameters"]:
        if not isinstance(model, torch.nn.Module):
            raise TypeError(
                f"magi_compile(channels_last_parameters=True) needs an nn.Module, got {model!r}; "
                f"fix: call magi_passes.compile.weights.convert_conv_parameters on the module "
                f"that owns the weights"
            )
        from .weights import convert_conv_parameters

        convert_conv_parameters(model)
    options = torch_compile_kwargs.pop("options", None)
    if chosen is not None and (options is None or isinstance(options, Mapping)):
        options = chosen.backend_options(options)  # the caller's keys over the form's
    backend = MagiBackend(config, options)
    if isolate_frames is not False and isinstance(model, torch.nn.Module):
        from .frames import isolate_forward_code

        if isolate_frames is True or isolate_frames is None:
            isolate_frames = chosen.frames if chosen is not None else "instance"
        isolate_forward_code(model, isolate_frames)
    compiled: Any = torch.compile(
        model, backend=backend, dynamic=settings["dynamic"], **torch_compile_kwargs
    )
    if settings["dynamo_fixes"] or settings["contiguous_inputs"]:
        from .dynamo_fixes import attach_call_options

        compiled = attach_call_options(
            compiled,
            dynamo_fixes=settings["dynamo_fixes"],
            contiguous_inputs=settings["contiguous_inputs"],
        )
    owner = (
        ("magi_backend", backend),
        ("magi_form", chosen),
        ("magi_model_class", forms.class_name(model)),
    )
    for name, value in owner:
        try:
            setattr(compiled, name, value)
        except AttributeError:  # pragma: no cover - objects that refuse attributes
            pass
    return compiled
