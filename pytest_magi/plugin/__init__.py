"""pytest-magi's hooks (the `pytest11` entry point `magi`). Hooks only: the logic lives in
`markers`, `config_guard`, `report`, `plugin_state` and the fixtures in `fixtures`.

Per test: markers parsed at collection (`item.stash`); `requires_cuda` skips at collection; the
Inductor config is compared before/after the call (body; `config_patch` patches made in the body
are undone first) and before setup/after teardown (fixtures; the `config_patch` fixture has
unwound by then). A leak fails the test (an error at teardown for a fixture's leak), names the
keys with before/after values and is restored. A fixture wider than function scope that changes
the config shows as a leak of the first test using it: patch config in function-scoped fixtures.
`min_speedup` tests are timed after their body passed; `no_graph_breaks` / `no_recompiles` check
the test's pairs after the body passed; every pair's compile health is recorded.
Loading the plugin imports no torch (pytest in an environment with pytest-magi installed starts as
fast as with `-p no:magi`): the config guard runs only once `torch._inductor.config` is imported
(a test that first imports torch itself is checked from its next test on), fixtures import their
modules when used.
Per session: options, per-xdist-worker cache folders, records (from report `user_properties`, so
the controller sees every worker's), terminal summary, `--magi-report` / `--magi-report-png`.
`--magi-perf -n N` (N >= 2): each xdist worker owns one GPU (`pytest_magi.gpus`): the controller
plans and claims N GPUs in `pytest_configure` or refuses, and hands one to each worker (through
its environment and `pytest_configure_node`); the worker pins itself (`CUDA_VISIBLE_DEVICES`) in
`pytest_load_initial_conftests`, before any conftest.py is imported (a crashed worker's
replacement: in `pytest_configure`); `-n auto` then means one worker per GPU.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from . import gpus, markers, report, xdist_compat
from .plugin_state import (
    COMPILE_LIMITS_KEY,
    CONFIG_BEFORE_KEY,
    CONFIG_PATCHES_KEY,
    DEFAULT_LOCATE_BUDGET,
    DEFAULT_PERF_ROUNDS,
    MARKER_ERROR_KEY,
    MIN_SPEEDUP_KEY,
    PAIRS_KEY,
    REQUIRES_CUDA_KEY,
    SESSION_KEY,
    WORKER_PIN_KEY,
    MagiSession,
    WorkerPin,
    record_compile,
    record_pair,
)

pytest_plugins = ["pytest_magi.fixtures", "pytest_magi.snapshots"]
RECORD_COLLECTOR = "magi-record-collector"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("magi", "magi: Inductor pass regression testing")
    group.addoption(
        "--magi-perf",
        action="store_true",
        default=None,
        dest="magi_perf",
        help="time the compiled pairs of min_speedup tests and enforce their ratios",
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
    parser.addini("magi_perf", "default of --magi-perf", type="bool", default=False)
    parser.addini("magi_locate", "default of --magi-locate", type="bool", default=False)
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


def _option_or_ini(config: pytest.Config, name: str) -> tuple[object, str]:
    value = config.getoption(name)
    if value is not None:
        return value, f"--{name.replace('_', '-')}"
    return config.getini(name), f"ini {name}"


def _rounds(config: pytest.Config) -> int:
    from .timing import MIN_ROUNDS

    value, source = _option_or_ini(config, "magi_perf_rounds")
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
    value, source = _option_or_ini(config, "magi_locate_budget")
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


def _path(config: pytest.Config, name: str) -> Path | None:
    value, source = _option_or_ini(config, name)
    if not value:
        return None
    base = config.invocation_params.dir if source.startswith("--") else config.rootpath
    return base / Path(str(value))


def _xdist_workers(config: pytest.Config) -> int:
    """How many xdist workers this (controller) run starts; 0 without distribution."""
    if config.getoption("dist", "no") == "no":
        return 0
    return len(config.getoption("tx", None) or [])


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)  # before pytest's own, which imports the conftest.py files
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """xdist worker of `--magi-perf -n N`: pin its GPU before conftests can initialise CUDA."""
    assignment = gpus.inherited_assignment(os.environ)
    if assignment is not None:
        worker_id = os.environ["PYTEST_XDIST_WORKER"]
        early_config.stash[WORKER_PIN_KEY] = WorkerPin.pin(worker_id, assignment)


@pytest.hookimpl(tryfirst=True)  # a late pin (see above) comes before other plugins configure
def pytest_configure(config: pytest.Config) -> None:
    for line in markers.MARKERS.values():
        config.addinivalue_line("markers", line)
    session = MagiSession(
        perf=bool(_option_or_ini(config, "magi_perf")[0]),
        rounds=_rounds(config),
        report_path=_path(config, "magi_report"),
        report_png=_path(config, "magi_report_png"),
        locate=bool(_option_or_ini(config, "magi_locate")[0]),
        locate_budget=_locate_budget(config),
    )
    worker = _is_xdist_worker(config)
    if not worker:
        updating = config.getoption("update_snapshots", False) or config.getoption(
            "update_new_snapshots_only", False
        )
        workers = session.workers = _xdist_workers(config)
        if updating and workers > 1:
            raise pytest.UsageError(
                f"--snapshot-update with {workers} xdist workers: each worker rewrites whole "
                f"multi-entry snapshot files (.ambr) with only the entries of the tests it ran, "
                f"so concurrent writers corrupt them and drop other tests' snapshots. Update "
                f"snapshots in one process: pytest -n 0 --snapshot-update"
            )
        if session.report_png is not None and not report.matplotlib_available():
            raise pytest.UsageError(
                f"--magi-report-png {str(session.report_png)!r} needs matplotlib, which is not "
                f"installed: {report.PLOT_INSTALL_HINT}"
            )
        if session.perf and workers > 1:  # last: it claims GPUs, which unconfigure releases
            session.bind_gpus(workers, os.environ)
    else:
        workerinput = config.workerinput  # type: ignore[attr-defined]
        worker_id = str(workerinput["workerid"])
        assignment = workerinput.get(gpus.WORKERINPUT_KEY)
        pin = config.stash.get(WORKER_PIN_KEY, None)
        if pin is not None and pin.assignment != assignment:  # not what the controller said
            pin.undo()
            pin = None
        if pin is None and assignment:
            pin = WorkerPin.pin(worker_id, assignment)
        session.worker_pin = pin
        session.isolate_worker_caches(worker_id)
    config.stash[SESSION_KEY] = session
    config.pluginmanager.register(RecordCollector(session), RECORD_COLLECTOR)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` with `--magi-perf`: one worker per GPU (xdist's own rule otherwise)."""
    if (
        os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
        or not _option_or_ini(config, "magi_perf")[0]
    ):
        return None  # the user's count, or no timing: xdist decides
    return gpus.auto_workers(os.environ, gpus.host_gpu_count())


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist controller, as it starts a worker: give it its GPU under `--magi-perf -n N`."""
    session = node.config.stash.get(SESSION_KEY, None)
    if session is not None and session.gpu_binding is not None:
        node.workerinput[gpus.WORKERINPUT_KEY] = session.gpu_binding.assign(str(node.gateway.id))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist controller: a worker ended; its GPU goes to the worker that replaces a crashed one."""
    session = node.config.stash.get(SESSION_KEY, None)
    if session is not None and session.gpu_binding is not None:
        session.gpu_binding.release(str(node.gateway.id))


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(SESSION_KEY, None)
    collector = config.pluginmanager.get_plugin(RECORD_COLLECTOR)
    if collector is not None:
        config.pluginmanager.unregister(collector)
    if session is not None:
        session.close()
        del config.stash[SESSION_KEY]


def pytest_report_header(config: pytest.Config) -> str | None:
    session = config.stash[SESSION_KEY]
    perf = f"on, {session.rounds} rounds" if session.perf else "off (--magi-perf)"
    if session.gpu_binding is not None:
        perf += f", one GPU per xdist worker (GPUs {session.gpu_binding.plan.describe()})"
    return f"magi: perf timing {perf}" + (
        f", report {session.report_path}" if session.report_path else ""
    )


@pytest.hookimpl(trylast=True)  # after xdist's, which marks the grouped tests (xdist_compat)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _is_xdist_worker(config) and getattr(config.option, "loadgroup", False):
        xdist_compat.keep_group_suffixes(items)
    for item in items:
        try:
            parsed = markers.parse_item_markers(item)
        except pytest.UsageError as exc:
            if not _is_xdist_worker(config):
                raise
            # a UsageError would crash an xdist worker: the test errors at setup instead
            item.stash[MARKER_ERROR_KEY] = str(exc)
            continue
        if "min_speedup" in parsed:
            item.stash[MIN_SPEEDUP_KEY] = parsed["min_speedup"]
        limits = [parsed[name] for name in markers.COMPILE_LIMIT_COUNTS if name in parsed]
        if limits:
            item.stash[COMPILE_LIMITS_KEY] = limits
        if "requires_cuda" in parsed:
            spec = parsed["requires_cuda"]
            item.stash[REQUIRES_CUDA_KEY] = spec
            reason = markers.requires_cuda_skip_reason(spec)
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=reason))


def _fail(message: str) -> NoReturn:
    pytest.fail(message, pytrace=False)


def _inductor_loaded() -> bool:
    """Whether torch's Inductor config is imported (nothing can have changed it otherwise)."""
    return "torch._inductor.config" in sys.modules


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    if _inductor_loaded():
        from .config_guard import snapshot_inductor_config

        item.stash[CONFIG_BEFORE_KEY] = snapshot_inductor_config()
    else:
        item.stash[CONFIG_BEFORE_KEY] = None
    if MARKER_ERROR_KEY in item.stash:
        pytest.fail(f"UsageError: {item.stash[MARKER_ERROR_KEY]}", pytrace=False)
    pin = item.config.stash[SESSION_KEY].worker_pin
    if pin is not None and pin.error is not None:
        pytest.fail(f"UsageError: {pin.error}", pytrace=False)
    return (yield)


def _leak_guard(item: pytest.Item) -> Any:
    """The config leak guard around the body, or nothing while Inductor is not imported."""
    patches = item.stash.get(CONFIG_PATCHES_KEY, None)
    if not _inductor_loaded() and patches is None:
        return contextlib.nullcontext()
    from .config_guard import ConfigLeakGuard

    return ConfigLeakGuard(patches=patches, what="the test", on_leak=_fail)


def _record_compile_health(item: pytest.Item, pairs: list[Any]) -> None:
    for pair in pairs:
        rec = report.CompileRecord.from_pair(item.nodeid, pair)
        if rec is not None:
            record_compile(item, rec)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    session = item.config.stash[SESSION_KEY]
    spec = item.stash.get(MIN_SPEEDUP_KEY, None)
    limits = item.stash.get(COMPILE_LIMITS_KEY, None)
    pairs: list[Any] = item.stash.setdefault(PAIRS_KEY, [])
    with _leak_guard(item):
        try:
            result = yield
        finally:
            _record_compile_health(item, pairs)
        if limits:
            markers.check_compile_limits(item.nodeid, limits, pairs)
        if spec is not None:
            markers.check_min_speedup(
                item.nodeid,
                spec,
                pairs,
                perf=session.perf,
                rounds=session.rounds,
                record=lambda rec: record_pair(item, rec),
            )
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    rep = yield
    if call.when == "call" and rep.failed and call.excinfo is not None:
        _locate_failure(item, rep, call.excinfo.value)
    # the perf skip is raised by the plugin after the body: report it at the test, as skipif does
    if (
        call.when == "call"
        and rep.skipped
        and MIN_SPEEDUP_KEY in item.stash
        and call.excinfo is not None
        and str(call.excinfo.value) == markers.PERF_SKIP_REASON
    ):
        path, lineno = item.reportinfo()[:2]
        rep.longrepr = (str(path), (lineno or 0) + 1, f"Skipped: {markers.PERF_SKIP_REASON}")
    return rep


def _locate_failure(item: pytest.Item, rep: pytest.TestReport, exc: BaseException) -> None:
    """``--magi-locate``: a pair's failing numerics check carries ``pair.locate`` bound to the
    failing side; run it, show its report with the failure and keep it for ``--magi-report``."""
    session = item.config.stash[SESSION_KEY]
    locate = getattr(exc, "locate", None)
    if not session.locate or not callable(locate):
        return
    try:
        found = locate(budget_s=session.locate_budget)
    except Exception as error:  # the failure stands; say why no report came
        rep.sections.append(("magi locate", f"locate failed: {type(error).__name__}: {error}"))
        return
    rep.sections.append(("magi locate", str(found)))
    item.user_properties.append(
        (
            report.LOCATE_PROPERTY,
            {**found.to_dict(), "test": item.nodeid, "failing_side": getattr(exc, "side", "")},
        )
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    before = item.stash.get(CONFIG_BEFORE_KEY, None)
    if before is None:
        return (yield)
    from .config_guard import ConfigLeakGuard

    with ConfigLeakGuard(before=before, what="the test's fixtures", on_leak=_fail):
        result = yield
    return result


class RecordCollector:
    """Registered per run: rebuilds each test's records from its teardown report's
    `user_properties` (in the xdist controller these are the workers' reports)."""

    def __init__(self, session: MagiSession) -> None:
        self.session = session

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.session.add_time(
            report.nodeid, report.when, float(report.duration), report.outcome, _worker_of(report)
        )
        if report.when == "teardown":
            self.session.collect(report.user_properties)


def _worker_of(report: pytest.TestReport) -> str:
    """The xdist worker ("gw0") that sent this report to the controller; "" without xdist."""
    worker = getattr(report, "worker_id", None)
    if not worker:
        gateway = getattr(getattr(report, "node", None), "gateway", None)
        worker = getattr(gateway, "id", None)
    return str(worker or "")


def pytest_sessionfinish(session: pytest.Session) -> None:
    magi = session.config.stash.get(SESSION_KEY, None)
    if magi is None or _is_xdist_worker(session.config):
        return
    if magi.report_path is not None:
        data = report.build_report(
            magi.pairs,
            magi.kernel_counts,
            options=magi.options(),
            compile_records=magi.compile_records,
            locate_records=magi.locate_records,
            duration_s=magi.duration_s(),
            test_times=list(magi.test_times.values()),
        )
        magi.written.append(f"JSON {report.write_json_report(magi.report_path, data)}")
    if magi.report_png is not None:
        magi.written.append(f"PNG {report.write_png_report(magi.report_png, magi.pairs)}")


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    session = config.stash.get(SESSION_KEY, None)
    if session is None or _is_xdist_worker(config):
        return
    tr = terminalreporter
    if session.pairs:
        tr.write_sep("=", "magi: compiled pairs")
        for line in report.format_pairs_table(session.pairs):
            tr.write_line(line)
        if any(r.verdict == report.VERDICT_NOT_MEASURED for r in session.pairs):
            tr.write_line(f"(not measured: {markers.PERF_SKIP_REASON})")
    if session.compile_records:
        tr.write_sep("=", "magi: compile health (graphs/frames, breaks, recompiles)")
        for line in report.format_compile_table(session.compile_records):
            tr.write_line(line)
    if session.kernel_counts:
        tr.write_sep("=", "magi: kernel counts")
        for line in report.format_kernel_counts_table(session.kernel_counts):
            tr.write_line(line)
    if session.written:
        tr.write_sep("-", "magi: wrote " + ", ".join(session.written))
