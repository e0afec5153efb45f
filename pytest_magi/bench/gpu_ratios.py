"""Today's measured GPU ratios (magi over torch.compile), kept as one small JSON file.

The `codegen` mode of the zoo benchmark runs on any machine and prints, beside the CUDA code it
generates, the ratio a GPU measured for the same model; the file says on which device, torch and
date (`benchmarks/results/gpu_ratios.json`). The `timing` mode on a GPU rewrites an entry with
`--record-ratios PATH`; `python -m pytest_magi.report ratios REPORT.json --into PATH` records the
pairs a `pytest --magi-perf --magi-report` run timed (`pytest_magi.report.compare.report_ratios`).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GpuRatio:
    """One model's measured ratio and where it was measured."""

    model: str
    ratio: float
    device: str
    torch: str
    date: str
    measured_by: str

    def cell(self) -> str:
        """``1.260x`` for a table cell."""
        return f"{self.ratio:.3f}x"


def load(path: Path) -> dict[str, GpuRatio]:
    """The ratios of ``path`` by model; empty when the file does not exist."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    try:
        return {
            name: GpuRatio(
                name,
                float(entry["ratio"]),
                str(entry.get("device", data["device"])),
                str(entry.get("torch", data["torch"])),
                str(entry["date"]),
                str(entry.get("measured_by", "")),
            )
            for name, entry in data["models"].items()
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(
            f"{path}: expected {{'device', 'torch', 'models': {{name: {{'ratio', 'date'}}}}}}, "
            f"got a file without {exc}; fix or delete the file"
        ) from exc


def record(
    path: Path, ratios: dict[str, float], *, device: str, torch_version: str, measured_by: str
) -> None:
    """Write ``ratios`` (model -> ratio) into ``path``, each entry with ``device``,
    ``torch_version`` and today's date; other models' entries are kept."""
    data: dict[str, Any] = (
        json.loads(path.read_text())
        if path.exists()
        else {"device": device, "torch": torch_version, "models": {}}
    )
    today = datetime.date.today().isoformat()
    for name, ratio in ratios.items():
        entry: dict[str, Any] = {"ratio": round(ratio, 3), "date": today}
        entry["measured_by"] = measured_by
        if device != data.get("device"):
            entry["device"] = device
        if torch_version != data.get("torch"):
            entry["torch"] = torch_version
        data["models"][name] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")


@dataclass(frozen=True)
class ReportRatio:
    """One timed pair of a `--magi-report`, as an entry of the ratio file (`name`), or why not."""

    name: str
    ratio: float | None
    device: str
    torch: str
    measured_by: str
    skipped: str = ""  # why the pair is not recorded ("" when it is)


# a pair's numerics outcome under which its candidate's output was right
RIGHT_OUTCOMES = ("ok", "baseline OVER (miscompiled)")


def entry_name(label: str) -> str:
    """A zoo pair's entry is its model's name (``cosmos-vae-full`` -> ``cosmos-vae``, as the
    codegen mode looks it up); any other pair's is its label."""
    from pytest_magi.models.zoo import SIZES, all_names

    for size in SIZES:
        name = label.removesuffix(f"-{size}")
        if name != label and name in all_names():
            return name
    return label
