"""Every public name imports from every path where it is promised (docs/DESIGN contract).

A section per package: the names and the module paths that promise them. A module that moved
keeps its old dotted path for its public names only (a shim), so each row is a promise.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

# --------------------------------------------------------------------------- magi_passes
MAGI_PASSES_PUBLIC: dict[str, tuple[str, ...]] = {
    "magi_passes.backend": (
        "MagiBackend",
        "inductor_options",
        "magi_backend",
        "magi_compile",
        "warm_compile_workers",
    ),
    "magi_passes.frames": ("isolate_forward_code", "restore_forward_code"),
    "magi_passes.forms": ("CompileForm", "form_for"),
    "magi_passes.decisions": ("Decider", "Decision", "DecisionCache"),
}


def test_magi_passes_public_names_import() -> None:
    import magi_passes

    missing = [name for name in magi_passes.__all__ if not hasattr(magi_passes, name)]
    assert not missing, f"magi_passes.__all__ names missing: {missing}"
    for module_name, names in MAGI_PASSES_PUBLIC.items():
        module = importlib.import_module(module_name)
        for name in names:
            value = getattr(module, name, None)
            assert value is not None, f"{module_name}.{name} does not import"
            if name in magi_passes.__all__:
                assert value is getattr(magi_passes, name), (
                    f"{module_name}.{name} is another object"
                )
    for module_name in ("magi_passes.frames", "magi_passes.decisions"):
        importlib.import_module(module_name)  # the modules themselves are promised


@pytest.mark.parametrize("variable", ["MAGI_PASSES__ENABLE_ND_TILING", "MAGI_PASSES__DECIDED_ON"])
def test_magi_passes_env_variables_are_read(variable: str) -> None:
    from magi_passes import PassConfig

    field = variable.removeprefix("MAGI_PASSES__").lower()
    value = {"enable_nd_tiling": ("0", False), "decided_on": ("H100", "H100")}[field]
    assert getattr(PassConfig.from_env({variable: value[0]}), field) == value[1]


def test_the_magi_entry_point_resolves_to_magi_backend() -> None:
    from importlib.metadata import entry_points

    import magi_passes

    (point,) = [e for e in entry_points(group="torch_dynamo_backends") if e.name == "magi"]
    assert point.value == "magi_passes.backend:magi_backend"
    assert point.load() is magi_passes.magi_backend


# --------------------------------------------------------------------------- pytest_magi
PYTEST_MAGI_PUBLIC: dict[str, tuple[str, ...]] = {
    "pytest_magi.zoo": (
        "VIDEO_VAES",
        "ZooModel",
        "ZooPair",
        "all_names",
        "causal_frame_mask",
        "load",
        "names",
        "unavailable",
    ),
    "pytest_magi.codegen": ("GeneratedCode", "KernelCounts", "inductor_codegen", "kernel_counts"),
    "pytest_magi.config_sweep": ("sweep_configs",),
    "pytest_magi.bounds": ("out_of_bounds",),
    "pytest_magi.models": ("GQAProjection", "VAEDecoderLike", "WanCausalStage"),
    "pytest_magi.report": (
        "CompileRecord",
        "KernelCountRecord",
        "PairRecord",
        "compare_reports",
        "format_pairs_table",
        "load_report",
        "main",
        "write_json_report",
        "write_png_report",
    ),
    "pytest_magi.compile_phases": ("compile_phases", "summary"),
    "pytest_magi.pair": ("CompiledPair",),
    "pytest_magi.timing": ("PerfLock", "Speedup", "measure_pair"),
    "pytest_magi.config_guard": ("ConfigLeakGuard", "ConfigPatch", "ConfigPatchStack"),
    "pytest_magi.numerics": ("BaselineMiscompiled", "judge_against_reference"),
}
#: where each shim's names are defined: the shim re-exports the same objects
PYTEST_MAGI_HOMES: dict[str, str] = {
    "pytest_magi.zoo": "pytest_magi.models.zoo",
    "pytest_magi.codegen": "pytest_magi.capture.codegen",
    "pytest_magi.pair": "pytest_magi.pairs.compiled",
    "pytest_magi.timing": "pytest_magi.measure.timing",
    "pytest_magi.bounds": "pytest_magi.capture.bounds",
}


def test_pytest_magi_public_names_import() -> None:
    import pytest_magi

    for name in pytest_magi.__all__:
        assert getattr(pytest_magi, name, None) is not None, f"pytest_magi.{name} does not import"
    for module_name, names in PYTEST_MAGI_PUBLIC.items():
        module = importlib.import_module(module_name)
        for name in names:
            assert getattr(module, name, None) is not None, f"{module_name}.{name} does not import"
    assert (
        pytest_magi.VAEDecoderLike is importlib.import_module("pytest_magi.models").VAEDecoderLike
    )
    assert pytest_magi.locate.__name__ == "locate" and pytest_magi.LocateReport.__name__ == (
        "LocateReport"
    )


@pytest.mark.parametrize("shim", sorted(PYTEST_MAGI_HOMES))
def test_pytest_magi_shims_re_export_the_same_objects(shim: str) -> None:
    home = importlib.import_module(PYTEST_MAGI_HOMES[shim])
    module = importlib.import_module(shim)
    shared = [n for n in PYTEST_MAGI_PUBLIC[shim] if hasattr(home, n)]
    assert shared, f"{shim}: none of its names is defined in {home.__name__}"
    for name in shared:
        assert getattr(module, name) is getattr(home, name), f"{shim}.{name} is another object"


def test_python_dash_m_pytest_magi_report_compare_runs(tmp_path: Path) -> None:
    """`python -m pytest_magi.report compare` runs (exit 2 on a missing file, naming it)."""
    missing = tmp_path / "missing.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest_magi.report", "compare", str(missing), str(missing)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and str(missing) in proc.stderr, proc.stderr


def test_loading_the_plugin_imports_no_torch() -> None:
    """`import pytest_magi` and its plugin pull in no torch: the package's names load lazily."""
    script = (
        "import sys, pytest_magi, pytest_magi.plugin\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'torch'], 'torch imported'\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
