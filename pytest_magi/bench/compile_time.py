"""Compile-time mode of the zoo benchmark: where a zoo model's compile time goes, without a GPU.

    python benchmarks/zoo.py compile-time hunyuanvideo-vae --form --census
    python benchmarks/zoo.py compile-time allegro-vae --option height=45 --option width=80

Generates a zoo model's full-size decode (bf16, random weights) for fake CUDA, once per side,
and prints the wall time of Inductor's code generation (no Triton compile, no autotuning, no
run), the part spent in the magi passes themselves (`PassManager` calls), the side's Triton
kernels (distinct) and launches, and how many operations Inductor's scheduler was given (one
scheduler node each before fusion) with the time it took to build and fuse them. About half a
minute a side on 2 cores.

Sides: `torch.compile` (plain Inductor), `magi` (`PassConfig()`), `magi-no-gn-stats`
(`enable_group_norm_stats=False`), `magi-cl-params` (`magi` on a copy whose conv weights are
channels-last in place: no per-call weight conversion in the graph), `magi-gn-chunks`
(`group_norm_chunked_stats`), `magi-decided-plain` (what the backend compiles where a decision
keeps plain Inductor: every measured pass off, the rest of magi on), `magi-no-pw-autotune`
(Inductor's `triton.autotune_pointwise` off), and ``magi+FIELD=VALUE[+FIELD=VALUE...]``
(``magi-cl-params+...``): `magi` with those `PassConfig` fields set, e.g.
``magi+enable_conv_channels_last=0`` (which pass adds a model's kernels). `--form` compiles the
magi sides in the model's compile form (its `PassConfig` fields, its weights in place where the
form says so), as `magi_compile` does. `--repeat N` runs the sides N times in turn (code
generation time varies by a third between runs of one process).

`--census`: for each side, the kernels Inductor would autotune at the first call on a GPU and
the configs it would compile and benchmark for them (`candidate_configs`: each kernel's
heuristics decorator evaluated with Inductor's own config lists; one config: nothing to
autotune). `--census-classes`: the same by class of kernel (its heuristic and tiling dims).
`--instances`: each kernel name (its fused ops, the index dropped) whose launches differ between
the sides, with each side's count. `--option NAME=INT` passes an input-shape option to
`zoo.load` (the same decoder over fewer tiles, e.g. ``height=45``).
"""

from __future__ import annotations

import argparse
import collections
import copy
import re
import time
from typing import Any

import torch

from magi_passes import PassConfig, PassManager
from magi_passes.compile import forms
from magi_passes.compile.variants import _plain_config
from magi_passes.compile.weights import convert_conv_parameters
from pytest_magi import zoo
from pytest_magi.capture.codegen import inductor_codegen

SIDES = {
    "torch.compile": None,
    "magi": PassConfig(),
    "magi-no-gn-stats": PassConfig(enable_group_norm_stats=False),
    "magi-cl-params": PassConfig(),
    "magi-gn-chunks": PassConfig(group_norm_chunked_stats=True),
    "magi-decided-plain": PassConfig(),  # measured passes off below (after the form's fields)
    "magi-no-pw-autotune": PassConfig(),  # with the Inductor options of SIDE_INDUCTOR_OPTIONS
}
# the sides compiled with Inductor options of their own
SIDE_INDUCTOR_OPTIONS: dict[str, dict[str, Any]] = {
    "magi-no-pw-autotune": {"triton.autotune_pointwise": False},
}


def _side_config(side: str) -> tuple[PassConfig | None, dict[str, object]]:
    """The `PassConfig` of a side (a named one, or ``magi+FIELD=VALUE...``) and the fields the
    side sets, which win over the form's."""
    if side in SIDES:
        return SIDES[side], {}
    base, _, rest = side.partition("+")
    if base not in ("magi", "magi-cl-params") or not rest:
        raise SystemExit(
            f"unknown side {side!r}: one of {', '.join(SIDES)}, or magi+FIELD=VALUE "
            "(magi-cl-params+FIELD=VALUE)"
        )
    fields: dict[str, Any] = {}
    for item in rest.split("+"):
        name, _, value = item.partition("=")
        default = getattr(PassConfig(), name, None)
        if default is None or not value:
            raise SystemExit(f"side {side!r}: {item!r} is not FIELD=VALUE of a PassConfig field")
        fields[name] = value not in ("0", "false", "False") if isinstance(default, bool) else value
        if not isinstance(default, (bool, str)):
            fields[name] = type(default)(value)
    return PassConfig(**fields), fields


_DECORATOR = re.compile(r"@triton_heuristics\.(\w+)\(")


def candidate_configs(source: str) -> tuple[str, int]:
    """A kernel's heuristic (``pointwise``, ``reduction``, ...) and how many configs Inductor
    lists for it: its decorator's arguments evaluated by Inductor's own heuristics, with the
    autotuner they would build replaced by a count (``fixed_config`` and templates: 1)."""
    from torch._inductor.runtime import hints
    from torch._inductor.runtime import triton_heuristics as heuristics

    found = _DECORATOR.search(source)
    if found is None:
        return "unknown", 1
    kind = found.group(1)
    if kind not in ("pointwise", "reduction", "persistent_reduction", "split_scan"):
        return kind, 1
    depth, end = 1, found.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(source[end], 0)
        end += 1
    counted: list[int] = []
    real = heuristics.cached_autotune
    heuristics.cached_autotune = lambda size_hints, configs, *a, **k: counted.append(len(configs))
    try:
        names = {n: getattr(hints, n) for n in ("AutotuneHint", "ReductionHint", "TileHint")}
        namespace: dict[str, Any] = {
            "heuristics": heuristics,
            "DeviceProperties": hints.DeviceProperties,
            **names,
        }
        namespace["__file__"] = "<census>"
        eval(f"heuristics.{kind}({source[found.end() : end - 1]})", namespace)
    finally:
        heuristics.cached_autotune = real
    return kind, counted[0] if counted else 1


def census(code: Any) -> str:
    """``N kernels autotuned over M configs (by heuristic)`` for one side's generated code."""
    by_kind: collections.Counter[str] = collections.Counter()
    kernels = configs = single = 0
    for graph in code.captured:
        for kernel in graph.kernels:
            kind, count = candidate_configs(kernel.source)
            if count > 1:
                kernels += 1
                configs += count
                by_kind[kind] += count
            else:
                single += 1
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items()))
    return (
        f"autotuned at the first call: {kernels} kernels over {configs} configs ({kinds}); "
        f"{single} kernels with one config"
    )


def config_classes(code: Any) -> dict[tuple[str, str], list[int]]:
    """`--census-classes`: for one side's generated code, each class of kernel (its heuristic
    and the dims of its size hints, e.g. ``("pointwise", "y,x")``) -> [kernels, configs
    Inductor would autotune over at the first call]."""
    classes: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    for graph in code.captured:
        for kernel in graph.kernels:
            kind, count = candidate_configs(kernel.source)
            key = (kind, ",".join(kernel.size_hints))
            classes[key][0] += 1
            classes[key][1] += count if count > 1 else 0
    return dict(classes)


def class_table(by_side: dict[str, dict[tuple[str, str], list[int]]]) -> list[str]:
    """The rows of `--census-classes`: each class's kernels and autotuned configs on every side,
    the classes whose configs differ first, most configs first."""
    sides = list(by_side)
    keys = set().union(*by_side.values())
    rows = [f"  kernels / autotuned configs by class: {', '.join(sides)}"]

    def cell(side: str, key: tuple[str, str]) -> list[int]:
        return by_side[side].get(key, [0, 0])

    for key in sorted(
        keys,
        key=lambda k: (
            len({cell(s, k)[1] for s in sides}) == 1,
            -max(cell(s, k)[1] for s in sides),
        ),
    ):
        cells = " ".join(f"{cell(s, key)[0]:4d}/{cell(s, key)[1]:<4d}" for s in sides)
        rows.append(f"  {cells}  {key[0]} ({key[1]})")
    return rows


def launches_by_name(code: Any) -> collections.Counter[str]:
    """How many times each kernel (by name less its index, e.g. ``triton_poi_fused_clone``) or
    extern op is launched in one side's generated code."""
    return collections.Counter(
        re.sub(r"_\d+$", "", call) for graph in code.captured for call in graph.calls
    )


def instance_table(by_side: dict[str, collections.Counter[str]]) -> list[str]:
    """The rows of `--instances`: each name launched a different number of times by the
    sides, most launched first, with each side's count."""
    sides = list(by_side)
    names = set().union(*by_side.values())
    rows = [f"  launches by kernel name where the sides differ: {', '.join(sides)}"]
    for name in sorted(names, key=lambda n: (-max(c[n] for c in by_side.values()), n)):
        counts = [by_side[s][name] for s in sides]
        if len(set(counts)) > 1:
            rows.append("  " + " ".join(f"{n:6d}" for n in counts) + f"  {name}")
    return rows


def add_shape_options(parser: argparse.ArgumentParser) -> None:
    """`--option NAME=INT`, repeatable: an input-shape option of `zoo.load`."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=INT",
        help="an input-shape option of zoo.load (e.g. height=45): the same decoder, smaller",
    )


def shape_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    """The `--option` values as `zoo.load`'s keyword arguments."""
    options = {}
    for option in args.option:
        name, _, value = option.partition("=")
        if not name or not value.isdigit():
            parser.error(f"--option {option!r}: expected NAME=INT, e.g. --option height=45")
        options[name] = int(value)
    return options


def main(argv: list[str] | None = None) -> int:
    """The compile-time mode's command line."""
    parser = argparse.ArgumentParser(
        prog="zoo.py compile-time", description="where a zoo model's compile time goes (fake CUDA)"
    )
    parser.add_argument("model", choices=zoo.names())
    parser.add_argument(
        "--sides",
        default=",".join(SIDES),
        help=f"comma list of {', '.join(SIDES)} or magi+FIELD=VALUE",
    )
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--form", action="store_true", help="the magi sides in the model's form")
    parser.add_argument("--census", action="store_true", help="count the autotuned configs")
    parser.add_argument(
        "--instances", action="store_true", help="launches by kernel name where the sides differ"
    )
    parser.add_argument(
        "--census-classes",
        action="store_true",
        help="kernels and autotuned configs by heuristic and tiling dims, each side",
    )
    add_shape_options(parser)
    args = parser.parse_args(argv)
    model = zoo.load(args.model, "full", dtype=torch.bfloat16, **shape_options(parser, args))
    form = forms.form_for(model.module) if args.form else None
    fields = dict(form.pass_config) if form is not None else {}
    spent = [0.0]
    call = PassManager.__call__

    def timed(self: PassManager, graph: torch.fx.Graph) -> None:
        start = time.perf_counter()
        try:
            call(self, graph)
        finally:
            spent[0] += time.perf_counter() - start

    PassManager.__call__ = timed  # type: ignore[method-assign]
    # the operations Inductor's scheduler is given (one scheduler node each before fusion) and
    # the time it takes to build and fuse them
    from torch._inductor import scheduler

    scheduled = [0, 0.0]
    init = scheduler.Scheduler.__init__

    def counted(self: Any, nodes: Any, *args: Any, **kwargs: Any) -> None:
        scheduled[0] += len(nodes)
        start = time.perf_counter()
        try:
            init(self, nodes, *args, **kwargs)
        finally:
            scheduled[1] += time.perf_counter() - start

    scheduler.Scheduler.__init__ = counted  # type: ignore[method-assign]
    try:
        print(
            f"torch {torch.__version__}; fake CUDA; {args.model} full, bf16; "
            f"form {form.describe() if form is not None else 'generic'}"
        )
        by_side: dict[str, collections.Counter[str]] = {}  # the last round's launches
        classes: dict[str, dict[tuple[str, str], list[int]]] = {}
        for _ in range(args.repeat):
            for side in args.sides.split(","):
                module = model.as_module()
                config, overrides = _side_config(side)
                in_place = form is not None and form.channels_last_parameters
                if config is not None:
                    config = config.replace(**{**fields, **overrides})
                if side == "magi-decided-plain" and config is not None:
                    config = _plain_config(config) or config
                if side.partition("+")[0] == "magi-cl-params" or (config is not None and in_place):
                    module = copy.deepcopy(module)
                    convert_conv_parameters(module)
                spent[0] = 0.0
                scheduled[:] = [0, 0.0]
                start = time.perf_counter()
                code = inductor_codegen(
                    module,
                    *model.inputs,
                    config=config,
                    inductor_config=SIDE_INDUCTOR_OPTIONS.get(side),
                )
                took = time.perf_counter() - start
                kernels = sum(len(g.kernels) for g in code.captured)
                launches = sum(len(g.calls) for g in code.captured)
                print(
                    f"  {side:<18} codegen {took:5.1f} s, of it the magi passes {spent[0]:4.1f} s; "
                    f"{kernels} Triton kernels, {launches} launches; the scheduler given "
                    f"{scheduled[0]} operations, {scheduled[1]:.1f} s to fuse them",
                    flush=True,
                )
                if args.census:
                    print(f"  {'':<18} {census(code)}", flush=True)
                by_side[side] = launches_by_name(code)
                if args.census_classes:
                    classes[side] = config_classes(code)
        if args.instances:
            print("\n".join(instance_table(by_side)))
        if args.census_classes:
            print("\n".join(class_table(classes)))
    finally:
        PassManager.__call__ = call  # type: ignore[method-assign]
        scheduler.Scheduler.__init__ = init  # type: ignore[method-assign]
    return 0
