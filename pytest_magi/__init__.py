"""pytest_magi: a pytest plugin that proves what Inductor compiler passes do.

Numerics (`compiled_pair(...).assert_close()`), generated code (`inductor_codegen`, `kernel_counts`,
`triton_snapshot`, `fx_snapshot`) and speed (`min_speedup` with `pytest --magi-perf`).
`pytest_magi.budget(fn, *inputs, profile="h200")` estimates what one call of the generated CUDA
code costs, without a GPU (module `pytest_magi.budget`).
`pytest_magi.locate(model, *inputs, backend=...)` says where a compiled model's numbers go wrong
(module `pytest_magi.numerics.locate`).

Importing the package (and loading the plugin) imports no torch: the model classes below are
loaded on first access (`pytest_magi.VAEDecoderLike`), so a pytest run that uses none of the
plugin does not pay torch's import time.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Budget",
    "GQAProjection",
    "LocateReport",
    "VAEDecoderLike",
    "WanCausalStage",
    "budget",
    "locate",
]
_LOCATING = ("LocateReport", "locate")
_BUDGETS = ("Budget", "budget")


def __getattr__(name: str) -> Any:
    if name in _BUDGETS:
        import importlib

        # the subpackage, callable as pytest_magi.budget(fn, *inputs), and its Budget
        package = importlib.import_module(".budget", __name__)
        return package if name == "budget" else package.Budget
    if name in _LOCATING:
        from .numerics import locate

        return getattr(locate, name)
    if name in __all__:
        from . import models

        return getattr(models, name)
    raise AttributeError(f"module 'pytest_magi' has no attribute {name!r}")
