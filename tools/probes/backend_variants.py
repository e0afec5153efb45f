"""MiniMax-H3's frame compile through backends that each do part of what the magi backend does (session 42).

In fake CUDA on the CPU (`frame_compile_time.py`'s setup: full size, bf16, generate only) each
named backend compiles the decoder in turn in one process, printing its dynamo phases and the
garbage collector's collections by generation. A name ending in ``-nogc`` runs its compile with
the collector off (dynamo's own ``gc.collect(1)`` after the compile still runs), so that phases
are compared without collections landing in one or the other.
- ``compile_fx``: Inductor's `compile_fx`, no config patch (torch.compile's compile);
- ``patched``: the same with one patch that changes nothing (``trace.enabled=False``);
- ``manager``: the same with the magi pass manager as its only patch;
- ``replica``: what `MagiBackend._compile` does (the pass manager, the passes' config
  snapshot, `compile_scope`, `compile_working_around`); ``replica-checks`` calls the checks
  `MagiBackend.__call__` makes before it first;
- ``method``: `MagiBackend._compile` itself; ``magi``: a `MagiBackend`;
- ``part-options``, ``part-decider``, ``part-device``, ``part-cudagraphs``: a plain function
  doing one part of the checks `MagiBackend.__call__` makes (the option split and the plain
  config; a `Decider`'s ``training`` and ``blocked``, the device name, the recorded
  decisions; the device check and the compile workers; the read of ``triton.cudagraphs``)
  and then `MagiBackend._compile`; ``part-devname`` and ``part-decisions`` split
  ``part-decider``; ``part-nothing`` does none of them, ``part-copy`` only reads Inductor's
  config copy; ``keep``: the same doing ``_keep(_compile(...))``; ``called``: the same calling
  a `MagiBackend` itself;
- ``method-deeperN``: ``method`` called N Python frames further down;
- ``magi-noroom``: a `MagiBackend` with `PassConfig.compile_on_fresh_stack` off (session 44).
``--stats DIR`` profiles each compile (cProfile, the whole profile kept in DIR) and prints the
own time of the pattern matcher's ``MatchContext.match``, the steadiest sign of session 43's
slowdown (the same 352,351 calls in every variant).

Session 42 (torch 2.13): ``compile_fx`` 33.8-37.3 s against 26.6-30.6 with any patch; with the
collector off the magi backend's AOT dispatch took 7.4-8.2 s, ``replica`` 5.5-6.1, ``method``
6.2-6.6 (docs/benchmarks.md "Session 42"). Session 43: 8.4-9.1 s against ``method``'s 7.1-8.0
over 15 processes, but level in other loops of the same kind; the pattern matcher's own time,
0.70-0.73 s under ``magi`` against 0.32-0.34 under ``method``, was 0.31-0.33 s for every
``part-*`` and ``keep`` and 1.03 s for ``called`` in an earlier loop of its own, but
``part-decider`` took 0.71 s run through this probe: the slowdown follows how the process is
set up, not one step of ``MagiBackend.__call__``; not located.
Session 44, located: ``part-nothing`` (a plain function calling ``MagiBackend._compile``, as
``method``'s lambda does) took 0.72 s and ``method`` 0.28 s in one process, and under strace
each compile made about a million ``mmap``/``munmap`` pairs (0.94 million for ``method``,
1.09 for ``part-nothing``): CPython's frame-stack chunks allocated and freed by calls that cross
a chunk's end (cpython#142183), at depths that shift with every frame above the compile.
`magi_passes.stack_room` runs each compile on a fresh chunk: 72,000 pairs, the AOT dispatch
4.2-4.8 s against 8.0-9.4 for ``magi-noroom`` (docs/results/session44/).

Run: ``python tools/probes/backend_variants.py magi-nogc,replica-nogc,magi-nogc,replica-nogc``;
``python tools/probes/backend_variants.py --stats /tmp part-options-nogc,keep-nogc,called-nogc``.
"""

from __future__ import annotations

import argparse
import gc
import os
import pstats
import re
import sys
import time
from collections.abc import Callable
from typing import Any

import torch
from torch._inductor.compile_fx import compile_fx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frame_compile_time  # noqa: E402  (this folder's probe)

from magi_passes import backend as magi_backend  # noqa: E402
from magi_passes.config import PassConfig  # noqa: E402
from magi_passes.decisions import Decider  # noqa: E402
from magi_passes.manager import PassManager  # noqa: E402
from magi_passes.workarounds import compile_working_around  # noqa: E402
from pytest_magi import zoo  # noqa: E402


def _part_options(config: PassConfig, extra: dict[str, Any], inputs: list[Any]) -> None:
    magi_backend._plain_config(config)


def _part_decider(config: PassConfig, extra: dict[str, Any], inputs: list[Any]) -> None:
    decider = Decider()
    device = magi_backend._device_name(inputs)
    decider.training(inputs)
    config.decided_for(device)
    config.decided_plain_for(device)
    decider.blocked(inputs, {"triton.cudagraphs": False})


def _part_devname(config: PassConfig, extra: dict[str, Any], inputs: list[Any]) -> None:
    magi_backend._device_name(inputs)


def _part_decisions(config: PassConfig, extra: dict[str, Any], inputs: list[Any]) -> None:
    decider = Decider()
    decider.training(inputs)
    config.decided_for("cuda")
    config.decided_plain_for("cuda")
    decider.blocked(inputs, {"triton.cudagraphs": False})


def _part_device(config: PassConfig, extra: dict[str, Any], inputs: list[Any]) -> None:
    magi_backend._check_one_device(inputs)
    magi_backend.warm_compile_workers(extra)


def _part_cudagraphs(config: PassConfig, extra: dict[str, Any], inputs: list[Any]) -> None:
    extra.get("triton.cudagraphs", torch._inductor.config.triton.cudagraphs)


# the checks `MagiBackend.__call__` makes before it compiles, each part a variant of its own
PARTS = {
    "part-options": _part_options,
    "part-decider": _part_decider,
    "part-devname": _part_devname,
    "part-decisions": _part_decisions,
    "part-device": _part_device,
    "part-cudagraphs": _part_cudagraphs,
}
# the variants compiled through a plain function (`_through_a_function`)
THROUGH_A_FUNCTION = (*PARTS, "part-nothing", "part-copy", "keep", "called")
NAMES = (
    "compile_fx", "patched", "manager", "replica", "replica-checks", "method", "magi",
    "magi-noroom", *THROUGH_A_FUNCTION,
)  # fmt: skip


def _checks(gm: torch.fx.GraphModule, inputs: list[Any]) -> None:
    """What `MagiBackend.__call__` asks before it compiles, in fake CUDA."""
    config, extra = magi_backend._split_options({}, None)
    for part in PARTS.values():
        part(config, extra, inputs)
    magi_backend._measured_passes_cannot_fire(gm, config)


def backend(name: str) -> Callable[..., Any]:
    if name == "magi":
        return magi_backend.MagiBackend()
    if name == "magi-noroom":
        return magi_backend.MagiBackend(PassConfig(compile_on_fresh_stack=False))
    if name == "method":
        made = magi_backend.MagiBackend()
        return lambda gm, inputs: made._compile(gm, list(inputs), PassConfig.from_env(), {}).fn
    if name.startswith("method-deeper"):
        made = magi_backend.MagiBackend()
        frames = int(name.removeprefix("method-deeper"))
        return lambda gm, inputs: _deeper(
            frames, lambda: made._compile(gm, list(inputs), PassConfig.from_env(), {}).fn
        )
    if name in THROUGH_A_FUNCTION:
        return _through_a_function(name)

    if name == "compile_fx":
        return frame_compile_time.BACKENDS["compile_fx"]
    if name == "patched":
        return frame_compile_time.BACKENDS["compile_fx_patched"]

    def compile_(gm: torch.fx.GraphModule, inputs: list[Any]) -> Any:
        inputs = list(inputs)
        manager = PassManager.chained_with_current(PassConfig())
        if name == "manager":
            return compile_fx(gm, inputs, config_patches={"post_grad_custom_post_pass": manager})
        if name == "replica-checks":
            _checks(gm, inputs)
        patches = {
            **magi_backend.config_snapshot(manager),
            "post_grad_custom_post_pass": manager,
        }
        with magi_backend.compile_scope(manager):
            return compile_working_around(
                lambda: compile_fx(gm, inputs, config_patches=patches), True
            )

    return compile_


def _deeper(frames: int, call: Callable[[], Any]) -> Any:
    """``call()`` from `frames` more Python frames down the stack."""
    return call() if frames <= 0 else _deeper(frames - 1, call)


def _through_a_function(name: str) -> Callable[..., Any]:
    """A plain function doing part of what `MagiBackend.__call__` does, then compiling through
    `MagiBackend._compile` (``called``: calling the backend itself)."""
    made = magi_backend.MagiBackend()

    def compile_(gm: torch.fx.GraphModule, inputs: list[Any]) -> Any:
        inputs = list(inputs)
        if name == "called":
            return made(gm, inputs)
        if name == "part-copy":
            torch._inductor.config.get_config_copy()
        if name in ("part-nothing", "part-copy"):
            return made._compile(gm, inputs, PassConfig.from_env(), {}).fn
        config, extra = magi_backend._split_options({}, None)
        if name == "keep":
            return made._keep(made._compile(gm, inputs, config, extra), "probe")
        PARTS[name](config, extra, inputs)
        return made._compile(gm, inputs, config, extra).fn

    return compile_


def match_seconds(stats: str) -> float:
    """Own time of the pattern matcher's `MatchContext.match` in a saved profile."""
    from torch._inductor.pattern_matcher import MatchContext

    line = MatchContext.match.__code__.co_firstlineno
    return sum(
        row[2]
        for (path, first, function), row in pstats.Stats(stats).stats.items()  # type: ignore[attr-defined]
        if function == "match" and first == line and path.endswith("pattern_matcher.py")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", help=f"comma-separated, each of {', '.join(NAMES)}[-nogc]")
    parser.add_argument(
        "--stats",
        metavar="DIR",
        help="profile each compile, keep its profile in DIR, print the pattern matcher's time",
    )
    args = parser.parse_args()
    variants = args.variants.split(",")
    for variant in variants:
        if variant.removesuffix("-nogc") not in NAMES and not re.fullmatch(
            r"method-deeper\d+", variant.removesuffix("-nogc")
        ):
            parser.error(
                f"unknown variant {variant!r}; give names from {', '.join(NAMES)}, each "
                f"optionally ending in -nogc, e.g. magi-nogc,replica-nogc"
            )
    collections: dict[int, tuple[int, float]] = {}
    started = [0.0]

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        n, seconds = collections.get(info["generation"], (0, 0.0))
        collections[info["generation"]] = (n + 1, seconds + time.perf_counter() - started[0])

    model = zoo.load("minimax-h3-vae", "full", dtype=torch.bfloat16)
    print(f"torch {torch.__version__}; fake CUDA, generate only; minimax-h3-vae full, bf16")
    gc.callbacks.append(count)
    for i, variant in enumerate(variants):
        collections.clear()
        compiling = backend(variant.removesuffix("-nogc"))
        stats = os.path.join(args.stats, f"variant_{i}_{variant}.pstats") if args.stats else None
        if variant.endswith("-nogc"):
            gc.disable()
        try:
            text = frame_compile_time.compile_once(model, variant, False, stats, compiling)
        finally:
            gc.enable()
        by_generation = {g: (n, round(s, 2)) for g, (n, s) in sorted(collections.items())}
        matcher = f"; pattern matcher {match_seconds(stats):.2f} s" if stats else ""
        print(
            f"{variant:<20} collections by generation {by_generation}{matcher}\n{text}",
            flush=True,
        )


if __name__ == "__main__":
    main()
