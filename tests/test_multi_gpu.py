"""`--magi-perf -n N`: one GPU per xdist worker (`pytest_magi.measure.gpus`), on a CPU machine.

The controller's GPU count is faked (`pytest_magi.measure.gpus.host_gpu_count`, monkeypatched in this
process: pytester runs the controller in-process; the workers are subprocesses that receive their
GPU from it). Nothing here needs a GPU or initialises CUDA.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import pytest_magi.plugin as plugin
import pytest_magi.plugin.session as plugin_state
from pytest_magi import report
from pytest_magi.measure import gpus
from pytest_magi.measure.gpus import GpuBinding, GpuBindingError, GpuPlan, plan_gpus, visible_gpus
from pytest_magi.report import PairRecord, format_pairs_table

QUICK = ("-p", "no:cacheprovider", "-p", "no:unraisableexception", "-p", "no:hypothesispytest")
ENV_VARS = (
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "MAGI_PERF_LOCK",
    "TORCHINDUCTOR_CACHE_DIR",
    "TRITON_CACHE_DIR",
    "PYTEST_XDIST_AUTO_NUM_WORKERS",
)


@pytest.fixture
def host(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """A host whose GPU count the test sets (`host(2)`), with no GPU variables set, and GPU
    claims in a folder of this test (not the user's shared one)."""
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(plugin_state, "state_dir", lambda: tmp_path / "state")
    # a pytester conftest may replace it inside a run: restored when the test ends
    monkeypatch.setattr(gpus, "cuda_initialized", gpus.cuda_initialized)

    def set_count(count: int) -> None:
        monkeypatch.setattr(gpus, "host_gpu_count", lambda: count)

    return set_count


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest(*QUICK, *args)


# --------------------------------------------------------------------------- counting, planning
def test_visible_gpus_read_cuda_visible_devices_as_cuda_does() -> None:
    assert visible_gpus({}, 3) == ["0", "1", "2"]
    assert visible_gpus({}, 0) == []
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": " 2 , 01"}, 4) == ["2", "1"]
    # CUDA stops at the first entry it cannot use
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": "0,5,1"}, 4) == ["0"]
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": "1,,2"}, 4) == ["1"]
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": "-1"}, 4) == []
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": ""}, 4) == []
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": "0,1"}, 0) == []  # no GPU on this host
    uuids = "GPU-8f2c,MIG-1a2b"
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": uuids}, 1) == ["GPU-8f2c", "MIG-1a2b"]


def test_plan_gives_worker_n_the_nth_visible_gpu() -> None:
    plan = plan_gpus(2, env={"CUDA_VISIBLE_DEVICES": "3,1,2"}, host_count=4)
    assert plan.gpus == ("3", "1") and plan.visible == ("3", "1", "2")
    assert plan.user_visible == "3,1,2" and not plan.user_order
    assert plan_gpus(2, env={}, host_count=8).gpus == ("0", "1")


@pytest.mark.parametrize(
    ("workers", "env", "count", "expected"),
    [
        pytest.param(
            2,
            {},
            0,
            [
                "--magi-perf -n 2 needs 2 GPUs; this host has 0. Under --magi-perf each xdist "
                "worker owns one GPU. Time in one process: pytest --magi-perf -n 0 (or -n 1); "
                "keep -n for runs without --magi-perf"
            ],
            id="no-gpu",
        ),
        pytest.param(
            2,
            {},
            1,
            [
                "--magi-perf -n 2 needs 2 GPUs; this host has 1.",
                "workers sharing one GPU disturb each other's timings with their compiles and runs",
                "Time in one process: pytest --magi-perf -n 0 (or -n 1)",
            ],
            id="one-gpu",
        ),
        pytest.param(
            4,
            {},
            2,
            [
                "--magi-perf -n 4 needs 4 GPUs; this host has 2.",
                "use -n 2 or fewer (-n auto starts one worker per GPU)",
            ],
            id="more-workers-than-gpus",
        ),
        pytest.param(
            3,
            {"CUDA_VISIBLE_DEVICES": "1,2"},
            4,
            [
                "--magi-perf -n 3 needs 3 GPUs; this host has 2 visible "
                "(CUDA_VISIBLE_DEVICES='1,2').",
                "use -n 2 or fewer",
            ],
            id="fewer-visible",
        ),
        pytest.param(
            2,
            {"CUDA_VISIBLE_DEVICES": "1,01"},
            4,
            [
                "--magi-perf -n 2: CUDA_VISIBLE_DEVICES='1,01' names GPU 1 2 times, so its 2 "
                "entries are only 1 GPUs that can be told apart, and two perf workers would time "
                "on one GPU. List each GPU once, e.g. CUDA_VISIBLE_DEVICES=1 pytest --magi-perf -n 1"
            ],
            id="duplicates",
        ),
    ],
)
def test_plan_refusals_name_the_counts_and_the_fix(
    workers: int, env: dict[str, str], count: int, expected: list[str]
) -> None:
    with pytest.raises(GpuBindingError) as info:
        plan_gpus(workers, env=env, host_count=count)
    for part in expected:
        assert part in str(info.value)


class FakeNvml:
    def __init__(self, init: int, count: int) -> None:
        self.init, self.count, self.shut = init, count, False

    def nvmlInit_v2(self) -> int:
        return self.init

    def nvmlDeviceGetCount_v2(self, ref: Any) -> int:
        ref._obj.value = self.count
        return 0

    def nvmlShutdown(self) -> int:
        self.shut = True
        return 0


def test_host_gpu_count_asks_nvml(monkeypatch: pytest.MonkeyPatch) -> None:
    nvml = FakeNvml(init=0, count=3)
    monkeypatch.setattr(gpus, "_nvml", lambda: nvml)
    assert gpus.host_gpu_count() == 3 and nvml.shut
    monkeypatch.setattr(gpus, "_nvml", lambda: FakeNvml(init=9, count=3))  # NVML_ERROR_*
    assert gpus.host_gpu_count() == 0
    monkeypatch.setattr(gpus, "_nvml", lambda: None)  # no driver
    assert gpus.host_gpu_count() == 0


def test_counting_imports_no_torch_and_initialises_no_cuda() -> None:
    """On this machine (no GPU) the real count is 0; on any machine counting leaves torch out."""
    code = (
        "import sys; from pytest_magi.measure import gpus; n = gpus.host_gpu_count(); "
        "assert 'torch' not in sys.modules, 'torch imported'; "
        "assert not gpus.cuda_initialized(); print(n)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert int(out.stdout) >= 0


class FakeLibcuda:
    def __init__(self, rc: int) -> None:
        self.rc = rc

    def cuDeviceGetCount(self, ref: Any) -> int:
        return self.rc


def test_cuda_initialized_sees_torch_and_the_bare_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gpus, "_libcuda_mapped", lambda: False)
    assert not gpus.cuda_initialized()  # (this machine's torch, if imported, has no context)
    torch_like = types.SimpleNamespace(cuda=types.SimpleNamespace(is_initialized=lambda: True))
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "torch", torch_like)
        assert gpus.cuda_initialized()
    # torch.cuda.is_available() initialises the driver but makes no torch context
    monkeypatch.setattr(gpus, "_libcuda_mapped", lambda: True)
    monkeypatch.setattr(gpus.ctypes, "CDLL", lambda name: FakeLibcuda(0))
    assert gpus.cuda_initialized()
    monkeypatch.setattr(gpus.ctypes, "CDLL", lambda name: FakeLibcuda(3))  # NOT_INITIALIZED
    assert not gpus.cuda_initialized()


# --------------------------------------------------------------------------- binding
def _plan(*gpu_ids: str, visible: tuple[str, ...] = ()) -> GpuPlan:
    return GpuPlan(gpus=gpu_ids, visible=visible or gpu_ids, user_visible=None, user_order=False)


def test_binding_assigns_one_gpu_per_worker_and_refuses_a_gpu_already_owned(
    tmp_path: Path,
) -> None:
    binding = GpuBinding(_plan("0", "1"), folder=tmp_path)
    gw1 = binding.assign("gw1")
    gw0 = binding.assign("gw0")
    assert (gw0["gpu"], gw1["gpu"]) == ("0", "1")
    assert gw0["set_order"] == "PCI_BUS_ID"
    assert gw0["perf_lock"] != gw1["perf_lock"]  # workers on two GPUs time at the same time
    with pytest.raises(GpuBindingError) as info:
        binding.assign("gw2")
    assert str(info.value) == (
        "--magi-perf: xdist worker gw2 needs a GPU of its own, but each of the 2 GPUs of this "
        "run is already owned by another worker (gw0 on GPU 0, gw1 on GPU 1); run with -n 2 or "
        "fewer"
    )
    # xdist replaces a crashed worker after reporting it down: the new one gets its GPU
    binding.release("gw1")
    assert binding.assign("gw2")["gpu"] == "1"
    assert binding.assigned == {"gw0": "0", "gw1": "1", "gw2": "1"}
    assert binding.owners == {"gw0": "0", "gw2": "1"}


def test_a_gpu_owned_by_another_run_is_refused(tmp_path: Path) -> None:
    other = GpuBinding(_plan("0", "1"), folder=tmp_path)
    other.claim()
    try:
        ours = GpuBinding(_plan("0", "1", visible=("0", "1", "2", "3")), folder=tmp_path)
        with pytest.raises(GpuBindingError) as info:
            ours.claim()
        assert str(info.value) == (
            f"--magi-perf -n 2: GPU 0 (pid {os.getpid()}), GPU 1 (pid {os.getpid()}) are "
            f"already owned by the perf workers of another pytest run; two runs timing on one "
            f"GPU disturb each other's timings. Wait for that run to end, or give this run "
            f"other GPUs: CUDA_VISIBLE_DEVICES=2,3 pytest --magi-perf -n 2"
        )
        lonely = GpuBinding(_plan("1", "2", visible=("1", "2")), folder=tmp_path)
        with pytest.raises(
            GpuBindingError,
            match=r"GPU 1 \(pid \d+\) is already owned.*on the free one: CUDA_VISIBLE_DEVICES=2 pytest",
        ):
            lonely.claim()
    finally:
        other.close()
    ours.claim()  # free again once the other run ended
    ours.close()


def test_a_worker_takes_its_slot_from_its_own_controller_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    binding = GpuBinding(_plan("0", "1"), folder=tmp_path)
    monkeypatch.setattr(gpus.os, "getpid", lambda: 4242)  # the controller
    slots = binding.slots_variable()
    monkeypatch.setattr(gpus.os, "getppid", lambda: 4242)  # its worker
    env = {"PYTEST_XDIST_WORKER": "gw1", gpus.SLOTS_VAR: slots}
    assert gpus.inherited_assignment(env) == binding.assign("gw1")
    assert gpus.inherited_assignment({**env, "PYTEST_XDIST_WORKER": "gw2"}) is None  # replacement
    assert gpus.inherited_assignment({"PYTEST_XDIST_WORKER": "gw1"}) is None  # no --magi-perf -n
    assert gpus.inherited_assignment({gpus.SLOTS_VAR: slots}) is None  # not a worker
    assert gpus.inherited_assignment({**env, gpus.SLOTS_VAR: "{oops"}) is None
    monkeypatch.setattr(gpus.os, "getppid", lambda: 1)  # a stale variable, another parent
    assert gpus.inherited_assignment(env) is None


def test_pin_environment_keeps_the_users_choices() -> None:
    assignment = {"gpu": "1", "set_order": "PCI_BUS_ID", "perf_lock": "/tmp/x/perf-gpu-1.lock"}
    assert gpus.pin_environment(assignment, {}) == {
        "CUDA_VISIBLE_DEVICES": "1",
        "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
        "MAGI_PERF_LOCK": "/tmp/x/perf-gpu-1.lock",
    }
    # the user named the GPUs (or an order, or a lock): their order and lock stay
    user = {"gpu": "GPU-8f2c", "set_order": "", "perf_lock": "/tmp/x/l"}
    assert gpus.pin_environment(user, {"MAGI_PERF_LOCK": "/mine"}) == {
        "CUDA_VISIBLE_DEVICES": "GPU-8f2c"
    }
    binding = GpuBinding(
        GpuPlan(("3",), ("3",), user_visible="3", user_order=False), folder=Path("/nowhere")
    )
    assert binding.assign("gw0")["set_order"] == ""


def test_timed_gpu_maps_the_device_to_the_host_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3")  # a pinned worker
    assert gpus.timed_gpu("cuda", "NVIDIA H200") == (3, "NVIDIA H200")
    assert gpus.timed_gpu("cpu", "Xeon (16 CPUs)") == (None, None)
    assert gpus.timed_gpu(None, "x") == (None, None)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,5")
    assert gpus.timed_gpu("cuda:1", "H") == (5, "H")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "GPU-8f2c")
    assert gpus.timed_gpu("cuda", "H") == (None, "H")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    assert gpus.timed_gpu("cuda:1", "H") == (1, "H")


def test_pair_records_carry_the_gpu_and_old_reports_still_load() -> None:
    rec = PairRecord("t::a", "p", 1.2, "pass", 2.0, 1.0, 2.0, 0.01, 8, "NVIDIA H200", "2.11")
    on_gpu = PairRecord(**{**rec.to_dict(), "gpu_index": 1, "gpu_name": "NVIDIA H200"})
    assert PairRecord.from_dict(json.loads(json.dumps(on_gpu.to_dict()))) == on_gpu
    old = {k: v for k, v in rec.to_dict().items() if not k.startswith("gpu_")}
    assert PairRecord.from_dict(old) == rec and rec.gpu_index is None
    lines = format_pairs_table([on_gpu, PairRecord.not_measured("t::b", "q", 1.1)])
    header = lines[0]
    assert header.split()[-3:] == ["gpu", "compile", "numerics"]
    column = header.index("gpu")
    assert lines[2][column:].startswith("1 NVIDIA H200")
    assert lines[3][column:].startswith("-")


# --------------------------------------------------------------------------- the plugin
@pytest.mark.parametrize(
    ("count", "visible", "args", "expected"),
    [
        (0, None, ["-n", "2"], "ERROR: --magi-perf -n 2 needs 2 GPUs; this host has 0. *"),
        (1, None, ["-n", "2"], "ERROR: --magi-perf -n 2 needs 2 GPUs; this host has 1.*-n 0*"),
        (2, None, ["-n", "4"], "ERROR: --magi-perf -n 4 needs 4 GPUs; this host has 2.*-n 2 or*"),
        (4, "2,2", ["-n", "2"], "ERROR: --magi-perf -n 2: CUDA_VISIBLE_DEVICES='2,2' names GPU 2*"),
    ],
    ids=["no-gpu", "one-gpu", "too-few", "duplicates"],
)
def test_perf_with_several_workers_is_refused_without_a_gpu_each(
    pytester: pytest.Pytester,
    host: Any,
    monkeypatch: pytest.MonkeyPatch,
    count: int,
    visible: str | None,
    args: list[str],
    expected: str,
) -> None:
    host(count)
    if visible is not None:
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", visible)
    pytester.makepyfile("def test_x():\n    pass\n")
    result = _run(pytester, "--magi-perf", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([expected])


def test_perf_refuses_gpus_another_run_owns(
    pytester: pytest.Pytester, host: Any, tmp_path: Path
) -> None:
    host(2)
    other = GpuBinding(_plan("0", "1"), folder=tmp_path / "state")
    other.claim()
    pytester.makepyfile("def test_x():\n    pass\n")
    try:
        result = _run(pytester, "--magi-perf", "-n", "2")
    finally:
        other.close()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: --magi-perf -n 2: GPU 0 (pid *), GPU 1 (pid *) are already owned by the perf*"]
    )


def test_auto_means_one_worker_per_gpu_under_perf(pytester: pytest.Pytester, host: Any) -> None:
    host(3)
    assert plugin.pytest_xdist_auto_num_workers(pytester.parseconfig("--magi-perf")) == 3
    assert plugin.pytest_xdist_auto_num_workers(pytester.parseconfig()) is None  # xdist's rule
    host(1)
    assert plugin.pytest_xdist_auto_num_workers(pytester.parseconfig("--magi-perf")) == 1


def test_pinned_environment_is_restored_at_unconfigure(
    pytester: pytest.Pytester, host: Any
) -> None:
    """In-process 'worker' given GPU 1 by its controller: pinned while it runs, then restored."""
    assignment = {"gpu": "1", "set_order": "PCI_BUS_ID", "perf_lock": "/tmp/x/perf-gpu-1.lock"}

    class PretendWorker:
        @pytest.hookimpl(tryfirst=True)
        def pytest_cmdline_main(self, config: pytest.Config) -> None:
            config.workerinput = {"workerid": "gw1", "magi_gpu": assignment}  # type: ignore[attr-defined]

    pytester.makepyfile(
        """
        import os

        def test_env():
            assert os.environ["CUDA_VISIBLE_DEVICES"] == "1"
            assert os.environ["CUDA_DEVICE_ORDER"] == "PCI_BUS_ID"
            assert os.environ["MAGI_PERF_LOCK"] == "/tmp/x/perf-gpu-1.lock"
        """
    )
    pytester.runpytest(*QUICK, plugins=[PretendWorker()]).assert_outcomes(passed=1)
    for var in ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "MAGI_PERF_LOCK"):
        assert var not in os.environ, var


RECORD_ENV = """
import json, os, sys

import pytest

VARS = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "MAGI_PERF_LOCK",
        "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")


def record(phase):
    worker = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    data = {var: os.environ.get(var) for var in VARS}
    data["torch_cuda_initialized"] = (
        "torch" in sys.modules and sys.modules["torch"].cuda.is_initialized()
    )
    with open(f"env-{phase}-{worker}.json", "w") as f:
        json.dump(data, f)


if os.environ.get("PYTEST_XDIST_WORKER"):
    record("conftest")  # the root conftest of a project, imported by every worker
"""

ENV_TESTS = """
import os

from conftest import record

record("import")  # every worker imports this module to collect it


def test_a():
    pass


def test_b():
    pass
"""


def _envs(path: Path, phase: str) -> dict[str, dict[str, Any]]:
    return {
        p.name.split("-")[-1][: -len(".json")]: json.loads(p.read_text())
        for p in path.glob(f"env-{phase}-*.json")
    }


def test_perf_workers_are_pinned_before_conftests_and_never_share_caches(
    pytester: pytest.Pytester, host: Any
) -> None:
    """-n 2 --magi-perf with 2 (faked) GPUs: gw0 owns GPU 0 and gw1 GPU 1 from before their
    conftest.py is imported (so before any test module), with their own Inductor and Triton
    caches (set at configure) and their own timing lock."""
    host(2)
    pytester.makeconftest(RECORD_ENV)
    pytester.makepyfile(ENV_TESTS)
    result = _run(pytester, "--magi-perf", "-n", "2")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["magi: perf timing on, 8 rounds, one GPU per xdist worker (GPUs 0, 1)"]
    )
    for phase in ("conftest", "import"):
        envs = _envs(pytester.path, phase)
        assert set(envs) == {"gw0", "gw1"}, phase
        assert envs["gw0"]["CUDA_VISIBLE_DEVICES"] == "0"
        assert envs["gw1"]["CUDA_VISIBLE_DEVICES"] == "1"
        for env in envs.values():
            assert env["CUDA_DEVICE_ORDER"] == "PCI_BUS_ID"
            assert env["torch_cuda_initialized"] is False
        assert envs["gw0"]["MAGI_PERF_LOCK"] != envs["gw1"]["MAGI_PERF_LOCK"]
    envs = _envs(pytester.path, "import")
    for var in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):
        gw0, gw1 = envs["gw0"][var], envs["gw1"][var]
        assert gw0 and gw1 and gw0 != gw1, var
    assert Path(envs["gw0"]["TORCHINDUCTOR_CACHE_DIR"]).parts[-2:] == ("gw0", "inductor")
    assert Path(envs["gw1"]["TRITON_CACHE_DIR"]).parts[-2:] == ("gw1", "triton")


def test_without_perf_xdist_pins_nothing(
    pytester: pytest.Pytester, host: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_counting() -> int:
        raise AssertionError("GPUs counted without --magi-perf")

    host(2)
    monkeypatch.setattr(gpus, "host_gpu_count", no_counting)
    pytester.makeconftest(RECORD_ENV)
    pytester.makepyfile(ENV_TESTS)
    result = _run(pytester, "-n", "2")
    result.assert_outcomes(passed=2)
    assert "one GPU per xdist worker" not in result.stdout.str()
    envs = _envs(pytester.path, "import")
    assert set(envs) == {"gw0", "gw1"}
    for env in envs.values():
        assert env["CUDA_VISIBLE_DEVICES"] is None
        assert env["CUDA_DEVICE_ORDER"] is None and env["MAGI_PERF_LOCK"] is None
        # without --magi-perf the caches are the user's: no worker folder of the plugin's
        assert worker_folder_not_in(env["TORCHINDUCTOR_CACHE_DIR"])


def worker_folder_not_in(path: str | None) -> bool:
    return "pytest-magi" not in (path or "")


CUDA_NOW_INITIALISED = """
import os

import pytest_magi.measure.gpus

if os.environ.get("PYTEST_XDIST_WORKER"):
    # as after torch.cuda.is_available() (it initialises the CUDA driver) at import
    pytest_magi.measure.gpus.cuda_initialized = lambda: True
"""


def test_a_conftest_initialising_cuda_comes_after_the_pin(
    pytester: pytest.Pytester, host: Any
) -> None:
    """The repository's own root conftest imports Inductor, which initialises the CUDA driver:
    the workers pin before any conftest is imported, so that is fine."""
    host(2)
    pytester.makeconftest(CUDA_NOW_INITIALISED + RECORD_ENV)
    pytester.makepyfile(ENV_TESTS)
    _run(pytester, "--magi-perf", "-n", "2").assert_outcomes(passed=2)
    envs = _envs(pytester.path, "import")
    assert {w: e["CUDA_VISIBLE_DEVICES"] for w, e in envs.items()} == {"gw0": "0", "gw1": "1"}


def test_a_worker_with_cuda_initialised_refuses_its_tests(
    pytester: pytest.Pytester, host: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As if a plugin loaded before the pin had initialised CUDA: pinning cannot work any more.
    In-process 'worker' gw1: its controller's slots in the environment, its GPU in workerinput
    (an xdist worker gets its sys.path from the controller, so a test plugin cannot reach it)."""
    host(2)
    binding = GpuBinding(_plan("0", "1"), folder=tmp_path)
    slots = {"controller": os.getppid(), "slots": [binding.assign("gw0"), binding.assign("gw1")]}
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    monkeypatch.setenv(gpus.SLOTS_VAR, json.dumps(slots))
    order: list[str] = []  # the pin's check must come before the conftest is imported
    monkeypatch.setattr(gpus, "cuda_initialized", lambda: order.append("pin check") or True)
    monkeypatch.setattr(gpus, "order_for_the_test", order, raising=False)
    pytester.makeconftest(
        "import pytest_magi.measure.gpus\npytest_magi.measure.gpus.order_for_the_test.append('conftest')\n"
    )

    class PretendWorker:
        @pytest.hookimpl(tryfirst=True)
        def pytest_cmdline_main(self, config: pytest.Config) -> None:
            gw1 = {"workerid": "gw1", "magi_gpu": slots["slots"][1]}
            config.workerinput = gw1  # type: ignore[attr-defined]

    pytester.makepyfile(ENV_TESTS.replace("from conftest import record", "record = print"))
    result = pytester.runpytest(*QUICK, plugins=[PretendWorker()])
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        [
            "*UsageError: --magi-perf worker gw1: CUDA was initialised in this process before "
            "pytest-magi could pin the worker to GPU 1*"
        ]
    )
    out = result.stdout.str()
    assert (
        "Move that into a fixture or a test, or time in one process: pytest --magi-perf -n 0" in out
    )
    assert order == ["pin check", "conftest"]
    assert "CUDA_VISIBLE_DEVICES" not in os.environ  # nothing pinned


FAKE_TIMING = """
import contextlib
import os
import sys
import types
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class Speedup:
    baseline_ms: float
    candidate_ms: float
    ratio: float
    spread: float
    rounds: int
    device: str
    torch_version: str


class FakePair:
    device = "cuda"

    def __init__(self, label, baseline_ms, candidate_ms):
        self.label, self.baseline_ms, self.candidate_ms = label, baseline_ms, candidate_ms

    @classmethod
    def build(cls, model, *inputs, baseline=None, candidate=None, label=None, **kwargs):
        return cls(label, baseline, candidate)


def measure_pair(pair, *, rounds, device=None, threshold=None):
    with open(f"timed-{pair.label}.txt", "w") as f:
        f.write(os.environ["CUDA_VISIBLE_DEVICES"])
    return Speedup(pair.baseline_ms, pair.candidate_ms, pair.baseline_ms / pair.candidate_ms,
                   0.01, rounds, "FakeGPU 9000", "9.9.9")


@pytest.fixture(autouse=True)
def _fake_timing(monkeypatch):
    fakes = {
        "pytest_magi.pair": {"CompiledPair": FakePair},
        "pytest_magi.timing": {
            "measure_pair": measure_pair, "PerfLock": contextlib.nullcontext, "MIN_ROUNDS": 3,
        },
    }
    for name, attrs in fakes.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, name, module)
"""

GROUPED_PERF_TESTS = """
import pytest

@pytest.mark.xdist_group("vae")
@pytest.mark.min_speedup(1.5)
def test_vae_fast(compiled_pair):
    compiled_pair(object(), 1, baseline=3.0, candidate=1.0, label="vae-fast")

@pytest.mark.xdist_group("vae")
@pytest.mark.min_speedup(1.5)
def test_vae_slow(compiled_pair):
    compiled_pair(object(), 1, baseline=1.0, candidate=2.0, label="vae-slow")

@pytest.mark.xdist_group("gqa")
@pytest.mark.min_speedup(1.2)
def test_gqa(compiled_pair):
    compiled_pair(object(), 1, baseline=2.0, candidate=1.0, label="gqa")
"""


@pytest.mark.slow
def test_report_of_two_perf_workers_carries_each_rows_gpu(
    pytester: pytest.Pytester, host: Any
) -> None:
    """--dist loadgroup: each xdist_group runs on one worker, so on one GPU; the controller's
    table, failure message and JSON show the GPU every pair was timed on."""
    host(2)
    pytester.makeconftest(FAKE_TIMING)
    pytester.makepyfile(GROUPED_PERF_TESTS)
    result = _run(
        pytester, "--magi-perf", "-n", "2", "--dist", "loadgroup", "--magi-report", "r.json"
    )
    result.assert_outcomes(passed=2, failed=1)
    timed_on = {
        label: int((pytester.path / f"timed-{label}.txt").read_text())
        for label in ("vae-fast", "vae-slow", "gqa")
    }
    assert timed_on["vae-fast"] == timed_on["vae-slow"] != timed_on["gqa"]  # one GPU a group
    slow = timed_on["vae-slow"]
    result.stdout.fnmatch_lines(
        [
            "*min_speedup(1.5) not met by pair 'vae-slow'*",
            f"  device FakeGPU 9000 (GPU {slow}), torch 9.9.9",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            f"*::test_gqa@gqa *gqa *2.0000 *1.0000 *2.000x *1.200x *pass *{timed_on['gqa']} FakeGPU 9000*"
        ]
    )
    data = json.loads((pytester.path / "r.json").read_text())
    assert data["options"]["gpus"] == {"gw0": "0", "gw1": "1"}
    rows = {p["label"]: p for p in data["pairs"]}
    assert set(rows) == set(timed_on)
    for label, gpu in timed_on.items():
        assert (rows[label]["gpu_index"], rows[label]["gpu_name"]) == (gpu, "FakeGPU 9000")


@pytest.mark.slow
def test_a_run_over_two_gpus_compares_with_one_in_a_process(
    pytester: pytest.Pytester, host: Any, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Issue 19's check, on faked GPUs: the `-n 2` and `-n 0` reports of one suite carry each
    run's workers and wall time, and `python -m pytest_magi.report compare` matches them pair
    by pair (the faked timing gives equal speedups)."""
    host(2)
    pytester.makeconftest(FAKE_TIMING)
    pytester.makepyfile(GROUPED_PERF_TESTS)
    _run(pytester, "--magi-perf", "-n", "2", "--magi-report", "r2.json").assert_outcomes(
        passed=2, failed=1
    )
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")  # one process on GPU 1
    _run(pytester, "--magi-perf", "-n", "0", "--magi-report", "r0.json").assert_outcomes(
        passed=2, failed=1
    )
    r0, r2 = (report.load_report(pytester.path / f"r{n}.json") for n in (0, 2))
    assert (r0["options"]["workers"], r2["options"]["workers"]) == (0, 2)
    assert r0["duration_s"] > 0 and r2["duration_s"] > 0
    assert {p["gpu_index"] for p in r0["pairs"]} == {1}
    # each test's time and worker, for `compare` to say where the wall time went
    assert {t["worker"] for t in r0["tests"]} == {""}
    assert {t["worker"] for t in r2["tests"]} <= {"gw0", "gw1"}
    assert len(r2["tests"]) == 3 and all(t["duration_s"] > 0 for t in r2["tests"])
    capsys.readouterr()
    code = report.main(["compare", str(pytester.path / "r0.json"), str(pytester.path / "r2.json")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "all 3 timed pairs within 3.0%" in out
    assert "in one process" in out and "on 2 workers" in out
    assert "test time: before" in out


# --------------------------------------------------------------------------- loadgroup on pytest 9.2
GROUPED_WRITERS = """
import os
import pytest

def _write(name):
    with open(name + ".worker", "w") as f:
        f.write(os.environ["PYTEST_XDIST_WORKER"])

@pytest.mark.xdist_group("vae")
def test_a1():
    _write("a1")

@pytest.mark.xdist_group("vae")
def test_a2():
    _write("a2")

@pytest.mark.xdist_group("gqa")
def test_b():
    _write("b")
"""


def test_loadgroup_sends_one_groups_tests_to_one_worker_on_every_pytest(
    pytester: pytest.Pytester,
) -> None:
    """With pytest 9.2.0 and pytest-xdist 3.8.0 the group's two tests ran on two workers
    (pytest-xdist#1386) until the plugin kept xdist's group suffix (`xdist_compat`); here it
    holds on whichever pytest runs the suite. Three runs: a lost group would be spread by
    chance in one of them at least as often as not."""
    pytester.makepyfile(GROUPED_WRITERS)
    for _ in range(3):
        result = _run(pytester, "-n", "2", "--dist", "loadgroup")
        result.assert_outcomes(passed=3)
        worker = {n: (pytester.path / f"{n}.worker").read_text() for n in ("a1", "a2", "b")}
        assert worker["a1"] == worker["a2"], worker


def test_the_group_suffix_is_kept_where_the_node_id_is_derived_from_a_structured_id() -> None:
    """pytest 9.2's shape (``nodeid`` is ``str(item._id)``), imitated, so that CI's pytest
    exercises the change too: xdist's write to ``_nodeid`` is carried into ``_id``."""
    from pytest_magi.plugin.xdist_compat import keep_group_suffixes

    class StructuredId:
        def __init__(self, text: str) -> None:
            self.text = text

        @classmethod
        def parse(cls, text: str) -> StructuredId:
            return cls(text)

        def __str__(self) -> str:
            return self.text

    class Item:
        def __init__(self, nodeid: str) -> None:
            self._id = StructuredId(nodeid)

        @property
        def nodeid(self) -> str:
            return str(self._id)

    grouped, plain, shown = Item("t.py::test_a"), Item("t.py::test_b"), Item("t.py::test_c")
    grouped._nodeid = "t.py::test_a@vae"  # what xdist writes for a grouped test
    shown._nodeid = "t.py::test_c"  # a pytest that reads _nodeid shows it already
    assert keep_group_suffixes([grouped, plain, shown]) == 1
    assert grouped.nodeid == "t.py::test_a@vae"
    assert plain.nodeid == "t.py::test_b" and shown.nodeid == "t.py::test_c"
    assert keep_group_suffixes([grouped]) == 0  # once is enough
