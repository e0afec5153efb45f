"""Two cProfile profiles of one compile side by side: where the second spends more (session 36).

`gpu_compile_profile.py --stats FILE` keeps each side's whole profile of a cold compile on the
GPU; this reads two of them after the machine is gone. It prints the own time (tottime) of each
group of files (dynamo, FX, Inductor, sympy, Triton, the passes, the standard library, ...) on
both sides, the functions whose own time grew the most, the functions whose call count grew
the most, and the modules imported inside the profiled call on one side only (each with its
cumulative time): on HunyuanVideo's decoder (H100, torch 2.11, docs/benchmarks.md "Session 36")
magi's first call imported 158 modules that torch.compile's had imported before it (at
``torch.compile(module)``), 2.2-2.9 s of its "rest of the frame compiles", and its index
expressions built 15,058 SymPy Min/Max against 11,672 (`magi_passes.index_min_max`).

cProfile loses dynamo's outer frames (its frame callback runs from C), so the listings are by
function, not by phase; `pytest_magi.compile_phases` gives the phases.

Run: `python tools/probes/pstats_diff.py prof_torch.compile.pstats prof_magi.pstats [--top 25]`.
"""

from __future__ import annotations

import argparse
import pstats
from typing import Any

# (label, substring of the file path); the first that matches a function's file is its group
GROUPS = (
    ("dynamo", "torch/_dynamo/"),
    ("AOT autograd", "torch/_functorch/"),
    ("FX", "torch/fx/"),
    ("fake tensors", "torch/_subclasses/"),
    ("Inductor", "torch/_inductor/"),
    ("pytree", "torch/utils/_pytree"),
    ("sympy", "sympy/"),
    ("Triton", "triton/"),
    ("magi_passes", "magi_passes"),
    ("imports", "importlib"),
    ("standard library", "/lib/python3"),
    ("built-ins", "~"),
)

Key = tuple[str, int, str]


def _name(key: Key) -> str:
    path, line, function = key
    return f"{path.split('site-packages/')[-1]}:{line}({function})"


def _group(path: str) -> str:
    return next((label for label, part in GROUPS if part in path), "other")


def _table(title: str, rows: list[tuple[str, ...]]) -> None:
    print(f"== {title}")
    for row in rows:
        print("  " + "  ".join(row))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="the baseline's profile (pstats file)")
    parser.add_argument("second", help="the profile to explain")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    a: dict[Key, Any] = pstats.Stats(args.first).stats  # type: ignore[attr-defined]
    b: dict[Key, Any] = pstats.Stats(args.second).stats  # type: ignore[attr-defined]
    zero = (0, 0, 0.0, 0.0, {})
    groups: dict[str, list[float]] = {}
    for side, stats in enumerate((a, b)):
        for key, (_, _, own, _, _) in stats.items():
            groups.setdefault(_group(key[0]), [0.0, 0.0])[side] += own
    _table(
        "own time by group (s): first, second, second - first",
        [
            (f"{label:<18}", f"{x:8.2f}", f"{y:8.2f}", f"{y - x:+8.2f}")
            for label, (x, y) in sorted(groups.items(), key=lambda kv: kv[1][0] - kv[1][1])
        ],
    )
    keys = set(a) | set(b)
    grew = sorted(keys, key=lambda k: a.get(k, zero)[2] - b.get(k, zero)[2])[: args.top]
    _table(
        "functions whose own time grew most (s): first, second, calls first -> second",
        [
            (f"{a.get(k, zero)[2]:7.2f}", f"{b.get(k, zero)[2]:7.2f}",
             f"{a.get(k, zero)[1]:>9} -> {b.get(k, zero)[1]:<9}", _name(k))
            for k in grew
        ],
    )  # fmt: skip
    called = sorted(keys, key=lambda k: a.get(k, zero)[1] - b.get(k, zero)[1])[: args.top]
    _table(
        "functions called most more often: calls first -> second, cumulative s second",
        [
            (f"{a.get(k, zero)[1]:>9} -> {b.get(k, zero)[1]:<9}", f"{b.get(k, zero)[3]:7.2f}",
             _name(k))
            for k in called
        ],
    )  # fmt: skip
    for title, this, other in (("second", b, a), ("first", a, b)):
        modules = {k[0]: v[3] for k, v in this.items() if k[2] == "<module>"}
        elsewhere = {k[0] for k in other if k[2] == "<module>"}
        only = sorted(((s, p) for p, s in modules.items() if p not in elsewhere), reverse=True)
        _table(
            f"modules imported inside the {title} profile only: {len(only)} "
            f"(cumulative s, the largest {min(len(only), args.top)})",
            [(f"{s:6.2f}", p.split("site-packages/")[-1]) for s, p in only[: args.top]],
        )


if __name__ == "__main__":
    main()
