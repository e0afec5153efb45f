"""Every public name imports from every path where it is promised (docs/DESIGN contract).

A section per package: the names and the module paths that promise them. A module that moved
keeps its old dotted path for its public names only (a shim), so each row is a promise.
"""

from __future__ import annotations

import importlib

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
