"""Public path of `magi_passes.compile.decisions` (measured pass decisions), and the command line
for decision files (`magi_passes.compile.decision_files`):

    python -m magi_passes.decisions export FILE [--cache-dir DIR]
    python -m magi_passes.decisions import FILE [--cache-dir DIR]
    python -m magi_passes.decisions show FILE    # a decision file, or an artifacts file's header

and `save_artifacts` / `read_artifacts`, the compiled code a team shares beside its decisions
(`$MAGI_ARTIFACTS_FILE`).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from typing import TextIO

from .compile.decision_files import ARTIFACTS_ENV as ARTIFACTS_ENV
from .compile.decision_files import (
    ARTIFACTS_MAGIC,
    DecisionFile,
    DecisionFileError,
    read_decision_file,
)
from .compile.decision_files import CompileArtifactsWarning as CompileArtifactsWarning
from .compile.decision_files import export_decisions as export_decisions
from .compile.decision_files import import_decisions as import_decisions
from .compile.decision_files import read_artifacts as read_artifacts
from .compile.decision_files import save_artifacts as save_artifacts
from .compile.decisions import Decider as Decider
from .compile.decisions import Decision as Decision
from .compile.decisions import DecisionCache as DecisionCache

PROG = "python -m magi_passes.decisions"
EPILOG = (
    "exit codes: 0 done; 1 done, but some entries were left out (each named on stderr); "
    "2 bad input: a missing or unusable file, a stale file to import, a bad option"
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Share the magi backend's measured decisions as one decision file",
        epilog=EPILOG,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, text in (
        ("export", "write every decision of a cache folder to FILE"),
        ("import", "write FILE's decisions into a cache folder"),
    ):
        sub = commands.add_parser(name, help=text, description=text, epilog=EPILOG)
        sub.add_argument("file", metavar="FILE", help="the decision file (JSON)")
        sub.add_argument(
            "--cache-dir",
            metavar="DIR",
            default=None,
            help="the decision cache folder (default: $MAGI_DECISION_CACHE_DIR, else "
            "magi_decisions/ in Inductor's cache folder)",
        )
    show = commands.add_parser(
        "show",
        help="print FILE's decisions as a table (an artifacts file: what it holds, and for what)",
        epilog=EPILOG,
    )
    show.add_argument("file", metavar="FILE", help="the decision file (JSON) or artifacts file")
    return parser


def table(bundle: DecisionFile) -> str:
    """The bundle as text: a header line, then one row per decision (key prefix, choice, plain
    ms, magi ms, the measured passes that changed the graph)."""
    devices = ", ".join(bundle.devices) or "no GPU"
    lines = [
        f"{bundle.path}: {len(bundle.decisions)} decisions, torch {bundle.torch}, "
        f"exported {bundle.created} on {devices}",
        f"{'key':<12}  {'choice':<6}  {'plain ms':>9}  {'magi ms':>9}  passes",
    ]
    for key, d in bundle.decisions.items():
        plain = f"{d.plain_ms:.3f}" if d.plain_ms is not None else "-"
        magi = f"{d.magi_ms:.3f}" if d.magi_ms is not None else "-"
        passes = ", ".join(d.passes) or "-"
        lines.append(f"{key[:12]:<12}  {d.choice:<6}  {plain:>9}  {magi:>9}  {passes}")
    return "\n".join(lines)


def _cache(cache_dir: str | None) -> DecisionCache:
    return DecisionCache(cache_dir) if cache_dir is not None else DecisionCache()


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.command == "export":
        cache = _cache(args.cache_dir)
        bundle = export_decisions(args.file, cache)
        print(
            f"exported {len(bundle.decisions)} decisions from {cache.directory} to {args.file}",
            file=out,
        )
        return 1 if bundle.skipped else 0
    if args.command == "import":
        cache = _cache(args.cache_dir)
        result = import_decisions(args.file, cache)
        print(
            f"imported {result.imported} decisions from {args.file} into {cache.directory}"
            f" ({result.skipped} skipped)",
            file=out,
        )
        if result.refused:
            return 2
        return 1 if result.skipped else 0
    with open(args.file, "rb") as f:
        if f.read(len(ARTIFACTS_MAGIC)) == ARTIFACTS_MAGIC:
            return _show_artifacts(args.file, out, err)
    try:
        bundle = read_decision_file(args.file)
    except DecisionFileError as exc:  # `show` reads either kind: name the other one too
        raise DecisionFileError(
            f"{exc}, or an artifacts file written by magi_passes.decisions.save_artifacts"
        ) from exc
    print(table(bundle), file=out)
    for reason in bundle.skipped:
        print(f"{PROG}: {reason}", file=err)
    stale = bundle.stale()
    if stale is not None:
        print(f"{PROG}: {bundle.path} is stale: {stale}", file=err)
    return 1 if bundle.skipped else 0


def _show_artifacts(path: str, out: TextIO, err: TextIO) -> int:
    """`show` of an artifacts file: one line of its header, or why this process cannot use it."""
    try:
        header, payload = read_artifacts(path)
    except ValueError as exc:
        print(f"{PROG}: {exc}", file=err)
        return 2
    kinds = ", ".join(f"{kind} {n}" for kind, n in header.get("artifacts", {}).items())
    devices = ", ".join(header["devices"]) or "no GPU"
    print(
        f"{path}: compile artifacts ({kinds or 'none'}; {len(payload)} bytes), torch "
        f"{header['torch']}, triton {header.get('triton')}, saved {header.get('created')} on "
        f"{devices}",
        file=out,
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (module docstring); returns the exit code (`EPILOG`)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2), already printed
        return exc.code if isinstance(exc.code, int) else 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            code = _run(args, sys.stdout, sys.stderr)
        except FileNotFoundError as exc:
            if exc.filename is not None:  # raised by the OS: name the path
                problem = f"no such file: {str(exc.filename)!r}; fix: check the path"
            else:
                problem = str(exc)
            print(f"{PROG}: {problem}", file=sys.stderr)
            code = 2
        except (DecisionFileError, OSError) as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            code = 2
    for w in caught:
        print(f"{PROG}: warning: {w.message}", file=sys.stderr)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
