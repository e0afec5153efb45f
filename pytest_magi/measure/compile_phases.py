"""Where a compile's seconds went: dynamo's own phase timers, read around a block of calls.

Dynamo and Inductor time their phases (`torch._dynamo.utils.dynamo_timed`) into
``torch._dynamo.utils.compilation_time_metrics``, a dict of phase name -> seconds of each call,
for the whole process. :func:`compile_phases` reads it before and after a block (a compiled
model's first calls) and keeps what the block added, so that two compiles timed one after the
other in one process are told apart. The phases shown (`PHASES`) are the ones that explain a cold
compile: dynamo's frame compiles as a whole (tracing, the backend, guards), its tracing, AOT
dispatch without the Inductor compile it calls, Inductor as a whole and, inside it, the post-grad
passes (a backend's own graph passes among them), lowering, fusion, kernel code generation,
loading the generated module, the Triton kernels compiled in the compiling process itself while
it loads (Inductor's compile workers not answering yet) and the wait for the workers' compiles,
then the autotuning that runs at the first call of a kernel with several configs, and the frame compiles' rest
outside tracing, AOT dispatch and guards (`outside`). Each is the phase's wall time; the
nested ones are parts of the one above them, so they do not add up to a total. Phase names are
torch's own and present in torch 2.11 and 2.13; one missing from a torch is left out of the
summary, never shown as zero.

Garbage collection is timed too (`GC_KEY`, through `gc.callbacks`, registered for the block
only): Python's collector pauses whatever phase was running, so its seconds are a part of the
phases above, not an addition to them; on a large decoder it is a noticeable part of a cold
compile (docs/results.md, "Cold compile").
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Iterator, Mapping
from typing import Any

# the key of the seconds the garbage collector paused the block (no dynamo phase has it)
GC_KEY = "gc.collect"
# the key of the frame compiles' seconds outside dynamo's tracing, AOT dispatch (Inductor in
# it) and guards (`outside`): computed, never recorded
REST_KEY = "frame compiles, the rest"
# (label, dynamo_timed key), in the order a compile runs them; the indented ones are parts of
# Inductor's time; garbage collection is a part of whichever phase it paused
PHASES: tuple[tuple[str, str], ...] = (
    ("frame compiles", "_compile.compile_inner"),
    ("dynamo tracing", "bytecode_tracing"),
    ("AOT dispatch", "create_aot_dispatcher_function"),
    ("Inductor", "compile_fx_inner"),
    ("  post-grad passes", "_recursive_post_grad_passes"),
    ("  lowering", "GraphLowering.run"),
    ("  fusion", "Scheduler.__init__"),
    ("  kernel codegen", "Scheduler.codegen"),
    ("  module load", "PyCodeCache.load_by_key_path"),
    ("  kernels compiled in the process", "async_compile.precompile"),
    ("  kernel compile wait", "async_compile.wait"),
    ("autotuning at first call", "CachingAutotuner.benchmark_all_configs"),
    ("guards", "build_guards"),
    ("rest of the frame compiles", REST_KEY),
    ("garbage collection", GC_KEY),
)


def _metrics() -> Mapping[str, list[float]]:
    from torch._dynamo.utils import compilation_time_metrics

    return compilation_time_metrics


@contextlib.contextmanager
def compile_phases() -> Iterator[dict[str, float]]:
    """Yield a dict that, when the block ends, holds the seconds each dynamo phase took within
    it (every phase dynamo timed, keyed by its name; `summary` picks `PHASES`) and the seconds
    the garbage collector paused it (`GC_KEY`, where it ran). A phase whose record dynamo
    cleared inside the block (``torch._dynamo.reset()``) counts from the clear."""
    # each phase's list and its length: after a clear, dynamo starts a new list for the phase
    before = {key: (values, len(values)) for key, values in _metrics().items()}
    spent: dict[str, float] = {}
    collecting = [0.0, 0.0]  # when the running collection started; seconds so far

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collecting[0] = time.perf_counter()
        else:
            collecting[1] += time.perf_counter() - collecting[0]

    gc.callbacks.append(timed)
    try:
        yield spent
    finally:
        gc.callbacks.remove(timed)
        if collecting[1] > 0:
            spent[GC_KEY] = collecting[1]
        for key, values in _metrics().items():
            old, start = before.get(key, (None, 0))
            new = values[start:] if values is old else values
            if new:
                spent[key] = float(sum(new))


def summary(spent: Mapping[str, float], *, at_least: float = 0.05) -> str:
    """`PHASES` as ``"dynamo tracing 3.1 s, ..., Inductor 29.9 s (post-grad passes 0.7 s, ...)"``:
    the phases that took at least ``at_least`` seconds, Inductor's parts in its parentheses."""
    return summary_of_shown(shown(spent), at_least=at_least)


def summary_of_shown(phases: Mapping[str, float], *, at_least: float = 0.05) -> str:
    """`summary` of a `shown` dict (phase label -> seconds, as a JSON record keeps it)."""
    outer: list[str] = []
    inner: list[str] = []
    for label, _ in PHASES:
        seconds = phases.get(label.strip())
        if seconds is None or seconds < at_least:
            continue
        text = f"{label.strip()} {seconds:.1f} s"
        (inner if label.startswith(" ") else outer).append(text)
    if inner:
        at = next((i for i, t in enumerate(outer) if t.startswith("Inductor ")), None)
        parts = f" ({', '.join(inner)})"
        if at is None:
            outer.append(f"Inductor's parts{parts}")
        else:
            outer[at] += parts
    return ", ".join(outer) if outer else "no compile phase recorded"


def outside(spent: Mapping[str, float]) -> float | None:
    """The frame compiles' seconds outside dynamo's tracing, AOT dispatch (Inductor in it) and
    guards: the backend's own work around Inductor's, dynamo's bookkeeping, and whatever the
    phase timers do not cover (None where no frame compile was recorded); where magi's extra
    cold-compile time goes (docs/results.md, "Cold compile")."""
    total = spent.get("_compile.compile_inner")
    if total is None:
        return None
    for key in ("bytecode_tracing", "create_aot_dispatcher_function", "build_guards"):
        total -= spent.get(key, 0.0)
    return max(0.0, total)


def _seconds(spent: Mapping[str, float], key: str) -> float | None:
    """Phase ``key``'s seconds; AOT dispatch without the Inductor compile nested in it; the
    rest of the frame compiles (`outside`)."""
    if key == REST_KEY:
        return outside(spent)
    seconds = spent.get(key)
    if seconds is not None and key == "create_aot_dispatcher_function":
        seconds = max(0.0, seconds - spent.get("compile_fx_inner", 0.0))
    return seconds


def shown(spent: Mapping[str, float]) -> dict[str, float]:
    """The `PHASES` recorded in ``spent``, by label (for a JSON record)."""
    out = {}
    for label, key in PHASES:
        seconds = _seconds(spent, key)
        if seconds is not None:
            out[label.strip()] = round(seconds, 3)
    return out


__all__ = [
    "GC_KEY",
    "PHASES",
    "REST_KEY",
    "compile_phases",
    "outside",
    "shown",
    "summary",
    "summary_of_shown",
]
