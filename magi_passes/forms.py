"""Public path of `magi_passes.compile.forms` (the recorded compile forms, and the form files a
user's own measured run records)."""

from __future__ import annotations

from .compile.forms import FORMS_ENV as FORMS_ENV
from .compile.forms import CompileForm as CompileForm
from .compile.forms import FormFileError as FormFileError
from .compile.forms import FormFileWarning as FormFileWarning
from .compile.forms import form_for as form_for
from .compile.forms import read_form_file as read_form_file
from .compile.forms import record_form as record_form
from .compile.forms import user_forms as user_forms
from .compile.forms import write_form_file as write_form_file
