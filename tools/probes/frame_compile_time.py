"""A zoo model's whole frame compile, torch.compile against magi_compile, without a GPU (session 33).

On the GPU (session 32, docs/benchmarks.md) magi's cold compiles spent 1.5-3 s more than
torch.compile's in dynamo's frame compile outside tracing, AOT dispatch (with Inductor) and
guards, on every model measured, and mochi's decided-plain compile was slower in every phase.
This compiles a zoo model's full-size decode (bf16, random weights) under fake CUDA with
`generate_only` (Inductor generates the code; nothing is compiled by Triton, autotuned or run),
through `torch.compile` and through `magi_compile` in the model's form, as a user calls them
(frames isolated, weights converted, the backend's decisions: in fake CUDA the device is named
as an H100's, so a decision recorded for H100s holds). It prints each side's dynamo phases and
the rest of the frame compile ("outside": the frame compile less tracing, AOT dispatch and
guards), alternating the sides `--repeat` times in one process. `--profile` prints where magi's
outside time goes (cProfile, by cumulative time); `--stats PREFIX` profiles every side and keeps
each whole profile as PREFIX_<side>_<round>.pstats, for `pstats_diff.py` (session 41: MiniMax-H3's
AOT dispatch took 2 s more under magi, its Inductor 7 s less). `--sides magi_compile,torch.compile`
reverses the order. `compile_fx` (Inductor's `compile_fx` from a backend of one's own) and
`compile_fx_patched` (the same with one config patch that changes nothing) locate session 42's
finding: on torch 2.13 Inductor's post-grad passes and lowering run slower in a compile given no
config patch (MiniMax-H3: 33.8-34.1 s against 26.6-27.6; torch.compile passes none, magi always
some); on torch 2.11 the two took 32.5-33.8 and 29.4-31.3 s, the post-grad passes the same. A
decode that breaks its graph is measured up to the break only (a generated graph returns no
outputs for the code after it to run on): HunyuanVideo-1.5's. Each side's line ends with the
minor page faults its compile took: CPython's frame-stack thrashing (`magi_passes.stack_room`)
shows there first (session 45, Cosmos: torch.compile 313,000-349,000 a compile, magi
22,600-49,000). A magi side whose graph was compiled again after one of torch's sympy failures
says so, with the failed tries' seconds (session 46: KVAE-3D's).

Run: `python tools/probes/frame_compile_time.py mochi-vae [--repeat 2] [--profile]`.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import cProfile
import io
import pstats
import resource
import time
from typing import Any

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from magi_passes import forms, magi_compile
from pytest_magi import zoo
from pytest_magi.capture import generate_only, inductor_config_restored
from pytest_magi.codegen import _copy_to_device, _swapped_module_state
from pytest_magi.compile_phases import compile_phases, outside, summary
from pytest_magi.fake_cuda import fake_cuda


def _compile_fx(gm: torch.fx.GraphModule, inputs: list[Any]) -> Any:
    from torch._inductor.compile_fx import compile_fx

    return compile_fx(gm, inputs)


def _compile_fx_patched(gm: torch.fx.GraphModule, inputs: list[Any]) -> Any:
    """compile_fx with one config patch that changes nothing (a key at its default value)."""
    from torch._inductor.compile_fx import compile_fx

    return compile_fx(gm, inputs, config_patches={"trace.enabled": False})


# the sides that compile through a backend of one's own: Inductor's compile_fx as magi calls
# it, without and with a config patch
BACKENDS = {"compile_fx": _compile_fx, "compile_fx_patched": _compile_fx_patched}
SIDES = ("torch.compile", "magi_compile", *BACKENDS)


def compiled_owner(
    model: zoo.ZooModel, owner: Any, side: str, backend: Any = None
) -> tuple[Any, Any]:
    """The model's module in ``owner`` (the model's owner or a copy of it) compiled as users
    call each side, ``torch.compile(module)`` or ``magi_compile(module)``, or through
    ``backend`` (a side of `BACKENDS` where None): (what ``model.spec.run`` takes, the compiled
    module)."""
    target = owner if model.attr is None else getattr(owner, model.attr)
    backend = backend if backend is not None else BACKENDS.get(side)
    if backend is not None:
        compiled = torch.compile(target, backend=backend)
    elif side == "torch.compile":
        compiled = torch.compile(target)
    else:
        compiled = magi_compile(target)
    if model.attr is None:
        return compiled, compiled
    setattr(owner, model.attr, compiled)
    return owner, compiled


def compile_once(
    model: zoo.ZooModel, side: str, profile: bool, stats: str | None = None, backend: Any = None
) -> str:
    owner: Any = copy.deepcopy(model.owner)
    with contextlib.ExitStack() as stack:
        stack.enter_context(inductor_config_restored())
        stack.enter_context(fake_cuda())
        fake_mode = FakeTensorMode(allow_non_fake_inputs=True)

        def convert(t: torch.Tensor, is_param: bool) -> torch.Tensor:
            return _copy_to_device(t, fake_mode, "cuda", False)

        inputs = tuple(
            convert(x, False) if isinstance(x, torch.Tensor) else x for x in model.inputs
        )
        stack.enter_context(_swapped_module_state(owner, convert))
        stack.enter_context(torch.no_grad())
        stack.enter_context(generate_only(lambda text: None))
        torch._dynamo.reset()
        owner, compiled = compiled_owner(model, owner, side, backend)
        wanted = stats is not None or (profile and side != "torch.compile")
        profiler = cProfile.Profile() if wanted else None
        started = time.perf_counter()
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        with compile_phases() as spent:
            if profiler is not None:
                profiler.enable()
            try:
                model.spec.run(owner, inputs)
            except Exception as exc:  # the generated code is not compiled: a call may fail
                failure = f"; the call raised {type(exc).__name__}: {str(exc)[:200]}"
            else:
                failure = ""
            finally:
                if profiler is not None:
                    profiler.disable()
        took = time.perf_counter() - started
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    rest = outside(spent) or 0.0
    text = (
        f"  {side:<14} {took:5.1f} s, outside {rest:4.1f} s{failure}; {summary(spent)}; "
        f"{faults:,} minor page faults"
    )
    backend = getattr(compiled, "magi_backend", None)
    if backend is not None:
        text += "\n" + "".join(
            f"      decision: {d.choice} ({d.reason[:90]})\n" for d in backend.decisions
        )
        if backend.retried:  # a first try that raised one of torch's sympy failures
            text += f"      {backend.retried_text()}\n"
    if profiler is not None and stats is not None:
        profiler.dump_stats(stats)
        text += f"\n      profile: {stats}"
    elif profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(45)
        text += out.getvalue()
    torch._dynamo.reset()
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=zoo.names())
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--size", default="full")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--stats", metavar="PREFIX", help="keep each side's whole profile")
    parser.add_argument(
        "--sides",
        default="torch.compile,magi_compile",
        help="the sides in the order each round compiles them (the second of the same model "
        "in a process finds Inductor's process-wide caches warm)",
    )
    args = parser.parse_args()
    sides = args.sides.split(",")
    unknown = sorted(set(sides) - set(SIDES))
    if unknown:
        parser.error(
            f"--sides {args.sides!r}: unknown side {unknown[0]!r}; give torch.compile, "
            f"magi_compile, compile_fx (Inductor through a backend of one's own) or "
            f"compile_fx_patched (the same with a config patch that changes nothing), "
            f"comma-separated, e.g. --sides magi_compile,torch.compile"
        )
    model = zoo.load(args.model, args.size, dtype=torch.bfloat16)
    form = forms.form_for(model.module)
    print(
        f"torch {torch.__version__}; fake CUDA, generate only; {args.model} {args.size}, bf16; "
        f"form {form.describe() if form is not None else 'generic'}",
        flush=True,
    )
    for round_ in range(1, args.repeat + 1):
        for side in sides:
            stats = f"{args.stats}_{side}_{round_}.pstats" if args.stats else None
            print(compile_once(model, side, args.profile, stats), flush=True)


if __name__ == "__main__":
    main()
