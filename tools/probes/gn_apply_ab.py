"""GroupNormStatsPass's per-channel apply operands, A/B on the GPU.

Three sides per module, decisions off on the magi ones: torch.compile; magi with the pass as
session 12 left it ("group apply": the normalisation reads the group's mean and rsqrt through
`c // (C/G)`, patched in here by turning `magi_passes.group_norm._per_channel_operands` off for the
compile); magi as it is ("channel apply": those two values stored per channel). Times from
`pytest_magi.timing.measure_pair` (device-side, interleaved, L2 flushed), each side's relative
L2 from an fp64 run beside eager's, then the channel-apply side's profile table with `--profile`.

Its first two H200 runs timed "group apply" the same as the new code: `compiled` reset dynamo
before each side, which dropped the earlier sides' code, and "group apply" recompiled without
its patch on its next call (docs/benchmarks.md, "Session 13"). Dynamo is now reset once per
module.

Run: `python tools/probes/gn_apply_ab.py [--rounds 15] [--profile]`.
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


def compiled(model: torch.nn.Module, side: str, x: torch.Tensor, dynamic: bool):
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
        if side == "group apply":
            with mock.patch.object(group_norm, "_per_channel_operands", lambda *a: 0):
                fn(x)
        else:
            fn(x)
        assert backend.fired("group_norm_stats"), side
    return lambda f=fn, x=x: f(x)


def ab(label: str, model: torch.nn.Module, x: torch.Tensor, args, dynamic: bool = False) -> None:
    with torch.no_grad():
        ref = model.double()(x.double())
        model.to(x.dtype)
        eager_err = _relative_l2(model(x), ref)
        sides = ("torch.compile", "group apply", "channel apply")
        # one dynamo reset per module, none between its sides: a reset drops every side's
        # compiled code, and a side whose difference is a patch around its compile (group apply)
        # would recompile without it on its next call; each side's backend is its own object,
        # so dynamo keeps one entry per side
        torch._dynamo.reset()
        runs = {s: compiled(model, s, x, dynamic) for s in sides}
        errs = {s: _relative_l2(run(), ref) for s, run in runs.items()}
        share = measure_pair((runs["group apply"], runs["channel apply"]), rounds=args.rounds)
        total = measure_pair((runs["torch.compile"], runs["channel apply"]), rounds=args.rounds)
        before = measure_pair((runs["torch.compile"], runs["group apply"]), rounds=args.rounds)
        print(
            f"{label:<40} group apply {share.baseline_ms:8.4f} -> channel apply "
            f"{share.candidate_ms:8.4f} ms {share.ratio:.3f}x (spread {share.spread:.1%}); vs "
            f"torch.compile {total.baseline_ms:8.4f} ms: {total.ratio:.3f}x (group apply "
            f"{before.ratio:.3f}x); rel-L2 fp64: eager {eager_err:.3e} tc "
            f"{errs['torch.compile']:.3e} group {errs['group apply']:.3e} channel "
            f"{errs['channel apply']:.3e}",
            flush=True,
        )
        if args.profile:
            from pytest_magi.profiling import profile

            report = profile(runs["channel apply"], rounds=5, label=f"{label} channel apply")
            print(report.table(top=args.top), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=14)
    parser.add_argument("--vae-only", action="store_true", help="VAEDecoderLike static only")
    args = parser.parse_args()
    print(f"{device_name()}, torch {torch.__version__}, bf16", flush=True)
    torch.manual_seed(0)
    model = VAEDecoderLike("540p").cuda().eval()
    x = model.example_input(device="cuda", dtype=torch.bfloat16)
    ab("VAEDecoderLike 540p static", model, x, args)
    if args.vae_only:
        return
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
