"""Which Triton kernels a compiled graph launches, with which configs: ``recorded_launches()``.

Two compiles of one graph can differ below the graph: the same kernel source launched with
another autotuned config (block sizes, warps, stages), or another source altogether (an FX graph
cache hit from another process). ``locate`` records the launches of the wrong graph's code when
it is replayed and of the control recompile, and :func:`kernel_differences` says where they part.

Mechanism: for the block's duration, Inductor's ``CachingAutotuner.run`` (every Triton kernel
of Inductor's generated code is launched through it) is wrapped at class level; after each
launch the kernel's name, its source hash and the config it ran with (after autotuning, when one
config is left) are appended. The original method is put back on exit, also on error. Without
Triton (CPU-only torch) nothing is wrapped and the record stays empty. ``wrapped_run`` is that
wrapping, for other hooks too (``config_sweep`` saves each kernel's arguments before its launch).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

#: most difference lines :func:`kernel_differences` returns (the rest are counted)
MAX_LINES = 12


@dataclass(frozen=True)
class KernelLaunch:
    """One launch: the kernel's name, the config it ran with, and its source's hash."""

    name: str
    config: str  # "XBLOCK=1024, num_warps=4, num_stages=1"; "" while several configs remain
    source: str  # first 12 hex digits of the source's sha1; "" when the source is unknown


def config_text(config: Any) -> str:
    """A Triton ``Config`` as ``"XBLOCK=64, YBLOCK=32, num_warps=4, num_stages=1"``."""
    if config is None:
        return ""
    kwargs = getattr(config, "kwargs", {}) or {}
    parts = [f"{k}={kwargs[k]}" for k in sorted(kwargs)]
    for name in ("num_warps", "num_stages"):
        value = getattr(config, name, None)
        if value is not None:
            parts.append(f"{name}={value}")
    return ", ".join(parts)


def _source_hash(kernel: Any) -> str:
    source = getattr(getattr(kernel, "fn", None), "src", None)
    if not isinstance(source, str):
        return ""
    return hashlib.sha1(source.encode()).hexdigest()[:12]


def kernel_name(kernel: Any) -> str:
    """A launched kernel's name: Inductor's ``kernel_name``, else its function's, else its type's."""
    meta = getattr(kernel, "inductor_meta", None) or {}
    fn_name = getattr(getattr(kernel, "fn", None), "__name__", None)
    return str(meta.get("kernel_name") or fn_name or type(kernel).__name__)


def _launch_of(kernel: Any) -> KernelLaunch:
    name = kernel_name(kernel)
    launchers = getattr(kernel, "launchers", None) or []
    config = config_text(getattr(launchers[0], "config", None)) if len(launchers) == 1 else ""
    return KernelLaunch(name, config, _source_hash(kernel))


def _autotuner_class() -> Any:
    try:
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    except ImportError:  # no Triton: nothing Inductor generates launches through it
        return None
    return CachingAutotuner


@contextlib.contextmanager
def wrapped_run(
    before: Callable[[Any, tuple[Any, ...], dict[str, Any]], None] | None = None,
    after: Callable[[Any, tuple[Any, ...], dict[str, Any]], None] | None = None,
) -> Iterator[bool]:
    """For the block's duration, ``CachingAutotuner.run`` calls ``before(kernel, args, kwargs)``
    ahead of each launch and ``after(...)`` behind it; the original method is put back on exit,
    also on error. Yields whether anything was wrapped (False without Triton)."""
    cls = _autotuner_class()
    if cls is None or "run" not in vars(cls):
        yield False
        return
    original = vars(cls)["run"]

    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        if before is not None:
            before(self, args, kwargs)
        result = original(self, *args, **kwargs)
        if after is not None:
            after(self, args, kwargs)
        return result

    cls.run = run
    try:
        yield True
    finally:
        cls.run = original


@contextlib.contextmanager
def recorded_launches() -> Iterator[list[KernelLaunch]]:
    """The Triton kernels launched inside the block, in launch order (module docstring)."""
    launches: list[KernelLaunch] = []

    def after(kernel: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if not kwargs.get("benchmark_run", False):
            launches.append(_launch_of(kernel))

    with wrapped_run(after=after):
        yield launches


def kernel_differences(
    wrong: Sequence[KernelLaunch], right: Sequence[KernelLaunch], labels: tuple[str, str]
) -> list[str]:
    """Where two launch records of one graph part: per kernel name, another config or another
    source; kernels only one side launched; or another launch count. ``labels`` name the sides
    (e.g. ``("replay, wrong", "control, right")``). Empty: the same kernels, sources and
    configs."""
    a, b = labels
    first_a = _first_by_name(wrong)
    first_b = _first_by_name(right)
    lines: list[str] = []
    for name, launch in first_a.items():
        other = first_b.get(name)
        if other is None:
            lines.append(f"{name}: launched by {a} only")
        elif launch.source != other.source:
            lines.append(f"{name}: another source ({a} {launch.source}, {b} {other.source})")
        elif launch.config != other.config:
            lines.append(f"{name}: {launch.config or '?'} ({a}) vs {other.config or '?'} ({b})")
    lines += [f"{name}: launched by {b} only" for name in first_b if name not in first_a]
    if not lines and len(wrong) != len(right):
        lines.append(f"{len(wrong)} launches ({a}) vs {len(right)} ({b})")
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES], f"... and {len(lines) - MAX_LINES} more"]
    return lines


def launch_lines(launches: Sequence[KernelLaunch]) -> list[str]:
    """Each kernel of a launch record once, in launch order: ``"name [source hash]: config"``
    (``?`` while several configs remained), with its launch count where above one. What a wrong
    run and a right run of one graph, in two processes, are compared by: an autotuned config is
    picked per process and cached within it (docs/locate.md)."""
    counts: dict[str, int] = {}
    for launch in launches:
        counts[launch.name] = counts.get(launch.name, 0) + 1
    lines = []
    for name, launch in _first_by_name(launches).items():
        times = f" (x{counts[name]})" if counts[name] > 1 else ""
        lines.append(f"{name} [{launch.source or '?'}]: {launch.config or '?'}{times}")
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES], f"... and {len(lines) - MAX_LINES} more"]
    return lines


def _first_by_name(launches: Sequence[KernelLaunch]) -> dict[str, KernelLaunch]:
    first: dict[str, KernelLaunch] = {}
    for launch in launches:
        first.setdefault(launch.name, launch)
    return first
