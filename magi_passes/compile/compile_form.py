"""`CompileForm`: how to compile a model family (`magi_compile`'s options, `PassConfig` fields and
Inductor options); `decided_form`, the form of a model whose measured decisions are recorded; and
form files: `record_form` writes the form a measured run of a user's own model supports, and
`MAGI_FORMS_FILE` (`user_forms`) lets `magi_compile` find it, so a team measures a model once."""

from __future__ import annotations

import datetime
import functools
import json
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _validate
from ..config import ENV_PREFIX, PassConfig

AUTO = "auto"
FORMS_ENV = "MAGI_FORMS_FILE"
FORM_FILE_SCHEMA = "magi-form/1"
# what a form file holds: the schema, when and on which torch it was recorded, and the form
FORM_FILE_FIELDS = ("schema", "created", "torch", "form")
# the `CompileForm` fields a form file writes (all of them)
FORM_FIELDS = (
    "name", "classes", "dynamic", "dynamo_fixes", "contiguous_inputs", "channels_last_parameters",
    "frames", "pass_config", "inductor_options", "evidence",
)  # fmt: skip

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


# --------------------------------------------------------------------------- form files
class FormFileWarning(UserWarning):
    """A form file named in `MAGI_FORMS_FILE` is bad or stale; it is ignored, and the models it
    would have decided are measured."""


def _torch_release(version: str) -> str:
    """``"2.11"`` of ``"2.11.0+cu130"``: the release a recorded measurement speaks for."""
    return ".".join(version.split("+")[0].split(".")[:2])


def record_form(
    compiled: Any, path: str | os.PathLike[str] | None = None, *, name: str = ""
) -> CompileForm:
    """The compile form that a measured run of ``compiled`` (what ``magi_compile(model)``
    returned, called at least once on the GPU) supports, written to ``path`` if given.

    Every graph the run measured (timed, or found in the decision cache) must have kept the
    same variant: magi on all of them gives a form with ``decided_on`` set to the device, plain
    Inductor on all of them ``decided_plain_on``. On that device the model then compiles once,
    at any shape, like the zoo's recorded decoders; everywhere else it measures. The form keeps
    the options of the form the run compiled in (if any), the `PassConfig` fields the run was
    given and its Inductor options. Graphs that disagree cannot be one
    form: share their decisions as a decision file instead (``python -m magi_passes.decisions
    export``)."""
    backend = getattr(compiled, "magi_backend", None)
    model_class = getattr(compiled, "magi_model_class", None)
    if backend is None or model_class is None:
        _validate.fail(
            TypeError, "record_form", "compiled", compiled, "what magi_compile(model) returned",
            "record_form(magi_compile(model), 'form.json') after a call on the GPU",
        )  # fmt: skip
    measured = [d for d in backend.decisions if d.source in ("measured", "cached", "shared")]
    if not measured:
        reasons = sorted({d.reason for d in backend.decisions}) or ["no graph was compiled yet"]
        raise ValueError(
            f"record_form: no graph of this run was measured ({len(backend.decisions)} compiled: "
            f"{'; '.join(reasons)}); fix: call the compiled model once on a CUDA device, in "
            f"inference, with PassConfig.measure_decisions on and no decided_on for the device"
        )
    choices = sorted({d.choice for d in measured})
    devices = sorted(backend.measured_devices)
    if len(choices) > 1 or len(devices) != 1:
        kept = {c: sum(d.choice == c for d in measured) for c in choices}
        raise ValueError(
            f"record_form: a form decides every graph of the model alike, and this run's "
            f"measured graphs do not agree (kept: {kept}, on {devices}); fix: share their "
            f"decisions instead: python -m magi_passes.decisions export decisions.json"
        )
    (device,) = devices
    base = getattr(compiled, "magi_form", None)
    # the fields the run was given (None: the environment's, which the form leaves to it)
    given, defaults = backend.config or PassConfig(), PassConfig()
    fields = {
        k: getattr(given, k)
        for k in PassConfig.field_names()
        if getattr(given, k) != getattr(defaults, k) and k not in ("decided_on", "decided_plain_on")
    }
    fields["decided_on" if choices == ["magi"] else "decided_plain_on"] = device
    import torch

    form = CompileForm(
        name=name or f"recorded-{model_class.rsplit('.', 1)[-1]}",
        classes=(model_class,),
        dynamic=base.dynamic if base is not None else None,
        dynamo_fixes=base.dynamo_fixes if base is not None else False,
        contiguous_inputs=base.contiguous_inputs if base is not None else False,
        channels_last_parameters=base.channels_last_parameters if base is not None else False,
        frames=base.frames if base is not None else "instance",
        pass_config=fields,
        inductor_options=dict(backend.inductor_config_patches),
        evidence=(
            f"record_form: {len(measured)} of {len(backend.decisions)} graphs measured on "
            f"{device}, torch {torch.__version__}, each kept {choices[0]}"
        ),
    )
    if path is not None:
        write_form_file(path, form)
    return form


def write_form_file(path: str | os.PathLike[str], form: CompileForm) -> Path:
    """Write ``form`` as a form file (`FORM_FILE_SCHEMA`, with this torch's version and the date)."""
    import torch

    if not isinstance(form, CompileForm):
        _validate.fail(TypeError, "write_form_file", "form", form, "a CompileForm",
                       "write_form_file('form.json', record_form(compiled))")  # fmt: skip
    data = {
        "schema": FORM_FILE_SCHEMA,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "torch": str(torch.__version__),
        "form": {k: getattr(form, k) for k in FORM_FIELDS},
    }
    target = Path(path)
    target.write_text(json.dumps(data, indent=1, default=list) + "\n")
    return target


class FormFileError(ValueError):
    """A form file that cannot be used: what is wrong and how to fix it."""


def read_form_file(path: str | os.PathLike[str]) -> CompileForm:
    """The form in a form file, checked as strictly as a form built in code; a file recorded on
    another torch release is stale (its measurement speaks for that release only). Raises
    `FormFileError` naming the file, the problem and the fix."""
    import torch

    fix = "record it again: record_form(magi_compile(model), path) after a measured GPU run"
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise FormFileError(
            f"form file {path}: cannot be read as JSON ({exc}); fix: {fix}"
        ) from None
    if not isinstance(data, dict) or data.get("schema") != FORM_FILE_SCHEMA:
        schema = data.get("schema") if isinstance(data, dict) else None
        raise FormFileError(
            f"form file {path}: schema must be {FORM_FILE_SCHEMA!r}, got {schema!r}; fix: {fix}"
        )
    unknown = sorted(set(data) - set(FORM_FILE_FIELDS))
    body = data.get("form")
    if unknown or not isinstance(body, dict) or set(body) - set(FORM_FIELDS):
        extra = unknown or (
            sorted(set(body) - set(FORM_FIELDS)) if isinstance(body, dict) else "form"
        )
        raise FormFileError(f"form file {path}: unknown or missing fields ({extra}); fix: {fix}")
    recorded, here = str(data.get("torch", "")), str(torch.__version__)
    if _torch_release(recorded) != _torch_release(here):
        raise FormFileError(
            f"form file {path}: stale, recorded with torch {recorded or '(none)'} and this is "
            f"torch {here}; fix: {fix}"
        )
    try:
        return CompileForm(**{**body, "classes": tuple(body.get("classes", ()))})
    except (TypeError, ValueError) as exc:
        raise FormFileError(f"form file {path}: {exc}") from None


def user_forms(environ: Mapping[str, str] | None = None) -> tuple[CompileForm, ...]:
    """The forms of the files that `MAGI_FORMS_FILE` names (several separated by
    ``os.pathsep``), in order; a bad or stale file is ignored with a `FormFileWarning`."""
    value = (os.environ if environ is None else environ).get(FORMS_ENV, "")
    paths = tuple(p for p in value.split(os.pathsep) if p.strip())
    return _read_forms(paths, *(_mtime(p) for p in paths))


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return -1.0


@functools.lru_cache(maxsize=8)
def _read_forms(paths: tuple[str, ...], *mtimes: float) -> tuple[CompileForm, ...]:
    """Each file read once per version (``mtimes`` are part of the cache key only)."""
    forms = []
    for path in paths:
        try:
            forms.append(read_form_file(path))
        except FormFileError as exc:
            warnings.warn(
                f"{exc}; ignored: {FORMS_ENV} models measure", FormFileWarning, stacklevel=3
            )
    return tuple(forms)
