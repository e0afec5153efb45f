"""The magi pytest plugin, run in-process with `pytester` (and with `-n 2` where it matters).

Most runs use a conftest that fakes `pytest_magi.pair`, `pytest_magi.timing` and
`pytest_magi.codegen` (`FAKES`), so the plugin's own logic is tested fast and exactly: a fake
pair's medians are the numbers given to `compiled_pair`. `test_real_pairs_on_cpu` and
`test_real_kernel_counts` run the real modules end to end.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
import torch
import torch._inductor.config as inductor_config

import pytest_magi.timing  # noqa: F401 - imported here, not first inside an in-process run
from pytest_magi import report
from pytest_magi.plugin.markers import MARKERS
from pytest_magi.plugin.session import CACHE_SLOT_KEY

FAKES = '''
import contextlib
import sys
import types
from dataclasses import dataclass

import pytest

MEASURED = []


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
    """compiled_pair(model, x, baseline=<ms>, candidate=<ms>): the medians measure_pair gives."""

    def __init__(self, label, baseline_ms, candidate_ms):
        self.label = label
        self.baseline_ms = baseline_ms
        self.candidate_ms = candidate_ms

    @classmethod
    def build(cls, model, *inputs, baseline=None, candidate=None, label=None,
              inductor_config=None, **kwargs):
        assert inputs, "example inputs are passed through"
        pair = cls(label or "fake-pair", baseline or 1.0, candidate or 1.0)
        pair.health = dict(inductor_config or {})  # e.g. {"candidate_graph_breaks": 1}
        return pair

    @property
    def compile_stats(self):
        from pytest_magi.capture.compile_stats import CompileStats

        def side(name):
            get = lambda key, default=0: self.health.get(f"{name}_{key}", default)
            return CompileStats(
                frames=1, graphs=get("graphs", 1), graph_breaks=get("graph_breaks"),
                break_reasons=("a fake break",) * get("graph_breaks"),
                recompiles=get("recompiles"),
                recompile_reasons=("a fake guard failed",) * get("recompiles"),
            )

        return {"baseline": side("baseline"), "candidate": side("candidate")}

    @property
    def compile_note(self):
        from pytest_magi.capture.compile_stats import more_graphs_note

        return more_graphs_note(self.compile_stats)

    def expect_compile(self, *, side="both", **maximums):
        from pytest_magi.capture.compile_stats import check_maximums

        check_maximums(self.compile_stats, maximums, self.label, side=side)


def measure_pair(pair, *, rounds, device=None, threshold=None):
    MEASURED.append((pair.label, rounds, threshold))
    return Speedup(pair.baseline_ms, pair.candidate_ms, pair.baseline_ms / pair.candidate_ms,
                   0.025, rounds, "FakeGPU 9000", "9.9.9")


@dataclass(frozen=True)
class KernelCounts:
    forward: int
    backward: int | None


class GeneratedCode:
    def __init__(self, forward, backward):
        self.forward = ["k"] * forward
        self.backward = ["k"] * (backward or 0)
        self.graph_kinds = ["forward", "backward"] if backward is not None else ["inference"]


def kernel_counts(fn, *inputs, dynamic_dims=None, backward=False, config=None, **kwargs):
    return KernelCounts(len(inputs), 2 * len(inputs) if backward else None)


def inductor_codegen(fn, *inputs, dynamic_dims=None, backward=False, config=None, **kwargs):
    return GeneratedCode(3, 4 if backward else None)


@pytest.fixture(autouse=True)
def _fake_magi_modules(monkeypatch):
    fakes = {
        "pytest_magi.pair": {"CompiledPair": FakePair},
        "pytest_magi.timing": {
            "measure_pair": measure_pair, "PerfLock": contextlib.nullcontext, "MIN_ROUNDS": 3,
        },
        "pytest_magi.codegen": {
            "kernel_counts": kernel_counts, "inductor_codegen": inductor_codegen,
        },
    }
    for name, attrs in fakes.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, name, module)
'''

PERF_PAIRS = """
import pytest

@pytest.mark.min_speedup(1.5)
def test_fast(compiled_pair):
    pair = compiled_pair(object(), 1, baseline=3.0, candidate=1.0, label="fast")
    pair.numerics = "fp32 rel-L2: candidate 1.00e-02; ok"  # what its assert_close leaves

@pytest.mark.min_speedup(ratio=1.5)
def test_slow(compiled_pair):
    compiled_pair(object(), 1, baseline=1.0, candidate=2.0, label="slow")

@pytest.mark.min_speedup(1.2)
def test_two_pairs(compiled_pair):
    compiled_pair(object(), 1, baseline=2.0, candidate=1.0, label="first")
    compiled_pair(object(), 1, baseline=2.0, candidate=1.0, label="second")
"""

PERF_TESTS = (
    PERF_PAIRS
    + """

def test_counts(kernel_counts, inductor_codegen):
    assert kernel_counts(len, 1, 2, label="two").forward == 2
    assert kernel_counts(len, 1, backward=True).backward == 2
    inductor_codegen(len, 1, backward=True, label="code")

def test_worker_cache_folders(worker_id):
    import os
    # the caches are the user's: only --magi-perf -n N gives each worker folders of its own
    assert os.environ["TRITON_CACHE_DIR"].endswith("my-triton-cache")
    assert worker_id not in os.environ.get("TORCHINDUCTOR_CACHE_DIR", ""), worker_id
"""
)

XDIST = pytest.param(["-n", "2"], id="xdist")
NO_XDIST = pytest.param([], id="inprocess")


@pytest.fixture
def fakes(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(FAKES)
    return pytester


# Inner runs are in-process; pytester drops the modules they import afterwards, so a plugin that
# imports a lot each run (hypothesis, where installed) costs seconds every time; and
# unraisableexception's gc.collect() x5 at unconfigure takes ~2 s with torch imported.
QUICK = ("-p", "no:cacheprovider", "-p", "no:unraisableexception", "-p", "no:hypothesispytest")


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest(*QUICK, *args)


# --------------------------------------------------------------------------- options, markers
def test_help_lists_the_magi_group_options_and_ini_twins(pytester: pytest.Pytester) -> None:
    result = _run(pytester, "--help")
    out = result.stdout.str()
    assert "magi:" in out
    for option in (
        "--magi-perf ",
        "--magi-perf-rounds=N",
        "--magi-report=PATH",
        "--magi-report-png=PATH",
        "--magi-estimate=PROFILE",
    ):
        assert option in out
    for ini in (
        "magi_perf ",
        "magi_perf_rounds ",
        "magi_report ",
        "magi_report_png ",
        "magi_estimate ",
    ):
        assert ini in out


def test_markers_are_registered_signature_first(pytester: pytest.Pytester) -> None:
    result = _run(pytester, "--markers")
    for line in MARKERS.values():
        result.stdout.fnmatch_lines([f"@pytest.mark.{line}"])
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.requires_cuda(min_capability=(8, 0))
        def test_gpu():
            pass

        @pytest.mark.min_speedup(1.1)
        def test_perf(compiled_pair):
            compiled_pair(object(), 1)
        """
    )
    pytester.makeconftest(FAKES)
    # the perf test skips without --magi-perf; the GPU test runs only where there is a GPU
    gpu = torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0)
    outcome = {"passed": 1, "skipped": 1} if gpu else {"skipped": 2}
    _run(pytester, "--strict-markers").assert_outcomes(**outcome)


@pytest.mark.parametrize(
    ("args", "ini", "shown"),
    [
        (["--magi-perf-rounds", "0"], None, "--magi-perf-rounds='0'"),
        (["--magi-perf-rounds", "two"], None, "--magi-perf-rounds='two'"),
        (["--magi-perf-rounds", "2"], None, "--magi-perf-rounds='2'"),
        ([], "magi_perf_rounds = -1", "ini magi_perf_rounds='-1'"),
    ],
)
def test_bad_perf_rounds_is_a_usage_error(
    pytester: pytest.Pytester, args: list[str], ini: str | None, shown: str
) -> None:
    if ini:
        pytester.makeini(f"[pytest]\n{ini}\n")
    result = _run(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            f"ERROR: {shown}: expected a whole number of timing rounds >= 3 (one round is never a verdict)*"
        ]
    )


def test_snapshot_update_with_several_xdist_workers_is_a_usage_error(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile("def test_x():\n    pass\n")
    result = _run(pytester, "--snapshot-update", "-n", "2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "--snapshot-update with 2 xdist workers" in err
    assert "concurrent writers corrupt them" in err
    assert "pytest -n 0 --snapshot-update" in err
    # one process is fine
    _run(pytester, "--snapshot-update", "-n", "0").assert_outcomes(passed=1)


# --------------------------------------------------------------------------- min_speedup
def test_min_speedup_without_perf_runs_the_body_then_skips(fakes: pytest.Pytester) -> None:
    fakes.makepyfile(
        """
        import pytest

        @pytest.mark.min_speedup(1.5)
        def test_numerics_ok(compiled_pair):
            compiled_pair(object(), 1, baseline=1.0, candidate=5.0, label="slow-but-unmeasured")

        @pytest.mark.min_speedup(1.5)
        def test_numerics_broken(compiled_pair):
            compiled_pair(object(), 1)
            assert 1 == 2, "numerics differ"

        @pytest.mark.min_speedup(1.5)
        def test_no_pair():
            pass
        """
    )
    result = _run(fakes, "-rs")
    result.assert_outcomes(skipped=1, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*numerics differ*",
            "*test_no_pair*",
            "min_speedup test built no compiled_pair: @pytest.mark.min_speedup(1.5) times the "
            "compiled_pair(s) the test builds, and it built none*",
            "*magi: compiled pairs*",
            # a pair whose test failed is the row a user most needs: it stays, untimed
            "*test_numerics_broken*fake-pair*-*-*-*1.500x*not timed: test failed*graphs 1->1*",
            "*test_numerics_ok*slow-but-unmeasured*-*-*-*1.500x*not measured*graphs 1->1*",
            "(not measured: timing skipped: run with --magi-perf)",
            "SKIPPED [[]1[]] test_min_speedup_without_perf_runs_the_body_then_skips.py:3: "
            "timing skipped: run with --magi-perf",
        ]
    )


def test_the_report_is_on_disk_after_each_test_so_a_killed_run_keeps_it(
    fakes: pytest.Pytester,
) -> None:
    """A run cut off by a time limit keeps the pairs it timed: the JSON is rewritten after
    every test with records (``complete`` false) and once more at the end (``complete`` true)."""
    fakes.makepyfile(
        PERF_PAIRS
        + """

def test_z_reads_the_report_mid_run():
    import json, pathlib
    data = json.loads(pathlib.Path("out/report.json").read_text())
    assert data["complete"] is False
    assert {p["label"] for p in data["pairs"]} == {"fast", "slow", "first", "second"}
"""
    )
    result = _run(fakes, "--magi-perf", "--magi-report", "out/report.json")
    result.assert_outcomes(passed=3, failed=1)  # test_slow misses its speedup
    data = json.loads((fakes.path / "out" / "report.json").read_text())
    assert data["complete"] is True
    assert len(data["pairs"]) == 4


@pytest.mark.parametrize("xdist", [NO_XDIST])
def test_min_speedup_with_perf_times_pairs_and_reports_everything(
    fakes: pytest.Pytester, xdist: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Timing in one process (several xdist workers need a GPU each: tests/test_multi_gpu.py;
    records of every worker reaching the controller: test_records_of_every_worker_...)."""
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(fakes.path / "my-triton-cache"))
    fakes.makepyfile(PERF_TESTS)
    result = _run(
        fakes, "--magi-perf", "--magi-perf-rounds", "3", "--magi-report", "out/report.json", *xdist
    )
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*min_speedup(1.5) not met by pair 'slow': speedup 0.500x < required 1.500x",
            "  baseline  median 1.0000 ms",
            "  candidate median 2.0000 ms",
            "  spread 2.5% (IQR/median of the round ratios) over 3 rounds",
            "  device FakeGPU 9000, torch 9.9.9",
            "  numerics not checked",
        ]
    )
    out = result.stdout.str()
    assert "magi: compiled pairs" in out and "magi: kernel counts" in out
    result.stdout.fnmatch_lines(
        [
            "*::test_fast *fast *3.0000 *1.0000 *3.000x *1.500x *pass *graphs 1->1, breaks 0->0*"
            "fp32 rel-L2: candidate 1.00e-02; ok*"
        ]
    )

    data = json.loads((fakes.path / "out" / "report.json").read_text())
    assert data["schema"] == report.REPORT_SCHEMA
    assert data["options"] == {
        "perf": True,
        "perf_cpu": False,
        "rounds": 3,
        "locate": False,
        "workers": 0,
    }
    assert set(data["environment"]) >= {"device", "torch", "triton", "python", "platform"}
    assert data["created"]
    pairs = {(p["test"].split("::")[1], p["label"]): p for p in data["pairs"]}
    assert set(pairs) == {
        ("test_fast", "fast"),
        ("test_slow", "slow"),
        ("test_two_pairs", "first"),
        ("test_two_pairs", "second"),
    }
    slow = pairs[("test_slow", "slow")]
    assert slow == {
        "test": slow["test"],
        "label": "slow",
        "required": 1.5,
        "verdict": "FAIL",
        "baseline_ms": 1.0,
        "candidate_ms": 2.0,
        "speedup": 0.5,
        "spread": 0.025,
        "rounds": 3,
        "device": "FakeGPU 9000",
        "torch_version": "9.9.9",
        "compile": "graphs 1->1, breaks 0->0, recompiles 0->0",
        "gpu_index": None,  # the fake pair has no device: not timed on a GPU
        "gpu_name": None,
        "baseline_host_ms": None,  # host times come from the CUDA timer only
        "candidate_host_ms": None,
        "numerics": "not checked",  # its test never compared the outputs
        "estimated_speedup": None,  # no --magi-estimate
        "estimate_profile": None,
        "estimate_error": None,
    }
    assert pairs[("test_fast", "fast")]["numerics"] == "fp32 rel-L2: candidate 1.00e-02; ok"
    assert pairs[("test_fast", "fast")]["verdict"] == "pass"
    counts = {(c["label"], c["forward"], c["backward"]) for c in data["kernel_counts"]}
    assert counts == {("two", 2, None), ("len", 1, 2), ("code", 3, 4)}


def test_perf_with_several_xdist_workers_needs_a_gpu_each(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each perf worker owns a GPU: on this host's real GPU count (0 on CI) -n 2 is refused;
    one process is fine. Faked counts, pinning and every refusal: tests/test_multi_gpu.py."""
    from pytest_magi.measure import gpus

    if gpus.host_gpu_count() >= 2:
        pytest.skip("this host has 2 GPUs: -n 2 --magi-perf is allowed here")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    pytester.makepyfile("def test_x():\n    pass\n")
    result = _run(pytester, "--magi-perf", "-n", "2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: --magi-perf -n 2 needs 2 GPUs; this host has ?. Under --magi-perf each "
            "xdist worker owns one GPU*Time in one process: pytest --magi-perf -n 0 (or -n 1)*"
        ]
    )
    _run(pytester, "--magi-perf", "-n", "0").assert_outcomes(passed=1)


def test_records_of_every_worker_reach_the_controller_without_perf(
    fakes: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-n 2 (no timing): pairs (not measured), compile health and kernel counts of both workers
    are in the controller's summary and JSON; the cache folders stay the user's."""
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(fakes.path / "my-triton-cache"))
    fakes.makepyfile(PERF_TESTS)
    result = _run(fakes, "--magi-report", "out/report.json", "-n", "2")
    result.assert_outcomes(passed=2, skipped=3)
    data = json.loads((fakes.path / "out" / "report.json").read_text())
    assert {p["label"] for p in data["pairs"]} == {"fast", "slow", "first", "second"}
    assert {p["verdict"] for p in data["pairs"]} == {"not measured"}
    assert data["options"]["workers"] == 2 and data["duration_s"] > 0  # the controller's run
    assert {c["label"] for c in data["compile"]} == {"fast", "slow", "first", "second"}
    counts = {(c["label"], c["forward"], c["backward"]) for c in data["kernel_counts"]}
    assert counts == {("two", 2, None), ("len", 1, 2), ("code", 3, 4)}


COMPILE_HEALTH = """
import pytest

@pytest.mark.no_graph_breaks
def test_breaks(compiled_pair):
    compiled_pair(object(), 1, inductor_config={"candidate_graph_breaks": 2}, label="breaky")

@pytest.mark.no_graph_breaks(side="baseline")
def test_breaks_on_the_candidate_only(compiled_pair):
    compiled_pair(object(), 1, inductor_config={"candidate_graph_breaks": 1}, label="cand")

@pytest.mark.no_recompiles
@pytest.mark.no_graph_breaks
def test_clean(compiled_pair):
    compiled_pair(object(), 1, label="clean")

@pytest.mark.no_recompiles(side="candidate")
def test_recompiles(compiled_pair):
    compiled_pair(object(), 1, inductor_config={"candidate_recompiles": 1,
                                                "candidate_graphs": 3}, label="recompiling")

@pytest.mark.no_recompiles
def test_no_pair():
    pass
"""


def test_compile_health_markers_table_and_report(fakes: pytest.Pytester) -> None:
    fakes.makepyfile(COMPILE_HEALTH)
    result = _run(fakes, "--magi-report", "r.json")
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines(
        [
            "*@pytest.mark.no_graph_breaks: CompiledPair 'breaky': compile health over the "
            "maximums:",
            "  candidate graph_breaks=2 > 0: a fake break",
            "*@pytest.mark.no_recompiles: CompiledPair 'recompiling': compile health over the*",
            "  candidate recompiles=1 > 0: a fake guard failed",
            "*no_recompiles checks the compiled_pair(s) the test builds, and it built none*",
            "*magi: compile health (graphs/frames, breaks, recompiles)*",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*test_recompiles*recompiling*1g/1f 0brk 0rec*3g/1f 0brk 1rec*candidate compiles "
            "more graphs than the baseline (3 > 1)*"
        ]
    )
    data = json.loads((fakes.path / "r.json").read_text())
    by_label = {c["label"]: c for c in data["compile"]}
    assert set(by_label) == {"breaky", "cand", "clean", "recompiling"}
    assert by_label["breaky"]["candidate"]["graph_breaks"] == 2
    assert by_label["breaky"]["candidate"]["break_reasons"] == ["a fake break"] * 2
    assert by_label["recompiling"]["note"].startswith("candidate compiles more graphs")


@pytest.mark.parametrize(
    ("mark", "message"),
    [
        (
            "no_graph_breaks(side='cand')",
            "side='cand'; expected one of 'both', 'baseline', 'candidate'",
        ),
        (
            "no_recompiles(sides='both')",
            "unknown keyword argument(s) sides; expected only side, reason",
        ),
        ("no_recompiles('both', 'x')", "unexpected positional argument(s) 'x'"),
    ],
)
def test_bad_compile_health_marker_is_a_usage_error(
    pytester: pytest.Pytester, mark: str, message: str
) -> None:
    pytester.makepyfile(f"import pytest\n\n@pytest.mark.{mark}\ndef test_x():\n    pass\n")
    result = _run(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*test_x: @pytest.mark.*{message}*"])


def test_measure_pair_gets_the_rounds_from_ini_or_cli(fakes: pytest.Pytester) -> None:
    fakes.makeini("[pytest]\nmagi_perf = true\nmagi_perf_rounds = 5\nmagi_report = r/ini.json\n")
    fakes.makepyfile(
        """
        import pytest
        import conftest

        @pytest.mark.min_speedup(1.5)
        def test_fast(compiled_pair):
            compiled_pair(object(), 1, baseline=3.0, candidate=1.0, label="fast")

        def test_z_check(request):
            expected = int(request.config.getoption("magi_perf_rounds") or 5)
            assert conftest.MEASURED == [("fast", expected, 1.5)]
        """
    )
    _run(fakes).assert_outcomes(passed=2)  # ini: perf on, 5 rounds
    assert (fakes.path / "r" / "ini.json").is_file()
    data = json.loads((fakes.path / "r" / "ini.json").read_text())
    assert data["options"] == {
        "perf": True,
        "perf_cpu": False,
        "rounds": 5,
        "locate": False,
        "workers": 0,
    }
    _run(fakes, "--magi-perf-rounds", "4").assert_outcomes(passed=2)  # the option wins


def test_png_report(fakes: pytest.Pytester) -> None:
    # imported here, not first inside the in-process run (which drops new modules afterwards)
    pytest.importorskip("matplotlib.backends.backend_agg")
    fakes.makepyfile(PERF_PAIRS)
    result = _run(fakes, "--magi-perf", "--magi-report-png", "chart.png")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*magi: wrote PNG *chart.png*"])
    assert (fakes.path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_report_without_matplotlib_is_a_usage_error(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report.files, "matplotlib_available", lambda: False)
    pytester.makepyfile("def test_x():\n    pass\n")
    result = _run(pytester, "--magi-report-png", "chart.png")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: --magi-report-png '*chart.png' needs matplotlib, which is not installed: "
            "pip install pytest-magi[[]plot[]]"
        ]
    )


# --------------------------------------------------------------------------- requires_cuda
def test_requires_cuda_skips_on_this_cpu_machine(pytester: pytest.Pytester) -> None:
    if torch.cuda.is_available():
        pytest.skip("this test describes a machine without CUDA")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.requires_cuda
        def test_any_gpu():
            raise AssertionError("must not run")

        @pytest.mark.requires_cuda(min_capability=(9, 0))
        def test_hopper():
            raise AssertionError("must not run")
        """
    )
    result = _run(pytester, "-rs")
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines(
        [
            "SKIPPED [[]1[]] test_requires_cuda_skips_on_this_cpu_machine.py:3: requires a CUDA GPU: "
            "torch.cuda.is_available() is False (torch *)",
            "SKIPPED [[]1[]] *.py:7: requires CUDA capability >= 9.0: torch.cuda.is_available() is False*",
        ]
    )


# --------------------------------------------------------------------------- config leaks
LEAK_TESTS = """
import pytest
import torch._inductor.config as config

pytestmark = pytest.mark.magi  # the module opts in: its tests use no magi fixture

@pytest.fixture
def leaky_fixture():
    config.coordinate_descent_tuning = True
    yield

def test_a_leaks():
    config.triton.max_tiles = 3
    config.max_autotune = True

def test_b_sees_a_clean_config():
    assert config.triton.max_tiles is None
    assert config.max_autotune is False

def test_c_patches_with_the_fixture(config_patch):
    config_patch({"triton.max_tiles": 2}, triton__prefer_nd_tiling=True)
    with config_patch(max_autotune=True):
        assert config.max_autotune is True
    assert config.max_autotune is False
    assert config.triton.max_tiles == 2 and config.triton.prefer_nd_tiling is True

def test_d_sees_a_clean_config_again():
    assert config.triton.max_tiles is None and config.triton.prefer_nd_tiling is False

def test_e_unknown_key(config_patch):
    config_patch({"triton.max_tile": 2})

def test_f_fixture_leak(leaky_fixture):
    pass

def test_g_fails_and_leaks():
    config.triton.max_tiles = 4
    assert False, "the body failed"

def test_h_clean():
    assert config.coordinate_descent_tuning is False and config.triton.max_tiles is None
"""


@pytest.mark.parametrize(
    "xdist",
    [NO_XDIST, pytest.param(["-n", "2", "--dist", "loadfile"], id="xdist", marks=pytest.mark.slow)],
)
def test_config_leaks_fail_the_test_and_are_restored(
    pytester: pytest.Pytester, xdist: list[str]
) -> None:
    before = (inductor_config.triton.max_tiles, inductor_config.max_autotune)
    pytester.makepyfile(LEAK_TESTS)
    result = _run(pytester, *xdist)
    result.assert_outcomes(passed=5, failed=3, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_a_leaks _*",
            "the test changed torch._inductor.config and did not restore it (2 keys; restored now):",
            "  torch._inductor.config.max_autotune: False -> True",
            "  torch._inductor.config.triton.max_tiles: None -> 3",
            "Patch Inductor config in tests with the config_patch fixture*",
        ]
    )
    result.stdout.fnmatch_lines(
        ["*unknown torch._inductor.config key 'triton.max_tile': did you mean 'triton.max_tiles'*"]
    )
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_f_fixture_leak*",
            "the test's fixtures changed torch._inductor.config and did not restore it (1 key;*",
            "  torch._inductor.config.coordinate_descent_tuning: False -> True",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*the body failed*",
            "E *the test changed torch._inductor.config and did not restore it (1 key; restored now):",
            "E *  torch._inductor.config.triton.max_tiles: None -> 4",
        ]
    )
    assert (inductor_config.triton.max_tiles, inductor_config.max_autotune) == before


# --------------------------------------------------------------------------- xdist workers
def test_worker_cache_env_is_restored_at_unconfigure(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process 'worker' (an xdist workerinput set before configure): env set, then restored."""
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    monkeypatch.delenv("TRITON_CACHE_DIR", raising=False)

    slot = pytester.path / "slot-3"

    class PretendWorker:
        @pytest.hookimpl(tryfirst=True)
        def pytest_cmdline_main(self, config: pytest.Config) -> None:
            # what the controller of --magi-perf -n N hands each worker: the run's cache slot
            config.workerinput = {"workerid": "gw7", CACHE_SLOT_KEY: str(slot)}  # type: ignore[attr-defined]

    pytester.makepyfile(
        f"""
        import os

        def test_env():
            assert os.environ["TORCHINDUCTOR_CACHE_DIR"] == {str(slot / "gw7" / "inductor")!r}
            assert os.environ["TRITON_CACHE_DIR"] == {str(slot / "gw7" / "triton")!r}
        """
    )
    result = pytester.runpytest(*QUICK, plugins=[PretendWorker()])
    result.assert_outcomes(passed=1)
    assert "TORCHINDUCTOR_CACHE_DIR" not in os.environ
    assert "TRITON_CACHE_DIR" not in os.environ


def test_bad_marker_under_xdist_errors_the_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.min_speedup("fast")
        def test_bad():
            pass

        def test_good():
            pass
        """
    )
    result = _run(pytester, "-n", "2")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "UsageError: test_bad_marker_under_xdist_errors_the_test.py::test_bad: "
            "@pytest.mark.min_speedup(ratio): ratio='fast'; expected a finite number > 0*"
        ]
    )


# --------------------------------------------------------------------------- real modules
REAL_PAIRS = """
import pytest
import torch


def eager(gm, example_inputs):
    return gm.forward


def twenty_times(gm, example_inputs):
    def run(*args):
        for _ in range(20):
            out = gm(*args)
        return out
    return run


@pytest.mark.min_speedup(1.5)
def test_fast_candidate(compiled_pair):
    pair = compiled_pair(torch.nn.Linear(16, 16), torch.randn(4, 16),
                         baseline=twenty_times, candidate=eager, label="fast")
    pair.assert_close()


@pytest.mark.min_speedup(1.5)
def test_slow_candidate(compiled_pair):
    compiled_pair(torch.nn.Linear(16, 16), torch.randn(4, 16),
                  baseline=eager, candidate=twenty_times, label="slow")
"""


def test_real_pairs_and_kernel_counts_end_to_end(pytester: pytest.Pytester) -> None:
    """The real CompiledPair, measure_pair and codegen behind the fixtures, on this CPU.

    A candidate doing 20x the work fails `min_speedup(1.5)`, one doing 1/20 passes; a fused
    pointwise function is one kernel. A subprocess: Inductor modules first imported by an
    in-process run would be dropped from sys.modules afterwards (pytester restores it) and
    re-imported twice.
    """
    pytester.makepyfile(
        REAL_PAIRS
        + """

def test_counts(kernel_counts):
    assert kernel_counts(lambda x: x.sin() + 1, torch.randn(8, 8), label="sin").forward == 1
"""
    )
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--magi-perf",
        "--magi-perf-cpu",  # these pairs run on the CPU: timing them is asked for
        "--magi-perf-rounds",
        "3",
        "--magi-report",
        "r.json",
    )
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*min_speedup(1.5) not met by pair 'slow': speedup 0.*x < required 1.500x",
            "  baseline  median * ms",
            "  candidate median * ms",
            "  spread *% (IQR/median of the round ratios) over * rounds",
            f"  device *, torch {torch.__version__}",
        ]
    )
    data = json.loads((pytester.path / "r.json").read_text())
    verdicts = {p["label"]: p["verdict"] for p in data["pairs"]}
    assert verdicts == {"fast": "pass", "slow": "FAIL"}
    assert [(c["label"], c["forward"], c["backward"]) for c in data["kernel_counts"]] == [
        ("sin", 1, None)
    ]


def test_plugin_module_is_hooks_only() -> None:
    import inspect

    import pytest_magi.plugin as plugin

    public = [
        name
        for name, obj in vars(plugin).items()
        if inspect.isfunction(obj)
        and obj.__module__ == plugin.__name__
        and not name.startswith("_")
    ]
    assert public and all(name.startswith("pytest_") for name in public), public
    assert sys.modules["pytest_magi.plugin"] is plugin


# --------------------------------------------------------------------------- CPU timing
CPU_PAIR = """
import pytest

@pytest.mark.min_speedup(1.1)
def test_cuda_pass_on_this_cpu(compiled_pair):
    pair = compiled_pair(object(), 1, baseline=2.0, candidate=1.0, label="cuda-pass")
    pair.device = "cpu"  # what a real pair of CPU inputs says
"""


def test_min_speedup_does_not_time_cpu_code_unless_asked(fakes: pytest.Pytester) -> None:
    """--magi-perf on a pair that runs on the CPU: skipped, saying why and how to opt in;
    --magi-perf-cpu times it."""
    fakes.makepyfile(CPU_PAIR)
    result = _run(fakes, "--magi-perf", "-rs", "--magi-report", "r.json")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        [
            "SKIPPED *timing skipped: * (pair 'cuda-pass'; torch *); min_speedup times compiled "
            "GPU code*add --magi-perf-cpu to time the CPU code"
        ]
    )
    data = json.loads((fakes.path / "r.json").read_text())
    assert [(p["label"], p["verdict"]) for p in data["pairs"]] == [("cuda-pass", "not measured")]
    result = _run(fakes, "--magi-perf", "--magi-perf-cpu")
    result.assert_outcomes(passed=1)


def test_a_failed_min_speedup_pair_is_in_the_report_with_its_numerics(
    fakes: pytest.Pytester,
) -> None:
    fakes.makepyfile(
        """
        import pytest

        @pytest.mark.min_speedup(1.5)
        def test_wrong(compiled_pair):
            pair = compiled_pair(object(), 1, label="wrong")
            pair.numerics = "candidate 0.9 from fp32 > bound 0.02: candidate OVER"
            raise AssertionError("candidate OVER")
        """
    )
    result = _run(fakes, "--magi-report", "r.json")
    result.assert_outcomes(failed=1)
    data = json.loads((fakes.path / "r.json").read_text())
    assert [(p["label"], p["verdict"], p["numerics"]) for p in data["pairs"]] == [
        ("wrong", "not timed: test failed", "candidate 0.9 from fp32 > bound 0.02: candidate OVER")
    ]


def test_kernel_count_rows_name_what_sets_a_call_apart(fakes: pytest.Pytester) -> None:
    fakes.makepyfile(
        """
        def div_sqrt_to_mul_rsqrt(graph):
            pass

        class RMSMLP:
            def __call__(self, x):
                return x

        def test_counts(kernel_counts):
            kernel_counts(RMSMLP(), 1)
            kernel_counts(RMSMLP(), 1, passes=[div_sqrt_to_mul_rsqrt])
            kernel_counts(RMSMLP(), 1, passes=[])
            kernel_counts(RMSMLP(), 1, inductor_config={"triton.max_tiles": 2})
        """
    )
    result = _run(fakes, "--magi-report", "r.json")
    result.assert_outcomes(passed=1)
    data = json.loads((fakes.path / "r.json").read_text())
    assert [c["label"] for c in data["kernel_counts"]] == [
        "RMSMLP",
        "RMSMLP [passes=div_sqrt_to_mul_rsqrt]",
        "RMSMLP [passes=none]",
        "RMSMLP [triton.max_tiles=2]",
    ]


# --------------------------------------------------------------------------- --magi-estimate
ESTIMATED_PAIRS = """
import types

import pytest

def _budget(speedup):
    def budget(profile):
        assert profile == "h200"
        if speedup is None:
            raise ValueError("fake CUDA cannot generate this side\\nmore detail")
        return types.SimpleNamespace(estimated_speedup=speedup)
    return budget

@pytest.mark.min_speedup(1.5)
def test_estimated(compiled_pair):
    pair = compiled_pair(object(), 1, baseline=3.0, candidate=1.0, label="estimated")
    pair.budget = _budget(2.5)

@pytest.mark.min_speedup(1.5)
def test_not_estimable(compiled_pair):
    pair = compiled_pair(object(), 1, baseline=3.0, candidate=1.0, label="ungenerable")
    pair.budget = _budget(None)
"""


def test_magi_estimate_reports_each_timed_pairs_estimate_beside_its_measurement(
    fakes: pytest.Pytester,
) -> None:
    """`--magi-estimate h200`: each timed pair's `pair.budget("h200")` speedup is in the report
    and the terminal table next to the measured one; a pair whose code cannot be budgeted says
    why and keeps its verdict; without the option nothing is estimated."""
    fakes.makepyfile(ESTIMATED_PAIRS)
    result = _run(fakes, "--magi-perf", "--magi-estimate", "H200", "--magi-report", "r.json")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*speedup*estimated (h200)*", "*3.000x*2.500x*1.500x*pass*"])
    result.stdout.fnmatch_lines(["*3.000x*no estimate*1.500x*pass*"])
    data = json.loads((fakes.path / "r.json").read_text())
    assert data["options"]["estimate"] == "h200"
    got = {p["label"]: (p["estimated_speedup"], p["estimate_error"]) for p in data["pairs"]}
    assert got == {
        "estimated": (2.5, None),
        "ungenerable": (None, "ValueError: fake CUDA cannot generate this side"),
    }
    assert all(p["estimate_profile"] == "h200" for p in data["pairs"])

    result = _run(fakes, "--magi-perf", "--magi-report", "r.json")
    result.assert_outcomes(passed=2)
    assert "estimated (" not in result.stdout.str()
    data = json.loads((fakes.path / "r.json").read_text())
    assert {p["estimate_profile"] for p in data["pairs"]} == {None}


def test_an_unknown_estimate_profile_is_a_usage_error_naming_the_known_ones(
    fakes: pytest.Pytester,
) -> None:
    result = _run(fakes, "--magi-perf", "--magi-estimate", "a100")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--magi-estimate='a100': expected a device profile name (h100, h200)*"]
    )
    fakes.makeini("[pytest]\nmagi_estimate = b200\n")  # the ini twin, checked the same way
    result = _run(fakes, "--magi-perf")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ini magi_estimate='b200': expected a device profile name*"])
