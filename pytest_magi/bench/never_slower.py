"""Never-slower mode of the zoo benchmark: every zoo model, magi with measured pass decisions vs
torch.compile.

    python benchmarks/zoo.py never-slower                      # every zoo model, full, bf16, GPU
    python benchmarks/zoo.py never-slower --models cogvideox-vae,mochi-vae --json out.json
    python benchmarks/zoo.py never-slower --models sd-vae --size tiny --dtype fp32   # CPU

Per model, in one process (`pytest_magi.models.zoo`, random weights, full size, bf16):

1. A `ZooPair`: torch.compile as users write it (baseline) and magi (`MagiBackend`, a dynamo
   frame per module instance and the model's measured form, as `magi_compile`:
   `magi_passes.forms`) with measured decisions on and an empty decision cache. Each side's
   compile time is its first call, synchronised ("cold": magi compiles each graph a measured
   pass changes twice and times both variants).
2. Numerics: both sides and eager against an fp32 run of the same model
   (`pytest_magi.numerics.judgment.judge_against_reference`: each side within max(2 x eager's distance,
   the dtype's floor)).
3. The ratio: `pytest_magi.timing.measure_pair` (interleaved rounds, CUDA events, L2 flushed,
   median of per-round ratios).
4. "Warm": a second copy of each side compiled in the same process, magi's with the decision
   cache the first one filled (every decision is then read, not measured, and each graph
   compiles once).

Each of the four compiles is printed with the phases it spent its time in (dynamo's own
timers, `pytest_magi.measure.compile_phases`), and magi's cold one with where its backend's
seconds went (compile, discarded variants, timing). A compile's place in its process moves
its time (docs/results.md, "Method"): the first-compile-in-a-fresh-process figure is the
cold-compile recipe in docs/results.md, "Cold compile".

Inductor's FX graph cache is off for every compile (`--keep-fx-cache` keeps it), so a warm
compile is cheaper only by the decisions it reads. The table goes to stdout (markdown) and the
rows to `--json`.

A torch.compile baseline that fails to compile (an error, or a first call longer than
`--compile-limit` seconds) is a finding, recorded in the row (``baseline_failure``); the pair is
then built again with ``dynamic=False`` on both sides, the setting a torch.compile user would try
next, and the row says so (``compile_kwargs``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import signal
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from magi_passes import MagiBackend
from magi_passes.compile import forms
from magi_passes.compile.decisions import Decider, DecisionCache
from pytest_magi import zoo
from pytest_magi.measure import compile_phases
from pytest_magi.measure.timing import device_name, measure_pair
from pytest_magi.numerics.judgment import (
    REFERENCE_DTYPES,
    judge_against_reference,
    reference_outputs,
)

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
# timm nets at batch 128: at batch 16 their calls are launch-bound
LOAD_OPTIONS = {"resnet50": {"batch": 128}, "efficientnet_b0": {"batch": 128}}


@dataclass
class Row:
    model: str
    inputs: str
    baseline_ms: float = 0.0
    magi_ms: float = 0.0
    ratio: float = 0.0
    spread: float = 0.0
    eager_l2: float | None = None
    baseline_l2: float = 0.0
    magi_l2: float = 0.0
    bound: float = 0.0
    numerics: str = ""
    compile_baseline_s: float = 0.0
    compile_magi_cold_s: float = 0.0
    compile_magi_warm_s: float = 0.0
    compile_baseline_warm_s: float = 0.0
    # compile -> {phase label: seconds}; compiles "torch.compile cold", "magi cold",
    # "magi warm", "torch.compile warm"
    phases: dict[str, dict[str, float]] = field(default_factory=dict)
    magi_seconds: str = ""  # the cold magi backend's seconds_text()
    graphs: int = 0
    measured: int = 0
    kept_plain: int = 0
    decisions: list[str] = field(default_factory=list)
    error: str | None = None
    baseline_failure: str | None = None  # torch.compile as users write it did not compile
    compile_kwargs: str = ""  # what both sides were compiled with beyond the backend


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


class CompileTimeout(BaseException):
    """A first call over ``--compile-limit``: a BaseException, so that no ``except Exception``
    inside dynamo or Inductor turns it into a fallback."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    if seconds <= 0:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise CompileTimeout(f"the first call (compile) did not finish in {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _timed_first_call(
    call: Callable[[], Any], limit: float = 0, phases: dict[str, float] | None = None
) -> tuple[float, Any]:
    """Seconds of ``call()`` (a compiled model's first call), synchronised, and its result;
    ``phases`` (where given) is filled with the dynamo phases the call spent them in."""
    _sync()
    start = time.perf_counter()
    with _time_limit(limit), compile_phases.compile_phases() as spent:
        out = call()
        _sync()
    if phases is not None:
        phases.update(compile_phases.shown(spent))
    return time.perf_counter() - start, out


def phase_lines(row: Row) -> list[str]:
    """One line per compile of ``row``: its seconds and the phases it spent them in."""
    seconds = {
        "torch.compile cold": row.compile_baseline_s,
        "magi cold": row.compile_magi_cold_s,
        "magi warm": row.compile_magi_warm_s,
        "torch.compile warm": row.compile_baseline_warm_s,
    }
    lines = []
    for name, phases in row.phases.items():
        parts = compile_phases.summary_of_shown(phases)
        lines.append(f"{name} {seconds.get(name, 0.0):.1f} s: {parts}")
    return lines


@contextlib.contextmanager
def _fx_cache(keep: bool) -> Iterator[None]:
    if keep:
        yield
        return
    with torch._inductor.config.patch(fx_graph_cache=False, fx_graph_remote_cache=False):
        yield


def bench(name: str, args: argparse.Namespace, log: Callable[[str], None]) -> Row:
    dtype = DTYPES[args.dtype]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    options = dict(LOAD_OPTIONS.get(name, {}))
    if name == "wan2.2-vae":
        options["frames"] = args.wan_frames
    model = zoo.load(name, args.size, device=device, dtype=dtype, **options)
    shapes = [tuple(t.shape) for t in model.inputs if isinstance(t, torch.Tensor)]
    row = Row(name, f"{args.size} {shapes}")
    folder = Path(tempfile.mkdtemp(prefix=f"magi-decisions-{name}-"))
    torch._dynamo.reset()

    # the candidate as magi_compile compiles it: the model's measured form, if it has one
    form = forms.form_for(model.module)
    config = form.config() if form is not None else None
    backend_options = form.backend_options() if form is not None else None

    def measured_pair(**compile_kwargs: Any) -> tuple[MagiBackend, zoo.ZooPair]:
        backend = MagiBackend(config, backend_options, decider=Decider(cache=DecisionCache(folder)))
        return backend, zoo.ZooPair(model, candidate=backend, **compile_kwargs)

    def first_call(side: str, phases: str) -> tuple[float, Any]:
        spent = row.phases[phases] = {}
        return _timed_first_call(lambda: pair.run(side), args.compile_limit, spent)

    with _fx_cache(args.keep_fx_cache):
        cold, pair = measured_pair()
        start = time.perf_counter()
        try:
            row.compile_baseline_s, base = first_call("baseline", "torch.compile cold")
        except (Exception, CompileTimeout) as exc:
            row.baseline_failure = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}"
            log(
                f"  torch.compile FAILED after {time.perf_counter() - start:.0f} s: "
                f"{row.baseline_failure[:300]}; both sides again with dynamic=False"
            )
            torch._dynamo.reset()
            row.compile_kwargs = "dynamic=False"
            cold, pair = measured_pair(dynamic=False)
            row.compile_baseline_s, base = first_call("baseline", "torch.compile cold")
        log(f"  compiled: torch.compile {row.compile_baseline_s:.1f} s")
        row.compile_magi_cold_s, cand = first_call("candidate", "magi cold")
        row.magi_seconds = cold.seconds_text()
        log(
            f"  compiled: magi (cold decisions) {row.compile_magi_cold_s:.1f} s: {row.magi_seconds}"
        )
        row.graphs = len(cold.decisions)
        row.measured = sum(d.source == "measured" for d in cold.decisions)
        row.kept_plain = sum(d.choice == "plain" for d in cold.decisions)
        row.decisions = [d.describe() for d in cold.decisions if d.in_play]
        for line in row.decisions:
            log(f"    {line}")

        reference = "fp32" if dtype != torch.float32 else "fp64"
        ref = reference_outputs(model.as_module(), model.inputs, REFERENCE_DTYPES[reference], True)
        eager = model.run()
        judgment = judge_against_reference(base, cand, ref, reference, eager=eager)
        worst = max(judgment.distances, key=lambda d: d.candidate)
        row.eager_l2, row.baseline_l2, row.magi_l2 = worst.eager, worst.baseline, worst.candidate
        row.bound = worst.bound
        row.numerics = (
            "ok"
            if judgment.candidate_ok and judgment.baseline_ok
            else "MAGI WRONG"
            if not judgment.candidate_ok
            else "baseline wrong"
        )
        log("    " + "; ".join(judgment.lines))
        del base, cand, ref, eager

        sp = measure_pair(pair, rounds=args.rounds)
        row.baseline_ms, row.magi_ms = sp.baseline_ms, sp.candidate_ms
        row.ratio, row.spread = sp.ratio, sp.spread
        log(f"  {sp}")

        if args.profile:
            for side in ("baseline", "candidate"):
                report = pair.profile(side, label=f"{name} {side}")
                log(report.table(top=args.profile_top))

        # the candidate again, its config and form, with the decisions the first compile stored
        warm_backend = MagiBackend(config, decider=Decider(cache=DecisionCache(folder)))
        warm = model.compile(backend=warm_backend, **pair.side_options["candidate"])
        row.compile_magi_warm_s, _ = _timed_first_call(
            warm.run, args.compile_limit, row.phases.setdefault("magi warm", {})
        )
        cached = sum(d.source == "cached" for d in warm_backend.decisions)
        log(
            f"  warm: magi {row.compile_magi_warm_s:.1f} s ({cached} of "
            f"{len(warm_backend.decisions)} decisions read from the cache)"
        )
        del warm
        # torch.compile again, as the cold one was compiled (same process, same caches)
        again = model.compile(**pair.side_options["baseline"])
        row.compile_baseline_warm_s, _ = _timed_first_call(
            again.run, args.compile_limit, row.phases.setdefault("torch.compile warm", {})
        )
        log(f"  warm: torch.compile {row.compile_baseline_warm_s:.1f} s")
        for line in phase_lines(row):
            log(f"    {line}")
    return row


def format_table(rows: list[Row], device: str, args: argparse.Namespace) -> str:
    lines = [
        f"{device}, torch {torch.__version__}, {args.dtype}, {args.size} size; magi with "
        f"measured decisions",
        "",
        "| model | torch.compile ms | magi ms | magi / tc | spread | rel-L2 eager / tc / magi "
        "(bound) | numerics | compile s: tc cold / magi cold / tc warm / magi warm | graphs measured "
        "(kept plain) |",
        "| --- | ---: | ---: | ---: | ---: | --- | --- | --- | --- |",
    ]
    for r in rows:
        if r.error:
            lines.append(f"| {r.model} | | | | | | error: {r.error} | | |")
            continue
        eager = "-" if r.eager_l2 is None else f"{r.eager_l2:.2e}"
        model = r.model
        if r.baseline_failure:
            model += f" (torch.compile failed: {r.baseline_failure[:80]}; {r.compile_kwargs})"
        lines.append(
            f"| {model} | {r.baseline_ms:.2f} | {r.magi_ms:.2f} | **{r.ratio:.3f}x** | "
            f"{r.spread:.1%} | {eager} / {r.baseline_l2:.2e} / {r.magi_l2:.2e} ({r.bound:.2e}) | "
            f"{r.numerics} | {r.compile_baseline_s:.0f} / {r.compile_magi_cold_s:.0f} / "
            f"{r.compile_baseline_warm_s:.0f} / {r.compile_magi_warm_s:.0f} | "
            f"{r.measured} of {r.graphs} ({r.kept_plain}) |"
        )
    phased = [r for r in rows if r.phases and not r.error]
    if phased:
        lines += [
            "",
            "Where each compile went (dynamo's phase timers; nested phases in parentheses):",
        ]
        for r in phased:
            lines.append(
                f"- {r.model}" + (f" (magi cold: {r.magi_seconds})" if r.magi_seconds else "")
            )
            lines += [f"  - {line}" for line in phase_lines(r)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="zoo.py never-slower",
        description="every zoo model, magi with measured pass decisions vs torch.compile",
    )
    parser.add_argument("--models", default=",".join(zoo.names()), help="comma-separated")
    parser.add_argument("--size", default="full", choices=("tiny", "full"))
    parser.add_argument("--dtype", default="bf16", choices=sorted(DTYPES))
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--keep-fx-cache", action="store_true")
    parser.add_argument("--wan-frames", type=int, default=3, help="latent frames of wan2.2-vae")
    parser.add_argument(
        "--profile", action="store_true", help="each side's ProfileReport table after timing"
    )
    parser.add_argument("--profile-top", type=int, default=25)
    parser.add_argument(
        "--compile-limit",
        type=float,
        default=0,
        help="seconds a side's first call may take (0: no limit); a baseline over it is "
        "recorded as failed and the pair is built again with dynamic=False",
    )
    args = parser.parse_args(argv)
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in zoo.names()]
    if unknown:
        parser.error(f"unknown model(s) {unknown}; choose from {', '.join(zoo.names())}")
    device = device_name(torch.device("cuda")) if torch.cuda.is_available() else "cpu"

    def log(text: str) -> None:
        print(text, flush=True)

    log(f"# {device}, torch {torch.__version__}, Python {platform.python_version()}")
    rows: list[Row] = []
    for name in names:
        log(f"## {name}")
        try:
            rows.append(bench(name, args, log))
        except (Exception, CompileTimeout) as exc:  # one model's failure is a row
            log(f"  FAILED: {type(exc).__name__}: {exc}")
            rows.append(Row(name, args.size, error=f"{type(exc).__name__}: {exc}"[:200]))
        torch._dynamo.reset()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
        if args.json is not None:
            args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    log(format_table(rows, device, args))
    return 0


def against_full(
    full: Sequence[str], shortcut: Sequence[str], gaps: Sequence[float | None] | None = None
) -> str:
    """How a shortcut's per-graph choices compare with full measurement's, graph by graph; with
    full measurement's ``gaps`` (plain ms / magi ms per graph, None where nothing was timed),
    each changed graph says whether its decision mattered: a gap narrower than `SHARE_GAP`
    either way is a close call, where either variant is as fast."""
    if len(full) != len(shortcut):
        return f"{len(shortcut)} graphs where full measurement compiled {len(full)}"
    changed = [
        f"graph {i}: {a} -> {b}"
        + ("" if gaps is None else _gap_text(gaps[i] if i < len(gaps) else None))
        for i, (a, b) in enumerate(zip(full, shortcut, strict=True))
        if a != b
    ]
    if not changed:
        return f"the same choice on every graph ({len(full)})"
    return f"{len(changed)} of {len(full)} graphs chose otherwise ({', '.join(changed)})"


def _gap_text(gap: float | None) -> str:
    from magi_passes.compile.decisions import SHARE_GAP

    if gap is None:
        return " (full measurement timed no gap)"
    close = max(gap, 1 / gap) < 1 + SHARE_GAP
    what = (
        f"a close call, under {SHARE_GAP:.0%} either way" if close else "a decision that mattered"
    )
    return f" (full measurement timed plain at {gap:.3f}x magi's time: {what})"
