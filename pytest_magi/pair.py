"""Public path of `CompiledPair` (`pytest_magi.pairs.compiled`); the plugin imports it from here."""

from __future__ import annotations

from .pairs.compiled import CompiledPair as CompiledPair
