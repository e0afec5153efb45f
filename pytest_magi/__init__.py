"""pytest_magi: a pytest plugin that proves what Inductor compiler passes do.

Numerics (`compiled_pair(...).assert_close()`), generated code (`inductor_codegen`, `kernel_counts`,
`triton_snapshot`, `fx_snapshot`) and speed (`min_speedup` with `pytest --magi-perf`).

Importing the package (and loading the plugin) imports no torch: the model classes below are
loaded on first access (`pytest_magi.VAEDecoderLike`), so a pytest run that uses none of the
plugin does not pay torch's import time.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GQAProjection", "VAEDecoderLike", "WanCausalStage"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import models

        return getattr(models, name)
    raise AttributeError(f"module 'pytest_magi' has no attribute {name!r}")
