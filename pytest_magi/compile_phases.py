"""Public path of `compile_phases` and its summaries (`pytest_magi.measure.compile_phases`)."""

from __future__ import annotations

from .measure.compile_phases import compile_phases as compile_phases
from .measure.compile_phases import outside as outside
from .measure.compile_phases import shown as shown
from .measure.compile_phases import summary as summary
