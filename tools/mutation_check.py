"""Mutation check: put deliberate faults into a copy of `magi_passes` and see whether tests fail.

    python tools/mutation_check.py                 # every mutation, a table and the score
    python tools/mutation_check.py --json          # the same as JSON on stdout
    python tools/mutation_check.py --only weight-clone-dropped --only uuid-ignores-config
    python tools/mutation_check.py --list          # the mutations and their tests
    python tools/mutation_check.py --check         # only apply each mutation, no tests (seconds)
    python tools/mutation_check.py --suite tests/test_bad_input.py --suite tests/test_corpus.py
                                                   # what these files catch on their own

The working tree is never modified. For each mutation (tools/mutations.py) the repository's
`magi_passes/` is copied into a fresh temporary folder, the mutation's substitutions are applied
there (each must match exactly once, else the mutation is reported "not applied"), and pytest
runs the mutation's tests from the repository root with `PYTHONPATH` pointing at the temporary
copy first. A probe plugin, loaded into that pytest run, fails the run unless `magi_passes` really
was imported from the copy. A mutation is "caught" when the run fails, "survived" when it passes,
"timeout" when it exceeds `--timeout`.

Before the mutations, the union of every selected test is collected (a missing node id is an
error, not a catch) and, unless `--no-baseline`, run once unmutated: it must pass.

Every run gets its own empty Inductor cache folder (`TORCHINDUCTOR_CACHE_DIR`), as a fresh CI
machine has: a mutation of `backend.py` does not change the passes' `uuid()`, so a graph cached by
an earlier run would hide it. Like CI, runs use scalar C++ kernels (`TORCHINDUCTOR_VEC_ISA_OK=0`,
unless set), which compile about twice as fast.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutations import MUTATIONS, Mutation  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "magi_passes"

PROBE = '''
"""Loaded with -p: fail the run unless magi_passes comes from the mutated copy."""
import sys
from pathlib import Path

import pytest

# Imported here, while the mutated copy is first on sys.path: the magi plugin does not import
# magi_passes when it loads, and pytest later puts the repository root (the root conftest's
# folder) in front of PYTHONPATH, which would import the checkout's unmutated package instead.
import magi_passes  # noqa: F401

EXPECTED = Path({root!r}).resolve()


def _check(when):
    module = sys.modules.get("magi_passes")
    if module is None:
        import magi_passes as module
    where = Path(module.__file__).resolve()
    if EXPECTED not in where.parents:
        raise pytest.UsageError(
            f"mutation_check: magi_passes was imported from {{where}} {{when}}, "
            f"expected the mutated copy under {{EXPECTED}}"
        )


def pytest_configure(config):
    _check("at configure")


def pytest_collection_finish(session):
    _check("after collection")
'''


@dataclass
class Outcome:
    name: str
    fault: str
    files: list[str]
    status: str  # caught | survived | timeout | not applied | error
    caught_by: str
    seconds: float
    detail: str = ""


class NotApplied(Exception):
    pass


def apply_mutation(mutation: Mutation, package_dir: Path) -> None:
    """Apply every edit to the copy in `package_dir`; each `old` must occur exactly once."""
    for edit in mutation.edits:
        path = package_dir / edit.file
        text = path.read_text()
        count = text.count(edit.old)
        if count != 1:
            raise NotApplied(
                f"{edit.file}: expected exactly one occurrence of {edit.old!r}, found {count}"
            )
        path.write_text(text.replace(edit.old, edit.new))


def apply_problem(mutation: Mutation) -> str:
    """Why `mutation` cannot be applied to a copy of the checkout's package, or "" if it can:
    an edit that does not match exactly once, or an edited file that no longer parses."""
    with tempfile.TemporaryDirectory(prefix="magi-mutant-check-") as tmp:
        package_dir = Path(tmp) / PACKAGE
        shutil.copytree(REPO / PACKAGE, package_dir, ignore=shutil.ignore_patterns("__pycache__"))
        try:
            apply_mutation(mutation, package_dir)
        except NotApplied as exc:
            return str(exc)
        for file in sorted({e.file for e in mutation.edits}):
            try:
                compile((package_dir / file).read_text(), file, "exec")
            except SyntaxError as exc:
                return f"{file}: the mutated source does not parse: {exc}"
    return ""


def make_copy(root: Path, mutation: Mutation | None) -> None:
    shutil.copytree(
        REPO / PACKAGE, root / PACKAGE, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    (root / "_magi_mutation_probe.py").write_text(PROBE.format(root=str(root)))
    if mutation is not None:
        apply_mutation(mutation, root / PACKAGE)


def run_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(root), *(p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)]
    )
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["TORCHINDUCTOR_CACHE_DIR"] = str(root / "inductor-cache")
    env.setdefault("TORCHINDUCTOR_VEC_ISA_OK", "0")
    for var in [v for v in env if v.startswith("MAGI_PASSES__")]:
        del env[var]
    return env


def pytest_command(tests: list[str], workers: int, extra: list[str]) -> list[str]:
    cmd = [
        sys.executable,
        "-P",  # no cwd on sys.path: the repository's own magi_passes must not shadow the copy
        "-m",
        "pytest",
        *tests,
        "-x",
        "-q",
        "-rfE",
        "--no-header",
        "-p",
        "no:cacheprovider",
        "-p",
        "_magi_mutation_probe",
    ]
    cmd += ["-n", str(workers)] if workers > 0 else ["-p", "no:xdist"]
    return cmd + extra


def first_failure(output: str) -> str:
    for line in output.splitlines():
        match = re.match(r"^(FAILED|ERROR) (\S+)", line)
        if match:
            return match.group(2)
    for line in output.splitlines():
        if "UsageError" in line or line.startswith("ERROR:") or "error" in line.lower():
            return line.strip()[:120]
    return ""


def run_tests(
    tests: list[str],
    mutation: Mutation | None,
    workers: int,
    timeout: float,
    extra: list[str],
) -> tuple[int | None, str, float]:
    """(returncode or None on timeout, combined output, seconds)."""
    with tempfile.TemporaryDirectory(prefix="magi-mutant-") as tmp:
        root = Path(tmp)
        make_copy(root, mutation)
        start = time.monotonic()
        try:
            proc = subprocess.run(
                pytest_command(tests, workers, extra),
                cwd=REPO,
                env=run_env(root),
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as exc:
            out = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else exc.stdout
            return None, out or "", time.monotonic() - start
        return proc.returncode, proc.stdout + proc.stderr, time.monotonic() - start


def check_selection(tests: list[str]) -> None:
    """Collect every selected test unmutated: a missing file or node id is an error."""
    code, output, _ = run_tests(tests, None, 0, 600, ["--collect-only"])
    if code != 0:
        raise SystemExit(
            f"mutation_check: collecting the selected tests failed (exit {code}); fix "
            f"tools/mutations.py or the tests before trusting a score:\n{output[-3000:]}"
        )


def evaluate(mutation: Mutation, workers: int, timeout: float) -> Outcome:
    files = sorted({e.file for e in mutation.edits})
    try:
        with tempfile.TemporaryDirectory() as tmp:
            make_copy(Path(tmp), mutation)  # fails early when an edit does not match
    except NotApplied as exc:
        return Outcome(mutation.name, mutation.fault, files, "not applied", "", 0.0, str(exc))
    code, output, seconds = run_tests(list(mutation.tests), mutation, workers, timeout, [])
    if code is None:
        status, detail = "timeout", f"no result within {timeout:.0f} s"
    elif code == 0:
        status, detail = "survived", "every selected test passed"
    elif code in (1, 2):  # 1: tests failed; 2: interrupted (-x) or a collection error
        status, detail = "caught", ""
        if "_magi_mutation_probe" in output and "mutation_check:" in output:
            status, detail = "error", "magi_passes was not imported from the mutated copy"
    else:
        status, detail = "error", f"pytest exit code {code}"
    caught_by = first_failure(output) if status == "caught" else ""
    if status == "error":
        detail += "\n" + output[-2000:]
    return Outcome(mutation.name, mutation.fault, files, status, caught_by, seconds, detail)


def format_table(outcomes: list[Outcome]) -> str:
    rows = [("mutation", "file", "status", "caught by", "s")]
    for o in outcomes:
        note = o.caught_by or (o.detail.strip().splitlines() or [""])[0]
        rows.append((o.name, ",".join(o.files), o.status, note, f"{o.seconds:.0f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def score(outcomes: list[Outcome]) -> tuple[int, int]:
    applied = [o for o in outcomes if o.status in ("caught", "survived", "timeout")]
    return sum(o.status in ("caught", "timeout") for o in applied), len(applied)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="run only this mutation")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument(
        "--check", action="store_true", help="apply each mutation to a copy, run no tests"
    )
    parser.add_argument("--json", action="store_true", help="print the outcomes as JSON")
    parser.add_argument("--workers", type=int, default=0, help="pytest-xdist workers per run")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per mutation")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unmutated run")
    parser.add_argument(
        "--suite",
        action="append",
        default=[],
        help="run these tests (paths or node ids) for every mutation instead of its own selection",
    )
    args = parser.parse_args(argv)

    unknown = sorted(set(args.only) - {m.name for m in MUTATIONS})
    if unknown:
        parser.error(f"unknown mutation(s) {unknown}; see --list")
    selected = [m for m in MUTATIONS if not args.only or m.name in args.only]
    if args.suite:  # e.g. how much do the corpus and the bad-input tests catch on their own?
        selected = [dataclasses.replace(m, tests=tuple(args.suite)) for m in selected]
    if args.list:
        for m in selected:
            print(
                f"{m.name}: {m.fault}\n    edits: {', '.join(e.file for e in m.edits)}\n"
                f"    tests: {' '.join(m.tests)}"
            )
        return 0

    if args.check:
        problems = {m.name: apply_problem(m) for m in selected}
        for name, problem in problems.items():
            print(f"{name}: {problem or 'applies'}")
        bad = sum(bool(p) for p in problems.values())
        print(f"\n{len(problems) - bad}/{len(problems)} mutations apply")
        return 1 if bad else 0

    log = sys.stderr
    union = list(dict.fromkeys(t for m in selected for t in m.tests))
    check_selection(union)
    if not args.no_baseline:
        print(f"baseline: {len(union)} selections, unmutated ...", file=log, flush=True)
        code, output, seconds = run_tests(union, None, args.workers, args.timeout * 2, [])
        if code != 0:
            print(output[-4000:], file=log)
            print(
                f"mutation_check: the unmutated baseline fails (exit {code}, "
                f"{first_failure(output)}); a score would mean nothing",
                file=log,
            )
            return 2
        print(f"baseline passed in {seconds:.0f} s", file=log, flush=True)
    outcomes = []
    for m in selected:
        print(f"{m.name} ...", end=" ", file=log, flush=True)
        outcome = evaluate(m, args.workers, args.timeout)
        print(
            f"{outcome.status} ({outcome.seconds:.0f} s) {outcome.caught_by}", file=log, flush=True
        )
        outcomes.append(outcome)

    caught, applied = score(outcomes)
    if args.json:
        print(
            json.dumps(
                {
                    "score": {"caught": caught, "applied": applied, "total": len(outcomes)},
                    "outcomes": [asdict(o) for o in outcomes],
                },
                indent=2,
            )
        )
    else:
        print(format_table(outcomes))
        print(
            f"\nscore: {caught}/{applied} caught"
            + (
                f" ({len(outcomes) - applied} not applied or errored)"
                if applied != len(outcomes)
                else ""
            )
        )
    bad = [o for o in outcomes if o.status in ("not applied", "error")]
    return 1 if bad or caught != applied else 0


if __name__ == "__main__":
    raise SystemExit(main())
