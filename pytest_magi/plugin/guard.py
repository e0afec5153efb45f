"""The Inductor config guard of the tests the plugin checks, aware of fixture scopes.

A checked test's config is snapshotted when its setup begins and compared when its own fixtures
are torn down: after the function-scoped fixtures, before any fixture of wider scope that ends
with this test. A wider fixture (class, module, package, session) that changes the config while
the test sets up is not the test's change (its delta joins the test's baseline), and its own
teardown restoring the config is not the test's leak. A wider fixture set up by a checked test
that does not put the config back at its own teardown is reported as that fixture's leak, at the
teardown of the test it ended after.

`GuardPlugin` is registered only in runs that check at least one test, so a suite that never uses
the plugin pays nothing per fixture or test.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from .session import FIXTURE_GUARD_KEY


def _snapshot() -> dict[str, Any]:
    from ..capture.config_guard import snapshot_inductor_config

    return snapshot_inductor_config()


class FixtureGuard:
    """One checked test's config from the start of its setup to the end of its own fixtures."""

    def __init__(self) -> None:
        self.before = _snapshot()
        self.message: str | None = None
        self.done = False
        self.fixture_leaks: list[str] = []

    def absorb(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        """A wider fixture set up during this test changed `before` -> `after`: not a leak."""
        from ..capture.config_guard import config_diff

        for key, (_old, new) in config_diff(before, after).items():
            self.before[key] = new

    def check(self) -> None:
        """Compare once (the first call wins), restore what leaked, keep the message."""
        if self.done:
            return
        self.done = True
        from ..capture.config_guard import ConfigLeakGuard

        self.message = ConfigLeakGuard(before=self.before, what="the test's fixtures").check()

    def failure(self) -> str | None:
        """Everything to report at the end of the test's teardown, or None."""
        parts = [m for m in (self.message, *self.fixture_leaks) if m]
        return "\n".join(parts) or None


class GuardPlugin:
    """Hooks around fixtures of wider scope, for runs with checked tests."""

    def __init__(self) -> None:
        self.setting_up: pytest.Item | None = None  # the test whose fixtures are set up now
        self.current: FixtureGuard | None = None  # the checked test being torn down
        # wider fixtures set up by a checked test: id(fixturedef) -> {key: value before setup}
        self.wider: dict[int, dict[str, Any]] = {}

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(
        self, fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
    ) -> Generator[None, Any, Any]:
        if fixturedef.scope == "function":
            return (yield)
        item = self.setting_up
        guard = item.stash.get(FIXTURE_GUARD_KEY, None) if item is not None else None
        if guard is None or guard.done:
            result = yield
        else:
            before = _snapshot()
            result = yield
            after = _snapshot()
            guard.absorb(before, after)
            from ..capture.config_guard import config_diff

            changed = config_diff(before, after)
            if changed:
                self.wider[id(fixturedef)] = {k: old for k, (old, _new) in changed.items()}
        # runs before the fixture's own teardown (finalizers run last in, first out)
        fixturedef.addfinalizer(self._before_wider_teardown)
        return result

    def _before_wider_teardown(self) -> None:
        if self.current is not None:
            self.current.check()

    def pytest_fixture_post_finalizer(
        self, fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
    ) -> None:
        changed = self.wider.pop(id(fixturedef), None)
        if not changed:
            return
        from ..capture.config_guard import config_diff, format_config_diff, restore_inductor_config

        now = _snapshot()
        left = config_diff(changed, {k: now.get(k) for k in changed})
        if not left:
            return
        restore_inductor_config(left)
        message = (
            f"fixture {fixturedef.argname!r} ({fixturedef.scope} scope) changed "
            f"torch._inductor.config and did not restore it at its teardown "
            f"({len(left)} key{'s' if len(left) != 1 else ''}; restored now):\n"
            f"{format_config_diff(left)}\n"
            f"Restore the config in the fixture's teardown (after its yield), or patch with "
            f"torch._inductor.config.patch(...) as a context manager around the yield"
        )
        if self.current is not None:
            self.current.fixture_leaks.append(message)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        self.setting_up = item
        try:
            return (yield)
        finally:
            self.setting_up = None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, None, None]:
        guard = item.stash.get(FIXTURE_GUARD_KEY, None)
        if guard is None:
            return (yield)
        self.current = guard
        try:
            result = yield
        except BaseException as exc:
            guard.check()
            failure = guard.failure()
            if failure is not None:
                exc.add_note(failure)
            raise
        finally:
            self.current = None
        guard.check()
        failure = guard.failure()
        if failure is not None:
            pytest.fail(failure, pytrace=False)
        return result
