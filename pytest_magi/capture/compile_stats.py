"""Compile health of one compiled side: frames, graphs, graph breaks, recompiles, eager fallbacks.

A :class:`CompileStatsCollector` belongs to one side's backend. The backend calls
:meth:`~CompileStatsCollector.on_compile` for each graph it compiles; every call of the side runs
inside :meth:`~CompileStatsCollector.watch`, which attributes to the side what Dynamo reports
while that call runs (calls of two sides never overlap). Sources, all present in torch 2.11 and
2.13 (each degrades to a note in :attr:`CompileStats.notes` where it is missing):

* graphs / frames / recompiles: the backend's invocations and their
  ``torch._guards.CompileContext.current_compile_id()`` (``frame_id``, ``frame_compile_id``); a
  compile of a frame this side already compiled is a recompile (a frame first compiled by the
  *other* side is not: that is the pair's isolation at work, Dynamo's BACKEND_MATCH);
* graph breaks and their reasons: ``torch._dynamo.utils.counters["graph_break"]`` (reason -> count);
* recompile reasons: ``torch._dynamo.utils.guard_failures`` (failed guards, per code object),
  without the BACKEND_MATCH failures of the pair's isolation;
* eager fallbacks: Dynamo's warning "torch._dynamo hit config.recompile_limit" (the frame then
  runs eagerly), from the ``torch._dynamo.convert_frame`` logger;
* automatic dynamic: the "marking <name> as dynamic (from automatic dynamic/PGO)" record of the
  ``torch.fx.experimental.symbolic_shapes`` logger (INFO; captured and kept out of the output).
"""

from __future__ import annotations

import contextlib
import logging
import re
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

LIMIT_LOGGER = "torch._dynamo.convert_frame"
SHAPES_LOGGER = "torch.fx.experimental.symbolic_shapes"
_LIMIT_MARK = "hit config."
_AUTO_DYNAMIC_MARK = "from automatic dynamic"
_ISOLATION_MARKS = ("BACKEND_MATCH", "check_current_backend", "___check_backend")
_COMPILE_ID_PREFIX = re.compile(r"^\[?\d+/\d+\]?:\s*")
COUNT_FIELDS = (
    "frames",
    "graphs",
    "graph_breaks",
    "recompiles",
    "eager_fallbacks",
    "automatic_dynamic",
)


@dataclass(frozen=True)
class CompileStats:
    """What compiling one side took. Counts and the reasons behind them."""

    frames: int = 0
    graphs: int = 0
    graph_breaks: int = 0
    break_reasons: tuple[str, ...] = ()
    recompiles: int = 0
    recompile_reasons: tuple[str, ...] = ()
    eager_fallbacks: int = 0
    automatic_dynamic: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def count(self, name: str) -> int:
        value = getattr(self, name)
        return len(value) if isinstance(value, tuple) else int(value)

    def summary(self) -> str:
        """``3 graphs/2 frames, 1 break, 0 recompiles`` (and fallbacks / dynamic when any)."""
        text = (
            f"{self.graphs} graph{'s' * (self.graphs != 1)}/{self.frames} frame"
            f"{'s' * (self.frames != 1)}, {self.graph_breaks} break"
            f"{'s' * (self.graph_breaks != 1)}, {self.recompiles} recompile"
            f"{'s' * (self.recompiles != 1)}"
        )
        if self.eager_fallbacks:
            text += f", {self.eager_fallbacks} eager fallback(s)"
        if self.automatic_dynamic:
            text += f", {len(self.automatic_dynamic)} automatic dynamic"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            f.name: list(getattr(self, f.name))
            if isinstance(getattr(self, f.name), tuple)
            else getattr(self, f.name)
            for f in fields(self)
        }

    def describe(self, name: str) -> str:
        """The reasons behind the count ``name`` (for failure messages)."""
        reasons = {
            "graph_breaks": self.break_reasons,
            "recompiles": self.recompile_reasons,
            "automatic_dynamic": self.automatic_dynamic,
        }.get(name, ())
        firsts = [r.strip().splitlines()[0] if r.strip() else r for r in reasons]
        return "; ".join(dict.fromkeys(firsts)) if firsts else ""


class _Capture(logging.Filter):
    """A logger filter collecting matching records; below ``keep_level`` it drops them."""

    def __init__(self, mark: str, keep_level: int) -> None:
        super().__init__()
        self.mark = mark
        self.keep_level = keep_level
        self.messages: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if self.mark in str(record.msg):
            self.messages.append(record.getMessage())
        return record.levelno >= self.keep_level


@contextlib.contextmanager
def _captured(name: str, mark: str, level: int) -> Iterator[_Capture]:
    """Capture records of logger ``name`` containing ``mark`` (at ``level`` and above) while
    the block runs; records below the logger's own level are captured and dropped."""
    logger = logging.getLogger(name)
    effective = logger.getEffectiveLevel()
    capture = _Capture(mark, keep_level=effective)
    old_level = logger.level
    logger.addFilter(capture)
    if effective > level:
        logger.setLevel(level)
    try:
        yield capture
    finally:
        logger.removeFilter(capture)
        logger.setLevel(old_level)


def _graph_break_counter() -> Mapping[str, int] | None:
    try:
        from torch._dynamo.utils import counters
    except ImportError:  # pragma: no cover - other torch layouts
        return None
    return dict(counters["graph_break"])


def _guard_failures() -> Mapping[Any, list[Any]] | None:
    try:
        from torch._dynamo.utils import guard_failures
    except ImportError:  # pragma: no cover - other torch layouts
        return None
    return guard_failures


def _compile_id() -> tuple[int, int] | None:
    try:
        from torch._guards import CompileContext

        cid = CompileContext.current_compile_id()
    except Exception:  # pragma: no cover - other torch layouts
        return None
    frame_id = getattr(cid, "frame_id", None)
    frame_compile_id = getattr(cid, "frame_compile_id", None)
    if frame_id is None or frame_compile_id is None:
        return None
    return int(frame_id), int(frame_compile_id)


@dataclass
class CompileStatsCollector:
    """Accumulates one side's :class:`CompileStats` (see the module docstring)."""

    compile_ids: list[tuple[int, int] | None] = field(default_factory=list)
    recompiles: int = 0
    break_reasons: list[str] = field(default_factory=list)
    recompile_reasons: list[str] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)
    dynamic: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # a weak reference to the side's entry function's code object (see _collect_breaks): a
    # strong one would make a cycle through Dynamo's cache on that code object that gc cannot see
    entry_ref: Any = None
    windows: int = 0

    @property
    def entry_code(self) -> Any:
        return self.entry_ref() if self.entry_ref is not None else None

    @entry_code.setter
    def entry_code(self, code: Any) -> None:
        self.entry_ref = weakref.ref(code) if code is not None else None

    def on_compile(self) -> None:
        """Called by the side's backend for each graph it compiles."""
        cid = _compile_id()
        if cid is None:
            self.note("compile ids unavailable in this torch: frames and recompiles estimated")
        elif cid[1] > 0 and any(c is not None and c[0] == cid[0] for c in self.compile_ids):
            if not any(c == cid for c in self.compile_ids):
                self.recompiles += 1
        self.compile_ids.append(cid)

    def note(self, text: str) -> None:
        """Add ``text`` to the stats' notes (once): what could not be counted, and why."""
        if text not in self.notes:
            self.notes.append(text)

    @contextlib.contextmanager
    def watch(self) -> Iterator[None]:
        """Attribute what Dynamo reports while the block runs to this side."""
        breaks = _graph_break_counter()
        failures = _guard_failures()
        lengths = {k: len(v) for k, v in failures.items()} if failures is not None else {}
        with (
            _captured(LIMIT_LOGGER, _LIMIT_MARK, logging.WARNING) as limit,
            _captured(SHAPES_LOGGER, _AUTO_DYNAMIC_MARK, logging.INFO) as dynamic,
        ):
            try:
                yield
            finally:
                entry = self.entry_code
                entry_compiled = self.windows == 0 or bool(
                    failures is not None
                    and entry is not None
                    and len(failures.get(entry, ())) > lengths.get(entry, 0)
                )
                self.windows += 1
                self._collect_breaks(breaks, entry_compiled)
                self._collect_failures(failures, lengths)
                self.fallbacks.extend(limit.messages)
                self.dynamic.extend(dynamic.messages)

    def _collect_breaks(self, before: Mapping[str, int] | None, entry_compiled: bool) -> None:
        """Dynamo counts a break once in every frame it unwinds through while inlining. The
        pair's entry function inlines the model, so when it compiled in this call (the first
        call, or a recompile of it) one break of this call is the entry's own echo of the
        model's first break, and is not counted."""
        after = _graph_break_counter()
        if before is None or after is None:
            self.note("torch._dynamo.utils.counters['graph_break'] unavailable: breaks unknown")
            return
        new: list[str] = []
        for reason, count in after.items():
            new.extend([str(reason)] * (count - before.get(reason, 0)))
        if new and entry_compiled and self.entry_code is not None:
            new.pop(0)
        self.break_reasons.extend(new)

    def _collect_failures(self, failures: Any, lengths: Mapping[Any, int]) -> None:
        if failures is None:
            self.note("torch._dynamo.utils.guard_failures unavailable: recompile reasons unknown")
            return
        for code, reasons in list(failures.items()):
            for reason in reasons[lengths.get(code, 0) :]:
                text = _COMPILE_ID_PREFIX.sub("", str(reason)).strip()
                if not any(mark in text for mark in _ISOLATION_MARKS):
                    if text not in self.recompile_reasons:
                        self.recompile_reasons.append(text)

    def stats(self) -> CompileStats:
        frames = {c[0] for c in self.compile_ids if c is not None}
        unknown = sum(1 for c in self.compile_ids if c is None)
        return CompileStats(
            frames=len(frames) + unknown,
            graphs=len(self.compile_ids),
            graph_breaks=len(self.break_reasons),
            break_reasons=tuple(self.break_reasons),
            recompiles=self.recompiles,
            recompile_reasons=tuple(self.recompile_reasons),
            eager_fallbacks=len(self.fallbacks),
            automatic_dynamic=tuple(self.dynamic),
            notes=tuple(self.notes),
        )


def check_maximums(
    stats: Mapping[str, CompileStats],
    maximums: Mapping[str, Any],
    label: str,
    owner: str = "CompiledPair",
    side: str = "both",
) -> None:
    """AssertionError naming every side and count over its maximum (with the reasons): the body
    of ``CompiledPair.expect_compile`` and ``ZooPair.expect_compile``. ``side``: a key of
    ``stats`` (already checked by the caller) or ``"both"``."""
    if not maximums:
        raise TypeError("expect_compile() needs at least one maximum, e.g. graph_breaks=0")
    if side != "both":
        stats = {side: stats[side]}
    for name, limit in maximums.items():
        if name not in COUNT_FIELDS:
            raise TypeError(
                f"expect_compile({name}=...): unknown count; accepted: {', '.join(COUNT_FIELDS)}"
            )
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise ValueError(
                f"expect_compile({name}={limit!r}): expected a maximum count, an int >= 0"
            )
    excess: list[str] = []
    for side, s in stats.items():
        for name, limit in maximums.items():
            value = s.count(name)
            if value > limit:
                why = s.describe(name)
                excess.append(f"  {side} {name}={value} > {limit}" + (f": {why}" if why else ""))
    if excess:
        raise AssertionError(
            f"{owner} {label!r}: compile health over the maximums:\n" + "\n".join(excess)
        )


def compile_health_note(
    stats: Mapping[str, CompileStats], magi_backends: Mapping[str, Any] | None = None
) -> str | None:
    """The compile-health note of a pair: `more_graphs_note`, and for each side's magi backend
    (``{side: MagiBackend}``) the graphs it compiled again after one of torch's sympy failures
    (``MagiBackend.retried_text``), joined by "; "; None where there is nothing to say."""
    notes = [more_graphs_note(stats)]
    for side, backend in (magi_backends or {}).items():
        text = backend.retried_text()
        notes.append(f"{side}: {text}" if text else None)
    return "; ".join(n for n in notes if n) or None


def more_graphs_note(stats: Mapping[str, CompileStats]) -> str | None:
    """``"candidate compiles more graphs than the baseline (4 > 3)"`` or None."""
    base, cand = stats.get("baseline"), stats.get("candidate")
    if base is None or cand is None or cand.graphs <= base.graphs:
        return None
    return f"candidate compiles more graphs than the baseline ({cand.graphs} > {base.graphs})"
