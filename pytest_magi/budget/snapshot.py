"""A syrupy extension for budgets: one `.budget.json` per snapshot, kept per torch minor version
and compared within bands.

Files live where the magi code snapshots live (`pytest_magi.snapshots`)::

    tests/__snapshots__/torch-2.13/test_budgets/test_block.budget.json

A pair's budgets (`pair.budget()`, a `PairBudget`) are one file holding both sides, each side
compared as a budget is. A budget matches its snapshot when, graph by graph, the Triton kernel count and the launch count
differ by at most the bands (default: exact) and every launch's bytes and the graph's total bytes
lie within the bytes band (default 1%). Launches are matched by name (the kernel's numbering
suffix dropped) and order; at the exact kernel band a launch under a new name (other ops fused
into it) is one gone and one new. A failure lists what moved: kernels and launches added or
removed, and each launch whose bytes grew or shrank beyond the band, by how much. Bands per test::

    assert budget_snapshot.use_extension(budget_bands(bytes=0.05, launches=1)) == b
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from ..snapshots import snapshot_version_dirname
from .pairs import SIDES, PairBudget
from .result import Budget

if TYPE_CHECKING:
    from syrupy.location import PyTestLocation
    from syrupy.types import PropertyFilter, PropertyMatcher, SerializableData, SerializedData

_SUFFIX_RE = re.compile(r"_\d+$")


def _key(call: Mapping[str, Any], seen: dict[str, int]) -> tuple[str, int]:
    base = _SUFFIX_RE.sub("", str(call["name"]))
    seen[base] = seen.get(base, 0) + 1
    return base, seen[base]


def _keyed(calls: list[Mapping[str, Any]]) -> dict[tuple[str, int], Mapping[str, Any]]:
    seen: dict[str, int] = {}
    return {_key(call, seen): call for call in calls}


def _relative(new: int, old: int) -> float:
    if old == 0:
        return 0.0 if new == 0 else float("inf")
    return (new - old) / old


class BudgetSnapshotExtension(SingleFileSnapshotExtension):
    """`Budget` snapshots as JSON, compared within ``kernels`` / ``launches`` (counts) and
    ``bytes`` (a fraction) bands; see the module docstring."""

    _write_mode = WriteMode.TEXT
    file_extension = "budget.json"
    kernels: int = 0
    launches: int = 0
    bytes: float = 0.01

    def serialize(
        self,
        data: SerializableData,
        *,
        exclude: PropertyFilter | None = None,
        include: PropertyFilter | None = None,
        matcher: PropertyMatcher | None = None,
    ) -> SerializedData:
        if isinstance(data, Budget | PairBudget):
            data = data.to_dict()
        if not isinstance(data, Mapping) or not ("graphs" in data or set(SIDES) <= set(data)):
            raise TypeError(
                f"{type(self).__name__} snapshots a pytest_magi.budget.Budget or a pair's "
                f"PairBudget (or their to_dict()), got {type(data).__name__}; snapshot what "
                f"pytest_magi.budget(fn, *inputs) or pair.budget() returns"
            )
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        snapshots = Path(test_location.filepath).parent / str(cls.snapshot_dirname)
        return str(snapshots / snapshot_version_dirname() / test_location.basename)

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return cls.dirname(test_location=test_location)

    def read_snapshot_data_from_location(
        self, *, snapshot_location: str, snapshot_name: str, session_id: str
    ) -> SerializableData | None:
        try:
            raw = Path(snapshot_location).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        return raw.decode("utf-8", errors="replace").replace("\r\n", "\n")

    # comparison
    def band_problems(self, new: Mapping[str, Any], old: Mapping[str, Any]) -> list[str]:
        """What lies outside the bands, one line each (empty: within); a pair's budgets side by
        side, each line naming its side."""
        paired = [set(SIDES) <= set(d) for d in (new, old)]
        if paired[0] != paired[1]:
            return ["a pair's budgets against one budget (or one against a pair's): update it"]
        if paired[0]:
            return [
                f"{side}: {line}"
                for side in SIDES
                for line in self._budget_problems(new[side], old[side])
            ]
        return self._budget_problems(new, old)

    def _budget_problems(self, new: Mapping[str, Any], old: Mapping[str, Any]) -> list[str]:
        problems: list[str] = []
        new_graphs, old_graphs = list(new["graphs"]), list(old["graphs"])
        if [g["kind"] for g in new_graphs] != [g["kind"] for g in old_graphs]:
            return [
                f"graphs {[g['kind'] for g in old_graphs]} -> {[g['kind'] for g in new_graphs]}"
            ]
        for index, (g, o) in enumerate(zip(new_graphs, old_graphs, strict=True)):
            where = f"graph {index} ({g['kind']})"
            counts = []
            for field, band in (("kernels", self.kernels), ("launches", self.launches)):
                if abs(g[field] - o[field]) > band:
                    change = g[field] - o[field]
                    counts.append(
                        f"{where}: {field} {o[field]} -> {g[field]} ({change:+d}; band {band})"
                    )
            problems += counts
            rel = _relative(g["bytes"], o["bytes"])
            if abs(rel) > self.bytes:
                problems.append(
                    f"{where}: bytes {o['bytes']:,} -> {g['bytes']:,} ({rel:+.1%}; band "
                    f"{self.bytes:.1%})"
                )
            moved, added_or_gone = self._call_problems(where, g["calls"], o["calls"])
            # launches that came or went explain a count outside its band; within a band wider
            # than exact they are what it allows; at the exact default a kernel under another
            # name (other ops fused into it) is a change too
            problems += moved + (added_or_gone if counts or self.kernels == 0 else [])
        return problems

    def _call_problems(
        self, where: str, new: list[Any], old: list[Any]
    ) -> tuple[list[str], list[str]]:
        """(launches whose bytes moved beyond the band, launches added or gone)."""
        moved: list[str] = []
        added_or_gone: list[str] = []
        new_calls, old_calls = _keyed(new), _keyed(old)
        for key, call in new_calls.items():
            before = old_calls.get(key)
            if before is None:
                added_or_gone.append(
                    f"{where}: new {call['kind']} {call['name']}: {call['bytes'] or 0:,} B"
                )
                continue
            rel = _relative(call["bytes"] or 0, before["bytes"] or 0)
            if abs(rel) > self.bytes:
                verb = "grew" if rel > 0 else "shrank"
                moved.append(
                    f"{where}: {call['name']} {verb} {before['bytes'] or 0:,} -> "
                    f"{call['bytes'] or 0:,} B ({rel:+.1%}; band {self.bytes:.1%})"
                )
        for key, call in old_calls.items():
            if key not in new_calls:
                added_or_gone.append(
                    f"{where}: gone {call['kind']} {call['name']}: {call['bytes'] or 0:,} B"
                )
        return moved, added_or_gone

    def matches(
        self, *, serialized_data: SerializableData, snapshot_data: SerializableData
    ) -> bool:
        try:
            new, old = json.loads(str(serialized_data)), json.loads(str(snapshot_data))
        except ValueError:
            return False
        return not self.band_problems(new, old)

    def diff_lines(
        self, serialized_data: SerializedData, snapshot_data: SerializedData
    ) -> Iterator[str]:
        try:
            new, old = json.loads(str(serialized_data)), json.loads(str(snapshot_data))
        except ValueError:
            yield "the snapshot is not a budget's JSON (corrupted?); update it"
        else:
            yield (
                f"budget outside its bands (kernels +-{self.kernels}, launches +-"
                f"{self.launches}, bytes +-{self.bytes:.1%}):"
            )
            yield from (f"  {line}" for line in self.band_problems(new, old))
        yield "whole diff:"
        yield from super().diff_lines(serialized_data, snapshot_data)


def budget_bands(
    *, kernels: int = 0, launches: int = 0, bytes: float = 0.01
) -> type[BudgetSnapshotExtension]:
    """A :class:`BudgetSnapshotExtension` with other bands, for ``snapshot.use_extension(...)``:
    ``kernels`` / ``launches`` the allowed difference in count, ``bytes`` a fraction (0.01 = 1%)."""
    for name, value, kind in (("kernels", kernels, int), ("launches", launches, int)):
        if isinstance(value, bool) or not isinstance(value, kind) or value < 0:
            raise ValueError(f"budget_bands({name}={value!r}): expected an int >= 0")
    if isinstance(bytes, bool) or not isinstance(bytes, int | float) or bytes < 0:
        raise ValueError(f"budget_bands(bytes={bytes!r}): expected a fraction >= 0 (0.01 = 1%)")
    name = f"BudgetSnapshotExtension_k{kernels}_l{launches}_b{bytes:g}"
    return type(
        name,
        (BudgetSnapshotExtension,),
        {"kernels": kernels, "launches": launches, "bytes": float(bytes)},
    )
