"""Public path of `sweep_configs` (`pytest_magi.numerics.config_sweep`)."""

from __future__ import annotations

from .numerics.config_sweep import sweep_configs as sweep_configs
