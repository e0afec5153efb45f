"""Scoped patches of `torch._inductor.config`, and the check that nothing leaked.

Usable without pytest:

    with ConfigPatch({"triton.max_tiles": 2}, coordinate_descent_tuning=True):
        ...                                   # patched here, restored on exit

    patches = ConfigPatchStack()              # what the `config_patch` fixture hands out
    patches({"triton.prefer_nd_tiling": True})   # applied now, until patches.restore_all()
    with patches(triton__max_tiles=2):        # or only for a block
        ...

Keys are dotted (`"triton.max_tiles"`); keyword arguments spell the dots as `__`
(`triton__max_tiles=2`). An unknown key raises `KeyError` listing close matches; a value whose
type does not match the key's current value raises `TypeError` (None is always accepted: many keys
are optional). Every key and value is checked before anything is set.

`snapshot_inductor_config()` / `config_diff(before, after)` / `ConfigLeakGuard` are what the plugin
uses to fail a test that changed Inductor's config without restoring it.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any, NoReturn, Self

from magi_passes.passes.base import (
    config_differences,
    inductor_config_keys,
    inductor_config_values,
    set_inductor_config_value,
)

_MUTABLE_CONTAINERS = (list, dict, set)


# --------------------------------------------------------------------------- validation
def normalize_changes(
    changes: Mapping[str, Any] | None = None, kwargs: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Merge a dict of dotted keys and `__`-spelled kwargs, validating every key and value."""
    merged: dict[str, Any] = {}
    if changes is not None:
        if not isinstance(changes, Mapping):
            raise TypeError(
                f"config patches are a dict of dotted keys, e.g. {{'triton.max_tiles': 2}}, "
                f"or keyword arguments; got {changes!r}"
            )
        merged.update(changes)
    for key, value in (kwargs or {}).items():
        dotted = key.replace("__", ".")
        if dotted in merged:
            raise ValueError(f"torch._inductor.config.{dotted} is patched twice")
        merged[dotted] = value
    current = inductor_config_values()
    for key, value in merged.items():
        if not isinstance(key, str) or key not in current:
            raise UnknownConfigKeyError(unknown_key_message(key))
        check_value_type(key, value, current[key])
    return merged


class UnknownConfigKeyError(KeyError):
    """A key that `torch._inductor.config` does not have (the message lists close matches)."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


def unknown_key_message(key: object) -> str:
    keys = inductor_config_keys()
    close = difflib.get_close_matches(str(key), keys, n=3, cutoff=0.8)
    if not close:  # a misspelt leaf under the right prefix, or the leaf without its prefix
        leaf = str(key).rsplit(".", 1)[-1]
        close = [k for k in keys if k.rsplit(".", 1)[-1] == leaf][:3] or difflib.get_close_matches(
            leaf, keys, n=3, cutoff=0.6
        )
    hint = f"did you mean {', '.join(repr(k) for k in close)}?" if close else "no close match"
    return (
        f"unknown torch._inductor.config key {key!r}: {hint} (keys are dotted, e.g. "
        f"'triton.max_tiles'; as keyword arguments write the dots as '__': triton__max_tiles=2)"
    )


def check_value_type(key: str, value: Any, current: Any) -> None:
    """`TypeError` unless `value` fits the type of the key's current value."""
    if value is None or current is None:
        return
    if isinstance(current, bool):
        ok = isinstance(value, bool)
        expected = "a bool"
    elif isinstance(current, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
        expected = "an int"
    elif isinstance(current, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        expected = "a float (or int)"
    elif isinstance(current, str):
        ok = isinstance(value, str)
        expected = "a str"
    elif isinstance(current, list | tuple):
        ok = isinstance(value, list | tuple)
        expected = "a list or tuple"
    elif isinstance(current, Mapping):
        ok = isinstance(value, Mapping)
        expected = "a dict"
    else:
        ok = isinstance(value, type(current))
        expected = f"a {type(current).__name__}"
    if not ok:
        raise TypeError(
            f"torch._inductor.config.{key} is {expected} (now {current!r}); "
            f"got {value!r} of type {type(value).__name__}"
        )


# --------------------------------------------------------------------------- patches
class ConfigPatch:
    """A validated set of Inductor config changes: `apply()` / `restore()`, or `with`."""

    def __init__(self, changes: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        self.changes: dict[str, Any] = normalize_changes(changes, kwargs)
        self._saved: dict[str, Any] | None = None

    @property
    def applied(self) -> bool:
        return self._saved is not None

    def apply(self) -> Self:
        """Set every key (remembering the old values); applying twice is an error."""
        if self._saved is not None:
            raise RuntimeError(f"{self!r} is already applied")
        current = inductor_config_values()
        saved: dict[str, Any] = {}
        try:
            for key, value in self.changes.items():
                saved[key] = current[key]
                set_inductor_config_value(key, value)
        except BaseException:
            for key, old in reversed(saved.items()):
                set_inductor_config_value(key, old)
            raise
        self._saved = saved
        return self

    def restore(self) -> None:
        """Put back the values from before `apply()`; a no-op when not applied."""
        saved, self._saved = self._saved, None
        for key, old in reversed((saved or {}).items()):
            set_inductor_config_value(key, old)

    def __enter__(self) -> Self:
        if self._saved is None:
            self.apply()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.restore()

    def __repr__(self) -> str:
        state = "applied" if self.applied else "not applied"
        return f"ConfigPatch({self.changes!r}, {state})"


class ConfigPatchStack:
    """Patches applied on call and restored together (the `config_patch` fixture).

    `stack(changes, **kwargs)` applies a `ConfigPatch` at once and returns it; it stays until
    `restore_all()` (the end of the test) unless used as a context manager, which restores it
    at the end of the block. Restoration runs in reverse order of application.
    """

    def __init__(self) -> None:
        self._patches: list[ConfigPatch] = []

    def __call__(self, changes: Mapping[str, Any] | None = None, /, **kwargs: Any) -> ConfigPatch:
        patch = ConfigPatch(changes, **kwargs).apply()
        self._patches.append(patch)
        return patch

    def mark(self) -> int:
        """A position to `restore_to` later (the patches applied so far stay)."""
        return len(self._patches)

    def restore_to(self, mark: int) -> None:
        """Restore (newest first) every patch applied after `mark`."""
        while len(self._patches) > mark:
            self._patches.pop().restore()

    def restore_all(self) -> None:
        self.restore_to(0)

    @property
    def patches(self) -> tuple[ConfigPatch, ...]:
        return tuple(self._patches)


# --------------------------------------------------------------------------- leak check
def snapshot_inductor_config() -> dict[str, Any]:
    """Every Inductor config value; lists/dicts/sets shallow-copied so in-place edits show."""
    return {
        k: copy.copy(v) if isinstance(v, _MUTABLE_CONTAINERS) else v
        for k, v in inductor_config_values().items()
    }


def config_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """`{key: (before, after)}` for every key whose value differs, sorted by key."""
    diff = config_differences(dict(before), dict(after))
    return {k: diff[k] for k in sorted(diff)}


def restore_inductor_config(diff: Mapping[str, tuple[Any, Any]]) -> None:
    """Set every key of a `config_diff` back to its `before` value."""
    for key, (old, _new) in diff.items():
        set_inductor_config_value(key, old)


def format_config_diff(diff: Mapping[str, tuple[Any, Any]]) -> str:
    return "\n".join(
        f"  torch._inductor.config.{k}: {old!r} -> {new!r}" for k, (old, new) in diff.items()
    )


class ConfigLeakError(AssertionError):
    """Inductor's config differed after a scope from what it was before it."""


def _raise_leak(message: str) -> NoReturn:
    raise ConfigLeakError(message)


class ConfigLeakGuard:
    """Context manager: on exit, compare Inductor's config to `before`, restore it, report it.

    `before` defaults to a snapshot taken at construction. `patches`/`mark`: a `ConfigPatchStack`
    whose patches applied after `mark` are restored first (they are allowed, not leaks). A leak
    calls `on_leak(message)` (default: raise `ConfigLeakError`); when the block is already
    raising, the message is added to that exception as a note instead.
    """

    def __init__(
        self,
        *,
        before: Mapping[str, Any] | None = None,
        patches: ConfigPatchStack | None = None,
        what: str = "the block",
        on_leak: Callable[[str], NoReturn] = _raise_leak,
    ) -> None:
        self.before = dict(before) if before is not None else snapshot_inductor_config()
        self.patches = patches
        self.mark = patches.mark() if patches is not None else 0
        self.what = what
        self.on_leak = on_leak
        self.leaked: dict[str, tuple[Any, Any]] = {}

    def check(self) -> str | None:
        """Restore patches and leaked keys; the leak message, or None when nothing leaked."""
        if self.patches is not None:
            self.patches.restore_to(self.mark)
        self.leaked = config_diff(self.before, snapshot_inductor_config())
        if not self.leaked:
            return None
        restore_inductor_config(self.leaked)
        return (
            f"{self.what} changed torch._inductor.config and did not restore it "
            f"({len(self.leaked)} key{'s' if len(self.leaked) != 1 else ''}; restored now):\n"
            f"{format_config_diff(self.leaked)}\n"
            f"Patch Inductor config in tests with the config_patch fixture (or "
            f"torch._inductor.config.patch(...) as a context manager), which restores it"
        )

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        message = self.check()
        if message is None:
            return
        if exc is not None:
            exc.add_note(message)
            return
        self.on_leak(message)
