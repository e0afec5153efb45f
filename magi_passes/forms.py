"""Public path of `magi_passes.compile.forms` (the recorded compile forms)."""

from __future__ import annotations

from .compile.forms import CompileForm as CompileForm
from .compile.forms import form_for as form_for
