"""The plugin's state: the stash keys and the session object (`MagiSession`).

Session state lives in one `MagiSession` in `config.stash[SESSION_KEY]`; per-test state in
`item.stash` under the keys below. Records of a test (pairs, kernel counts) are put in the test's
`user_properties`, so that under pytest-xdist they reach the controller inside the test reports;
`MagiSession.collect` rebuilds them there (and in a run without xdist alike). Importing this
module imports neither torch nor the report code.
"""

from __future__ import annotations

import getpass
import os
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pytest

from .markers import CompileLimit, MinEstimatedSpeedup, MinSpeedup, RequiresCuda

if TYPE_CHECKING:
    from ..capture.config_guard import ConfigPatchStack  # noqa: F401 - in a StashKey below
    from ..measure.gpus import GpuBinding
    from ..report import CompileRecord, EstimateRecord, KernelCountRecord, PairRecord, TimedTest
    from .guard import FixtureGuard  # noqa: F401 - in a StashKey["..."] below

DEFAULT_PERF_ROUNDS = 8
# seconds `--magi-locate` may spend retrying one failing pair (a real Wan 2.2 graph: ~15 s a retry)
DEFAULT_LOCATE_BUDGET = 300.0
# cache env vars each xdist worker of `--magi-perf -n N` gets its own folder for (unless set)
WORKER_CACHE_VARS = {"TORCHINDUCTOR_CACHE_DIR": "inductor", "TRITON_CACHE_DIR": "triton"}
# the workerinput key of the cache slot the controller claimed for the run
CACHE_SLOT_KEY = "magi_cache_slot"
RECORD_PREFIX = "magi_"  # every record's user_properties name starts with it (report.*_PROPERTY)
GUARD_CHOICES = ("used", "all", "off")


@dataclass
class MagiSession:
    """Options of this run and every record of it (in the controller: of all workers)."""

    perf: bool = False
    perf_cpu: bool = False
    rounds: int = DEFAULT_PERF_ROUNDS
    # --magi-estimate: the profile each timed pair's speedup is also estimated on (None: off)
    estimate_profile: str | None = None
    report_path: Path | None = None
    report_png: Path | None = None
    report_environment: dict[str, Any] | None = None  # read once, when the report is first written
    locate: bool = False
    locate_budget: float = DEFAULT_LOCATE_BUDGET
    # which tests the config guard checks: "used" (tests that use the plugin), "all", "off"
    guard: str = "used"
    # rootdir-relative folders or files whose tests opt in (ini magi_paths), as absolute paths
    opt_in_paths: tuple[Path, ...] = ()
    # magi marker names another project registers too: the plugin leaves them to it
    foreign_markers: dict[str, str] = field(default_factory=dict)
    warned: set[str] = field(default_factory=set)  # marker names warned about this run
    pairs: list[PairRecord] = field(default_factory=list)
    estimates: list[EstimateRecord] = field(default_factory=list)
    kernel_counts: list[KernelCountRecord] = field(default_factory=list)
    compile_records: list[CompileRecord] = field(default_factory=list)
    locate_records: list[dict[str, Any]] = field(default_factory=list)  # LocateReport.to_dict()s
    test_times: dict[str, TimedTest] = field(default_factory=dict)  # by node id, all phases
    written: list[str] = field(default_factory=list)  # "JSON <path>", "PNG <path>"
    env_patch: pytest.MonkeyPatch = field(default_factory=pytest.MonkeyPatch, repr=False)
    # --magi-perf -n N: in the controller, the GPUs of the run and their workers and the run's
    # cache slot; in a worker, its pin (or why it could not pin: each of its tests then errors)
    gpu_binding: GpuBinding | None = None
    cache_slot: CacheSlot | None = None
    worker_pin: WorkerPin | None = None
    # the xdist workers this run starts (0 without xdist) and when it began (time.monotonic()),
    # for the report's "options.workers" and "duration_s": two runs' reports compare by them
    workers: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def records_wanted(self) -> bool:
        """Whether per-test wall times are kept (only the JSON report shows them)."""
        return self.report_path is not None

    def collect(self, user_properties: Iterable[tuple[str, object]]) -> None:
        """Add the records found in one test report's `user_properties`."""
        ours = [
            (name, value)
            for name, value in user_properties
            if isinstance(name, str) and name.startswith(RECORD_PREFIX) and isinstance(value, dict)
        ]
        if not ours:
            return
        from .. import report

        for name, value in ours:
            if name == report.PAIR_PROPERTY:
                self.pairs.append(report.PairRecord.from_dict(value))
            elif name == report.ESTIMATE_PROPERTY:
                self.estimates.append(report.EstimateRecord.from_dict(value))
            elif name == report.KERNEL_COUNTS_PROPERTY:
                self.kernel_counts.append(report.KernelCountRecord.from_dict(value))
            elif name == report.COMPILE_PROPERTY:
                self.compile_records.append(report.CompileRecord.from_dict(value))
            elif name == report.LOCATE_PROPERTY:
                self.locate_records.append(value)

    def isolate_worker_caches(self, worker_id: str, slot: str | os.PathLike[str]) -> dict[str, str]:
        """Give this xdist worker its own Inductor and Triton cache folders in the run's `slot`.

        Variables the user set are left alone. Returns what was set; `close()` restores.
        """
        base = Path(slot) / worker_id
        chosen: dict[str, str] = {}
        for var, sub in WORKER_CACHE_VARS.items():
            if _user_set(var):
                continue
            folder = base / sub
            folder.mkdir(parents=True, exist_ok=True)
            self.env_patch.setenv(var, str(folder))
            chosen[var] = str(folder)
        return chosen

    def bind_gpus(self, workers: int, env: Mapping[str, str]) -> GpuBinding:
        """Controller, `--magi-perf` with `workers` xdist workers: plan one GPU per worker and
        claim them for this run; a `pytest.UsageError` saying why not (see `pytest_magi.measure.gpus`)."""
        from ..measure import gpus

        try:
            plan = gpus.plan_gpus(workers, env=env, host_count=gpus.host_gpu_count())
            binding = gpus.GpuBinding(plan, folder=state_dir())
            binding.claim()
        except gpus.GpuBindingError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.gpu_binding = binding
        # the workers xdist starts next inherit it and pin before their conftests load
        self.env_patch.setenv(gpus.SLOTS_VAR, binding.slots_variable())
        return binding

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {
            "perf": self.perf,
            "perf_cpu": self.perf_cpu,
            "rounds": self.rounds,
            "locate": self.locate,
            "workers": self.workers,
        }
        if self.estimate_profile is not None:
            options["estimate"] = self.estimate_profile
        if self.gpu_binding is not None:
            options["gpus"] = dict(sorted(self.gpu_binding.assigned.items()))
        return options

    def add_time(self, test: str, when: str, seconds: float, outcome: str, worker: str) -> None:
        """Add one phase (setup, call, teardown) of a test to its time; the outcome is the
        call's, or the phase's that did not pass (a failed setup, a skip)."""
        from ..report import TimedTest

        before = self.test_times.get(test)
        total = seconds + (before.duration_s if before else 0.0)
        kept = before.outcome if before else ""
        if when == "call" or not kept or (kept == "passed" and outcome != "passed"):
            kept = outcome
        self.test_times[test] = TimedTest(test, round(total, 3), worker, kept)

    def duration_s(self) -> float:
        """Seconds since this run was configured (the controller's: the whole run's wall time)."""
        return round(time.monotonic() - self.started, 3)

    def close(self) -> None:
        """Undo the environment changes, give up GPU claims and the cache slot."""
        self.env_patch.undo()
        if self.worker_pin is not None:
            self.worker_pin.undo()
        if self.gpu_binding is not None:
            self.gpu_binding.close()
        if self.cache_slot is not None:
            self.cache_slot.release()


@dataclass
class CacheSlot:
    """A folder of per-worker caches that one `--magi-perf -n N` run holds alone.

    Slots live in `state_dir()/caches/slot-K`; a run takes the first slot no other live run
    holds (an exclusive `flock` on `slot-K.lock`, kept until the run ends), so caches stay warm
    from one run to the next in a checkout and are never shared by two runs at once.
    """

    path: Path
    handle: IO[str] | None = field(default=None, repr=False)

    @classmethod
    def claim(cls, root: Path | None = None, limit: int = 64) -> CacheSlot:
        from ..measure.gpus import _try_flock

        root = (root or state_dir()) / "caches"
        root.mkdir(parents=True, exist_ok=True)
        for index in range(limit):
            handle = (root / f"slot-{index}.lock").open("a")
            if _try_flock(handle):
                return cls(root / f"slot-{index}", handle)
            handle.close()
        return cls(Path(tempfile.mkdtemp(prefix="slot-", dir=root)))

    def release(self) -> None:
        if self.handle is not None:
            self.handle.close()  # closing releases the flock
            self.handle = None


@dataclass
class WorkerPin:
    """An xdist worker's hold on its GPU: the variables set (`undo` restores them), or why it
    could not pin. A refusal is kept for test setup (a UsageError while the worker starts would
    crash it, and xdist would start a new one again and again)."""

    worker_id: str
    assignment: dict[str, str]
    error: str | None = None
    env_patch: pytest.MonkeyPatch = field(default_factory=pytest.MonkeyPatch, repr=False)

    @classmethod
    def pin(cls, worker_id: str, assignment: Mapping[str, str]) -> WorkerPin:
        """Set `CUDA_VISIBLE_DEVICES` (and its companions, `gpus.pin_environment`) unless CUDA
        is initialised in this process already."""
        from ..measure import gpus

        pin = cls(worker_id, dict(assignment))
        if gpus.cuda_initialized():
            pin.error = gpus.initialized_message(worker_id, assignment["gpu"])
            return pin
        for var, value in gpus.pin_environment(assignment, os.environ).items():
            pin.env_patch.setenv(var, value)
        return pin

    def undo(self) -> None:
        self.env_patch.undo()


def state_dir() -> Path:
    """This user's folder of the plugin's per-host state: cache slots, GPU claims and locks."""
    return Path(tempfile.gettempdir()) / f"pytest-magi-{_user()}"


def _user_set(var: str) -> bool:
    """Whether the user chose `var`. Importing Inductor sets TORCHINDUCTOR_CACHE_DIR to its
    default (`cache_dir()` writes it back), so that value counts as not chosen."""
    value = os.environ.get(var)
    if not value:
        return False
    if var == "TORCHINDUCTOR_CACHE_DIR":
        try:
            from torch._inductor.runtime.cache_dir_utils import default_cache_dir
        except ImportError:  # pragma: no cover - other torch layouts
            return True
        return os.path.abspath(value) != os.path.abspath(default_cache_dir())
    return True


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name in containers without passwd entries
        return str(os.getuid()) if hasattr(os, "getuid") else "user"


def record(item: pytest.Item, name: str, data: dict[str, Any]) -> None:
    """Put a record in the test's `user_properties` (it reaches the controller with the report)."""
    item.user_properties.append((name, data))


def record_pair(item: pytest.Item, rec: PairRecord) -> None:
    from ..report import PAIR_PROPERTY

    record(item, PAIR_PROPERTY, rec.to_dict())


def record_estimate(item: pytest.Item, rec: EstimateRecord) -> None:
    from ..report import ESTIMATE_PROPERTY

    record(item, ESTIMATE_PROPERTY, rec.to_dict())


def record_kernel_counts(item: pytest.Item, rec: KernelCountRecord) -> None:
    from ..report import KERNEL_COUNTS_PROPERTY

    record(item, KERNEL_COUNTS_PROPERTY, rec.to_dict())


def record_compile(item: pytest.Item, rec: CompileRecord) -> None:
    from ..report import COMPILE_PROPERTY

    record(item, COMPILE_PROPERTY, rec.to_dict())


SESSION_KEY = pytest.StashKey[MagiSession]()
# config.stash: a worker's GPU pin made before its conftests loaded (adopted by its session)
WORKER_PIN_KEY = pytest.StashKey[WorkerPin]()
# item.stash: on the tests the plugin acts on, their config guard (activation.GUARD_*)
ACTIVE_KEY = pytest.StashKey[str]()
# item.stash: the parsed markers (present only when the test has the marker)
REQUIRES_CUDA_KEY = pytest.StashKey[RequiresCuda]()
MIN_SPEEDUP_KEY = pytest.StashKey[MinSpeedup]()
MIN_ESTIMATED_KEY = pytest.StashKey[MinEstimatedSpeedup]()
COMPILE_LIMITS_KEY = pytest.StashKey[list[CompileLimit]]()
# item.stash: a marker's UsageError text, in an xdist worker (raised at setup there)
MARKER_ERROR_KEY = pytest.StashKey[str]()
# item.stash: the CompiledPairs the test built with the compiled_pair fixture, in order
PAIRS_KEY = pytest.StashKey[list[Any]]()
# item.stash: the config_patch fixture's patches (present while the fixture is active)
CONFIG_PATCHES_KEY = pytest.StashKey["ConfigPatchStack"]()
# item.stash: the config guard of the test's setup-to-teardown (fixtures), on active tests
FIXTURE_GUARD_KEY = pytest.StashKey["FixtureGuard"]()
