"""Numerics and locate modes of the zoo benchmark: where a compiled model's numbers go wrong, each
stage of torch.compile against a run of higher precision, on the zoo's real models.

    python benchmarks/zoo.py numerics --models wan2.2-vae --frames 3     # GPU, full size, bf16
    python benchmarks/zoo.py numerics --models sd-vae --size tiny --device cpu --backends eager,inductor
    python benchmarks/zoo.py locate --models wan2.2-vae --frames 3 --locate-budget 420

For each model (`pytest_magi.models.zoo`, random weights) the eager model at its dtype and a copy cast
to `--reference` (fp32 or fp64) decode the same inputs once. Then every backend in `--backends`
compiles a copy of the model (`ZooModel.compile`, frames of its own) and runs the same inputs.
The stages in the order torch.compile applies them:

| backend | adds |
| --- | --- |
| `eager` | dynamo's tracing alone (graphs run by the eager kernels) |
| `aot_eager` | AOTAutograd (functionalisation) |
| `aot_eager_decomp_partition` | Inductor's decompositions and the partitioner |
| `inductor` | Inductor's generated code (this is torch.compile) |
| `magi` / `magi-weights-once` | the magi passes (`MagiBackend`), a frame per module instance |

The first stage whose distance from the reference jumps above eager's is where the numbers go
wrong; a stage bit-equal to eager changed nothing. To bisect inside Inductor, a backend takes
Inductor config for its own row after `@`: `inductor@emulate_precision_casts=True`,
`inductor@split_reductions=False@triton.persistent_reductions=False`; keys starting with
`dynamo.` are dynamo's (`inductor@dynamo.automatic_dynamic_shapes=False`: recompile with static
shapes instead of going dynamic). Values are Python literals; the config is patched around that
row's compile and first run, then restored.

Columns: relative L2 distance from the reference and from eager, bit-equality with eager,
non-finite elements, the worst latent/output frame (5-D outputs, dim 2), and the seconds of the
compiling first call. A backend that raises gets a row with its error, and the others still
run.

`--locate` (the `locate` mode) goes one step further, instead of the table: `pytest_magi.locate` compiles each model
with `--locate-backend` (one backend, the same spelling, `@` patches included; default
`inductor`), runs it once, checks every graph's outputs against the same graph run eagerly, names
the first wrong output (graph, node, module, source line), and retries that graph alone without
each pass and with each Inductor setting of `locate.DEFAULT_SETTINGS` (comprehensive padding
first), within `--locate-budget` seconds; `--locate-fp32` adds the fp32 rerun (logic or
precision); `--locate-calls 2` calls the model twice (the Wan decode's second call compiles
graphs of its own); `--locate-before-frames 3` first decodes other latent frame counts with the
same compiled copy (a wrong decode can depend on what the copy decoded before). The report
ends with the final output's distance from `--reference`, compiled and eager.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import torch
import torch._dynamo.config
import torch._inductor.config

from magi_passes import MagiBackend, PassConfig
from pytest_magi import zoo
from pytest_magi.numerics.judgment import (
    REFERENCE_DTYPES,
    _non_finite,
    _relative_l2,
    reference_outputs,
)
from pytest_magi.numerics.locate import (
    LocateReport,
    LocatingBackend,
    check_calls,
    check_reference,
)

STAGES = ("eager", "aot_eager", "aot_eager_decomp_partition", "inductor")
#: the magi backends by name: `PassConfig` overrides on top of `PassConfig.from_env()`, so the
#: `MAGI_PASSES__*` variables (e.g. `MAGI_PASSES__MEASURE_DECISIONS=0`) reach every magi row
MAGI: dict[str, dict[str, Any]] = {
    "magi": {},
    "magi-weights-once": {"channels_last_weights_once": True},
}


def magi_config(name: str) -> PassConfig:
    """The `PassConfig` of the magi backend ``name``: the environment's, with its overrides."""
    return PassConfig.from_env().replace(**MAGI[name]) if MAGI[name] else PassConfig.from_env()


DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


def _backend(name: str) -> tuple[Any, str]:
    """(backend for ``ZooModel.compile``, frame isolation) of a backend name (no ``@`` part)."""
    if name in STAGES:
        return name, "class"
    return MagiBackend(magi_config(name)), "instance"


def parse_backend(text: str) -> tuple[str, dict[str, Any]]:
    """``"inductor@key=value@..."`` -> ``("inductor", {key: value, ...})``, checked; a key
    ``dynamo.<name>`` is ``torch._dynamo.config.<name>``, any other one Inductor's."""
    name, *patches = text.split("@")
    known = (*STAGES, *MAGI)
    if name not in known:
        raise SystemExit(f"--backends: unknown backend {name!r} in {text!r}; choose from {known}")
    inductor_keys = torch._inductor.config.get_config_copy()
    dynamo_keys = torch._dynamo.config.get_config_copy()
    options: dict[str, Any] = {}
    for patch in patches:
        key, sep, raw = patch.partition("=")
        dynamo_key = key.removeprefix("dynamo.")
        known_key = dynamo_key in dynamo_keys if key.startswith("dynamo.") else key in inductor_keys
        if not sep or not known_key:
            raise SystemExit(
                f"--backends {text!r}: {patch!r} is not KEY=VALUE with KEY a "
                f"torch._inductor.config key or dynamo.<torch._dynamo.config key> "
                f"(e.g. inductor@emulate_precision_casts=True)"
            )
        try:
            options[key] = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            raise SystemExit(
                f"--backends {text!r}: {raw!r} for {key} is not a Python literal "
                f"(True, 3, 'max-autotune', ...)"
            ) from None
    return name, options


@contextlib.contextmanager
def _patched(options: dict[str, Any]) -> Iterator[None]:
    """Inductor's and dynamo's config patched for one row (``dynamo.`` keys are dynamo's)."""
    dynamo = {k.removeprefix("dynamo."): v for k, v in options.items() if k.startswith("dynamo.")}
    inductor = {k: v for k, v in options.items() if not k.startswith("dynamo.")}
    with torch._inductor.config.patch(inductor), torch._dynamo.config.patch(dynamo):
        yield


def _tensor(out: Any) -> torch.Tensor:
    from torch.utils._pytree import tree_leaves

    leaves = [t for t in tree_leaves(out) if isinstance(t, torch.Tensor) and t.is_floating_point()]
    if not leaves:
        raise ValueError(f"the model returned no floating tensor: {type(out).__name__}")
    return leaves[0].detach()


def _worst_frame(out: torch.Tensor, ref: torch.Tensor) -> str:
    if out.ndim != 5 or out.shape != ref.shape:
        return "-"
    per = [_relative_l2(out[:, :, f], ref[:, :, f]) for f in range(out.shape[2])]
    worst = max(range(len(per)), key=lambda f: per[f])
    return f"{worst}: {per[worst]:.3g}"


def measure(
    model: zoo.ZooModel, backends: list[tuple[str, str, dict[str, Any]]], reference: str
) -> list[dict[str, Any]]:
    """One row per ``(name, stage, config patches)`` of `parse_backend` (eager's own row
    first), each against the same reference run."""
    with torch.no_grad():
        eager = _tensor(model.run())
        ref_dtype = REFERENCE_DTYPES[reference]
        ref = _tensor(reference_outputs(model.as_module(), model.inputs, ref_dtype, True))
        rows = [_row("eager model", eager, eager, ref, 0.0)]
        for name, stage, options in backends:
            backend, isolate = _backend(stage)
            start = time.perf_counter()
            try:
                with _patched(options):
                    out = _tensor(model.compile(backend, isolate=isolate).run())
            except Exception as error:  # noqa: BLE001 - one failing stage must not hide the rest
                rows.append({"backend": name, "error": f"{type(error).__name__}: {error}"[:300]})
                print(f"  {name}: {rows[-1]['error']}", flush=True)
                continue
            rows.append(_row(name, out, eager, ref, time.perf_counter() - start))
            print(f"  {name}: {rows[-1]['from_reference']:.4g} from {reference}", flush=True)
    return rows


def _row(
    name: str, out: torch.Tensor, eager: torch.Tensor, ref: torch.Tensor, seconds: float
) -> dict[str, Any]:
    return {
        "backend": name,
        "from_reference": _relative_l2(out, ref),
        "from_eager": _relative_l2(out, eager),
        "equal_to_eager": bool(torch.equal(out, eager)),
        "non_finite": _non_finite(out),
        "worst_frame": _worst_frame(out, ref),
        "seconds": seconds,
    }


def table(rows: list[dict[str, Any]], reference: str) -> str:
    head = f"| backend | from {reference} | from eager | = eager | non-finite | worst frame | s |"
    lines = [head, "| --- | ---: | ---: | --- | ---: | --- | ---: |"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['backend']} | error: {r['error']} | | | | | |")
            continue
        lines.append(
            f"| {r['backend']} | {r['from_reference']:.4g} | {r['from_eager']:.4g} | "
            f"{'yes' if r['equal_to_eager'] else 'no'} | {r['non_finite']} | {r['worst_frame']} "
            f"| {r['seconds']:.1f} |"
        )
    return "\n".join(lines)


def _locate_side(name: str, options: dict[str, Any]) -> tuple[Any, dict[str, Any], str]:
    """``(backend= of LocatingBackend, its inductor_config, frame isolation)`` of a parsed
    ``--locate-backend`` (``dynamo.`` options are applied around the run, not here)."""
    inductor = {k: v for k, v in options.items() if not k.startswith("dynamo.")}
    if name in MAGI:
        return magi_config(name), inductor, "instance"
    if name == "inductor":
        return dict(inductor), {}, "class"
    return name, {}, "class"  # a tracing stage: its Inductor patches stay ambient (_patched)


def locating_backend(
    text: str, *, budget_s: float | None = None, fp32_rerun: bool = False
) -> tuple[LocatingBackend, str, dict[str, Any]]:
    """``(LocatingBackend, isolation, options to patch around the run)`` for ``text``."""
    try:
        name, options = parse_backend(text)
    except SystemExit as error:
        raise SystemExit(str(error).replace("--backends", "--locate-backend", 1)) from None
    side, inductor_config, isolate = _locate_side(name, options)
    ambient = {k: v for k, v in options.items() if k.startswith("dynamo.")}
    if name in STAGES and name != "inductor":
        ambient = options
    backend = LocatingBackend(
        side, inductor_config=inductor_config, budget_s=budget_s, fp32_rerun=fp32_rerun, label=text
    )
    return backend, isolate, ambient


def locate_model(
    model: zoo.ZooModel,
    text: str,
    reference: str,
    *,
    budget_s: float | None = None,
    fp32_rerun: bool = False,
    calls: int = 1,
    before: Sequence[tuple[Any, ...]] = (),
) -> LocateReport:
    """`pytest_magi.locate` on the model's call (``ZooModel.run``), compiled as users compile
    it, called ``calls`` times, with the last call's output's distance from ``reference``
    (compiled and eager). ``before``: other inputs the compiled copy is called with first, each
    once, in order (a wrong decode can depend on the decodes before it in the same process)."""
    check_calls("locate_model", calls)
    backend, isolate, ambient = locating_backend(text, budget_s=budget_s, fp32_rerun=fp32_rerun)
    with torch.no_grad():
        with _patched(ambient):
            compiled = model.compile(backend, isolate=isolate)
            for inputs in before:
                compiled.with_inputs(*inputs).run()
            for _ in range(calls):
                out = compiled.run()
        report = backend.report()
        report.reference = check_reference(
            model.as_module(), model.inputs, out, reference, eager_output=model.run()
        )
    return report


def _frame_counts(text: str) -> list[int]:
    """``--locate-before-frames``: comma-separated positive latent frame counts."""
    try:
        counts = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        counts = [0]
    if any(t < 1 for t in counts):
        raise SystemExit(
            f"--locate-before-frames {text!r}: expected positive latent frame counts, e.g. 3 or 2,3"
        )
    return counts


def _names(text: str, known: list[str] | tuple[str, ...], what: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise SystemExit(f"--{what} {text!r}: unknown {unknown}; choose from {', '.join(known)}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="zoo.py numerics",
        description="each stage of torch.compile against a higher-precision run (--locate: where)",
    )
    parser.add_argument("--models", default="wan2.2-vae")
    parser.add_argument("--size", default="full", choices=["tiny", "full"])
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--dtype", default="bf16", choices=list(DTYPES))
    parser.add_argument("--reference", default="fp32", choices=list(REFERENCE_DTYPES))
    parser.add_argument("--backends", default=",".join((*STAGES, "magi")))
    parser.add_argument("--frames", type=int, default=None, help="Wan latent frames")
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    parser.add_argument(
        "--locate", action="store_true", help="instead of the table: pytest_magi.locate"
    )
    parser.add_argument("--locate-backend", default="inductor", help="the backend --locate checks")
    parser.add_argument(
        "--locate-budget", type=float, default=None, help="seconds --locate may spend in all"
    )
    parser.add_argument(
        "--locate-fp32", action="store_true", help="--locate: recompile the wrong graph in fp32"
    )
    parser.add_argument(
        "--locate-calls",
        type=int,
        default=1,
        help="--locate: calls of the compiled model (2: the graphs a second call compiles too)",
    )
    parser.add_argument(
        "--locate-before-frames",
        default="",
        help="--locate, Wan: decode these latent frame counts first (e.g. 3), then --frames",
    )
    args = parser.parse_args(argv)
    before_frames = _frame_counts(args.locate_before_frames)
    if args.locate:
        locating_backend(args.locate_backend, budget_s=args.locate_budget)  # checked up front
    models = _names(args.models, zoo.all_names(), "models")
    names = [b.strip() for b in args.backends.split(",") if b.strip()]
    if not names:
        raise SystemExit(f"--backends {args.backends!r}: name at least one of {(*STAGES, *MAGI)}")
    backends = [(text, *parse_backend(text)) for text in names]  # all checked before any model
    env = f"torch {torch.__version__}, {args.device}"
    if args.device.startswith("cuda"):
        env += f" ({torch.cuda.get_device_name()})"
    report: dict[str, Any] = {"environment": env, "models": {}}
    for name in models:
        options = {"frames": args.frames} if args.frames and name.startswith("wan") else {}
        model = zoo.load(
            name, args.size, device=args.device, dtype=DTYPES[args.dtype], seed=0, **options
        )
        print(f"{name} ({args.size}, {args.dtype}, {env}):", flush=True)
        if args.locate:
            located = locate_model(
                model,
                args.locate_backend,
                args.reference,
                budget_s=args.locate_budget,
                fp32_rerun=args.locate_fp32,
                calls=args.locate_calls,
                before=[model.with_frames(t).inputs for t in before_frames]
                if name.startswith("wan")
                else (),
            )
            report.setdefault("locate", {})[name] = located.to_dict()
            print(located, flush=True)
            continue
        rows = measure(model, backends, args.reference)
        report["models"][name] = rows
        print(table(rows, args.reference), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1))
    return 0
