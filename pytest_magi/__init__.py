"""pytest_magi: a pytest plugin that proves what Inductor compiler passes do.

Numerics (`compiled_pair(...).assert_close()`), generated code (`inductor_codegen`, `kernel_counts`,
`triton_snapshot`, `fx_snapshot`) and speed (`min_speedup` with `pytest --magi-perf`).
"""

from __future__ import annotations

from .models import GQAProjection, VAEDecoderLike, WanCausalStage

__all__ = ["GQAProjection", "VAEDecoderLike", "WanCausalStage"]
