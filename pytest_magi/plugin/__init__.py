"""pytest-magi's hooks (the `pytest11` entry point `magi`). Hooks only: options in `options`,
markers in `markers` and `verdicts`, state in `session`, the config guard in `guard`, fixtures
in `fixtures`; when the plugin acts on a test is `activation` (docs/activation.md).

Loading the plugin imports no torch and none of the capture, timing or report code. A test that
uses none of the plugin's fixtures or markers and sits in no opted-in scope runs as without the
plugin: no per-test hook of the plugin is even registered in a run that has no such test.
Per session: options, the records of every test (from report `user_properties`, so the xdist
controller sees every worker's), terminal summary, `--magi-report` / `--magi-report-png`.
`--magi-perf -n N` (N >= 2): each xdist worker owns one GPU (`pytest_magi.measure.gpus`) and its own
cache folders in a slot the run holds alone (`session.CacheSlot`); the worker pins itself
(`CUDA_VISIBLE_DEVICES`) in `pytest_load_initial_conftests`, before any conftest.py is imported.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from . import activation, markers
from .options import add_options, is_xdist_worker, option_or_ini, read_session, xdist_workers
from .session import (
    ACTIVE_KEY,
    CACHE_SLOT_KEY,
    COMPILE_LIMITS_KEY,
    CONFIG_PATCHES_KEY,
    FIXTURE_GUARD_KEY,
    MARKER_ERROR_KEY,
    MIN_ESTIMATED_KEY,
    MIN_SPEEDUP_KEY,
    PAIRS_KEY,
    REQUIRES_CUDA_KEY,
    SESSION_KEY,
    WORKER_PIN_KEY,
    CacheSlot,
    MagiSession,
    WorkerPin,
    record_compile,
    record_estimate,
    record_pair,
)

pytest_plugins = ["pytest_magi.plugin.fixtures"]
RECORD_COLLECTOR = "magi-record-collector"
ACTIVE_TESTS = "magi-active-tests"
GUARD = "magi-config-guard"
SNAPSHOT_DIRNAME = "__snapshots__"  # syrupy's default; --snapshot-dirname overrides it
DEFAULT_SNAPSHOT_EXTENSION = "pytest_magi.snapshot_amber.MagiAmberExtension"


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(tryfirst=True)  # before pytest's own, which imports the conftest.py files
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """xdist worker of `--magi-perf -n N`: pin its GPU before conftests can initialise CUDA."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    from ..measure import gpus

    assignment = gpus.inherited_assignment(os.environ)
    if assignment is not None:
        worker_id = os.environ["PYTEST_XDIST_WORKER"]
        early_config.stash[WORKER_PIN_KEY] = WorkerPin.pin(worker_id, assignment)


@pytest.hookimpl(tryfirst=True)  # a late pin (see above) comes before other plugins configure
def pytest_configure(config: pytest.Config) -> None:
    for line in markers.MARKERS.values():
        config.addinivalue_line("markers", line)
    session = read_session(config)
    if not is_xdist_worker(config):
        _configure_controller(config, session)
    else:
        _configure_worker(config, session)
    _configure_snapshots(config)
    config.stash[SESSION_KEY] = session
    config.pluginmanager.register(
        RecordCollector(session, writes_report=not is_xdist_worker(config)), RECORD_COLLECTOR
    )


def _configure_controller(config: pytest.Config, session: MagiSession) -> None:
    updating = config.getoption("update_snapshots", False) or config.getoption(
        "update_new_snapshots_only", False
    )
    workers = session.workers = xdist_workers(config)
    if updating and workers > 1:
        raise pytest.UsageError(
            f"--snapshot-update with {workers} xdist workers: each worker rewrites whole "
            f"multi-entry snapshot files (.ambr) with only the entries of the tests it ran, "
            f"so concurrent writers corrupt them and drop other tests' snapshots. Update "
            f"snapshots in one process: pytest -n 0 --snapshot-update"
        )
    if session.report_png is not None:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            raise pytest.UsageError(
                f"--magi-report-png {str(session.report_png)!r} needs matplotlib, which is not "
                f"installed: pip install pytest-magi[plot]"
            )
    if session.perf and workers > 1:  # last: it claims GPUs, which unconfigure releases
        session.cache_slot = CacheSlot.claim()
        session.bind_gpus(workers, os.environ)


def _configure_worker(config: pytest.Config, session: MagiSession) -> None:
    workerinput = config.workerinput  # type: ignore[attr-defined]
    worker_id = str(workerinput["workerid"])
    pin = config.stash.get(WORKER_PIN_KEY, None)
    if pin is not None or any(str(key).startswith("magi") for key in workerinput):
        from ..measure import gpus

        assignment = workerinput.get(gpus.WORKERINPUT_KEY)
        if pin is not None and pin.assignment != assignment:  # not what the controller said
            pin.undo()
            pin = None
        if pin is None and assignment:
            pin = WorkerPin.pin(worker_id, assignment)
        session.worker_pin = pin
    slot = workerinput.get(CACHE_SLOT_KEY)
    if slot:  # only --magi-perf -n N: timing wants each worker's caches to itself
        session.isolate_worker_caches(worker_id, slot)


def _configure_snapshots(config: pytest.Config) -> None:
    """Make `MagiAmberExtension` syrupy's default extension unless the user chose one; refuse
    `--snapshot-update` on a GPU whose code is not the baseline's."""
    option: Any = config.option
    if hasattr(option, "default_extension") and not option.default_extension:
        option.default_extension = DEFAULT_SNAPSHOT_EXTENSION
    if getattr(option, "update_snapshots", False) or getattr(
        option, "update_new_snapshots_only", False
    ):
        from ..snapshots import device_update_refusal, snapshot_device_key

        refusal = device_update_refusal(snapshot_device_key())
        if refusal is not None:
            raise pytest.UsageError(refusal)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Never collect inside a snapshot folder: `.py` snapshots are named `test_*.py`."""
    name = config.getoption("snapshot_dirname", None) or SNAPSHOT_DIRNAME
    if collection_path.name == name and collection_path.is_dir():
        return True
    return None


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` with `--magi-perf`: one worker per GPU (xdist's own rule otherwise)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or not option_or_ini(config, "magi_perf")[0]:
        return None  # the user's count, or no timing: xdist decides
    from ..measure import gpus

    return gpus.auto_workers(os.environ, gpus.host_gpu_count())


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist controller, as it starts a worker: its GPU and cache slot under `--magi-perf -n N`."""
    session = node.config.stash.get(SESSION_KEY, None)
    if session is None or session.gpu_binding is None:
        return
    from ..measure import gpus

    node.workerinput[gpus.WORKERINPUT_KEY] = session.gpu_binding.assign(str(node.gateway.id))
    if session.cache_slot is not None:
        node.workerinput[CACHE_SLOT_KEY] = str(session.cache_slot.path)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist controller: a worker ended; its GPU goes to the worker that replaces a crashed one."""
    session = node.config.stash.get(SESSION_KEY, None)
    if session is not None and session.gpu_binding is not None:
        session.gpu_binding.release(str(node.gateway.id))


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(SESSION_KEY, None)
    for name in (RECORD_COLLECTOR, ACTIVE_TESTS, GUARD):
        plugin = config.pluginmanager.get_plugin(name)
        if plugin is not None:
            config.pluginmanager.unregister(plugin)
    if session is not None:
        session.close()
        del config.stash[SESSION_KEY]


def pytest_report_header(config: pytest.Config) -> str | None:
    """One line, only where a magi option is on (a run that never asked says nothing)."""
    session = config.stash[SESSION_KEY]
    parts = []
    if session.perf:
        perf = f"perf timing on, {session.rounds} rounds"
        if session.gpu_binding is not None:
            perf += f", one GPU per xdist worker (GPUs {session.gpu_binding.plan.describe()})"
        parts.append(perf)
    if session.report_path:
        parts.append(f"report {session.report_path}")
    if session.guard != "used":
        parts.append(f"config guard {session.guard}")
    return "magi: " + ", ".join(parts) if parts else None


@pytest.hookimpl(trylast=True)  # after xdist's, which marks the grouped tests (xdist_compat)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    session = config.stash[SESSION_KEY]
    if is_xdist_worker(config) and getattr(config.option, "loadgroup", False):
        from .xdist_compat import keep_group_suffixes

        keep_group_suffixes(items)
    session.foreign_markers = markers.foreign_markers(config.getini("markers"))
    checked = 0
    for item in items:
        if _classify(config, session, item):
            checked += 1
    pin_error = session.worker_pin is not None and session.worker_pin.error is not None
    if (checked or pin_error) and not config.pluginmanager.has_plugin(ACTIVE_TESTS):
        config.pluginmanager.register(ActiveTests(session), ACTIVE_TESTS)
    if checked and session.guard != "off" and not config.pluginmanager.has_plugin(GUARD):
        from .guard import GuardPlugin

        config.pluginmanager.register(GuardPlugin(), GUARD)


def _classify(config: pytest.Config, session: MagiSession, item: pytest.Item) -> bool:
    """Parse the item's magi markers into its stash and say whether the plugin checks it."""
    names = activation.marker_names(item)
    parsed = markers.ParsedMarkers({}, {})
    if names:
        try:
            parsed = markers.parse_item_markers(item, skip=session.foreign_markers, names=names)
        except pytest.UsageError as exc:
            if not is_xdist_worker(config):
                raise
            # a UsageError would crash an xdist worker: the test errors at setup instead
            item.stash[MARKER_ERROR_KEY] = str(exc)
            item.stash[ACTIVE_KEY] = activation.GUARD_OFF
            return True
        for name, args in parsed.not_ours.items():
            if name not in session.warned:
                session.warned.add(name)
                warnings.warn(
                    markers.MagiMarkerWarning(
                        f"{item.nodeid}: @pytest.mark.{name}({args}) has arguments pytest-magi's "
                        f"{name} does not take ({markers.MARKERS[name].split(':')[0]}); the "
                        f"plugin leaves this marker to its owner and does not act on it"
                    ),
                    stacklevel=1,
                )
    values = parsed.values
    if "min_speedup" in values:
        item.stash[MIN_SPEEDUP_KEY] = values["min_speedup"]
    if "min_estimated_speedup" in values:
        item.stash[MIN_ESTIMATED_KEY] = values["min_estimated_speedup"]
    limits = [values[name] for name in markers.COMPILE_LIMIT_COUNTS if name in values]
    if limits:
        item.stash[COMPILE_LIMITS_KEY] = limits
    if "requires_cuda" in values:
        spec = values["requires_cuda"]
        item.stash[REQUIRES_CUDA_KEY] = spec
        reason = markers.requires_cuda_skip_reason(spec)
        if reason is not None:
            item.add_marker(pytest.mark.skip(reason=reason))
    fixtures = not set(getattr(item, "fixturenames", ())).isdisjoint(activation.MAGI_FIXTURES)
    used = bool(values) or fixtures or activation.in_paths(item.path, session.opt_in_paths)
    mode = activation.guard_mode(used, session.guard)
    if used or mode != activation.GUARD_OFF:
        item.stash[ACTIVE_KEY] = mode
        return True
    return False


class ActiveTests:
    """The per-test hooks, registered only in runs with tests the plugin acts on; each returns
    at once for any other test."""

    def __init__(self, session: MagiSession) -> None:
        self.session = session

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        # tryfirst: the guard's snapshot comes before any fixture, and an error before any
        # other plugin's setup (whose teardown then has nothing to undo)
        if MARKER_ERROR_KEY in item.stash:
            pytest.fail(f"UsageError: {item.stash[MARKER_ERROR_KEY]}", pytrace=False)
        pin = self.session.worker_pin
        if pin is not None and pin.error is not None:
            pytest.fail(f"UsageError: {pin.error}", pytrace=False)
        if activation.guard_now(item.stash.get(ACTIVE_KEY, activation.GUARD_OFF)):
            from .guard import FixtureGuard

            item.stash[FIXTURE_GUARD_KEY] = FixtureGuard()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        if ACTIVE_KEY not in item.stash:
            return (yield)
        spec = item.stash.get(MIN_SPEEDUP_KEY, None)
        limits = item.stash.get(COMPILE_LIMITS_KEY, None)
        pairs: list[Any] = item.stash.setdefault(PAIRS_KEY, [])
        with _body_guard(item), _locating(self.session.locate):
            try:
                result = yield
            except BaseException:
                if spec is not None and pairs:
                    from .verdicts import record_failed_pairs

                    record_failed_pairs(item.nodeid, spec, pairs, lambda r: record_pair(item, r))
                raise
            finally:
                _record_compile_health(item, pairs)
            if limits:
                from .verdicts import check_compile_limits

                check_compile_limits(item.nodeid, limits, pairs)
            estimated = item.stash.get(MIN_ESTIMATED_KEY, None)
            if estimated is not None:
                from .verdicts import check_estimated_speedup

                check_estimated_speedup(
                    item.nodeid, estimated, pairs, lambda rec: record_estimate(item, rec)
                )
            if spec is not None:
                from .verdicts import check_min_speedup

                check_min_speedup(
                    item.nodeid,
                    spec,
                    pairs,
                    perf=self.session.perf,
                    perf_cpu=self.session.perf_cpu,
                    rounds=self.session.rounds,
                    record=lambda rec: record_pair(item, rec),
                    estimate_profile=self.session.estimate_profile,
                )
        return result

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        rep = yield
        if ACTIVE_KEY not in item.stash or call.when != "call":
            return rep
        if rep.failed and call.excinfo is not None:
            _locate_failure(item, rep, call.excinfo.value)
        # the perf skip is raised by the plugin after the body: report it at the test, as
        # skipif does
        if rep.skipped and MIN_SPEEDUP_KEY in item.stash and call.excinfo is not None:
            message = str(call.excinfo.value)
            if message.startswith("timing skipped:"):
                path, lineno = item.reportinfo()[:2]
                rep.longrepr = (str(path), (lineno or 0) + 1, f"Skipped: {message}")
        return rep


def _body_guard(item: pytest.Item) -> Any:
    """The config guard around the body (patches of `config_patch` made there are undone
    first), or nothing for a test the guard does not check."""
    import contextlib

    mode = item.stash.get(ACTIVE_KEY, activation.GUARD_OFF)
    if FIXTURE_GUARD_KEY not in item.stash and not activation.guard_now(mode):
        return contextlib.nullcontext()
    from ..capture.config_guard import ConfigLeakGuard

    def fail(message: str) -> Any:
        pytest.fail(message, pytrace=False)

    patches = item.stash.get(CONFIG_PATCHES_KEY, None)
    return ConfigLeakGuard(patches=patches, what="the test", on_leak=fail)


def _locating(on: bool) -> Any:
    """While `--magi-locate` is on, a failing numerics check does not suggest it."""
    import contextlib

    if not on:
        return contextlib.nullcontext()
    from ..numerics.judgment import plugin_locates

    return plugin_locates()


def _record_compile_health(item: pytest.Item, pairs: list[Any]) -> None:
    if not pairs:
        return
    from ..report import CompileRecord

    for pair in pairs:
        rec = CompileRecord.from_pair(item.nodeid, pair)
        if rec is not None:
            record_compile(item, rec)


def _locate_failure(item: pytest.Item, rep: pytest.TestReport, exc: BaseException) -> None:
    """``--magi-locate``: a pair's failing numerics check carries ``pair.locate`` bound to the
    failing side; run it, show its report with the failure and keep it for ``--magi-report``."""
    session = item.config.stash[SESSION_KEY]
    locate = getattr(exc, "locate", None)
    if not session.locate or not callable(locate):
        return
    from ..report import LOCATE_PROPERTY

    try:
        found = locate(budget_s=session.locate_budget)
    except Exception as error:  # the failure stands; say why no report came
        rep.sections.append(("magi locate", f"locate failed: {type(error).__name__}: {error}"))
        return
    rep.sections.append(("magi locate", str(found)))
    item.user_properties.append(
        (
            LOCATE_PROPERTY,
            {**found.to_dict(), "test": item.nodeid, "failing_side": getattr(exc, "side", "")},
        )
    )


class RecordCollector:
    """Registered per run: rebuilds each test's records from its teardown report's
    `user_properties` (in the xdist controller these are the workers' reports)."""

    def __init__(self, session: MagiSession, *, writes_report: bool = True) -> None:
        self.session = session
        self.writes_report = writes_report  # the xdist controller's, never a worker's

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.session.records_wanted:
            self.session.add_time(
                report.nodeid,
                report.when,
                float(report.duration),
                report.outcome,
                _worker_of(report),
            )
        if report.when == "teardown" and report.user_properties:
            self.session.collect(report.user_properties)
            if self.writes_report and self.session.report_path is not None:
                _write_json_report(self.session, complete=False)


def _worker_of(report: pytest.TestReport) -> str:
    """The xdist worker ("gw0") that sent this report to the controller; "" without xdist."""
    worker = getattr(report, "worker_id", None)
    if not worker:
        gateway = getattr(getattr(report, "node", None), "gateway", None)
        worker = getattr(gateway, "id", None)
    return str(worker or "")


def _write_json_report(magi: MagiSession, *, complete: bool) -> Path:
    """``--magi-report``'s JSON from every record so far; the environment is read once a run."""
    from .. import report

    assert magi.report_path is not None
    if magi.report_environment is None:
        magi.report_environment = report.environment()
    data = report.build_report(
        magi.pairs,
        magi.kernel_counts,
        options=magi.options(),
        env=magi.report_environment,
        compile_records=magi.compile_records,
        estimate_records=magi.estimates,
        locate_records=magi.locate_records,
        duration_s=magi.duration_s(),
        test_times=list(magi.test_times.values()),
        complete=complete,
    )
    return report.write_json_report(magi.report_path, data)


def pytest_sessionfinish(session: pytest.Session) -> None:
    magi = session.config.stash.get(SESSION_KEY, None)
    if magi is None or is_xdist_worker(session.config):
        return
    if magi.report_path is None and magi.report_png is None:
        return
    from .. import report

    if magi.report_path is not None:
        magi.written.append(f"JSON {_write_json_report(magi, complete=True)}")
    if magi.report_png is not None:
        magi.written.append(f"PNG {report.write_png_report(magi.report_png, magi.pairs)}")


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    session = config.stash.get(SESSION_KEY, None)
    if session is None or is_xdist_worker(config):
        return
    if not (
        session.pairs
        or session.estimates
        or session.compile_records
        or session.kernel_counts
        or session.written
    ):
        return
    from .. import report

    tr = terminalreporter
    if session.pairs:
        tr.write_sep("=", "magi: compiled pairs")
        for line in report.format_pairs_table(session.pairs):
            tr.write_line(line)
        if any(r.verdict == report.VERDICT_NOT_MEASURED for r in session.pairs):
            from .verdicts import PERF_SKIP_REASON

            tr.write_line(f"(not measured: {PERF_SKIP_REASON})")
    if session.estimates:
        tr.write_sep("=", "magi: estimated speedups (from the generated code, not measured)")
        for line in report.format_estimates_table(session.estimates):
            tr.write_line(line)
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
