"""Numerics: whether a compiled side computes what eager computes, and where it does not.

`judgment` (each side against a higher-precision reference, within max(2 x eager's distance, the
dtype's floor); `BaselineMiscompiled`), `config_sweep` (a call's kernels under every config their
autotuner chose from), and `locate` (the first wrong graph, where its output came from and what
cures it: `locate_backend`, `locate_cures`, `locate_report`, `locate_tensors`).
"""

from __future__ import annotations

from .judgment import BaselineMiscompiled as BaselineMiscompiled
from .judgment import judge_against_reference as judge_against_reference
