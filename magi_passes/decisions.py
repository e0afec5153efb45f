"""Public path of `magi_passes.compile.decisions` (measured pass decisions)."""

from __future__ import annotations

from .compile.decisions import Decider as Decider
from .compile.decisions import Decision as Decision
from .compile.decisions import DecisionCache as DecisionCache
