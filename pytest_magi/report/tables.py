"""The terminal summary: the tables of measured pairs, estimated speedups, compile health and
kernel counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .records import CompileRecord, EstimateRecord, KernelCountRecord, PairRecord, sorted_by_test


# --------------------------------------------------------------------------- terminal
def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def _num(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def gpu_cell(r: PairRecord) -> str:
    if r.gpu_index is None and r.gpu_name is None:
        return "-"
    index = "?" if r.gpu_index is None else str(r.gpu_index)
    return f"{index} {r.gpu_name}" if r.gpu_name else index


def format_pairs_table(records: Sequence[PairRecord]) -> list[str]:
    """Lines of the table of pairs: test, baseline ms, candidate ms (device time on CUDA), the
    host's enqueue ms per call of each side (baseline/candidate; '-' where not measured), speedup,
    required, verdict, the GPU it was timed on (host index and name), the compile summary and the
    numerics (the pair's last assert_close, or "not checked"). Under `--magi-estimate` the
    estimated speedup follows the measured one."""
    header = [
        "test",
        "pair",
        "baseline ms",
        "candidate ms",
        "host ms b/c",
        "speedup",
        "required",
        "verdict",
        "gpu",
        "compile",
        "numerics",
    ]
    rows = [
        [
            r.test,
            r.label,
            _num(r.baseline_ms, ".4f"),
            _num(r.candidate_ms, ".4f"),
            _host_cell(r),
            "-" if r.speedup is None else f"{r.speedup:.3f}x",
            f"{r.required:.3f}x",
            r.verdict,
            gpu_cell(r),
            r.compile or "-",
            r.numerics or "-",
        ]
        for r in sorted_by_test(records)
    ]
    profiles = sorted({r.estimate_profile for r in records if r.estimate_profile})
    if profiles:  # --magi-estimate: the estimated speedup beside the measured one
        header.insert(6, f"estimated ({', '.join(profiles)})")
        for row, r in zip(rows, sorted_by_test(records), strict=True):
            row.insert(6, _estimate_cell(r))
        return table_lines(header, rows, right={2, 3, 4, 5, 6, 7})
    return table_lines(header, rows, right={2, 3, 4, 5, 6})


def _estimate_cell(r: PairRecord) -> str:
    if r.estimated_speedup is not None:
        return f"{r.estimated_speedup:.3f}x"
    return "no estimate" if r.estimate_error else "-"


def _host_cell(r: PairRecord) -> str:
    if r.baseline_host_ms is None or r.candidate_host_ms is None:
        return "-"
    from ..measure.timing import host_bound_sides

    bound = host_bound_sides(r.baseline_ms, r.baseline_host_ms, r.candidate_ms, r.candidate_host_ms)
    return f"{r.baseline_host_ms:.4f}/{r.candidate_host_ms:.4f}{' (host-bound)' if bound else ''}"


def _side_cell(side: dict[str, Any]) -> str:
    return (
        f"{side.get('graphs', 0)}g/{side.get('frames', 0)}f "
        f"{side.get('graph_breaks', 0)}brk {side.get('recompiles', 0)}rec"
        + (f" {side['eager_fallbacks']}eager" if side.get("eager_fallbacks") else "")
    )


def format_compile_table(records: Sequence[CompileRecord]) -> list[str]:
    """Lines of the compile-health table: per pair, each side's graphs/frames, graph breaks,
    recompiles (and eager fallbacks), and the note when the candidate compiles more graphs."""
    header = ["test", "pair", "baseline", "candidate", "note"]
    ordered = sorted_by_test(records)
    rows = [
        [r.test, r.label, _side_cell(r.baseline), _side_cell(r.candidate), r.note or ""]
        for r in ordered
    ]
    lines = table_lines(header, rows, right=set())
    decided = [(r, line) for r in ordered for line in r.decisions]
    if decided:
        lines.append("pass decisions (magi_passes.decisions):")
        lines.extend(f"  {r.test} [{r.label}] {line}" for r, line in decided)
    return lines


def format_kernel_counts_table(records: Sequence[KernelCountRecord]) -> list[str]:
    """Lines of the table of kernel counts: test, label, forward, backward."""
    header = ["test", "label", "forward", "backward"]
    rows = [
        [r.test, r.label, str(r.forward), "-" if r.backward is None else str(r.backward)]
        for r in sorted_by_test(records)
    ]
    return table_lines(header, rows, right={2, 3})


def _arrow(r: EstimateRecord, key: str, scale: float | None = None) -> str:
    b, c = r.baseline.get(key), r.candidate.get(key)
    if b is None or c is None:
        return "-"
    if scale is None:
        return f"{b}->{c}"
    return f"{b / scale:.2f}->{c / scale:.2f}"


def format_estimates_table(records: Sequence[EstimateRecord]) -> list[str]:
    """Lines of the table of estimated speedups: per pair the profile, each side's estimated
    ms, kernels, launches and MB moved (baseline->candidate), the estimate, required, verdict."""
    header = [
        "test",
        "pair",
        "profile",
        "baseline est ms",
        "candidate est ms",
        "kernels",
        "launches",
        "MB moved",
        "est speedup",
        "required",
        "verdict",
    ]
    rows = [
        [
            r.test,
            r.label,
            r.profile,
            _num(r.baseline_ms, ".4f"),
            _num(r.candidate_ms, ".4f"),
            _arrow(r, "kernels"),
            _arrow(r, "launches"),
            _arrow(r, "bytes", 1e6),
            "-" if r.speedup is None else f"{r.speedup:.3f}x",
            f"{r.required:.3f}x",
            r.verdict,
        ]
        for r in sorted_by_test(records)
    ]
    return table_lines(header, rows, right={3, 4, 5, 6, 7, 8, 9})
