"""`PerfLock`: one timing at a time on a machine, across processes (`flock` on a shared lock
file, `$MAGI_PERF_LOCK` or the default path), and within one process (a lock per path)."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass


LOCK_ENV = "MAGI_PERF_LOCK"


def default_lock_path() -> str:
    """``$MAGI_PERF_LOCK``, else ``<tempdir>/pytest-magi-perf-<uid>.lock`` (shared by xdist workers)."""
    env = os.environ.get(LOCK_ENV)
    if env:
        return env
    uid: Any = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    return os.path.join(tempfile.gettempdir(), f"pytest-magi-perf-{uid}.lock")


class _PathState:
    """Per lock file, per process: a thread lock (re-entrant) and the flock-holding descriptor."""

    def __init__(self) -> None:
        self.rlock = threading.RLock()
        self.depth = 0
        self.fd: int | None = None


_PATH_STATES: dict[str, _PathState] = {}
_PATH_STATES_GUARD = threading.Lock()


def _path_state(path: str) -> _PathState:
    with _PATH_STATES_GUARD:
        return _PATH_STATES.setdefault(path, _PathState())


class PerfLock:
    """An inter-process lock (``fcntl.flock``) so perf measurements never overlap.

    ``with PerfLock(): ...``. All processes using the same lock file (the default path is shared by
    every xdist worker of a run) take turns. Re-entrant within a process (and thread): a nested
    ``PerfLock()`` on the same file does not deadlock. ``timeout`` (seconds, None waits forever)
    raises ``TimeoutError`` naming the lock file and the pid that holds it.
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, timeout: float | None = None
    ) -> None:
        self.path = os.path.abspath(os.fspath(path) if path is not None else default_lock_path())
        self.timeout = timeout
        self._depth = 0

    @property
    def held(self) -> bool:
        return self._depth > 0

    def acquire(self) -> None:
        state = _path_state(self.path)
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        if not state.rlock.acquire(timeout=-1 if self.timeout is None else self.timeout):
            raise TimeoutError(
                f"PerfLock: another thread of this process held {self.path} for more than "
                f"{self.timeout} s"
            )
        try:
            if state.depth == 0:
                state.fd = self._lock_file(deadline)
            state.depth += 1
            self._depth += 1
        except BaseException:
            state.rlock.release()
            raise

    def _lock_file(self, deadline: float | None) -> int | None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - no flock (Windows): in-process exclusion only
            return None
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | (fcntl.LOCK_NB if deadline is not None else 0))
                    break
                except BlockingIOError:
                    if deadline is not None and time.monotonic() >= deadline:
                        raise TimeoutError(
                            f"PerfLock: {self.path} is held by pid {self._holder(fd)} for more "
                            f"than {self.timeout} s; wait for that measurement, or point "
                            f"${LOCK_ENV} at another file if it belongs to another machine"
                        ) from None
                    time.sleep(0.02)
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            return fd
        except BaseException:
            os.close(fd)
            raise

    @staticmethod
    def _holder(fd: int) -> str:
        try:
            return os.pread(fd, 32, 0).decode().strip() or "?"
        except OSError:
            return "?"

    def release(self) -> None:
        if self._depth == 0:
            raise RuntimeError(f"PerfLock.release() on {self.path} without acquire()")
        state = _path_state(self.path)
        self._depth -= 1
        state.depth -= 1
        try:
            if state.depth == 0 and state.fd is not None:
                import fcntl

                fd, state.fd = state.fd, None
                try:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                finally:
                    os.close(fd)
        finally:
            state.rlock.release()

    def __enter__(self) -> PerfLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"PerfLock({self.path!r}, held={self.held})"
