"""Where a compile's seconds went: dynamo's own phase timers, read around a block of calls.

Dynamo and Inductor time their phases (`torch._dynamo.utils.dynamo_timed`) into
``torch._dynamo.utils.compilation_time_metrics`` for the whole process. :func:`compile_phases`
reads it before and after a block (a compiled model's first calls) and keeps what the block
added, so two compiles timed one after the other in one process are told apart. `PHASES` are
the ones that explain a cold compile: dynamo's frame compiles (with their number,
`FRAMES_KEY`), its tracing, AOT dispatch,
Inductor and its parts (post-grad passes, lowering, fusion, kernel codegen, module load, the
kernels compiled in the process and the wait for the compile workers), the autotuning at a
kernel's first call with the number of kernels tuned (`TUNED_KEY`: each costs tens of
milliseconds however few its configs), guards and the frame compiles' rest (`outside`). Each is
wall time, the nested ones parts of the one above. Phase names are torch's own (2.11 and 2.13);
one a torch lacks is left out, never shown as zero.

Garbage collection is timed too (`GC_KEY`, through `gc.callbacks`, registered for the block
only): the collector pauses whatever phase was running, so its seconds are a part of the phases
above, not an addition to them (docs/results.md, "Cold compile").
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Iterator, Mapping
from typing import Any

# the key of the seconds the garbage collector paused the block (no dynamo phase has it)
GC_KEY = "gc.collect"
# the key of how many kernels the block autotuned at their first call (one autotuning record
# each): a count, never seconds
TUNED_KEY = "kernels autotuned"
AUTOTUNE_KEY = "CachingAutotuner.benchmark_all_configs"
# the key of how many frames dynamo compiled in the block (one record each): a count
FRAMES_KEY = "frames compiled"
FRAME_KEY = "_compile.compile_inner"
# (the phase counted, the key of its count, what one of them is called)
COUNTS = ((FRAME_KEY, FRAMES_KEY, "frame"), (AUTOTUNE_KEY, TUNED_KEY, "kernel"))
# the key of the frame compiles' seconds outside dynamo's tracing, AOT dispatch (Inductor in
# it) and guards (`outside`): computed, never recorded
REST_KEY = "frame compiles, the rest"
# (label, dynamo_timed key), in the order a compile runs them; the indented ones are parts of
# Inductor's time; garbage collection is a part of whichever phase it paused
PHASES: tuple[tuple[str, str], ...] = (
    ("frame compiles", FRAME_KEY),
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
    ("autotuning at first call", AUTOTUNE_KEY),
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
    it (every phase dynamo timed, keyed by its name; `summary` picks `PHASES`), the seconds
    the garbage collector paused it (`GC_KEY`, where it ran) and the number of frames it
    compiled and kernels it autotuned (`COUNTS`, where it did either). A phase whose record dynamo
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
                for counted, count_key, _ in COUNTS:
                    if key == counted:
                        spent[count_key] = float(len(new))


def summary(spent: Mapping[str, float], *, at_least: float = 0.05) -> str:
    """`PHASES` as ``"dynamo tracing 3.1 s, ..., Inductor 29.9 s (post-grad passes 0.7 s, ...)"``:
    the phases that took at least ``at_least`` seconds, Inductor's parts in its parentheses."""
    return summary_of_shown(shown(spent), at_least=at_least)


def summary_of_shown(phases: Mapping[str, float], *, at_least: float = 0.05) -> str:
    """`summary` of a `shown` dict (phase label -> seconds, as a JSON record keeps it, and the
    `COUNTS` beside their phases' seconds)."""
    outer: list[str] = []
    inner: list[str] = []
    for label, key in PHASES:
        seconds = phases.get(label.strip())
        if seconds is None or seconds < at_least:
            continue
        text = f"{label.strip()} {seconds:.1f} s"
        for counted, count_key, one in COUNTS:
            number = phases.get(count_key) if key == counted else None
            if number:
                text += f" ({int(number)} {one}{'s' if number != 1 else ''})"
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
    """The `PHASES` recorded in ``spent``, by label (for a JSON record), and the number of
    frames compiled and kernels autotuned (`COUNTS`) where the block had any."""
    out = {}
    for label, key in PHASES:
        seconds = _seconds(spent, key)
        if seconds is not None:
            out[label.strip()] = round(seconds, 3)
    for _, count_key, _ in COUNTS:
        if count_key in spent:
            out[count_key] = int(spent[count_key])
    return out


__all__ = [
    "COUNTS",
    "FRAMES_KEY",
    "GC_KEY",
    "PHASES",
    "REST_KEY",
    "TUNED_KEY",
    "compile_phases",
    "outside",
    "shown",
    "summary",
    "summary_of_shown",
]
