"""`MagiPass` and `PassResult`: the base every magi pass builds on.

A pass is an Inductor `CustomGraphPass` that runs on the post-grad FX graph. Subclasses implement
`apply(graph) -> PassResult`. The base class

- records the result of the last call (`last_result`),
- gives `uuid()` (Inductor's FX graph cache key), never `None`: a hash of every source file of the
  `magi_passes` package (each pass, `base.py`, `config.py`, `predicates.py`, `manager.py`,
  `backend.py`, ...: whatever a pass imports can change what it does), of the module defining the
  pass when that lies outside the package (a user's own `MagiPass`), and of its `PassConfig`.
  A change to any of them is a cache miss, never a stale hit (docs/reliability.md, "Cache keys"),
- enforces the config contract: a pass that changes `torch._inductor.config` lists the keys in
  `mutates_inductor_config`; changing any other key raises and is undone. Restoring the declared
  keys after the compilation is the job of whoever installs the pass (`magi_backend`,
  `inductor_options`), which snapshots exactly these keys into the compile's `config.patch`.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import torch
from torch._inductor import config as inductor_config
from torch._inductor import custom_graph_pass as _custom_graph_pass
from torch._inductor.custom_graph_pass import CustomGraphPass

from ..config import PassConfig, check_pass_config
from ..fx.padded_conv import not_applied_reason, padded_convolutions


@dataclass
class PassResult:
    """What one pass did to one graph."""

    name: str
    applied: bool
    reason: str
    counts: dict[str, int] = field(default_factory=dict)
    config_changes: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        state = "applied" if self.applied else "skipped"
        counts = ", ".join(f"{k}={v}" for k, v in sorted(self.counts.items()))
        return f"{self.name}: {state} ({self.reason}){' [' + counts + ']' if counts else ''}"


PACKAGE_DIR = Path(__file__).resolve().parent.parent


def package_source_files() -> tuple[str, ...]:
    """Every `.py` file of the `magi_passes` package and its subpackages, sorted: the sources a
    pass's uuid covers."""
    return tuple(sorted(str(p) for p in PACKAGE_DIR.rglob("*.py")))


def source_files_for(cls: type) -> tuple[str, ...]:
    """The package's source files plus the file defining `cls` when it lies outside the package."""
    files = package_source_files()
    try:
        own = inspect.getsourcefile(cls)
    except (OSError, TypeError):
        own = None
    if own is not None and str(Path(own).resolve()) not in files:
        files = (*files, str(Path(own).resolve()))
    return files


@functools.lru_cache(maxsize=64)
def hash_source_files(paths: tuple[str, ...]) -> str:
    """sha256 (hex) of the contents of `paths`, via Inductor's own helper for custom-pass keys.

    Cached per path tuple: source files do not change under a running process (a module edited
    after import runs its old code anyway).
    """
    helper = getattr(_custom_graph_pass, "get_hash_for_files", None)
    names = "\n".join(_key_name(Path(p)) for p in paths)
    if helper is not None:
        return hashlib.sha256(names.encode() + helper(paths)).hexdigest()
    h = hashlib.sha256(names.encode())  # torch without the helper
    for path in paths:
        h.update(Path(path).read_bytes())
    return h.hexdigest()


def _key_name(path: Path) -> str:
    """How a source file is named in the key: its path inside the package (the same in every
    checkout), or its file name for a file outside it."""
    try:
        return path.resolve().relative_to(PACKAGE_DIR).as_posix()
    except ValueError:
        return path.name


def _source_hash(cls: type) -> str:
    """sha256 of every source file `cls`'s behaviour depends on (see `source_files_for`)."""
    try:
        return hash_source_files(source_files_for(cls))
    except OSError:  # sources not on disk (a zip import): the module text, as inspect finds it
        module = sys.modules.get(cls.__module__)
        try:
            text = inspect.getsource(module) if module is not None else inspect.getsource(cls)
        except (OSError, TypeError):
            text = f"{cls.__module__}.{cls.__qualname__}"
        return hashlib.sha256(text.encode()).hexdigest()


@functools.cache
def inductor_config_keys() -> tuple[str, ...]:
    """Every (non-alias) key of `torch._inductor.config`, in dotted form."""
    return tuple(inductor_config.get_config_copy())


def inductor_config_values() -> dict[str, Any]:
    """The current value of every Inductor config key, read without copying (identity kept)."""
    return {key: get_inductor_config_value(key) for key in inductor_config_keys()}


def config_differences(before: dict[str, Any], after: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """`{key: (before, after)}` for the keys whose values differ."""
    return {
        k: (before.get(k), after.get(k))
        for k in before.keys() | after.keys()
        if _differs(before.get(k), after.get(k))
    }


def get_inductor_config_value(key: str) -> Any:
    obj: Any = inductor_config
    for part in key.split("."):
        obj = getattr(obj, part)
    return obj


def set_inductor_config_value(key: str, value: Any) -> None:
    *parents, last = key.split(".")
    obj: Any = inductor_config
    for part in parents:
        obj = getattr(obj, part)
    setattr(obj, last, value)


class MagiPass(CustomGraphPass):
    """Base class of the magi passes. Subclasses set `name` and implement `apply`."""

    name: ClassVar[str] = "magi_pass"
    mutates_inductor_config: ClassVar[tuple[str, ...]] = ()
    #: The `PassConfig` field that switches this pass off, for a pass whose rewrite has a cost
    #: that only a measurement can weigh (`magi_passes.decisions`): the magi backend may then
    #: compile a graph with and without it and keep the faster. None: always as its rule says.
    measured_by: ClassVar[str | None] = None

    def __init__(self, config: PassConfig | None = None) -> None:
        config = check_pass_config(f"{type(self).__name__}", config)
        self.config = config if config is not None else PassConfig()
        self.last_result: PassResult | None = None

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        raise NotImplementedError(f"{type(self).__name__} must implement apply(graph)")

    def enabled(self) -> bool:
        """Whether the config switches this pass on at all (checked by the PassManager)."""
        return True

    def set_config(self, key: str, value: Any, result: PassResult) -> None:
        """Set one declared Inductor config key and record it in `result.config_changes`."""
        if key not in self.mutates_inductor_config:
            raise RuntimeError(
                f"{type(self).__name__} tried to set torch._inductor.config.{key}, which it does "
                f"not declare in mutates_inductor_config={self.mutates_inductor_config!r}; add the "
                f"key there so magi_backend can restore it"
            )
        set_inductor_config_value(key, value)
        result.config_changes[key] = value

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        before = inductor_config_values()
        try:
            result = self.apply(graph)
        finally:
            undeclared = {
                k: v
                for k, v in config_differences(before, inductor_config_values()).items()
                if k not in self.mutates_inductor_config
            }
            if undeclared:
                for k, (old, _new) in undeclared.items():
                    set_inductor_config_value(k, old)
        if undeclared:
            changes = ", ".join(f"{k}: {old!r} -> {new!r}" for k, (old, new) in undeclared.items())
            raise RuntimeError(
                f"{type(self).__name__} changed torch._inductor.config keys it does not declare "
                f"({changes}); they were restored. Declare them in mutates_inductor_config."
            )
        self.last_result = result

    def uuid(self) -> str:
        h = hashlib.sha256()
        h.update(type(self).__qualname__.encode())
        h.update(_source_hash(type(self)).encode())
        h.update(self.config.key().encode())
        return h.hexdigest()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"


def _differs(a: Any, b: Any) -> bool:
    if a is b:
        return False
    try:
        return bool(a != b)
    except Exception:  # objects without a usable __eq__
        return a is not b


class PaddedConvPass(MagiPass):
    """A pass that rewrites each `convolution(constant_pad_nd(x, pads, 0), w, ...)` pair on its
    own (`ConvPadFoldPass`, `CausalPadTrimPass`): `apply` walks `padded_convolutions`, hands
    each pair to `rewrite`, which counts into `counts` (keys `count_keys`), and the pass applied
    where `counts[done_key]` is not 0 (`describe(counts)` says what it did)."""

    count_keys: ClassVar[tuple[str, ...]]
    done_key: ClassVar[str]

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        counts = dict.fromkeys(self.count_keys, 0)
        result = PassResult(self.name, applied=False, reason="", counts=counts)
        candidates = padded_convolutions(graph)
        for conv, pad in candidates:
            self.rewrite(graph, conv, pad, counts)
        if counts[self.done_key]:
            graph.lint()
            result.applied = True
            result.reason = self.describe(counts)
        else:
            result.reason = not_applied_reason(candidates)
        return result

    def rewrite(
        self,
        graph: torch.fx.Graph,
        conv: torch.fx.Node,
        pad: torch.fx.Node,
        counts: dict[str, int],
    ) -> None:
        raise NotImplementedError

    def describe(self, counts: dict[str, int]) -> str:
        raise NotImplementedError
