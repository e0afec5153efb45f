"""Public path of `inductor_codegen` and `kernel_counts` (`pytest_magi.capture.codegen`) and of
their results (`pytest_magi.capture.generated`, `pytest_magi.capture.kernels`)."""

from __future__ import annotations

from .capture.codegen import inductor_codegen as inductor_codegen
from .capture.codegen import kernel_counts as kernel_counts
from .capture.generated import GeneratedCode as GeneratedCode
from .capture.kernels import KernelCounts as KernelCounts
