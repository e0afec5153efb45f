"""When the plugin acts on a test (docs/activation.md).

A test is the plugin's when it uses one of its fixtures (directly or through a fixture of its
own), carries one of its markers, or sits in a scope that opts in: `@pytest.mark.magi` on the
test, its class or module (`pytestmark`), or a path listed in the ini option `magi_paths`.
`--magi-guard=all` checks every test's Inductor config, `--magi-guard=off` none. Every other
test is left exactly as it would run without the plugin.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from .markers import MARKERS

# every fixture the plugin defines (pytest_magi.plugin.fixtures; a test holds the two equal)
MAGI_FIXTURES = frozenset(
    {
        "VAEDecoderLike",
        "budget_snapshot",
        "compiled_pair",
        "config_patch",
        "decision_cache",
        "fx_snapshot",
        "inductor_codegen",
        "kernel_counts",
        "perf_budget",
        "signature_snapshot",
        "triton_snapshot",
        "zoo_pair",
    }
)


def marker_names(item: pytest.Item) -> set[str]:
    """The names of the magi markers on `item` (its own, its class's and module's)."""
    return {mark.name for mark in item.iter_markers() if mark.name in MARKERS}


def in_paths(path: Path, paths: Iterable[Path]) -> bool:
    return any(path == p or path.is_relative_to(p) for p in paths)


# how the config guard treats a test the plugin acts on (item.stash[ACTIVE_KEY])
GUARD_ON = "on"  # checked; Inductor's config is imported for it
GUARD_IF_LOADED = "if-loaded"  # checked once torch._inductor.config is imported (--magi-guard=all)
GUARD_OFF = "off"


def guard_mode(used: bool, option: str) -> str:
    """The guard of a test that uses the plugin (`used`) or not, under `--magi-guard=option`."""
    if option == "off":
        return GUARD_OFF
    if used:
        return GUARD_ON
    return GUARD_IF_LOADED if option == "all" else GUARD_OFF


def guard_now(mode: str) -> bool:
    """Whether a test of guard `mode` is checked from this point on."""
    return mode == GUARD_ON or (mode == GUARD_IF_LOADED and "torch._inductor.config" in sys.modules)
