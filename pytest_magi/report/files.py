"""Report files: the `--magi-report` JSON (with the run's environment) and the
`--magi-report-png` chart (needs matplotlib: `pip install pytest-magi[plot]`)."""

from __future__ import annotations

import datetime
import importlib.metadata
import importlib.util
import json
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .records import (
    PLOT_INSTALL_HINT,
    REPORT_SCHEMA,
    VERDICT_PASS,
    CompileRecord,
    EstimateRecord,
    KernelCountRecord,
    PairRecord,
    TimedTest,
    sorted_by_test,
)


# --------------------------------------------------------------------------- environment
def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def environment() -> dict[str, Any]:
    """Device, torch/triton/python versions and the platform, for the JSON report."""
    import torch

    try:
        from ..measure.timing import device_name

        device = device_name()
    except Exception:  # timing unavailable or the device cannot be queried
        if torch.cuda.is_available():
            device = torch.cuda.get_device_name(torch.cuda.current_device())
        else:
            device = f"cpu ({platform.processor() or platform.machine()})"
    return {
        "device": device,
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "triton": _version("triton"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "pytest_magi": _version("pytest-magi"),
    }


# --------------------------------------------------------------------------- files
def build_report(
    pairs: Sequence[PairRecord],
    kernel_counts: Sequence[KernelCountRecord],
    *,
    options: dict[str, Any] | None = None,
    env: dict[str, Any] | None = None,
    compile_records: Sequence[CompileRecord] = (),
    estimate_records: Sequence[EstimateRecord] = (),
    locate_records: Sequence[dict[str, Any]] = (),
    duration_s: float | None = None,
    test_times: Sequence[TimedTest] = (),
    complete: bool = True,
) -> dict[str, Any]:
    """The JSON-able report: schema, timestamp, whether the run had ended (`complete`: False in
    the copy rewritten after each test, so a run killed midway leaves what it measured), the
    run's wall time (`duration_s`, None where not known), environment, options, every record
    and each test's time (`tests`)."""
    return {
        "schema": REPORT_SCHEMA,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "complete": complete,
        "duration_s": duration_s,
        "environment": env if env is not None else environment(),
        "options": dict(options or {}),
        "pairs": [r.to_dict() for r in sorted_by_test(pairs)],
        "kernel_counts": [r.to_dict() for r in sorted_by_test(kernel_counts)],
        "compile": [r.to_dict() for r in sorted_by_test(compile_records)],
        "estimates": [r.to_dict() for r in sorted_by_test(estimate_records)],
        "locate": sorted(locate_records, key=lambda r: str(r.get("test", ""))),
        "tests": [t.to_dict() for t in sorted_by_test(test_times)],
    }


def write_json_report(path: str | Path, report: dict[str, Any]) -> Path:
    """Write `report` (from `build_report`) as indented JSON; parent folders are created."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path


def matplotlib_available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


class PlotUnavailableError(RuntimeError):
    """A PNG report was asked for but matplotlib is not installed."""


def write_png_report(path: str | Path, pairs: Sequence[PairRecord]) -> Path:
    """Bar chart of each measured pair's speedup against its required ratio.

    Bars are green when the pair passed and red when it failed; the required ratio is a black tick
    on each bar and 1.0x a dashed line. Pairs that were not measured are left out.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise PlotUnavailableError(
            f"writing the PNG report {str(path)!r} needs matplotlib, which is not installed: "
            f"{PLOT_INSTALL_HINT}"
        ) from exc

    measured = [r for r in sorted_by_test(pairs) if r.speedup is not None]
    height = max(2.5, 0.45 * len(measured) + 1.5)
    fig = Figure(figsize=(9, height), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    if measured:
        names = [f"{r.test} [{r.label}]" for r in measured]
        ys = list(range(len(measured)))
        colors = ["#2e7d32" if r.verdict == VERDICT_PASS else "#c62828" for r in measured]
        bars = ax.barh(ys, [r.speedup for r in measured], color=colors, height=0.6)
        ax.bar_label(bars, labels=[f"{r.speedup:.2f}x" for r in measured], padding=3, fontsize=8)
        ax.scatter(
            [r.required for r in measured],
            ys,
            marker="|",
            s=400,
            color="black",
            zorder=3,
            label="required",
        )
        ax.set_yticks(ys, labels=names, fontsize=8)
        ax.invert_yaxis()
        ax.axvline(1.0, color="grey", linestyle="--", linewidth=1)
        ax.legend(loc="lower right", fontsize=8)
    else:
        ax.text(0.5, 0.5, "no measured pairs", ha="center", va="center", transform=ax.transAxes)
        ax.set_yticks([])
    ax.set_xlabel("speedup (baseline ms / candidate ms)")
    ax.set_title("pytest-magi: candidate speedup vs required")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    return path
