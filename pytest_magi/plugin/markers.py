"""The magi markers: one table, parsed once at collection into frozen dataclasses.

| marker | parsed into | effect |
| --- | --- | --- |
| `requires_cuda` / `requires_cuda(min_capability=(8, 0), reason=...)` | `RequiresCuda` | skipped, with a reason naming the device, when there is no such GPU |
| `min_speedup(ratio)` | `MinSpeedup` | perf test: timed with `--magi-perf` (`pytest_magi.plugin.verdicts`) |
| `min_estimated_speedup(ratio, profile="h200")` | `MinEstimatedSpeedup` | CPU gate: each pair's speedup estimated from its generated code (`pytest_magi.budget`) |
| `no_graph_breaks(side="both")` | `CompileLimit` | every `compiled_pair` of the test compiled without a graph break |
| `no_recompiles(side="both")` | `CompileLimit` | the same for recompiles |
| `magi` | - | opts a test, class or module in: the plugin checks it though it uses no magi fixture |

Parsing is strict for arguments that are the plugin's: a bad value is a `pytest.UsageError`
naming the test, the value (`!r`) and what is expected. `reason=` is accepted everywhere (pytest's
own vocabulary). A marker another project registers under the same name is that project's: the
plugin leaves it alone (`foreign_markers`). A `requires_cuda` with arguments the plugin does not
know is treated the same way, with one warning per run. This module imports no torch.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

# The marker table: name -> "signature: one-line help" (registered in pytest_configure).
MARKERS: dict[str, str] = {
    "requires_cuda": (
        "requires_cuda(min_capability=None, reason=None): skip unless a CUDA GPU (of at least "
        "compute capability (major, minor)) is available"
    ),
    "min_speedup": (
        "min_speedup(ratio): perf test; with --magi-perf fail unless candidate/baseline "
        "speedup >= ratio"
    ),
    "min_estimated_speedup": (
        "min_estimated_speedup(ratio, profile='h200'): fail unless the speedup of each "
        "compiled_pair, estimated from its generated CUDA code on a GPU profile, is >= ratio "
        "(no GPU needed)"
    ),
    "no_graph_breaks": (
        "no_graph_breaks(side='both'): fail if a compiled_pair of the test graph-breaks "
        "(side: 'baseline', 'candidate' or 'both')"
    ),
    "no_recompiles": (
        "no_recompiles(side='both'): fail if a compiled_pair of the test recompiles "
        "(side: 'baseline', 'candidate' or 'both')"
    ),
    "magi": (
        "magi: opt this test (class, module) in to the magi plugin's checks, such as the "
        "Inductor config leak guard, though it uses no magi fixture"
    ),
}
# the compile-health markers: marker name -> the CompileStats count that must stay 0
COMPILE_LIMIT_COUNTS: dict[str, str] = {
    "no_graph_breaks": "graph_breaks",
    "no_recompiles": "recompiles",
}
SIDE_CHOICES = ("both", "baseline", "candidate")


class MagiMarkerWarning(pytest.PytestWarning):
    """A marker of a magi name that the plugin leaves to its owner (shown once per run)."""


class NotOurs(Exception):
    """Raised by a parser: this mark is another project's marker of the same name."""


@dataclass(frozen=True)
class RequiresCuda:
    """`@pytest.mark.requires_cuda(min_capability=(major, minor), reason=...)`."""

    min_capability: tuple[int, int] | None = None
    reason: str | None = None


@dataclass(frozen=True)
class MinSpeedup:
    """`@pytest.mark.min_speedup(ratio)`: the candidate must be `ratio` times faster."""

    ratio: float


@dataclass(frozen=True)
class MinEstimatedSpeedup:
    """`@pytest.mark.min_estimated_speedup(ratio, profile="h200")`: the candidate's estimated
    time on `profile` must be `ratio` times below the baseline's."""

    ratio: float
    profile: str = "h200"


@dataclass(frozen=True)
class CompileLimit:
    """`@pytest.mark.no_graph_breaks` / `no_recompiles`: `count` must stay 0 on `side`."""

    marker: str
    count: str
    side: str = "both"


# --------------------------------------------------------------------------- foreign markers
def foreign_markers(registered: Iterable[str]) -> dict[str, str]:
    """Names of the magi markers that another project registers too, with its line.

    `registered` is `config.getini("markers")`: every `name(args): help` line, the plugin's own
    among them. A line of a magi marker's name that is not the plugin's is another project's.
    """
    ours = set(MARKERS.values())
    found: dict[str, str] = {}
    for line in registered:
        name = line.split(":", 1)[0].split("(", 1)[0].strip()
        if name in MARKERS and line.strip() not in ours:
            found.setdefault(name, line.strip())
    return found


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
    unknown = sorted(set(kwargs) - set(allowed) - {"reason"})
    if unknown:
        raise _usage_error(
            nodeid,
            usage,
            f"unknown keyword argument(s) {', '.join(unknown)}",
            f"only {', '.join((*allowed, 'reason'))}",
        )
    if args:
        raise _usage_error(
            nodeid,
            usage,
            f"unexpected positional argument(s) {', '.join(repr(a) for a in args)}",
            "the signature " + MARKERS[name].split(":")[0],
        )


def _reason(nodeid: str, usage: str, kwargs: dict[str, Any]) -> str | None:
    reason = kwargs.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise _usage_error(nodeid, usage, f"reason={reason!r}", "a str (or None)")
    return reason


def parse_requires_cuda(nodeid: str, args: Sequence[Any], kwargs: dict[str, Any]) -> RequiresCuda:
    """`requires_cuda` / `requires_cuda(min_capability=(8, 0), reason="...")` -> `RequiresCuda`.

    Arguments the plugin does not know raise `NotOurs` (another project's marker), except a
    near miss of `min_capability`, which is a typo of ours and a `UsageError`.
    """
    usage = "requires_cuda(min_capability=(major, minor))"
    unknown = sorted(set(kwargs) - {"min_capability", "reason"})
    for key in unknown:
        if difflib.get_close_matches(key, ["min_capability"], n=1, cutoff=0.75):
            raise _usage_error(
                nodeid, usage, f"unknown keyword argument {key}", "min_capability (a typo?)"
            )
    if unknown or args:
        raise NotOurs(
            ", ".join([*(repr(a) for a in args), *(f"{k}={kwargs[k]!r}" for k in unknown)])
        )
    reason = _reason(nodeid, usage, kwargs)
    value = kwargs.get("min_capability")
    if value is None:
        return RequiresCuda(reason=reason)
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
    return RequiresCuda(min_capability=(int(value[0]), int(value[1])), reason=reason)


def _ratio_argument(
    nodeid: str, usage: str, args: Sequence[Any], kwargs: dict[str, Any]
) -> tuple[float, list[Any], dict[str, Any]]:
    """The ratio of `marker(ratio, ...)` or `marker(ratio=...)`, and the arguments left over."""
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
    if (
        not isinstance(ratio, int | float)
        or isinstance(ratio, bool)
        or not math.isfinite(ratio)
        or ratio <= 0
    ):
        raise _usage_error(nodeid, usage, f"ratio={ratio!r}", expected)
    return float(ratio), extra, kwargs


def parse_min_speedup(nodeid: str, args: Sequence[Any], kwargs: dict[str, Any]) -> MinSpeedup:
    """`min_speedup(ratio)` or `min_speedup(ratio=...)` -> `MinSpeedup`."""
    usage = "min_speedup(ratio)"
    ratio, extra, rest = _ratio_argument(nodeid, usage, args, kwargs)
    _check_no_extra(nodeid, "min_speedup", usage, extra, rest, ("ratio",))
    _reason(nodeid, usage, rest)
    return MinSpeedup(ratio=ratio)


def parse_min_estimated_speedup(
    nodeid: str, args: Sequence[Any], kwargs: dict[str, Any]
) -> MinEstimatedSpeedup:
    """`min_estimated_speedup(ratio, profile="h200")` -> `MinEstimatedSpeedup`; the profile is
    one of the named ones (`pytest_magi.budget.profiles.PROFILES`)."""
    from ..budget.profiles import PROFILES  # plain data: no torch

    name = "min_estimated_speedup"
    usage = "min_estimated_speedup(ratio, profile='h200')"
    ratio, extra, rest = _ratio_argument(nodeid, usage, args, kwargs)
    if extra and "profile" not in rest:
        rest["profile"] = extra.pop(0)
    _check_no_extra(nodeid, name, usage, extra, rest, ("ratio", "profile"))
    _reason(nodeid, usage, rest)
    profile = rest.get("profile", "h200")
    if not isinstance(profile, str) or profile.lower() not in PROFILES:
        raise _usage_error(
            nodeid,
            usage,
            f"profile={profile!r}",
            f"a profile name, one of {', '.join(map(repr, sorted(PROFILES)))} (a profile of "
            f"your own: build the pair's budget with pair.budget(Profile(...)) in the test)",
        )
    return MinEstimatedSpeedup(ratio=ratio, profile=profile.lower())


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
        _reason(nodeid, usage, kwargs)
        side = kwargs.get("side", "both")
        if side not in SIDE_CHOICES:
            raise _usage_error(
                nodeid, usage, f"side={side!r}", "one of " + ", ".join(map(repr, SIDE_CHOICES))
            )
        return CompileLimit(name, COMPILE_LIMIT_COUNTS[name], side)

    return parse


def _parse_opt_in(nodeid: str, args: Sequence[Any], kwargs: dict[str, Any]) -> bool:
    if args or set(kwargs) - {"reason"}:
        raise _usage_error(nodeid, "magi", "arguments given", "no arguments: @pytest.mark.magi")
    return True


PARSERS: dict[str, Callable[[str, Sequence[Any], dict[str, Any]], Any]] = {
    "requires_cuda": parse_requires_cuda,
    "min_speedup": parse_min_speedup,
    "min_estimated_speedup": parse_min_estimated_speedup,
    **{name: _compile_limit_parser(name) for name in COMPILE_LIMIT_COUNTS},
    "magi": _parse_opt_in,
}


@dataclass
class ParsedMarkers:
    """The magi markers of one test: name -> parsed value (the closest mark wins), and the
    marks left to their owners (name -> the arguments that said so)."""

    values: dict[str, Any]
    not_ours: dict[str, str]


def parse_item_markers(
    item: pytest.Item, skip: Iterable[str] = (), names: Iterable[str] | None = None
) -> ParsedMarkers:
    """Parse every magi marker on `item` but those in `skip` (another project's).

    Every mark of a name is validated; the closest one wins. `names`: the marker names the item
    carries, when the caller knows them already."""
    values: dict[str, Any] = {}
    not_ours: dict[str, str] = {}
    present = set(PARSERS) if names is None else set(names) & set(PARSERS)
    for name in PARSERS:
        if name not in present or name in skip:
            continue
        for mark in item.iter_markers(name):  # closest first
            try:
                value = PARSERS[name](item.nodeid, mark.args, dict(mark.kwargs))
            except NotOurs as exc:
                not_ours.setdefault(name, str(exc))
                continue
            values.setdefault(name, value)
    return ParsedMarkers(values, not_ours)


# --------------------------------------------------------------------------- requires_cuda
def requires_cuda_skip_reason(spec: RequiresCuda) -> str | None:
    """Why a test marked `requires_cuda` cannot run here, or None when it can."""
    import torch

    wanted = (
        f"CUDA capability >= {spec.min_capability[0]}.{spec.min_capability[1]}"
        if spec.min_capability
        else "a CUDA GPU"
    )
    prefix = f"{spec.reason}: " if spec.reason else ""
    if not torch.cuda.is_available():
        build = f"CUDA {torch.version.cuda}" if torch.version.cuda else "a CPU-only build"
        return (
            f"{prefix}requires {wanted}: torch.cuda.is_available() is False "
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
        f"{prefix}requires {wanted}: cuda:{index} ({name}) has capability "
        f"{capability[0]}.{capability[1]}"
    )
