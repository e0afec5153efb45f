"""Public path of `out_of_bounds` (`pytest_magi.capture.bounds`)."""

from __future__ import annotations

from .capture.bounds import out_of_bounds as out_of_bounds
