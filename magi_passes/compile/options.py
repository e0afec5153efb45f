"""The magi backend's options: `PassConfig` fields and Inductor keys apart, the Inductor keys a
manager's passes may change, and the scopes each graph's compile runs in."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Iterator
from typing import Any

from ..config import PassConfig
from ..passes.base import get_inductor_config_value, inductor_config_keys
from .collector import full_collections_deferred
from .index_min_max import torch_index_min_max
from .kernel_configs import group_norm_kernel_configs
from .manager import PassManager


def split_options(
    options: dict[str, Any] | None, config: PassConfig | None
) -> tuple[PassConfig, dict[str, Any]]:
    """`(PassConfig, Inductor patches)` of the backend's ``options`` over ``config`` (or, with
    neither giving one, `PassConfig.from_env()`): `PassConfig` field names and ``"pass_config"``
    apart from Inductor keys; an unknown name raises with close matches."""
    options = dict(options or {})
    base = options.pop("pass_config", None)
    if base is not None and not isinstance(base, PassConfig):
        raise TypeError(
            f"magi backend option 'pass_config' must be a magi_passes.PassConfig, got {base!r}"
        )
    if base is not None and config is not None:
        raise ValueError("give the PassConfig once: either config=... or options['pass_config']")
    base = base or config or PassConfig.from_env()
    field_names = set(PassConfig.field_names())
    pass_fields = {k: options.pop(k) for k in list(options) if k in field_names}
    known = inductor_config_keys()
    for key in options:
        if key.replace("-", "_") not in known:
            close = difflib.get_close_matches(key, list(known) + sorted(field_names), n=3)
            raise ValueError(
                f"unknown magi backend option {key!r}: neither a PassConfig field "
                f"({', '.join(sorted(field_names))}) nor a torch._inductor.config key"
                + (f"; did you mean {', '.join(close)}?" if close else "")
            )
    return (base.replace(**pass_fields) if pass_fields else base), options


def config_snapshot(manager: PassManager) -> dict[str, Any]:
    """Current values of every key the manager's passes may change, for `config.patch`."""
    return {key: get_inductor_config_value(key) for key in manager.mutates_inductor_config}


@contextlib.contextmanager
def compile_scope(manager: PassManager | None) -> Iterator[None]:
    """What each graph's compile with `manager`'s passes runs inside, in the magi backend and in
    `pytest_magi.inductor_codegen(config=...)`: the fixed Triton configs of the GroupNorm
    rewrite's kernels (`magi_passes.kernel_configs`) and torch's Min / Max in Inductor's index
    propagation (`magi_passes.index_min_max`, `PassConfig.torch_index_min_max`), and Python's
    full garbage collections held off (`magi_passes.collector`,
    `PassConfig.defer_full_collections`). ``None``: a plain compile, nothing changed."""
    config = getattr(manager, "config", None)
    min_max = config is not None and config.torch_index_min_max
    defer = config is not None and config.defer_full_collections
    with (
        group_norm_kernel_configs(manager),
        torch_index_min_max(min_max),
        full_collections_deferred(defer),
    ):
        yield
