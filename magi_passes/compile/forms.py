"""Compile forms: how `magi_compile` compiles a model family whose best way to compile was
measured (`CompileForm`), and which form a model gets (`form_for`, `resolve`).

Some settings are fixed before the backend sees a graph: whether dynamo traces a model as one
graph or many, whether its graphs are static, how its inputs and weights are laid out, and which
`PassConfig` fields and Inductor options apply. A form records them for a model family (matched
by the class of the module passed to `magi_compile`, e.g. ``vae.decoder``), and
``magi_compile(model)`` (``form="auto"``) uses them for every option the caller leaves unset:
``dynamic``, ``dynamo_fixes``, ``contiguous_inputs``, ``channels_last_parameters`` where the caller
passes None; ``frames`` where it leaves ``isolate_frames=True``; ``pass_config`` fields on top of
`PassConfig.from_env()` (a ``MAGI_PASSES__<FIELD>`` variable keeps the environment's value) where
it passes no ``config``; ``inductor_options`` under the caller's ``options``. A form is listed only
beside a GPU run in which it was right and at least as fast as the generic form and torch.compile.
``form=None`` compiles in the generic form; the recorded forms are data (`form_table`). A form
recorded from a user's own measured run (`record_form`) is found through `MAGI_FORMS_FILE`,
before the recorded ones.
"""

from __future__ import annotations

from typing import Any

from .. import _validate
from .compile_form import AUTO as AUTO
from .compile_form import FORM_FRAMES as FORM_FRAMES
from .compile_form import FORM_OPTIONS as FORM_OPTIONS
from .compile_form import FORMS_ENV as FORMS_ENV
from .compile_form import CompileForm as CompileForm
from .compile_form import FormFileError as FormFileError
from .compile_form import FormFileWarning as FormFileWarning
from .compile_form import class_name as class_name
from .compile_form import decided_form as decided_form
from .compile_form import read_form_file as read_form_file
from .compile_form import record_form as record_form
from .compile_form import user_forms as user_forms
from .compile_form import write_form_file as write_form_file
from .form_table import DECIDED_DECODERS as DECIDED_DECODERS
from .form_table import KNOWN_FORMS as KNOWN_FORMS
from .form_table import ONE_GRAPH_FORMS as ONE_GRAPH_FORMS
from .form_table import WAN_DECODER as WAN_DECODER


def form_for(model: object) -> CompileForm | None:
    """The form ``magi_compile(model)`` uses for ``model``: the first of `MAGI_FORMS_FILE`'s
    forms (`user_forms`) and then the recorded ones that applies, or None (the generic form)."""
    return next((f for f in (*user_forms(), *KNOWN_FORMS) if f.applies_to(model)), None)


def resolve(
    where: str, form: object, model: object, *, arg: str = "form", fix: str | None = None
) -> CompileForm | None:
    """``form`` as given to ``where`` (its argument ``arg``): ``"auto"`` (the model's known
    form, if any), None (the generic form), a known form's name, or a `CompileForm`."""
    if form is None or isinstance(form, CompileForm):
        return form
    if form == AUTO:
        return form_for(model)
    by_name = {f.name: f for f in (*KNOWN_FORMS, *user_forms())}
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
