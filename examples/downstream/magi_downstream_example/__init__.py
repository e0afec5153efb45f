"""A downstream project's own blocks and pass, whose effect its tests pin with pytest-magi."""

from __future__ import annotations

from .blocks import HeadMerge, TinyConvNet
from .passes import SquareToMul

__all__ = ["HeadMerge", "SquareToMul", "TinyConvNet"]
