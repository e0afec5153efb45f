"""Cold-compile mode of the zoo benchmark: each first compile in a fresh process, as a user meets it.

    python benchmarks/zoo.py cold-compile --models cogvideox-vae,tv:r3d_18 --json cold.json
    python benchmarks/zoo.py cold-compile --models sd-vae --size tiny --dtype fp32   # any machine

Per model, processes one after the other, each with empty Inductor, Triton and decision caches:
torch.compile and magi in turn (`--order`), each timed from its compile call through its first
call with the phases it spent that in (`pytest_magi.measure.compile_phases`); then magi from
what the first cold magi process left (a decision file, a recorded form file, an artifacts
file, warm caches) and torch.compile from warm caches, the floor. The verdicts: magi's cold
compile at most 1.1x torch.compile's (means), each warm start at most 0.5x its cold compile.

``--models`` takes zoo names and ``tv:NAME`` (torchvision's video classifiers, which no form
covers). ``--form generic`` compiles magi's side as a model never seen; ``--form regional``
compiles both sides block by block (`zoo.regional_blocks`). ``--shortcut VAR=VALUE`` (a
``MAGI_PASSES__`` field, or ``MAGI_BENCH_ISOLATE_FRAMES`` for `magi_compile`'s
``isolate_frames``) adds a cold magi process with it, its choices set beside full
measurement's graph by graph (`never_slower.against_full`), then a full-measurement process
of its own to time it against (a run's later processes tend to compile faster).
docs/benchmarks.md has the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SIDES = ("torch.compile", "magi")
COLD_RATIO = 1.1  # magi's cold compile at most this times torch.compile's
WARM_RATIO = 0.5  # a warm start at most this times torch.compile's cold compile
TORCHVISION = ("r3d_18", "mc3_18", "r2plus1d_18", "s3d")
DTYPES = ("bf16", "fp16", "fp32")
# magi_compile's form="auto", form=None (a model never seen), or form=None on each instance of
# the block the model repeats most, in place (`zoo.regional_blocks`), torch.compile's too
FORMS = ("auto", "generic", "regional")
# the warm starts, each held to WARM_RATIO
WARM_RUNS = ("magi, decision file", "magi, form file", "magi, artifacts file", "magi, warm caches")
# magi_compile's isolate_frames in a magi process, by value of this variable (a shortcut)
FRAMES_VARIABLE = "MAGI_BENCH_ISOLATE_FRAMES"
FRAMES: dict[str, bool | str] = {
    "True": True,
    "False": False,
    "instance": "instance",
    "root": "root",
}
# the run of the full-measurement process that follows each shortcut's ("... VAR=VALUE")
BESIDE = "magi, cold, beside "
CACHE_VARIABLES = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR", "MAGI_DECISION_CACHE_DIR")


# --------------------------------------------------------------------------- one process
def _load(name: str, size: str, device: str, dtype: Any) -> tuple[Any, Any, Any]:
    """(the module a user compiles, a setter that puts its compiled copy in place, the call)."""
    import torch

    if name.startswith("tv:"):
        arch = name[3:]
        if arch not in TORCHVISION:
            raise ValueError(f"--models {name!r}: torchvision video models are {TORCHVISION}")
        from torchvision.models import video

        net = getattr(video, arch)(weights=None).to(device=device, dtype=dtype).eval()
        frames, side = (16, 112) if size == "full" else (4, 32)
        batch = 4 if size == "full" else 1
        x = torch.randn(batch, 3, frames, side, side, device=device, dtype=dtype)
        holder = {"module": net}
        return net, lambda compiled: holder.update(module=compiled), lambda: holder["module"](x)
    from .. import zoo

    model = zoo.load(name, size, device=device, dtype=dtype)
    if model.attr is None:
        holder = {"model": model}
        return (
            model.owner,
            lambda compiled: holder.update(model=_replaced(model, compiled)),
            lambda: holder["model"].run(),
        )
    return (
        getattr(model.owner, model.attr),
        lambda compiled: setattr(model.owner, model.attr, compiled),
        model.run,
    )


def _replaced(model: Any, owner: Any) -> Any:
    import dataclasses

    return dataclasses.replace(model, owner=owner)


def child(
    side: str,
    name: str,
    size: str,
    dtype_name: str,
    out: Path,
    export: Path | None,
    form: str = "auto",
    form_out: Path | None = None,
    artifacts_out: Path | None = None,
    steady: int = 0,
) -> None:
    """Compile ``name`` one way in this process, time its first call and write the record
    (``form``: magi's, "auto" as `magi_compile` picks it, "generic" for none, "regional" for
    none on each of the model's repeated blocks, both sides block by block; ``export`` and
    ``form_out``: where a measured run's decisions and its recorded form go; ``artifacts_out``:
    where its compile artifacts go; ``steady``: calls timed after the first, `steady_ms`)."""
    import torch

    from magi_passes import magi_compile

    from ..measure import compile_phases

    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}[dtype_name]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    module, put, call = _load(name, size, device, dtype)

    def sync() -> None:
        if device == "cuda":
            torch.cuda.synchronize()

    # timed from the compile call on: torch.compile(module) imports Inductor's compile_fx when
    # it is made, so a first call alone would leave that import out of its side only
    def compile_one(target: Any) -> Any:
        if side == "torch.compile":
            return torch.compile(target)
        frames = FRAMES[os.environ.get(FRAMES_VARIABLE, "True")]
        return magi_compile(target, form="auto" if form == "auto" else None, isolate_frames=frames)

    blocks: list[tuple[Any, str, Any]] = []
    if form == "regional":
        from ..models.zoo import regional_blocks

        blocks = regional_blocks(module)
        if not blocks:
            raise ValueError(f"--form regional: {name} repeats no block; fix: --form generic")
    reference: Any = None
    if steady:  # eager's output, for the compiled calls' numerics (imported only then)
        from .numerics import _tensor

        with torch.no_grad():
            reference = _tensor(call())
    sync()
    start = time.perf_counter()
    if blocks:  # each block compiled in its place, the model around them eager
        parts = [compile_one(block) for _, _, block in blocks]
        for (parent, attr, _), part in zip(blocks, parts, strict=True):
            setattr(parent, attr, part)
        compiled: Any = module
    else:
        compiled = compile_one(module)
        parts = [compiled]
    put(compiled)
    made = time.perf_counter() - start
    with torch.no_grad(), compile_phases.compile_phases() as spent:
        call()
        sync()
    seconds = time.perf_counter() - start
    record: dict[str, Any] = {
        "model": name,
        "side": side,
        "seconds": round(seconds, 3),
        "made": round(made, 3),
        "phases": compile_phases.shown(spent),
        "device": torch.cuda.get_device_name() if device == "cuda" else "cpu",
        "torch": torch.__version__,
    }
    if steady:  # the run time after the first call, and its numerics
        from ..measure.timing import steady_ms
        from ..numerics.compare import _relative_l2

        ms, last = steady_ms(call, sync, steady)
        error = _relative_l2(_tensor(last), reference)
        record |= {
            "steady_ms": round(ms, 4),
            "steady": steady,
            "rel_l2_eager": float(f"{error:.3g}"),
        }
    backends = [b for b in (getattr(p, "magi_backend", None) for p in parts) if b is not None]
    if blocks:
        record["blocks"] = f"{len(blocks)} {type(blocks[0][2]).__name__}"
    if backends:
        from magi_passes.compile.backend import MagiBackend

        backend = backends[0] if len(backends) == 1 else MagiBackend.merged(backends)
        chosen = getattr(compiled, "magi_form", None)
        record["form"] = "regional" if blocks else getattr(chosen, "name", None) or "generic"
        sources = [d.source for d in backend.decisions]
        record["magi_seconds"] = backend.seconds_text()
        record["backend_calls"] = round(backend.seconds["calls"], 3)
        record["decisions"] = {
            s: sources.count(s) for s in ("measured", "cached", "shared", "static")
        }
        record["graphs"] = len(backend.decisions)
        record["choices"] = [d.choice for d in backend.decisions]
        # plain ms / magi ms of each graph a timing decided (None where none did)
        record["gaps"] = [
            round(d.plain_ms / d.magi_ms, 4) if d.plain_ms and d.magi_ms else None
            for d in backend.decisions
        ]
        if export is not None and sources.count("measured"):
            from magi_passes.compile.decision_files import export_decisions

            export_decisions(export)
        if artifacts_out is not None:
            from magi_passes.decisions import save_artifacts

            try:
                record["artifacts"] = save_artifacts(artifacts_out)["artifacts"]
            except ValueError as exc:  # nothing cached
                record["artifacts_file"] = f"not saved: {str(exc).splitlines()[0][:200]}"
        if form_out is not None and blocks:
            record["form_file"] = "not recorded: a form is recorded for a whole model"
        elif form_out is not None:
            from magi_passes.forms import record_form

            try:
                record_form(compiled, form_out)
            except ValueError as exc:  # nothing measured, or graphs that disagree
                record["form_file"] = f"not recorded: {str(exc).splitlines()[0][:200]}"
    out.write_text(json.dumps(record) + "\n")


# --------------------------------------------------------------------------- the parent
def _run_child(
    side: str,
    name: str,
    args: argparse.Namespace,
    caches: Path,
    *,
    env: dict[str, str],
    export: Path | None = None,
    form_out: Path | None = None,
    artifacts_out: Path | None = None,
    form: str | None = None,
) -> dict[str, Any]:
    caches.mkdir(parents=True, exist_ok=True)
    out = caches / "record.json"
    command = [
        sys.executable,
        "-m",
        "pytest_magi.bench.cold_compile",
        "--child",
        side,
        "--models",
        name,
        "--size",
        args.size,
        "--dtype",
        args.dtype,
        "--out",
        str(out),
        "--form",
        form or args.form,
    ]
    if export is not None:
        command += ["--export", str(export)]
    if form_out is not None:
        command += ["--form-out", str(form_out)]
    if artifacts_out is not None:
        command += ["--artifacts-out", str(artifacts_out)]
    if args.steady:
        command += ["--steady", str(args.steady)]
    variables = {**os.environ, **env}
    for variable, folder in zip(CACHE_VARIABLES, ("inductor", "triton", "decisions"), strict=True):
        variables[variable] = str(caches / folder)
    try:
        done = subprocess.run(
            command,
            env=variables,
            capture_output=True,
            text=True,
            check=False,
            timeout=args.process_limit or None,
        )
    except subprocess.TimeoutExpired:
        return {
            "model": name,
            "side": side,
            "error": f"over --process-limit {args.process_limit:g} s",
        }
    if done.returncode != 0 or not out.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return {"model": name, "side": side, "error": " | ".join(tail) or f"rc {done.returncode}"}
    return dict(json.loads(out.read_text()))


def bench(name: str, args: argparse.Namespace, root: Path, log: Any) -> list[dict[str, Any]]:
    """Every process of one model, in order; each record is logged as it comes."""
    records: list[dict[str, Any]] = []
    stem = name.replace(":", "-")

    def step(
        run: str, side: str, caches: Path, *, against: dict[str, Any] | None = None, **options: Any
    ) -> dict[str, Any]:
        """One process (`_run_child`'s ``options``), recorded as ``run`` and logged; its
        choices set beside those of ``against`` (full measurement's record), if given."""
        record = _run_child(side, name, args, caches, **{"env": {}, **options})
        record["run"] = run
        if against is not None and "error" not in record:
            from .never_slower import against_full

            record["vs_full"] = against_full(
                against.get("choices", []), record.get("choices", []), against.get("gaps")
            )
        records.append(record)
        log(_line(record))
        return record

    order = [SIDES[0] if c == "t" else SIDES[1] for c in args.order]
    decisions = root / f"{stem}-decisions.json"
    form_file = root / f"{stem}-form.json"
    artifacts = root / f"{stem}-artifacts.bin"
    first_magi: Path | None = None
    first_tc: Path | None = None
    for i, side in enumerate(order):
        caches = root / f"{stem}-{i}"
        first = side == "magi" and first_magi is None
        outputs: dict[str, Any] = (
            {"export": decisions, "form_out": form_file, "artifacts_out": artifacts}
            if first
            else {}
        )
        record = step(f"{side}, cold", side, caches, **outputs)
        if first and "error" not in record:
            first_magi = caches
        if side == SIDES[0] and first_tc is None and "error" not in record:
            first_tc = caches
    full = next((r for r in records if r["run"] == "magi, cold" and "error" not in r), None)
    for i, (variable, value) in enumerate(args.shortcut):
        caches = root / f"{stem}-shortcut-{i}"
        step(f"magi, cold, {variable}={value}", "magi", caches, against=full, env={variable: value})
        step(f"{BESIDE}{variable}={value}", "magi", root / f"{stem}-beside-{i}", against=full)
    if first_magi is not None and not args.no_warm:
        if decisions.exists():
            env = {"MAGI_DECISIONS_FILE": str(decisions)}
            step("magi, decision file", "magi", root / f"{stem}-file", env=env)
        if form_file.exists():  # "auto": the recorded form is found through the variable
            env = {"MAGI_FORMS_FILE": str(form_file)}
            step("magi, form file", "magi", root / f"{stem}-form", env=env, form="auto")
        if artifacts.exists():  # what a team commits: its decisions and compile artifacts
            env = {"MAGI_ARTIFACTS_FILE": str(artifacts)}
            if decisions.exists():
                env["MAGI_DECISIONS_FILE"] = str(decisions)
            step("magi, artifacts file", "magi", root / f"{stem}-artifacts", env=env)
        step("magi, warm caches", "magi", first_magi)
    if first_tc is not None and not args.no_warm:  # the floor a warm start is held against
        step("torch.compile, warm caches", SIDES[0], first_tc)
    return records


def _line(record: dict[str, Any]) -> str:
    from ..measure import compile_phases

    if "error" in record:
        return f"  {record['run']}: FAILED {record['error'][:300]}"
    text = compile_phases.summary_of_shown(record.get("phases", {}))
    extra = f"; {record['magi_seconds']}" if "magi_seconds" in record else ""
    dynamo = dynamo_own(record)
    if dynamo is not None:
        extra += f"; dynamo's own work around the backend {dynamo:.1f} s"
    if "form_file" in record:
        extra += f"; form file {record['form_file']}"
    if "artifacts_file" in record:
        extra += f"; artifacts file {record['artifacts_file']}"
    if "vs_full" in record:
        extra += f"; against full measurement: {record['vs_full']}"
    if "steady_ms" in record:
        extra += f"; then {record['steady_ms']:.3f} ms a call (median of {record['steady']})"
        if "rel_l2_eager" in record:
            extra += f", rel-L2 from eager {record['rel_l2_eager']:.2e}"
    made = f"made {record['made']:.1f} s, " if "made" in record else ""
    return f"  {record['run']}: {record['seconds']:.1f} s ({made}{text}{extra})"


def dynamo_own(record: dict[str, Any]) -> float | None:
    """A magi process's frame-compile seconds outside dynamo's tracing, its guards and the
    backend's calls: dynamo's own work around the backend, which torch.compile's "rest of the
    frame compiles" also holds (with Inductor's work before AOT dispatch); None without the
    backend's seconds."""
    phases = record.get("phases", {})
    calls = record.get("backend_calls")
    if calls is None or "frame compiles" not in phases:
        return None
    inside = calls + phases.get("dynamo tracing", 0.0) + phases.get("guards", 0.0)
    return max(0.0, phases["frame compiles"] - inside)


def _shortcut(text: str) -> tuple[str, str]:
    """``--shortcut``'s ``MAGI_PASSES__FIELD=VALUE`` or ``FRAMES_VARIABLE=VALUE``, checked."""
    from magi_passes.config import ENV_PREFIX, PassConfig

    variable, sep, value = text.partition("=")
    field = variable[len(ENV_PREFIX) :].lower()
    if sep and variable == FRAMES_VARIABLE and value in FRAMES:
        return variable, value
    if not sep or not variable.startswith(ENV_PREFIX) or field not in PassConfig.field_names():
        raise argparse.ArgumentTypeError(
            f"{text!r} is not {ENV_PREFIX}FIELD=VALUE with a PassConfig field, nor "
            f"{FRAMES_VARIABLE}= one of {', '.join(FRAMES)}; e.g. "
            f"{ENV_PREFIX}SHARE_DECISIONS_ACROSS_SHAPES=1"
        )
    return variable, value


def _seconds(records: Sequence[dict[str, Any]], run: str) -> list[float]:
    """The seconds of each process of ``run`` ("magi, cold") that finished."""
    return [r["seconds"] for r in records if r.get("run") == run and "error" not in r]


def _mean(records: Sequence[dict[str, Any]], run: str) -> float | None:
    values = _seconds(records, run)
    return statistics.mean(values) if values else None


def verdicts(records: Sequence[dict[str, Any]]) -> list[tuple[str, bool | None, str]]:
    """(what, met (None: not measured), the number) for one model's records."""
    tc, magi = _mean(records, "torch.compile, cold"), _mean(records, "magi, cold")
    out: list[tuple[str, bool | None, str]] = []
    if tc is None or magi is None:
        return [(f"cold compile at most {COLD_RATIO}x torch.compile's", None, "not measured")]
    out.append(
        (
            f"cold compile at most {COLD_RATIO}x torch.compile's",
            magi / tc <= COLD_RATIO,
            f"{magi / tc:.3f}x ({magi:.1f} s against {tc:.1f} s)",
        )
    )
    for run in WARM_RUNS:
        seconds = _mean(records, run)
        what = f"{run.split(', ')[1]}: at most {WARM_RATIO}x torch.compile's cold compile"
        if seconds is None:
            out.append((what, None, "not measured"))
        else:
            out.append((what, seconds / tc <= WARM_RATIO, f"{seconds / tc:.3f}x ({seconds:.1f} s)"))
    return out


def table(results: dict[str, list[dict[str, Any]]]) -> str:
    lines = [
        "| model (magi's form) | torch.compile cold s | magi cold s | magi / tc | decision file s "
        "| form file s | artifacts file s | warm caches s | torch.compile warm s | targets |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, records in results.items():

        def cell(run: str, records: Sequence[dict[str, Any]] = records) -> str:
            return " / ".join(f"{v:.1f}" for v in _seconds(records, run)) or "-"

        tc, magi = _mean(records, "torch.compile, cold"), _mean(records, "magi, cold")
        ratio = "-" if tc is None or magi is None else f"{magi / tc:.3f}x"
        marks = [
            "?" if met is None else "met" if met else "MISSED" for _, met, _ in verdicts(records)
        ]
        forms = sorted({r["form"] for r in records if r.get("form")})
        shown = f"{name} ({', '.join(forms)})" if forms else name
        lines.append(
            f"| {shown} | {cell('torch.compile, cold')} | {cell('magi, cold')} | {ratio} | "
            f"{cell('magi, decision file')} | {cell('magi, form file')} | "
            f"{cell('magi, artifacts file')} | "
            f"{cell('magi, warm caches')} | {cell('torch.compile, warm caches')} | "
            f"{', '.join(marks)} |"
        )
    for name, records in results.items():
        tc = _mean(records, "torch.compile, cold")
        for at, r in enumerate(records):
            run = r.get("run", "")
            shortcut = run.startswith("magi, cold, ") and not run.startswith(BESIDE)
            if not shortcut or "error" in r or not tc:
                continue
            after = records[at + 1] if at + 1 < len(records) else {}
            beside = (
                after.get("run") == BESIDE + run[len("magi, cold, ") :] and "error" not in after
            )
            next_to = (
                f", {r['seconds'] / after['seconds']:.3f}x the full measurement run after it "
                f"({after['seconds']:.1f} s)"
                if beside
                else ""
            )
            if beside and r.get("steady_ms") and after.get("steady_ms"):
                next_to += f", and runs at {after['steady_ms'] / r['steady_ms']:.3f}x its speed"
            lines.append(
                f"\n{name}, {run}: {r['seconds']:.1f} s, {r['seconds'] / tc:.3f}x "
                f"torch.compile's cold compile{next_to}; against full measurement: "
                f"{r.get('vs_full', '?')}"
            )
    lines.append(
        f"\ntargets: cold at most {COLD_RATIO}x; decision file, form file, artifacts file, warm "
        f"caches, each at most "
        f"{WARM_RATIO}x torch.compile's cold compile (torch.compile's own warm start beside them)"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="zoo.py cold-compile", description=__doc__.split("\n")[0])
    parser.add_argument("--models", required=True, help="zoo names and tv:NAME, comma-separated")
    parser.add_argument("--size", default="full", choices=("tiny", "full"))
    parser.add_argument("--dtype", default="bf16", choices=DTYPES)
    parser.add_argument(
        "--order", default="tmmt", help="cold processes in turn: t torch.compile, m magi"
    )
    parser.add_argument(
        "--form",
        default="auto",
        choices=FORMS,
        help="magi's compile form: auto (magi_compile's pick), generic (a model never seen) "
        "or regional (generic, on each instance of the block the model repeats most; "
        "torch.compile's side the same way)",
    )
    parser.add_argument("--no-warm", action="store_true", help="leave out the warm starts")
    parser.add_argument(
        "--shortcut",
        type=_shortcut,
        action="append",
        default=[],
        metavar="MAGI_PASSES__FIELD=VALUE",
        help="one more cold magi process with this variable, its decisions compared with full "
        f"measurement's graph by graph (repeatable); {FRAMES_VARIABLE}=False, True, instance "
        "or root sets magi_compile's isolate_frames",
    )
    parser.add_argument(
        "--process-limit",
        type=float,
        default=0,
        help="seconds one process may take (0: no limit); one over it is a failed row",
    )
    parser.add_argument(
        "--steady",
        type=int,
        default=0,
        metavar="CALLS",
        help="time this many calls after the first in each process (median ms) and give the "
        "output's rel-L2 from eager's (0: none)",
    )
    parser.add_argument("--json", type=Path, default=None, help="every process's record")
    parser.add_argument("--child", choices=SIDES, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--export", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--form-out", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--artifacts-out", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = [n for n in args.models.split(",") if n]
    if args.child is not None:
        child(
            args.child,
            names[0],
            args.size,
            args.dtype,
            args.out,
            args.export,
            args.form,
            args.form_out,
            args.artifacts_out,
            args.steady,
        )
        return 0
    if args.steady < 0:
        parser.error(f"--steady {args.steady}: a number of calls, 0 or more, e.g. --steady 20")
    if not args.order or set(args.order) - {"t", "m"} or "t" not in args.order:
        parser.error(f"--order {args.order!r}: letters t and m, with at least one t, e.g. tmmt")
    from .. import zoo

    unknown = [n for n in names if not n.startswith("tv:") and n not in zoo.all_names()]
    unknown += [n for n in names if n.startswith("tv:") and n[3:] not in TORCHVISION]
    if unknown:
        parser.error(
            f"--models: unknown {', '.join(unknown)}; zoo models: {', '.join(zoo.all_names())}; "
            f"torchvision: {', '.join('tv:' + t for t in TORCHVISION)}"
        )
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="magi-cold-") as folder:
        for name in names:
            print(
                f"## {name}" + (f" (magi in the {args.form} form)" if args.form != "auto" else ""),
                flush=True,
            )
            results[name] = bench(name, args, Path(folder), lambda t: print(t, flush=True))
            if args.json is not None:
                args.json.parent.mkdir(parents=True, exist_ok=True)
                args.json.write_text(json.dumps(results, indent=1) + "\n")
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
