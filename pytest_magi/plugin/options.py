"""The plugin's options (group "magi", each with an ini twin) and how a run reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from .session import DEFAULT_LOCATE_BUDGET, DEFAULT_PERF_ROUNDS, GUARD_CHOICES, MagiSession

MIN_ROUNDS = 3  # one round is never a verdict (pytest_magi.measure.timing.MIN_ROUNDS)


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("magi", "magi: Inductor pass regression testing")
    group.addoption(
        "--magi-perf",
        action="store_true",
        default=None,
        dest="magi_perf",
        help="time the compiled pairs of min_speedup tests and enforce their ratios",
    )
    group.addoption(
        "--magi-perf-cpu",
        action="store_true",
        default=None,
        dest="magi_perf_cpu",
        help="with --magi-perf, also time pairs that run on the CPU (skipped otherwise)",
    )
    group.addoption(
        "--magi-perf-rounds",
        action="store",
        default=None,
        dest="magi_perf_rounds",
        metavar="N",
        help=f"interleaved timing rounds per pair (default {DEFAULT_PERF_ROUNDS})",
    )
    group.addoption(
        "--magi-estimate",
        action="store",
        default=None,
        dest="magi_estimate",
        metavar="PROFILE",
        help="with --magi-perf, also estimate each timed pair's speedup from its generated code "
        "on this device profile (h200, h100) and report it beside the measured one",
    )
    group.addoption(
        "--magi-report",
        action="store",
        default=None,
        dest="magi_report",
        metavar="PATH",
        help="write every measured pair and kernel count as JSON to PATH",
    )
    group.addoption(
        "--magi-report-png",
        action="store",
        default=None,
        dest="magi_report_png",
        metavar="PATH",
        help="write a bar chart of speedups vs required ratios to PATH (needs matplotlib)",
    )
    group.addoption(
        "--magi-locate",
        action="store_true",
        default=None,
        dest="magi_locate",
        help="on a failing numerics check of a pair, locate the wrong graph, output and cure",
    )
    group.addoption(
        "--magi-locate-budget",
        action="store",
        default=None,
        dest="magi_locate_budget",
        metavar="SECONDS",
        help=f"seconds --magi-locate may spend retrying one pair (default {DEFAULT_LOCATE_BUDGET:g})",
    )
    group.addoption(
        "--magi-guard",
        action="store",
        default=None,
        dest="magi_guard",
        choices=GUARD_CHOICES,
        help="which tests the Inductor config leak guard checks: used (default: tests that use "
        "the plugin), all, off",
    )
    parser.addini("magi_perf", "default of --magi-perf", type="bool", default=False)
    parser.addini("magi_perf_cpu", "default of --magi-perf-cpu", type="bool", default=False)
    parser.addini("magi_locate", "default of --magi-locate", type="bool", default=False)
    parser.addini("magi_estimate", "default of --magi-estimate (a profile name)", default="")
    parser.addini(
        "magi_locate_budget",
        "default of --magi-locate-budget",
        default=str(DEFAULT_LOCATE_BUDGET),
    )
    parser.addini(
        "magi_perf_rounds", "default of --magi-perf-rounds", default=str(DEFAULT_PERF_ROUNDS)
    )
    parser.addini("magi_report", "default of --magi-report (relative to the rootdir)", default="")
    parser.addini(
        "magi_report_png", "default of --magi-report-png (relative to the rootdir)", default=""
    )
    parser.addini("magi_guard", "default of --magi-guard (used, all or off)", default="used")
    parser.addini(
        "magi_paths",
        "folders or files (relative to the ini file) whose tests opt in to the plugin's checks",
        type="paths",
        default=[],
    )


def option_or_ini(config: pytest.Config, name: str) -> tuple[object, str]:
    value = config.getoption(name)
    if value is not None:
        return value, f"--{name.replace('_', '-')}"
    return config.getini(name), f"ini {name}"


def _rounds(config: pytest.Config) -> int:
    value, source = option_or_ini(config, "magi_perf_rounds")
    try:
        rounds = int(str(value).strip())
    except ValueError:
        rounds = 0
    if rounds < MIN_ROUNDS:
        raise pytest.UsageError(
            f"{source}={value!r}: expected a whole number of timing rounds >= {MIN_ROUNDS} (one "
            f"round is never a verdict), e.g. --magi-perf-rounds {DEFAULT_PERF_ROUNDS}"
        )
    return rounds


def _locate_budget(config: pytest.Config) -> float:
    value, source = option_or_ini(config, "magi_locate_budget")
    try:
        budget = float(str(value).strip())
    except ValueError:
        budget = -1.0
    if not budget > 0:
        raise pytest.UsageError(
            f"{source}={value!r}: expected a positive number of seconds, e.g. "
            f"--magi-locate-budget {DEFAULT_LOCATE_BUDGET:g}"
        )
    return budget


def _guard(config: pytest.Config) -> str:
    value, source = option_or_ini(config, "magi_guard")
    mode = str(value).strip()
    if mode not in GUARD_CHOICES:
        raise pytest.UsageError(
            f"{source}={value!r}: expected one of {', '.join(GUARD_CHOICES)} (used: the tests "
            f"that use the plugin's fixtures or markers or opt in; all: every test; off: none)"
        )
    return mode


def _estimate(config: pytest.Config) -> str | None:
    value, source = option_or_ini(config, "magi_estimate")
    name = str(value or "").strip().lower()
    if not name:
        return None
    from ..budget.profiles import PROFILES

    if name not in PROFILES:
        raise pytest.UsageError(
            f"{source}={value!r}: expected a device profile name ({', '.join(sorted(PROFILES))}), "
            f"e.g. --magi-estimate h200"
        )
    return name


def _path(config: pytest.Config, name: str) -> Path | None:
    value, source = option_or_ini(config, name)
    if not value:
        return None
    base = config.invocation_params.dir if source.startswith("--") else config.rootpath
    return base / Path(str(value))


def read_session(config: pytest.Config) -> MagiSession:
    """A `MagiSession` with this run's options; a `pytest.UsageError` names a bad value."""
    return MagiSession(
        perf=bool(option_or_ini(config, "magi_perf")[0]),
        perf_cpu=bool(option_or_ini(config, "magi_perf_cpu")[0]),
        rounds=_rounds(config),
        estimate_profile=_estimate(config),
        report_path=_path(config, "magi_report"),
        report_png=_path(config, "magi_report_png"),
        locate=bool(option_or_ini(config, "magi_locate")[0]),
        locate_budget=_locate_budget(config),
        guard=_guard(config),
        opt_in_paths=tuple(Path(p) for p in config.getini("magi_paths")),
    )


def xdist_workers(config: pytest.Config) -> int:
    """How many xdist workers this (controller) run starts; 0 without distribution."""
    if config.getoption("dist", "no") == "no":
        return 0
    return len(config.getoption("tx", None) or [])


def is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")
