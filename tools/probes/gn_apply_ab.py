"""GroupNormStatsPass's steps, A/B on the GPU: one step patched off against the pass as it is.

Three sides per module, decisions off on the magi ones: torch.compile; magi with one step of the
pass patched off for its compile (the "before" side); magi as it is. `--step` picks the step:
- `apply` (session 13): the normalisation's per-channel operands. "Before" is the form session 12
  left, the group's mean and rsqrt read through `c // (C/G)`
  (`magi_passes.group_norm._per_channel_operands` turned off);
- `one-pass` (session 14): each channel's statistics as two shifted sums in one pass. "Before" is
  Inductor's Welford reduction over the channel's positions
  (`magi_passes.group_norm._upcast_from_half` answers False).
Times from `pytest_magi.timing.measure_pair` (device-side, interleaved, L2 flushed), each side's
relative L2 from an fp64 run beside eager's, then the new side's profile table with `--profile`.

Its first two H200 runs timed "group apply" the same as the new code: `compiled` reset dynamo
before each side, which dropped the earlier sides' code, and "group apply" recompiled without
its patch on its next call (docs/benchmarks.md, "Session 13"). Dynamo is now reset once per
module.

Run: `python tools/probes/gn_apply_ab.py [--step apply|one-pass] [--rounds 15] [--profile]`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gn_stats_ab import GroupNormBlock  # noqa: E402

from magi_passes import MagiBackend, PassConfig, group_norm  # noqa: E402
from pytest_magi.models import VAEDecoderLike  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402

# the step each `--step` turns off on the "before" side: (attribute of magi_passes.group_norm,
# its replacement, the two sides' names)
STEPS = {
    "apply": ("_per_channel_operands", lambda *a: 0, ("group apply", "channel apply")),
    "one-pass": ("_upcast_from_half", lambda node: False, ("welford", "one pass")),
}


def compiled(model: torch.nn.Module, side: str, x: torch.Tensor, dynamic: bool, step: str):
    if dynamic:
        torch._dynamo.mark_dynamic(x, 3)
        torch._dynamo.mark_dynamic(x, 4)
    if side == "torch.compile":
        fn: Callable = torch.compile(model)
        fn(x)
        return lambda f=fn, x=x: f(x)
    # no cache of any kind: the two magi sides have the same graph, config and pass sources, so
    # a cached compile would hand the second one the first one's code
    with torch._inductor.config.patch(force_disable_caches=True):
        backend = MagiBackend(PassConfig(measure_decisions=False))
        fn = torch.compile(model, backend=backend)
        attribute, replacement, (before, _) = STEPS[step]
        if side == before:
            with mock.patch.object(group_norm, attribute, replacement):
                fn(x)
        else:
            fn(x)
        assert backend.fired("group_norm_stats"), side
    return lambda f=fn, x=x: f(x)


def ab(label: str, model: torch.nn.Module, x: torch.Tensor, args, dynamic: bool = False) -> None:
    before, after = STEPS[args.step][2]
    with torch.no_grad():
        ref = model.double()(x.double())
        model.to(x.dtype)
        eager_err = _relative_l2(model(x), ref)
        sides = ("torch.compile", before, after)
        # one dynamo reset per module, none between its sides: a reset drops every side's
        # compiled code, and a side whose difference is a patch around its compile ("before")
        # would recompile without it on its next call; each side's backend is its own object,
        # so dynamo keeps one entry per side
        torch._dynamo.reset()
        runs = {s: compiled(model, s, x, dynamic, args.step) for s in sides}
        errs = {s: _relative_l2(run(), ref) for s, run in runs.items()}
        share = measure_pair((runs[before], runs[after]), rounds=args.rounds)
        total = measure_pair((runs["torch.compile"], runs[after]), rounds=args.rounds)
        then = measure_pair((runs["torch.compile"], runs[before]), rounds=args.rounds)
        print(
            f"{label:<40} {before} {share.baseline_ms:8.4f} -> {after} "
            f"{share.candidate_ms:8.4f} ms {share.ratio:.3f}x (spread {share.spread:.1%}); vs "
            f"torch.compile {total.baseline_ms:8.4f} ms: {total.ratio:.3f}x ({before} "
            f"{then.ratio:.3f}x); rel-L2 fp64: eager {eager_err:.3e} tc "
            f"{errs['torch.compile']:.3e} {before} {errs[before]:.3e} {after} "
            f"{errs[after]:.3e}",
            flush=True,
        )
        if args.profile:
            from pytest_magi.profiling import profile

            report = profile(runs[after], rounds=5, label=f"{label} {after}")
            print(report.table(top=args.top), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=14)
    parser.add_argument("--vae-only", action="store_true", help="VAEDecoderLike static only")
    parser.add_argument("--step", choices=sorted(STEPS), default="apply")
    args = parser.parse_args()
    print(f"{device_name()}, torch {torch.__version__}, bf16", flush=True)
    torch.manual_seed(0)
    model = VAEDecoderLike("540p").cuda().eval()
    x = model.example_input(device="cuda", dtype=torch.bfloat16)
    ab("VAEDecoderLike 540p static", model, x, args)
    if args.vae_only:
        return
    if args.step == "apply":  # (dynamic positions take neither step: the sides are the same)
        torch.manual_seed(0)
        model = VAEDecoderLike("540p").cuda().eval()
        ab("VAEDecoderLike 540p dynamic H/W", model, x.clone(), args, dynamic=True)
    args.profile = False
    for c, t, h, w in [(128, 7, 136, 240), (256, 7, 136, 240), (512, 3, 68, 120)]:
        torch.manual_seed(0)
        x = torch.randn(1, c, t, h, w, device="cuda", dtype=torch.bfloat16)
        ab(f"conv-GN-SiLU-conv C={c} T={t} {h}x{w}", GroupNormBlock(c).cuda().eval(), x, args)


if __name__ == "__main__":
    main()
