"""From kernel events to a `ProfileReport`: the rows per pattern, the launch gaps and the origins
(runs anywhere: the arithmetic needs no GPU)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .profile_events import (
    CLASSES,
    DEFAULT_HBM_GBPS,
    DEFAULT_PEAK_TFLOPS,
    EAGER,
    GAP_LEAD,
    GAP_PAIR_PREFIX,
    GAP_TAIL,
    GAPS,
    IN_GRAPH,
    LAYOUT,
    KernelEvent,
    check_count,
    check_non_negative,
    check_positive,
    classify,
    torch_version,
    union_us,
)
from .profile_report import ProfileReport, ProfileRow


def origin_rows(kernels: Sequence[KernelEvent], per: float) -> list[ProfileRow]:
    """Where the kernels that are not Inductor's own work were launched from, per unit:
    every layout copy and eager ATen kernel, and every kernel launched outside a compiled
    graph, one row per (origin, launching op, kernel pattern); see ``ProfileReport.origins``.
    [] when no kernel has an origin (the profile did not record the launching ops)."""
    if not any(k.origin for k in kernels):
        return []
    rows: dict[tuple[str, str], ProfileRow] = {}
    for k in kernels:
        klass, pattern, _ = classify(k.name)
        if klass not in (LAYOUT, EAGER) and k.origin == IN_GRAPH:
            continue
        origin = k.origin or "unknown"
        key = (origin, f"{k.op or '(no op)'} > {pattern}")
        row = rows.get(key)
        if row is None:
            row = rows[key] = ProfileRow(origin, key[1], klass, example=k.op_shapes)
        row.launches += 1 / per
        row.ms += k.dur_us / 1e3 / per
    return sorted(rows.values(), key=lambda r: (-r.ms, r.klass, r.pattern))


def gap_rows(
    kernels: Sequence[KernelEvent], rounds_us: Sequence[tuple[float, float]], per: float
) -> list[ProfileRow]:
    """The launch gaps of the calls whose ranges are ``rounds_us`` (``(start_us, end_us)``,
    e.g. ``profile()``'s ``ROUND_MARK`` ranges), per unit (``per``: calls x units a call):
    before each call's first kernel, after its last, and between consecutive kernels, one row
    per pair of patterns ``between A and B`` (A: the kernel that ended last before the GPU went
    idle, B: the next to start; ``launches`` counts the gaps). Concurrent kernels are merged
    first, so only time with no kernel running counts. A call without kernels counts whole as
    the time before its first kernel. Kernels outside every range are left out."""
    lead = tail = 0.0
    pairs: dict[str, ProfileRow] = {}
    ordered = sorted(kernels, key=lambda k: k.start_us)
    for start, end in rounds_us:
        inside = [k for k in ordered if start <= k.start_us <= end]
        if not inside:
            lead += max(0.0, end - start)
            continue
        lead += max(0.0, inside[0].start_us - start)
        last = inside[0]
        reach = last.start_us + last.dur_us
        for k in inside[1:]:
            if k.start_us > reach:
                name = f"{GAP_PAIR_PREFIX}{classify(last.name)[1]} and {classify(k.name)[1]}"
                row = pairs.get(name)
                if row is None:
                    row = pairs[name] = ProfileRow(GAPS, name, example=f"{last.name} | {k.name}")
                row.launches += 1 / per
                row.ms += (k.start_us - reach) / 1e3 / per
            if k.start_us + k.dur_us >= reach:
                last, reach = k, k.start_us + k.dur_us
        tail += max(0.0, end - reach)
    return [
        ProfileRow(GAPS, GAP_LEAD, ms=lead / 1e3 / per),
        *sorted(pairs.values(), key=lambda g: (-g.ms, g.pattern)),
        ProfileRow(GAPS, GAP_TAIL, ms=tail / 1e3 / per),
    ]


def build_report(
    events: Iterable[KernelEvent],
    *,
    calls: int = 1,
    wall_ms: float | None = None,
    flops: float | None = None,
    peak_tflops: float = DEFAULT_PEAK_TFLOPS,
    hbm_gbps: float = DEFAULT_HBM_GBPS,
    divide_by: float = 1.0,
    unit: str = "call",
    label: str = "",
    device: str = "",
    profiled_wall_ms: float | None = None,
    rounds_us: Sequence[tuple[float, float]] | None = None,
) -> ProfileReport:
    """The report of ``calls`` calls' kernel events, per unit (per call / ``divide_by``).

    ``wall_ms``: one call's wall time (default: the events' span divided by ``calls``).
    ``flops``: one call's FLOPs (the conv/matmul floor; None: no floor for that class).
    ``rounds_us``: each call's ``(start_us, end_us)`` on the events' clock, one per call:
    the launch gaps are then located (:func:`gap_rows`, ``report.gaps``).
    """
    check_count("calls", calls, 1, "the number of calls the events cover")
    check_positive("peak_tflops", peak_tflops, "e.g. 790 for an H200's bf16 matmul")
    check_positive("hbm_gbps", hbm_gbps, "e.g. 4800 for an H200's HBM3e")
    check_positive("divide_by", divide_by, "e.g. 1 for per-call numbers")
    if flops is not None:
        check_non_negative("flops", flops, "the FLOPs of one call, or None")
    if wall_ms is not None:
        check_non_negative("wall_ms", wall_ms, "one call's wall time in ms")
    kernels = list(events)
    for k in kernels:
        if not isinstance(k, KernelEvent):
            raise TypeError(f"build_report: events must be KernelEvent, got {k!r}")
        if k.dur_us < 0:
            raise ValueError(f"build_report: {k.name!r} has dur_us={k.dur_us!r}; expected >= 0")
    per = calls * float(divide_by)
    if rounds_us is not None:
        rounds_us = [(float(a), float(b)) for a, b in rounds_us]
        if len(rounds_us) != calls or any(b < a for a, b in rounds_us):
            raise ValueError(
                f"build_report: rounds_us={rounds_us!r}: expected one (start_us, end_us) range "
                f"per call ({calls}), each with end_us >= start_us"
            )
    intervals = [(k.start_us, k.start_us + k.dur_us) for k in kernels]
    busy_us = union_us(intervals)
    if wall_ms is None:
        span = (max(e for _, e in intervals) - min(s for s, _ in intervals)) if kernels else 0.0
        wall = span / 1e3 / calls
    else:
        wall = float(wall_ms)
    rows: dict[tuple[str, str], ProfileRow] = {}
    for k in kernels:
        klass, pattern, kind = classify(k.name)
        row = rows.get((klass, pattern))
        if row is None:
            row = rows[(klass, pattern)] = ProfileRow(klass, pattern, kind, example=k.name)
        row.launches += 1 / per
        row.ms += k.dur_us / 1e3 / per
        if k.bytes is not None:
            row.bytes = (row.bytes or 0.0) + k.bytes / per
            row.bytes_ms += k.dur_us / 1e3 / per
            if k.bytes_source and k.bytes_source not in row.bytes_source.split(","):
                row.bytes_source = ",".join(filter(None, [row.bytes_source, k.bytes_source]))
    for row in rows.values():
        if row.bytes is not None:
            row.floor_ms = row.bytes / (hbm_gbps * 1e9) * 1e3
    return ProfileReport(
        label=label,
        device=device,
        torch=torch_version(),
        unit=unit,
        rounds=calls,
        wall_ms=wall / float(divide_by),
        busy_ms=busy_us / 1e3 / per,
        kernel_ms=sum(k.dur_us for k in kernels) / 1e3 / per,
        peak_tflops=float(peak_tflops),
        hbm_gbps=float(hbm_gbps),
        flops=None if flops is None else float(flops) / float(divide_by),
        rows=sorted(rows.values(), key=lambda r: (CLASSES.index(r.klass), -r.ms, r.pattern)),
        profiled_wall_ms=None if profiled_wall_ms is None else profiled_wall_ms / divide_by,
        gaps=gap_rows(kernels, rounds_us, per) if rounds_us is not None else [],
        origins=origin_rows(kernels, per),
    )
