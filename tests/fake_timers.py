"""A fake `magi_passes.decisions` timer for tests of measured decisions."""

from __future__ import annotations

from typing import Any


class FakeTimer:
    """Times by variant name; counts calls. Runs the variant once, as a real timer would."""

    def __init__(self, magi: float, plain: float) -> None:
        self.ms = {"magi": magi, "plain": plain}
        self.calls: list[str] = []

    def __call__(self, variant: Any, args: Any) -> float:
        variant(*args)
        self.calls.append(variant.name)
        return self.ms[variant.name]
