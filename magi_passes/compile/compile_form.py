"""`CompileForm`: how to compile a model family (`magi_compile`'s options, `PassConfig` fields and
Inductor options), and `decided_form`, the form of a model whose measured decisions are recorded."""

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
