"""The magi markers: one table, parsed once at collection, and what each marker does.

| marker | parsed into | effect |
| --- | --- | --- |
| `requires_cuda` / `requires_cuda(min_capability=(8, 0))` | `RequiresCuda` | skipped, with a reason naming the device, when there is no such GPU |
| `min_speedup(ratio)` | `MinSpeedup` | perf test: with `--magi-perf` every `compiled_pair` the test built is timed after the body passed and must reach `ratio`; without it the body runs and the test is then skipped |
| `no_graph_breaks(side="both")` | `CompileLimit` | after the body passed, every `compiled_pair` the test built must have compiled without a graph break (`pair.expect_compile(graph_breaks=0)`) |
| `no_recompiles(side="both")` | `CompileLimit` | the same for recompiles (`pair.expect_compile(recompiles=0)`) |

Parsing is strict: a bad argument is a `pytest.UsageError` naming the test, the value (`!r`) and
what is expected, raised at collection so a typo never turns into a silently weaker test.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from .gpus import timed_gpu
from .report import NUMERICS_NOT_CHECKED, PairRecord
from .timing import host_text

# The marker table: name -> "signature: one-line help" (registered in pytest_configure).
MARKERS: dict[str, str] = {
    "requires_cuda": (
        "requires_cuda(min_capability=None): skip unless a CUDA GPU (of at least compute "
        "capability (major, minor)) is available"
    ),
    "min_speedup": (
        "min_speedup(ratio): perf test; with --magi-perf fail unless candidate/baseline "
        "speedup >= ratio"
    ),
    "no_graph_breaks": (
        "no_graph_breaks(side='both'): fail if a compiled_pair of the test graph-breaks "
        "(side: 'baseline', 'candidate' or 'both')"
    ),
    "no_recompiles": (
        "no_recompiles(side='both'): fail if a compiled_pair of the test recompiles "
        "(side: 'baseline', 'candidate' or 'both')"
    ),
}
# the compile-health markers: marker name -> the CompileStats count that must stay 0
COMPILE_LIMIT_COUNTS: dict[str, str] = {
    "no_graph_breaks": "graph_breaks",
    "no_recompiles": "recompiles",
}
SIDE_CHOICES = ("both", "baseline", "candidate")

PERF_SKIP_REASON = "timing skipped: run with --magi-perf"
NO_PAIR_MESSAGE = "min_speedup test built no compiled_pair"


@dataclass(frozen=True)
class RequiresCuda:
    """`@pytest.mark.requires_cuda(min_capability=(major, minor))`."""

    min_capability: tuple[int, int] | None = None


@dataclass(frozen=True)
class MinSpeedup:
    """`@pytest.mark.min_speedup(ratio)`: the candidate must be `ratio` times faster."""

    ratio: float


@dataclass(frozen=True)
class CompileLimit:
    """`@pytest.mark.no_graph_breaks` / `no_recompiles`: `count` must stay 0 on `side`."""

    marker: str
    count: str
    side: str = "both"


# --------------------------------------------------------------------------- parsing
def _usage_error(nodeid: str, usage: str, problem: str, expected: str) -> pytest.UsageError:
    return pytest.UsageError(f"{nodeid}: @pytest.mark.{usage}: {problem}; expected {expected}")


def _check_no_extra(
    nodeid: str,
    name: str,
    usage: str,
    args: Sequence[Any],
    kwargs: dict[str, Any],
    allowed: Sequence[str],
) -> None:
    unknown = sorted(set(kwargs) - set(allowed))
    if unknown:
        raise _usage_error(
            nodeid,
            usage,
            f"unknown keyword argument(s) {', '.join(unknown)}",
            f"only {', '.join(allowed) or 'no keyword arguments'}",
        )
    if args:
        raise _usage_error(
            nodeid,
            usage,
            f"unexpected positional argument(s) {', '.join(repr(a) for a in args)}",
            "the signature " + MARKERS[name].split(":")[0],
        )


def parse_requires_cuda(nodeid: str, args: Sequence[Any], kwargs: dict[str, Any]) -> RequiresCuda:
    """`requires_cuda` / `requires_cuda(min_capability=(8, 0))` -> `RequiresCuda`."""
    usage = "requires_cuda(min_capability=(major, minor))"
    _check_no_extra(nodeid, "requires_cuda", usage, args, kwargs, ("min_capability",))
    value = kwargs.get("min_capability")
    if value is None:
        return RequiresCuda()
    if (
        not isinstance(value, tuple | list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise _usage_error(
            nodeid,
            usage,
            f"min_capability={value!r}",
            "a (major, minor) pair of non-negative ints such as (8, 0), or None",
        )
    return RequiresCuda(min_capability=(int(value[0]), int(value[1])))


def parse_min_speedup(nodeid: str, args: Sequence[Any], kwargs: dict[str, Any]) -> MinSpeedup:
    """`min_speedup(ratio)` or `min_speedup(ratio=...)` -> `MinSpeedup`."""
    usage = "min_speedup(ratio)"
    expected = "a finite number > 0 such as 1.2 (the required candidate/baseline speedup)"
    args = list(args)
    kwargs = dict(kwargs)
    if "ratio" in kwargs:
        if args:
            raise _usage_error(
                nodeid,
                usage,
                f"ratio given twice ({args[0]!r} and ratio={kwargs['ratio']!r})",
                "one ratio",
            )
        args = [kwargs.pop("ratio")]
    if not args:
        raise _usage_error(nodeid, usage, "the ratio is missing", expected)
    ratio, *extra = args
    _check_no_extra(nodeid, "min_speedup", usage, extra, kwargs, ("ratio",))
    if (
        not isinstance(ratio, int | float)
        or isinstance(ratio, bool)
        or not math.isfinite(ratio)
        or ratio <= 0
    ):
        raise _usage_error(nodeid, usage, f"ratio={ratio!r}", expected)
    return MinSpeedup(ratio=float(ratio))


def _compile_limit_parser(
    name: str,
) -> Callable[[str, Sequence[Any], dict[str, Any]], CompileLimit]:
    def parse(nodeid: str, args: Sequence[Any], kwargs: dict[str, Any]) -> CompileLimit:
        """`no_graph_breaks` / `no_graph_breaks(side="candidate")` -> `CompileLimit`."""
        usage = f"{name}(side='both')"
        args, kwargs = list(args), dict(kwargs)
        if args and "side" not in kwargs:
            kwargs["side"] = args.pop(0)
        _check_no_extra(nodeid, name, usage, args, kwargs, ("side",))
        side = kwargs.get("side", "both")
        if side not in SIDE_CHOICES:
            raise _usage_error(
                nodeid, usage, f"side={side!r}", "one of " + ", ".join(map(repr, SIDE_CHOICES))
            )
        return CompileLimit(name, COMPILE_LIMIT_COUNTS[name], side)

    return parse


PARSERS: dict[str, Callable[[str, Sequence[Any], dict[str, Any]], Any]] = {
    "requires_cuda": parse_requires_cuda,
    "min_speedup": parse_min_speedup,
    **{name: _compile_limit_parser(name) for name in COMPILE_LIMIT_COUNTS},
}


def parse_item_markers(item: pytest.Item) -> dict[str, Any]:
    """Parse every magi marker on `item` (all of them are validated; the closest one wins)."""
    parsed: dict[str, Any] = {}
    for name, parse in PARSERS.items():
        for mark in item.iter_markers(name):  # closest first
            value = parse(item.nodeid, mark.args, dict(mark.kwargs))
            parsed.setdefault(name, value)
    return parsed


# --------------------------------------------------------------------------- requires_cuda
def requires_cuda_skip_reason(spec: RequiresCuda) -> str | None:
    """Why a test marked `requires_cuda` cannot run here, or None when it can."""
    import torch

    wanted = (
        f"CUDA capability >= {spec.min_capability[0]}.{spec.min_capability[1]}"
        if spec.min_capability
        else "a CUDA GPU"
    )
    if not torch.cuda.is_available():
        build = f"CUDA {torch.version.cuda}" if torch.version.cuda else "a CPU-only build"
        return (
            f"requires {wanted}: torch.cuda.is_available() is False "
            f"(torch {torch.__version__}, {build})"
        )
    if spec.min_capability is None:
        return None
    index = torch.cuda.current_device()
    capability = tuple(torch.cuda.get_device_capability(index))
    if capability >= spec.min_capability:
        return None
    name = torch.cuda.get_device_name(index)
    return (
        f"requires {wanted}: cuda:{index} ({name}) has capability {capability[0]}.{capability[1]}"
    )


# --------------------------------------------------------------------------- compile health
def check_compile_limits(nodeid: str, limits: Sequence[CompileLimit], pairs: Sequence[Any]) -> None:
    """After the body passed: every pair must meet every limit; one failure lists them all."""
    if not pairs:
        names = ", ".join(f"@pytest.mark.{lim.marker}" for lim in limits)
        pytest.fail(
            f"{names} checks the compiled_pair(s) the test builds, and it built none; build one "
            f"with the compiled_pair fixture (compiled_pair(model, *inputs)) or drop the marker",
            pytrace=False,
        )
    problems: list[str] = []
    for pair in pairs:
        for lim in limits:
            try:
                pair.expect_compile(side=lim.side, **{lim.count: 0})
            except AssertionError as exc:
                problems.append(f"@pytest.mark.{lim.marker}: {exc}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def compile_summary(pair: Any) -> str | None:
    """The compile column of a pair: ``graphs 3->4 (more), breaks 1->1, recompiles 0->0``."""
    stats = getattr(pair, "compile_stats", None)
    if not isinstance(stats, dict) or set(stats) != {"baseline", "candidate"}:
        return None
    b, c = stats["baseline"], stats["candidate"]
    more = " (more)" if c.graphs > b.graphs else ""
    return (
        f"graphs {b.graphs}->{c.graphs}{more}, breaks {b.graph_breaks}->{c.graph_breaks}, "
        f"recompiles {b.recompiles}->{c.recompiles}"
    )


def numerics_of(pair: Any) -> str:
    """The numerics cell of a pair's report row: its last ``assert_close`` in one line, or
    ``"not checked"`` (a speedup nothing vouches for: the test never compared the outputs)."""
    text = getattr(pair, "numerics", None)
    return text if isinstance(text, str) and text else NUMERICS_NOT_CHECKED


# --------------------------------------------------------------------------- min_speedup
def check_min_speedup(
    nodeid: str,
    spec: MinSpeedup,
    pairs: Sequence[Any],
    *,
    perf: bool,
    rounds: int,
    record: Callable[[PairRecord], None],
) -> None:
    """After a `min_speedup` test's body passed: time its pairs (or skip) and give the verdict.

    Every pair is recorded through `record`, measured or not. Raises `pytest.fail` when a pair
    misses the ratio or the test built no pair, `pytest.skip` when timing is off.
    """
    if not pairs:
        pytest.fail(
            f"{NO_PAIR_MESSAGE}: @pytest.mark.min_speedup({spec.ratio:g}) times the pairs the "
            f"test builds with the compiled_pair fixture (compiled_pair(model, *inputs)); "
            f"build at least one, or drop the marker",
            pytrace=False,
        )
    if not perf:
        for pair in pairs:
            rec = PairRecord.not_measured(nodeid, str(pair.label), spec.ratio)
            record(
                dataclasses.replace(rec, compile=compile_summary(pair), numerics=numerics_of(pair))
            )
        pytest.skip(PERF_SKIP_REASON)

    from .timing import PerfLock, measure_pair

    failures: list[PairRecord] = []
    for pair in pairs:
        with PerfLock():  # re-entrant: measure_pair takes it too
            speedup = measure_pair(pair, rounds=rounds, threshold=spec.ratio)
        rec = PairRecord.from_speedup(nodeid, str(pair.label), spec.ratio, speedup)
        gpu_index, gpu_name = timed_gpu(getattr(pair, "device", None), rec.device)
        rec = dataclasses.replace(
            rec,
            compile=compile_summary(pair),
            gpu_index=gpu_index,
            gpu_name=gpu_name,
            numerics=numerics_of(pair),
        )
        record(rec)
        if rec.verdict != "pass":
            failures.append(rec)
    if failures:
        pytest.fail("\n".join(format_speedup_failure(rec) for rec in failures), pytrace=False)


def format_speedup_failure(rec: PairRecord) -> str:
    """The failure text of one pair below its required speedup."""
    return (
        f"min_speedup({rec.required:g}) not met by pair {rec.label!r}: "
        f"speedup {rec.speedup:.3f}x < required {rec.required:.3f}x\n"
        f"  baseline  median {rec.baseline_ms:.4f} ms\n"
        f"  candidate median {rec.candidate_ms:.4f} ms\n"
        f"  spread {rec.spread:.1%} (IQR/median of the round ratios) over {rec.rounds} rounds\n"
        f"  device {rec.device}{'' if rec.gpu_index is None else f' (GPU {rec.gpu_index})'}, "
        f"torch {rec.torch_version}" + _host_line(rec) + f"\n  numerics {rec.numerics or '-'}"
    )


def _host_line(rec: PairRecord) -> str:
    text = host_text(rec.baseline_ms, rec.baseline_host_ms, rec.candidate_ms, rec.candidate_host_ms)
    return f"\n  {text}" if text else ""
