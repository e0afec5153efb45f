"""`ProfileReport`: a profiled call's time per kernel class and pattern beside its floors, its
gaps and origins, the table that shows them, and the difference of two reports per unit."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .profile_events import (
    CLASSES,
    CONV,
    GAP_LEAD,
    GAP_PAIRS_SHOWN,
    GAP_TAIL,
    GAPS,
    ORIGINS,
    ORIGINS_SHOWN,
    check_positive,
)


# --------------------------------------------------------------------------- report
@dataclass
class ProfileRow:
    """One kernel pattern (or, from ``ProfileReport.classes()``, one class) per unit.

    ``launches`` and ``ms`` per unit; ``bytes`` moved by the launches whose bytes are known,
    ``bytes_ms`` their time; ``floor_ms`` the time at the floor (None: unknown); ``unit_peak``
    the peak it is measured against ("TFLOP/s" rows: FLOPs at peak; "GB/s" rows: bytes at
    HBM bandwidth)."""

    klass: str
    pattern: str
    kind: str = ""
    launches: float = 0.0
    ms: float = 0.0
    bytes: float | None = None
    bytes_ms: float = 0.0
    flops: float | None = None
    floor_ms: float | None = None
    bytes_source: str = ""
    example: str = ""

    @property
    def achieved(self) -> float | None:
        """TFLOP/s for a row with FLOPs, GB/s for a row with bytes, else None."""
        if self.flops is not None and self.ms > 0:
            return self.flops / (self.ms * 1e-3) / 1e12
        if self.bytes is not None and self.bytes_ms > 0:
            return self.bytes / (self.bytes_ms * 1e-3) / 1e9
        return None

    @property
    def achieved_unit(self) -> str:
        return "TFLOP/s" if self.flops is not None else "GB/s" if self.bytes is not None else ""

    @property
    def of_peak(self) -> float | None:
        """Floor over time: the share of the peak the row ran at (1.0 = at the floor)."""
        if self.floor_ms is None or self.ms <= 0:
            return None
        timed = self.ms if self.flops is not None else self.bytes_ms
        return self.floor_ms / timed if timed > 0 else None


@dataclass
class ProfileReport:
    """Where one call's GPU time goes, per unit (``unit``: "call" by default). See the module
    docstring. ``wall_ms``: the call timed without the profiler (median); ``busy_ms``: the union
    of its kernels' intervals; ``kernel_ms``: their sum (more than ``busy_ms`` when kernels ran
    concurrently); ``gap_ms`` = the wall time under the profiler (``profiled_wall_ms``, where
    known, else ``wall_ms``) ``- busy_ms``. ``flops``: the call's FLOPs (the
    ``conv/matmul`` floor); ``rows``: one per kernel pattern."""

    label: str
    device: str
    torch: str
    unit: str
    rounds: int
    wall_ms: float
    busy_ms: float
    kernel_ms: float
    peak_tflops: float
    hbm_gbps: float
    flops: float | None
    rows: list[ProfileRow] = field(default_factory=list)
    profiled_wall_ms: float | None = None
    # the launch gaps located (`gap_rows`): before the first kernel, after the last, and one
    # row per pair of consecutive kernel patterns between them; empty where the calls' ranges
    # were not known
    gaps: list[ProfileRow] = field(default_factory=list)
    # where the kernels that are not Inductor's own work were launched from (`origin_rows`):
    # one row per (origin, launching op, kernel pattern), `klass` the origin (one of ORIGINS,
    # "unknown" without a launching op), `kind` the kernel's class, `example` the op's input
    # shapes; every layout copy and eager ATen kernel, and any kernel launched outside a
    # compiled graph. Empty where origins were not recorded (every origin "")
    origins: list[ProfileRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # the GPU's SM clock while the wall time was taken (`pytest_magi.measure.clocks`; None without NVML)
    sm_clock_mhz: float | None = None
    max_sm_clock_mhz: float | None = None
    power_w: float | None = None

    # ---------------------------------------------------------------- derived
    @property
    def gap_ms(self) -> float:
        # both terms from the profiled calls: unprofiled wall time minus profiled kernel time
        # came out negative on a GPU-bound decode
        wall = self.profiled_wall_ms if self.profiled_wall_ms is not None else self.wall_ms
        return wall - self.busy_ms

    @property
    def overlap_ms(self) -> float:
        return self.kernel_ms - self.busy_ms

    def _gap(self, pattern: str) -> float | None:
        rows = [g for g in self.gaps if g.pattern == pattern]
        return rows[0].ms if rows else None

    @property
    def lead_ms(self) -> float | None:
        """GPU idle from the call's start to its first kernel (None: not located)."""
        return self._gap(GAP_LEAD)

    @property
    def tail_ms(self) -> float | None:
        """GPU idle from the call's last kernel to its end (None: not located)."""
        return self._gap(GAP_TAIL)

    @property
    def between_ms(self) -> float | None:
        """GPU idle between the call's kernels, all pairs together (None: not located)."""
        if not self.gaps:
            return None
        return sum(g.ms for g in self.gaps if g.pattern not in (GAP_LEAD, GAP_TAIL))

    def gap_pairs(self) -> list[ProfileRow]:
        """The ``between A and B`` rows, the longest first."""
        pairs = [g for g in self.gaps if g.pattern not in (GAP_LEAD, GAP_TAIL)]
        return sorted(pairs, key=lambda g: (-g.ms, g.pattern))

    def classes(self) -> list[ProfileRow]:
        """One row per class (``CLASSES`` order, classes without kernels left out unless
        ``conv/matmul`` has FLOPs), with the class's floor."""
        out: list[ProfileRow] = []
        for klass in CLASSES:
            rows = [r for r in self.rows if r.klass == klass]
            if not rows and not (klass == CONV and self.flops):
                continue
            known = [r for r in rows if r.bytes is not None]
            total = ProfileRow(
                klass=klass,
                pattern=f"(all {len(rows)} patterns)",
                launches=sum(r.launches for r in rows),
                ms=sum(r.ms for r in rows),
                bytes=sum(r.bytes for r in known if r.bytes is not None) if known else None,
                bytes_ms=sum(r.bytes_ms for r in known),
                bytes_source=",".join(sorted({r.bytes_source for r in known if r.bytes_source})),
            )
            if klass == CONV and self.flops is not None:
                total.flops = self.flops
                total.bytes = None
                total.floor_ms = self.flops / (self.peak_tflops * 1e12) * 1e3
            elif known:
                total.floor_ms = sum(r.floor_ms for r in known if r.floor_ms is not None)
            out.append(total)
        return out

    @property
    def floor_ms(self) -> float:
        """The call at its floor: FLOPs at the peak plus every known byte at HBM bandwidth."""
        return sum(c.floor_ms for c in self.classes() if c.floor_ms is not None)

    @property
    def unknown_ms(self) -> float:
        """Kernel time with no floor (kernels whose bytes are unknown, outside conv/matmul)."""
        return sum(r.ms - r.bytes_ms for r in self.rows if r.klass != CONV)

    # ---------------------------------------------------------------- text
    def summary(self) -> str:
        conv = next((c for c in self.classes() if c.klass == CONV), None)
        conv_floor = conv.floor_ms if conv is not None and conv.floor_ms is not None else 0.0
        memory_floor = self.floor_ms - conv_floor
        flops = f"{self.flops / 1e12:.3f} TFLOP" if self.flops is not None else "FLOPs unknown"
        lines = [
            f"profile of {self.label} on {self.device} (torch {self.torch}), per {self.unit}, "
            f"{self.rounds} profiled rounds",
            f"wall {self.wall_ms:.3f} ms = kernels {self.kernel_ms:.3f} ms"
            + (f" - concurrent {self.overlap_ms:.3f} ms" if self.overlap_ms > 5e-4 else "")
            + f" + launch gaps {self.gap_ms:.3f} ms",
            f"floor {self.floor_ms:.3f} ms = {flops} at {self.peak_tflops:g} TFLOP/s "
            f"({conv_floor:.3f} ms) + known bytes at {self.hbm_gbps:g} GB/s "
            f"({memory_floor:.3f} ms); wall / floor "
            + (f"{self.wall_ms / self.floor_ms:.2f}x" if self.floor_ms > 0 else "-")
            + f"; kernel time without a floor {self.unknown_ms:.3f} ms",
        ]
        if self.profiled_wall_ms is not None:
            lines.append(f"wall under the profiler {self.profiled_wall_ms:.3f} ms")
        if self.gaps:
            pairs = self.gap_pairs()
            longest = (
                f"; the longest: {pairs[0].pattern} ({pairs[0].ms:.3f} ms over "
                f"{_num(pairs[0].launches, 1)} gaps)"
                if pairs and pairs[0].ms > 0
                else ""
            )
            lines.append(
                f"launch gaps located: before the first kernel {self.lead_ms or 0.0:.3f} ms, "
                f"between kernels {self.between_ms or 0.0:.3f} ms, after the last "
                f"{self.tail_ms or 0.0:.3f} ms{longest}"
            )
        if self.sm_clock_mhz is not None:
            top = f" of {self.max_sm_clock_mhz:.0f} max" if self.max_sm_clock_mhz else ""
            power = f", power {self.power_w:.0f} W" if self.power_w is not None else ""
            lines.append(f"SM clock (median, timed calls) {self.sm_clock_mhz:.0f} MHz{top}{power}")
        return "\n".join(lines + [f"note: {n}" for n in self.notes])

    def table(self, top: int | None = None) -> str:
        """Markdown table: each class's total row, then its patterns by time (the first
        ``top`` of each class, the rest folded into one row), then launch gaps and wall."""
        if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
            raise ValueError(f"top={top!r}: expected None (every pattern) or an int >= 1")
        head = (
            "| class | kernel pattern | kind | launches | ms | % of wall | floor ms | achieved "
            "| % of peak | bytes from |\n"
            "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
        )
        out = [head]
        for total in self.classes():
            out.append(self._line(total, bold=True))
            rows = sorted(
                (r for r in self.rows if r.klass == total.klass), key=lambda r: (-r.ms, r.pattern)
            )
            shown = rows if top is None else rows[:top]
            out.extend(self._line(r) for r in shown)
            rest = rows[len(shown) :]
            if rest:
                out.append(
                    f"| {total.klass} | ({len(rest)} more patterns) | | "
                    f"{_num(sum(r.launches for r in rest), 1)} | {sum(r.ms for r in rest):.3f} | "
                    f"{self._share(sum(r.ms for r in rest))} | | | | |"
                )
        out.append(
            f"| **{GAPS}** | wall minus the union of kernel intervals | | | "
            f"**{self.gap_ms:.3f}** | {self._share(self.gap_ms)} | 0.000 | | | |"
        )
        out.extend(self._gap_lines(top))
        if self.overlap_ms > 5e-4:
            out.append(
                f"| concurrent | kernels overlapping others (counted above) | | | "
                f"-{self.overlap_ms:.3f} | {self._share(-self.overlap_ms)} | | | | |"
            )
        out.append(
            f"| **wall** | per {self.unit} | | "
            f"{_num(sum(r.launches for r in self.rows), 1)} | **{self.wall_ms:.3f}** | 100% | "
            f"**{self.floor_ms:.3f}** | | "
            + (f"{self.floor_ms / self.wall_ms:.0%}" if self.wall_ms > 0 else "")
            + " | |"
        )
        return "\n".join(out)

    def _gap_lines(self, top: int | None) -> list[str]:
        """The located gaps under the total: before, the longest pairs between (``top``, or
        ``GAP_PAIRS_SHOWN`` when every pattern is shown, the rest folded), after."""
        if not self.gaps:
            return []

        def line(pattern: str, launches: float | None, ms: float) -> str:
            count = " " if launches is None else f" {_num(launches, 1)} "
            return f"| {GAPS} | {_cell(pattern)} | |{count}| {ms:.3f} | {self._share(ms)} | | | | |"

        pairs = self.gap_pairs()
        shown = pairs[: top if top is not None else GAP_PAIRS_SHOWN]
        lines = [line(GAP_LEAD, None, self.lead_ms or 0.0)]
        lines.extend(line(g.pattern, g.launches, g.ms) for g in shown)
        rest = pairs[len(shown) :]
        if rest:
            lines.append(
                line(
                    f"(gaps between {len(rest)} more pairs of patterns)",
                    sum(g.launches for g in rest),
                    sum(g.ms for g in rest),
                )
            )
        lines.append(line(GAP_TAIL, None, self.tail_ms or 0.0))
        return lines

    def origin_table(self, top: int | None = None) -> str:
        """Markdown table of ``origins``: where the layout copies, the eager ATen kernels and
        every kernel launched outside a compiled graph came from (the origin, the launching
        op and its input shapes), the longest first (``top`` rows, or ``ORIGINS_SHOWN`` when
        None; the rest folded). "" when no origin was recorded."""
        if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
            raise ValueError(f"top={top!r}: expected None or an int >= 1")
        if not self.origins:
            return ""
        rows = sorted(self.origins, key=lambda r: (-r.ms, r.klass, r.pattern))
        shown = rows[: top if top is not None else ORIGINS_SHOWN]
        out = [
            "| launched from | op > kernel pattern | class | launches | ms | % of wall | op's "
            "input shapes |",
            "| --- | --- | --- | ---: | ---: | ---: | --- |",
        ]
        for r in shown:
            out.append(
                f"| {r.klass} | {_cell(r.pattern)} | {r.kind} | {_num(r.launches, 1)} | "
                f"{r.ms:.3f} | {self._share(r.ms)} | {_cell(r.example)} |"
            )
        rest = rows[len(shown) :]
        if rest:
            out.append(
                f"| | ({len(rest)} more) | | {_num(sum(r.launches for r in rest), 1)} | "
                f"{sum(r.ms for r in rest):.3f} | {self._share(sum(r.ms for r in rest))} | |"
            )
        for origin in (*ORIGINS, "unknown"):
            ms = sum(r.ms for r in self.origins if r.klass == origin)
            if ms:
                out.append(f"| **{origin}** | (all) | | | **{ms:.3f}** | {self._share(ms)} | |")
        return "\n".join(out)

    def _share(self, ms: float) -> str:
        return f"{ms / self.wall_ms:.1%}" if self.wall_ms > 0 else ""

    def _line(self, row: ProfileRow, bold: bool = False) -> str:
        achieved = row.achieved
        achieved_text = f"{achieved:,.0f} {row.achieved_unit}" if achieved is not None else ""
        of_peak = row.of_peak
        floor = "" if row.floor_ms is None else f"{row.floor_ms:.3f}"
        if row.floor_ms is not None and row.flops is None and row.bytes_ms < row.ms - 5e-4:
            floor += " (part)"
        klass = f"**{row.klass}**" if bold else row.klass
        ms = f"**{row.ms:.3f}**" if bold else f"{row.ms:.3f}"
        return (
            f"| {klass} | {_cell(row.pattern)} | {row.kind} | {_num(row.launches, 1)} | {ms} | "
            f"{self._share(row.ms)} | {floor} | {achieved_text} | "
            f"{'' if of_peak is None else f'{of_peak:.0%}'} | {row.bytes_source} |"
        )

    def __str__(self) -> str:
        origins = self.origin_table()
        return f"{self.summary()}\n\n{self.table()}" + (f"\n\n{origins}" if origins else "")

    # ---------------------------------------------------------------- data
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every field, plus the derived numbers (``gap_ms``, ``floor_ms``, each
        row's ``achieved``) for readers that do not rebuild the report."""
        data = dataclasses.asdict(self)
        data["gap_ms"] = self.gap_ms
        data["floor_ms"] = self.floor_ms
        data["classes"] = [
            {**dataclasses.asdict(c), "achieved": c.achieved, "achieved_unit": c.achieved_unit}
            for c in self.classes()
        ]
        for row, out in zip(self.rows, data["rows"], strict=True):
            out["achieved"] = row.achieved
            out["achieved_unit"] = row.achieved_unit
        return data

    def to_json(self, **dumps_options: Any) -> str:
        return json.dumps(self.to_dict(), **dumps_options)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ProfileReport:
        """The report ``to_dict`` wrote (derived keys ignored)."""
        names = {f.name for f in dataclasses.fields(cls)}
        row_names = {f.name for f in dataclasses.fields(ProfileRow)}
        values = {k: v for k, v in data.items() if k in names}
        values["rows"] = [
            ProfileRow(**{k: v for k, v in r.items() if k in row_names})
            for r in data.get("rows", [])
        ]
        values["notes"] = list(data.get("notes", []))
        for key in ("gaps", "origins"):
            values[key] = [
                ProfileRow(**{k: v for k, v in r.items() if k in row_names})
                for r in data.get(key, [])
            ]
        return cls(**values)

    # ---------------------------------------------------------------- arithmetic
    def minus(
        self, other: ProfileReport, *, divide_by: float = 1.0, unit: str | None = None
    ) -> ProfileReport:
        """``(self - other) / divide_by`` row by row (matched by class and pattern): the cost of
        what ``self``'s call does beyond ``other``'s, e.g. per further latent frame,
        ``report_t5.minus(report_t2, divide_by=3, unit="further latent frame")``. Both must
        be per-call reports with the same peaks. Differences of noisy numbers can be
        negative; floors are recomputed from the differences of FLOPs and bytes."""
        if not isinstance(other, ProfileReport):
            raise TypeError(f"minus(other={other!r}): expected a ProfileReport")
        check_positive("divide_by", divide_by, "e.g. divide_by=3 for three more latent frames")
        if (self.peak_tflops, self.hbm_gbps) != (other.peak_tflops, other.hbm_gbps):
            raise ValueError(
                f"minus: the reports were made with different peaks ({self.peak_tflops:g} "
                f"TFLOP/s, {self.hbm_gbps:g} GB/s vs {other.peak_tflops:g}, "
                f"{other.hbm_gbps:g}); profile both with the same peak_tflops and hbm_gbps"
            )
        n = float(divide_by)
        keyed = {(r.klass, r.pattern): r for r in other.rows}
        rows: list[ProfileRow] = []
        for row in self.rows:
            base = keyed.pop((row.klass, row.pattern), None)
            rows.append(_row_difference(row, base, n, self.hbm_gbps))
        for base in keyed.values():
            rows.append(_row_difference(None, base, n, self.hbm_gbps))
        # a pair (an origin row) absent from one side had no gap (no such kernel) there
        gaps = _rows_difference(self.gaps, other.gaps, n, self.hbm_gbps)
        origins = _rows_difference(self.origins, other.origins, n, self.hbm_gbps)
        flops = (
            (self.flops - other.flops) / n
            if self.flops is not None and other.flops is not None
            else None
        )
        prof_wall = (
            (self.profiled_wall_ms - other.profiled_wall_ms) / n
            if self.profiled_wall_ms is not None and other.profiled_wall_ms is not None
            else None
        )
        return ProfileReport(
            label=f"{self.label} minus {other.label}",
            device=self.device,
            torch=self.torch,
            unit=unit or f"{n:g} {self.unit}(s) of difference",
            rounds=min(self.rounds, other.rounds),
            wall_ms=(self.wall_ms - other.wall_ms) / n,
            busy_ms=(self.busy_ms - other.busy_ms) / n,
            kernel_ms=(self.kernel_ms - other.kernel_ms) / n,
            peak_tflops=self.peak_tflops,
            hbm_gbps=self.hbm_gbps,
            flops=flops,
            rows=rows,
            profiled_wall_ms=prof_wall,
            notes=[
                f"difference of two profiles divided by {n:g}",
                *_clock_notes(self, other),
                *self.notes,
            ],
            gaps=gaps,
            origins=origins,
        )


def _clock_notes(longer: ProfileReport, shorter: ProfileReport) -> list[str]:
    """The SM clock each of a difference's two runs held (a difference has no clock of its own):
    where the longer run held a lower clock, part of a cost per further unit may be the clock's
    (kernels of the same FLOPs take longer), which the conv rows cannot show."""
    runs = [(r.label, r.sm_clock_mhz, r.power_w) for r in (longer, shorter)]
    if all(mhz is None for _, mhz, _ in runs):
        return []
    parts = []
    for label, mhz, power in runs:
        watts = f", {power:.0f} W" if power is not None else ""
        parts.append(f"{label} {mhz:.0f} MHz{watts}" if mhz is not None else f"{label} not read")
    return [f"SM clock (median, timed calls): {'; '.join(parts)}"]


def _num(value: float, digits: int) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.{digits}f}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row_difference(
    row: ProfileRow | None, base: ProfileRow | None, n: float, hbm_gbps: float
) -> ProfileRow:
    ref = row if row is not None else base
    assert ref is not None
    zero = ProfileRow(ref.klass, ref.pattern)
    a, b = row or zero, base or zero
    nbytes = (
        None if a.bytes is None and b.bytes is None else ((a.bytes or 0.0) - (b.bytes or 0.0)) / n
    )
    out = ProfileRow(
        klass=ref.klass,
        pattern=ref.pattern,
        kind=ref.kind,
        launches=(a.launches - b.launches) / n,
        ms=(a.ms - b.ms) / n,
        bytes=nbytes,
        bytes_ms=(a.bytes_ms - b.bytes_ms) / n,
        bytes_source=",".join(sorted({s for s in (a.bytes_source, b.bytes_source) if s})),
        example=ref.example,
    )
    if nbytes is not None:
        out.floor_ms = nbytes / (hbm_gbps * 1e9) * 1e3
    return out


def _rows_difference(
    rows: Sequence[ProfileRow], others: Sequence[ProfileRow], n: float, hbm_gbps: float
) -> list[ProfileRow]:
    """``(rows - others) / n`` matched by class and pattern; [] unless both sides have rows
    (a report without them did not record them)."""
    if not rows or not others:
        return []
    keyed = {(r.klass, r.pattern): r for r in others}
    out = [_row_difference(r, keyed.pop((r.klass, r.pattern), None), n, hbm_gbps) for r in rows]
    out.extend(_row_difference(None, r, n, hbm_gbps) for r in keyed.values())
    return out
