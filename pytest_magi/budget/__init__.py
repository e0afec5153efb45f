"""Perf budgets without a GPU: what one call of a function's generated CUDA code costs.

``pytest_magi.budget(fn, *inputs, profile="h200")`` generates the CUDA code (fake CUDA where
there is no GPU, never run) and returns a :class:`Budget`: per graph and in total the Triton
kernels, the launches per call, the bytes each kernel reads and writes by Inductor's own
accounting, each extern call's FLOPs and bytes, and an estimated time on a device
:class:`Profile`. ``pair.budget()`` compares both sides of a compiled pair; ``snapshot`` holds
the syrupy extension that compares budgets within bands. The module is callable:
``pytest_magi.budget(...)`` is :func:`pytest_magi.budget.api.budget`. Importing it imports no torch.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from .api import BudgetError as BudgetError
from .api import budget as budget
from .profiles import PROFILES as PROFILES
from .profiles import Profile as Profile
from .profiles import get_profile as get_profile
from .profiles import measure_profile as measure_profile
from .result import Budget as Budget
from .result import GraphBudget as GraphBudget
from .result import LaunchCost as LaunchCost


class _CallableModule(types.ModuleType):
    """This package, callable as its :func:`budget` (``pytest_magi.budget(fn, x)``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Budget:
        return budget(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
