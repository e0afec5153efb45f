"""A downstream project's own blocks, whose fusion counts its tests pin with pytest-magi."""

from __future__ import annotations

from .blocks import HeadMerge, TinyConvNet

__all__ = ["HeadMerge", "TinyConvNet"]
