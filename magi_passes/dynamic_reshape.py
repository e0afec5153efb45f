"""`DynamicReshapePass` (being written: issue 7)."""

from __future__ import annotations

from typing import ClassVar

import torch

from .base import MagiPass, PassResult


class DynamicReshapePass(MagiPass):
    name: ClassVar[str] = "dynamic_reshape"

    def enabled(self) -> bool:
        return self.config.enable_dynamic_reshape

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        return PassResult(self.name, applied=False, reason="not implemented yet")
