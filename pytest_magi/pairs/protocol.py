"""`Pair`: what every pair answers, a `CompiledPair` (`compiled_pair`) and a `ZooPair` (`zoo_pair`)
alike, so the plugin's markers, the report and `measure_pair` treat both the same way."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Pair(Protocol):
    """A baseline and a candidate compile of one model, judged, timed and explained side by side.

    ``label`` names the pair in reports, ``device`` is where it runs, ``numerics`` is the last
    `assert_close` verdict in one line (None before any)."""

    label: str
    device: str
    numerics: str | None

    def timing_callables(self) -> tuple[Callable[[], Any], Callable[[], Any]]:
        """Each side's call on the example inputs, for `measure_pair`."""
        ...

    def assert_close(self, *, reference: str | None = None, against: str = "eager") -> Any:
        """Each compiled side against a reference run; raises when a side is wrong."""
        ...

    def locate(self, side: str = "candidate", **options: Any) -> Any:
        """Where ``side``'s numbers go wrong: a `LocateReport`."""
        ...

    def profile(self, side: str = "candidate", **options: Any) -> Any:
        """Where ``side``'s GPU time goes: a `ProfileReport`."""
        ...

    def fired(self, name: str) -> bool:
        """Whether the candidate's magi pass ``name`` applied to any graph compiled so far."""
        ...

    @property
    def compile_stats(self) -> Mapping[str, Any]:
        """``{side: CompileStats}``: graphs, frames, graph breaks, recompiles of each side."""
        ...

    @property
    def compile_note(self) -> str | None:
        """A note on the candidate's compile health beside the baseline's (None: nothing)."""
        ...

    @property
    def decisions(self) -> Mapping[str, Sequence[Any]]:
        """``{side: [Decision, ...]}``: how each graph's variant was chosen, for the report."""
        ...

    def expect_compile(self, *, side: str = "both", **maximums: int) -> None:
        """Fail naming each compile count over its maximum."""
        ...
