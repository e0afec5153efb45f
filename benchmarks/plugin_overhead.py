"""What installing pytest-magi costs a suite that never uses it, and what its config guard costs
where it is on: interleaved runs of pytest with the plugin and with `-p no:magi`.

    python benchmarks/plugin_overhead.py              # 1,000 trivial tests, 7 rounds each way
    python benchmarks/plugin_overhead.py --tests 200 --rounds 5

Three comparisons, each side's median over the rounds (the side that goes first alternates):
- startup: `pytest --co` of one test;
- per test: 1,000 trivial tests that use nothing of the plugin;
- guard: the same tests with Inductor's config imported, under `--magi-guard=all` (every test
  checked), against `-p no:magi`: the guard's cost per checked test.
Prints a table and writes `benchmarks/results/plugin_overhead.json` (today's numbers).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results" / "plugin_overhead.json"
GUARD_CONFTEST = (
    "import torch._inductor.config  # noqa: F401 - Inductor imported, as in torch suites\n"
)


def _suite(folder: Path, tests: int, conftest: str = "") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conftest.py").write_text(conftest)
    body = "".join(f"def test_{i}():\n    assert {i} + 1 > {i}\n\n\n" for i in range(tests))
    (folder / "test_trivial.py").write_text(body)
    (folder / "test_one.py").write_text("def test_one():\n    pass\n")
    (folder / "pytest.ini").write_text("[pytest]\n")


def _run(folder: Path, *args: str) -> float:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 5):
        raise RuntimeError(f"{' '.join(command)} failed in {folder}:\n{proc.stdout[-2000:]}")
    return elapsed


def _compare(folder: Path, rounds: int, args: list[str], magi_args: list[str]) -> dict[str, float]:
    """Median seconds with the plugin and without, interleaved, first side alternating."""
    times: dict[str, list[float]] = {"magi": [], "no_magi": []}
    _run(folder, *args)  # warm the file system cache and the bytecode of both sides
    for index in range(rounds):
        order = ("magi", "no_magi") if index % 2 == 0 else ("no_magi", "magi")
        for side in order:
            extra = magi_args if side == "magi" else ["-p", "no:magi"]
            times[side].append(_run(folder, *extra, *args))
    magi, plain = statistics.median(times["magi"]), statistics.median(times["no_magi"])
    return {
        "magi_s": round(magi, 4),
        "no_magi_s": round(plain, 4),
        "extra_s": round(magi - plain, 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=1000, help="trivial tests per suite")
    parser.add_argument("--rounds", type=int, default=7, help="runs of each side")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    if args.tests < 1 or args.rounds < 3:
        parser.error(f"--tests {args.tests} / --rounds {args.rounds}: need >= 1 test, >= 3 rounds")
    with tempfile.TemporaryDirectory(prefix="magi-overhead-") as tmp:
        plain, guarded = Path(tmp) / "plain", Path(tmp) / "guarded"
        _suite(plain, args.tests)
        _suite(guarded, args.tests, GUARD_CONFTEST)
        rows = {
            "startup (--co, 1 test)": _compare(plain, args.rounds, ["--co", "test_one.py"], []),
            f"{args.tests} unused tests": _compare(plain, args.rounds, ["test_trivial.py"], []),
            f"{args.tests} tests, guard on": _compare(
                guarded, args.rounds, ["test_trivial.py"], ["--magi-guard=all"]
            ),
        }
    per_test_ms = {
        "unused": 1000 * rows[f"{args.tests} unused tests"]["extra_s"] / args.tests,
        "guarded": 1000 * rows[f"{args.tests} tests, guard on"]["extra_s"] / args.tests,
    }
    print(f"{'run':28} {'with magi s':>12} {'-p no:magi s':>13} {'extra s':>9}")
    for name, row in rows.items():
        print(f"{name:28} {row['magi_s']:12.3f} {row['no_magi_s']:13.3f} {row['extra_s']:+9.3f}")
    print(
        f"per test: {per_test_ms['unused']:+.3f} ms unused, {per_test_ms['guarded']:+.3f} ms "
        f"checked by the guard (medians of {args.rounds} interleaved runs each way)"
    )
    if not args.no_write:
        import torch  # only for the record of what was measured

        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "date": time.strftime("%Y-%m-%d"),
            "python": platform.python_version(),
            "torch": torch.__version__,
            "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}",
            "tests": args.tests,
            "rounds": args.rounds,
            "runs": rows,
            "per_test_ms": {k: round(v, 4) for k, v in per_test_ms.items()},
            "command": "python benchmarks/plugin_overhead.py"
            + (f" --tests {args.tests}" if args.tests != 1000 else "")
            + (f" --rounds {args.rounds}" if args.rounds != 7 else ""),
        }
        RESULTS.write_text(json.dumps(data, indent=2) + "\n")
        print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
