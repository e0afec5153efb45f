"""Installed, the plugin changes nothing in suites that never use it (docs/activation.md).

Small third-party-style suites, written in patterns common in torch projects, run with the
plugin and with `-p no:magi`: the outcomes, the environment the tests see and the cache folders
must be the same. Then the places where the plugin does act: opted-in scopes, a config guard that
understands fixture scopes, and markers that coexist with a project's own.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch._inductor.config as inductor_config

# see tests/test_plugin.py
QUICK = ("-p", "no:cacheprovider", "-p", "no:unraisableexception", "-p", "no:hypothesispytest")

# what each suite's tests saw of the environment, written for the comparison
SEEN = """
import json
import os

import pytest

WATCHED = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR", "CUDA_VISIBLE_DEVICES")


@pytest.fixture(autouse=True)
def _record_environment(request):
    yield
    seen = {k: os.environ.get(k) for k in WATCHED}
    seen.update({k: v for k, v in os.environ.items() if "MAGI" in k})
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    path = request.config.rootpath / f"seen-{worker}-{request.node.name}.json"
    path.write_text(json.dumps(seen, sort_keys=True))
"""

# a module fixture that sets Inductor config and restores it at module end
MODULE_FIXTURE_CONFIG = """
import pytest
import torch._inductor.config as config


@pytest.fixture(scope="module")
def deterministic():
    old = config.fallback_random
    config.fallback_random = True
    yield
    config.fallback_random = old


def test_first(deterministic):
    assert config.fallback_random is True


def test_second(deterministic):
    assert config.fallback_random is True


def test_third(deterministic):
    assert config.fallback_random is True
"""

# a project's own requires_cuda marker, registered and handled by its conftest
OWN_REQUIRES_CUDA_CONFTEST = """
import os

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "requires_cuda(reason): a test that needs our big GPU")


def pytest_runtest_setup(item):
    mark = item.get_closest_marker("requires_cuda")
    if mark is not None and "OUR_BIG_GPU" not in os.environ:
        pytest.skip("no big GPU: " + mark.kwargs.get("reason", ""))
"""
OWN_REQUIRES_CUDA = """
import pytest


@pytest.mark.requires_cuda(reason="big GPU test")
def test_big():
    pass


@pytest.mark.requires_cuda
def test_plain():
    pass


def test_cpu():
    pass
"""

# tests that set Inductor config in their own way (one without restoring it)
OWN_CONFIG_HANDLING = """
import pytest
import torch._inductor.config as config


class TestTuning:
    @pytest.fixture(autouse=True, scope="class")
    def tuned(self):
        with config.patch(coordinate_descent_tuning=True):
            yield

    def test_a(self):
        assert config.coordinate_descent_tuning is True

    def test_b(self):
        assert config.coordinate_descent_tuning is True


def test_sets_and_forgets():
    config.search_autotune_cache = not config.search_autotune_cache


def test_after():
    pass
"""

SUITES = {
    "module-fixture-config": ({}, MODULE_FIXTURE_CONFIG),
    "own-requires-cuda": ({"conftest": OWN_REQUIRES_CUDA_CONFTEST}, OWN_REQUIRES_CUDA),
    "own-config-handling": ({}, OWN_CONFIG_HANDLING),
}


def _write_suite(pytester: pytest.Pytester, name: str) -> None:
    files, tests = SUITES[name]
    pytester.makeconftest(SEEN + files.get("conftest", ""))
    pytester.makepyfile(**{f"test_{name.replace('-', '_')}": tests})
    pytester.makeini("[pytest]\naddopts = --strict-markers\n")


def _seen(folder: Path) -> dict[str, dict[str, str | None]]:
    seen = {}
    for path in sorted(folder.glob("seen-*.json")):
        seen[path.stem.split("-", 2)[2]] = json.loads(path.read_text())
        path.unlink()
    return seen


@pytest.fixture
def restored_config():
    """The suites change Inductor config in this process (one on purpose, without restoring)."""
    before = inductor_config.save_config()
    yield
    inductor_config.load_config(before)


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_a_suite_that_never_uses_the_plugin_runs_as_without_it(
    pytester: pytest.Pytester, suite: str, restored_config: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OUR_BIG_GPU", raising=False)
    _write_suite(pytester, suite)
    runs = {}
    for plugin in ("magi", "no-magi", "magi"):  # interleaved: a leak of one run shows in the next
        args = [] if plugin == "magi" else ["-p", "no:magi"]
        result = pytester.runpytest(*QUICK, *args)
        outcomes = result.parseoutcomes()
        outcomes.pop("seconds", None)
        assert result.ret in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED), result.stdout
        runs.setdefault(plugin, []).append((outcomes, _seen(pytester.path)))
        assert "magi" not in result.stdout.str().split("collected", 1)[0].replace("magi-0", ""), (
            "the header speaks of magi in a run that never asked for it"
        )
    assert runs["magi"][0] == runs["no-magi"][0] == runs["magi"][1]
    assert "failed" not in runs["no-magi"][0][0] and "error" not in runs["no-magi"][0][0]


def test_an_xdist_run_without_perf_keeps_the_cache_folders_and_the_environment(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`-n 2` without `--magi-perf`: the workers see the environment they see without the
    plugin, and nothing is written to the plugin's state folder."""
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # the plugin's state folder lives under it
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton-cache"))
    _write_suite(pytester, "module-fixture-config")
    seen = {}
    for plugin in ("magi", "no-magi"):
        args = [] if plugin == "magi" else ["-p", "no:magi"]
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", *args)
        result.assert_outcomes(passed=3)
        seen[plugin] = _seen(pytester.path)
    assert seen["magi"] == seen["no-magi"] and len(seen["magi"]) == 3
    assert [p.name for p in temp.iterdir() if p.name.startswith("pytest-magi")] == []


def test_an_unused_suite_registers_no_per_test_hook(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        def pytest_sessionfinish(session):
            pm = session.config.pluginmanager
            print("PER-TEST HOOKS:", [n for n in ("magi-active-tests", "magi-config-guard")
                                      if pm.has_plugin(n)])
        """
    )
    pytester.makepyfile("def test_a():\n    pass\n\ndef test_b():\n    pass\n")
    result = pytester.runpytest(*QUICK, "-s")
    result.assert_outcomes(passed=2)
    assert "PER-TEST HOOKS: []" in result.stdout.str()
    pytester.makepyfile(test_used="def test_c(config_patch):\n    pass\n")
    result = pytester.runpytest(*QUICK, "-s")
    assert "PER-TEST HOOKS: ['magi-active-tests', 'magi-config-guard']" in result.stdout.str()


def test_loading_the_plugin_imports_only_its_hooks(pytester: pytest.Pytester) -> None:
    """What a run that uses nothing of the plugin imports of it: the hooks' own small modules;
    no torch, no syrupy extensions, no report, timing or capture code (docs/activation.md)."""
    probe = pytester.path / "probe.py"
    pytester.makepyfile(test_empty="def test_nothing():\n    pass\n")
    probe.write_text(
        "import sys\n"
        "import pytest\n"
        "before = set(sys.modules)\n"
        "code = pytest.main(['-q', '-p', 'no:cacheprovider', 'test_empty.py'])\n"
        "assert code == 0, code\n"
        "print('MAGI', sorted(m for m in set(sys.modules) - before if 'magi' in m))\n"
        "print('TORCH', 'torch' in sys.modules)\n"
    )
    import subprocess
    import sys

    # a run of its own, not an xdist worker's (this test may run in one)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    proc = subprocess.run(
        [sys.executable, str(probe)], cwd=pytester.path, capture_output=True, text=True, env=env
    )
    assert "TORCH False" in proc.stdout, proc.stdout + proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("MAGI "))
    loaded = set(eval(line[5:]))  # a printed list of str
    assert loaded == {
        "pytest_magi",
        "pytest_magi.plugin",
        "pytest_magi.plugin.activation",
        "pytest_magi.plugin.fixtures",
        "pytest_magi.plugin.markers",
        "pytest_magi.plugin.options",
        "pytest_magi.plugin.session",
        # syrupy's default extension, which syrupy imports in every run: Amber and no more
        "pytest_magi.snapshot_amber",
    }, loaded


# --------------------------------------------------------------------------- the guard, where on
def test_an_opted_in_module_fixture_that_restores_at_its_own_teardown_is_no_leak(
    pytester: pytest.Pytester, restored_config: None
) -> None:
    pytester.makepyfile(
        test_opted_in="import pytest\npytestmark = pytest.mark.magi\n" + MODULE_FIXTURE_CONFIG
    )
    pytester.runpytest(*QUICK).assert_outcomes(passed=3)
    pytester.runpytest(*QUICK, "--magi-guard=all").assert_outcomes(passed=3)


def test_a_wider_fixture_that_never_restores_is_named_when_it_ends(
    pytester: pytest.Pytester, restored_config: None
) -> None:
    pytester.makepyfile(
        """
        import pytest
        import torch._inductor.config as config

        pytestmark = pytest.mark.magi


        @pytest.fixture(scope="module")
        def forgetful():
            config.fallback_random = True
            yield


        def test_first(forgetful):
            assert config.fallback_random is True


        def test_last(forgetful):
            assert config.fallback_random is True


        def test_after_the_module_fixture():
            pass
        """
    )
    result = pytester.runpytest(*QUICK, "-p", "no:randomly")
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(
        [
            # a module fixture ends with its module: after the module's last test
            "*ERROR at teardown of test_after_the_module_fixture*",
            "fixture 'forgetful' (module scope) changed torch._inductor.config and did not "
            "restore it at its teardown (1 key; restored now):",
            "  torch._inductor.config.fallback_random: False -> True",
        ]
    )
    assert inductor_config.fallback_random is False


def test_a_test_that_leaks_is_still_caught_under_a_module_fixture(
    pytester: pytest.Pytester, restored_config: None
) -> None:
    pytester.makepyfile(
        test_leaks="import pytest\npytestmark = pytest.mark.magi\n"
        + MODULE_FIXTURE_CONFIG
        + "\n\ndef test_leaks(deterministic):\n    config.max_autotune = True\n"
    )
    result = pytester.runpytest(*QUICK)
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*torch._inductor.config.max_autotune: False -> True"])
    assert inductor_config.max_autotune is False and inductor_config.fallback_random is False


def test_ini_paths_opt_a_folder_in(pytester: pytest.Pytester, restored_config: None) -> None:
    leak = "import torch._inductor.config as config\n\ndef test_leak():\n    config.max_autotune = True\n"
    pytester.mkpydir("checked").joinpath("test_in.py").write_text(leak)
    pytester.mkpydir("free").joinpath("test_out.py").write_text(leak)
    pytester.makeini("[pytest]\nmagi_paths = checked\n")
    result = pytester.runpytest(*QUICK)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["FAILED checked/test_in.py::test_leak*"])


def test_a_bad_guard_choice_names_the_value(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nmagi_guard = sometimes\n")
    pytester.makepyfile("def test_x():\n    pass\n")
    result = pytester.runpytest(*QUICK)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ini magi_guard='sometimes': expected one of used, all, off*"])


# --------------------------------------------------------------------------- markers
def test_a_requires_cuda_of_another_meaning_warns_once_and_is_left_alone(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.requires_cuda(memory_gb=80)
        def test_big():
            pass

        @pytest.mark.requires_cuda(memory_gb=40)
        def test_smaller():
            pass
        """
    )
    result = pytester.runpytest(*QUICK, "-W", "default")
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "*MagiMarkerWarning: test_*.py::test_big: @pytest.mark.requires_cuda(memory_gb=80) has "
            "arguments pytest-magi's requires_cuda does not take*"
        ]
    )


def test_a_requires_cuda_with_a_reason_is_ours_and_skips_saying_it(
    pytester: pytest.Pytester,
) -> None:
    if torch_cuda_available():
        pytest.skip("this machine has a GPU: nothing is skipped")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.requires_cuda(reason="big GPU test")
        def test_big():
            pass
        """
    )
    result = pytester.runpytest(*QUICK, "-rs", "--strict-markers")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["SKIPPED *big GPU test: requires a CUDA GPU*"])


def torch_cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


# --------------------------------------------------------------------------- cache slots
def test_two_runs_at_once_get_two_cache_slots_and_the_next_reuses_the_first(
    tmp_path: Path,
) -> None:
    from pytest_magi.plugin.session import CacheSlot

    first, second = CacheSlot.claim(tmp_path), CacheSlot.claim(tmp_path)
    try:
        assert first.path != second.path
        assert {first.path.name, second.path.name} == {"slot-0", "slot-1"}
    finally:
        first.release()
    again = CacheSlot.claim(tmp_path)
    try:
        assert again.path == first.path  # warm caches stay warm from one run to the next
    finally:
        again.release()
        second.release()
    assert os.path.isdir(tmp_path / "caches")
