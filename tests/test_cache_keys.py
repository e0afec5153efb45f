"""Cache keys: every source a pass depends on, and its config, are in `uuid()`.

Inductor's FX graph cache keys a compilation on the `uuid()` of the installed post-grad pass. A
key that misses a source file serves a graph compiled by the old code after that file changed
(a stale hit, silently wrong); a key that misses the config mixes configs. These tests edit a
*copy* of the package (imported under another name, the checkout stays untouched) and compile
with the cache on in a private folder (docs/reliability.md, "Cache keys").
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
import torch
from torch import nn
from torch._inductor import config as inductor_config

import magi_passes
from magi_passes import (
    ConvChannelsLastPass,
    DynamicReshapePass,
    MagiBackend,
    MagiPass,
    NdTilingPass,
    PassConfig,
    PassManager,
)
from magi_passes.passes.base import package_source_files, source_files_for

PACKAGE = Path(magi_passes.__file__).resolve().parent
PASS_NAMES = ("ConvChannelsLastPass", "NdTilingPass", "DynamicReshapePass")


def _import_copy(root: Path, name: str) -> ModuleType:
    """Import the package at `root` as the top-level package `name`."""
    spec = importlib.util.spec_from_file_location(
        name, root / "__init__.py", submodule_search_locations=[str(root)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def package_copy(tmp_path: Path) -> Iterator[object]:
    """`make(label, edit=None)`: a copy of magi_passes, optionally edited, imported as its own package."""
    names: list[str] = []

    def make(label: str, file: str | None = None, old: str = "", new: str = "") -> ModuleType:
        root = tmp_path / label / "magi_passes"
        shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
        if file is not None:
            path = root / file
            text = path.read_text()
            assert text.count(old) == 1, f"{old!r} must occur once in {file}"
            path.write_text(text.replace(old, new))
        name = f"_magi_copy_{label}"
        names.append(name)
        return _import_copy(root, name)

    yield make
    for name in names:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]


def _keys(package: ModuleType, config: PassConfig | None = None) -> dict[str, str]:
    cfg = package.PassConfig(**vars(config)) if config is not None else package.PassConfig()
    keys = {name: getattr(package, name)(cfg).uuid() for name in PASS_NAMES}
    keys["PassManager"] = package.PassManager(cfg).uuid()
    return keys


def test_a_copy_of_the_package_has_the_checkouts_keys(package_copy) -> None:
    # the key depends on file contents and names, not on where the package is installed, so a
    # cache folder shared between machines (CI) keeps hitting
    assert _keys(package_copy("same")) == _keys(magi_passes)


def test_package_source_files_cover_every_module() -> None:
    files = {Path(f).relative_to(PACKAGE).as_posix() for f in package_source_files()}
    expected = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    assert files == expected
    for name in (
        "passes/base.py",
        "config.py",
        "compile/manager.py",
        "fx/predicates.py",
        "compile/backend.py",
        "passes/nd_tiling.py",
    ):
        assert name in files


def test_changing_a_predicate_changes_every_key(package_copy) -> None:
    # the ND-tiling pass gates on is_conv_heavy, which lives in predicates.py, not in its module
    before = _keys(package_copy("original"))
    edited = _keys(
        package_copy(
            "predicate",
            "fx/predicates.py",
            "len(graph.nodes) < ratio * n_convs",
            "len(graph.nodes) <= ratio * n_convs",
        )
    )
    for name, key in before.items():
        assert edited[name] != key, f"{name}.uuid() ignores predicates.py"


@pytest.mark.parametrize(
    "file",
    [
        "passes/base.py",
        "config.py",
        "compile/manager.py",
        "compile/backend.py",
        "passes/channels_last.py",
        "passes/nd_tiling.py",
        "passes/dynamic_reshape.py",
        "fx/predicates.py",
        "__init__.py",
    ],
)
def test_changing_any_package_file_changes_every_key(package_copy, file: str) -> None:
    # a comment is the smallest edit; any byte of any module changes the key
    original = (PACKAGE / file).read_text()
    first_line = original.splitlines(keepends=True)[0]
    before = _keys(package_copy("original"))
    edited = _keys(package_copy("edited", file, first_line, first_line + "# edited\n"))
    for name, key in before.items():
        assert edited[name] != key, f"{name}.uuid() ignores {file}"


def test_config_is_in_every_key() -> None:
    base = PassConfig()
    for field in PassConfig.field_names():
        value = getattr(base, field)
        changed = {bool: lambda v: not v, int: lambda v: v + 1, str: lambda v: v + "H100"}
        other = base.replace(**{field: changed[type(value)](value)})
        for cls in (ConvChannelsLastPass, NdTilingPass, DynamicReshapePass, PassManager):
            assert cls(other).uuid() != cls(base).uuid(), f"{cls.__name__}.uuid() ignores {field}"
            assert cls(base).uuid() == cls(PassConfig()).uuid()


class _OwnPass(MagiPass):
    name = "own"


def test_a_users_own_pass_covers_its_own_module_too() -> None:
    files = source_files_for(_OwnPass)
    assert str(Path(__file__).resolve()) in files
    assert set(package_source_files()) <= set(files)
    assert _OwnPass().uuid() != MagiPass().uuid()


# --- the FX graph cache, end to end ------------------------------------------------------------


def _conv_model() -> tuple[nn.Module, torch.Tensor]:
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv3d(3, 4, 3), nn.SiLU()).eval(), torch.randn(1, 3, 4, 6, 6)


# The pass's visible effect in CPU code: the conv reads the buffers its clones produce instead of
# the graph inputs (conv2d is a poor witness on CPU: Inductor's own layout optimisation gives the
# same code there with the pass off).
CLONED_CONV = "extern_kernels.convolution(buf"


def test_fx_graph_cache_hits_keep_the_passes_effect_and_configs_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from torch._dynamo.utils import counters
    from torch._inductor.utils import run_and_get_code

    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))
    model, x = _conv_model()
    expected = model(x)

    def compile_with(config: PassConfig) -> tuple[int, int, str, MagiBackend]:
        torch._dynamo.reset()
        counters.clear()
        backend = MagiBackend(config)
        with torch.no_grad():
            out, code = run_and_get_code(torch.compile(model, backend=backend), x)
        torch.testing.assert_close(out, expected)
        assert out.stride() == expected.stride()
        hits = counters["inductor"]["fxgraph_cache_hit"]
        misses = counters["inductor"]["fxgraph_cache_miss"]
        return hits, misses, "\n".join(code), backend

    # weights in the graph: both configs hand Inductor the same graph, only the key differs
    on = PassConfig(channels_last_weights_once=False)
    try:
        with inductor_config.patch(fx_graph_cache=True, force_disable_caches=False):
            hits, misses, code, backend = compile_with(on)
            assert (hits, misses) == (0, 1)
            assert backend.fired("conv_channels_last")
            assert CLONED_CONV in code

            hits, misses, cached_code, backend = compile_with(on)
            assert (hits, misses) == (1, 0), "the same model and config must hit the cache"
            assert backend.results == []  # the passes did not run: the graph came from the cache
            assert CLONED_CONV in cached_code, "the cached graph lost the pass's effect"

            hits, misses, off_code, backend = compile_with(
                on.replace(enable_conv_channels_last=False)
            )
            assert (hits, misses) == (0, 1), "a graph compiled for another PassConfig was reused"
            assert not backend.fired("conv_channels_last")
            assert CLONED_CONV not in off_code
    finally:
        torch._dynamo.reset()


def test_key_without_torchs_file_hash_helper(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # get_hash_for_files exists in torch 2.11 and 2.13; without it the key is computed the same way
    from torch._inductor import custom_graph_pass

    from magi_passes.passes.base import hash_source_files

    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    with_helper = hash_source_files((str(a), str(b)))
    monkeypatch.delattr(custom_graph_pass, "get_hash_for_files")
    hash_source_files.cache_clear()
    try:
        plain = hash_source_files((str(a), str(b)))
        assert len(plain) == 64 and plain == hash_source_files((str(a), str(b)))
        b.write_text("y = 3\n")
        assert hash_source_files((str(a), str(b.rename(tmp_path / "c.py")))) != plain
    finally:
        hash_source_files.cache_clear()
    assert len(with_helper) == 64
