"""GroupNormStatsPass on the GPU: GroupNorm blocks and VAEDecoderLike, the pass as the only
difference between two magi sides, and both against plain torch.compile.

Three sides per module, all compiled once and timed with the device-side timer
(`pytest_magi.timing.measure_pair`, interleaved rounds, L2 flushed): torch.compile (Inductor as
users call it), magi with `enable_group_norm_stats=False`, magi with it on; decisions off on both
magi sides, so each compiles exactly its own passes. Beside the times: each side's relative L2
from an fp64 run of the same module, and eager bf16's.

Run: `python tools/probes/gn_stats_ab.py [--rounds 15]`; `--device cpu` is a small dry run of the
probe itself.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.models import VAEDecoderLike  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402


class GroupNormBlock(torch.nn.Module):
    """conv3d -> GroupNorm(32) -> SiLU -> conv3d: a VAE decoder's resnet half."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = torch.nn.Conv3d(channels, channels, 3, padding=1)
        self.norm = torch.nn.GroupNorm(32, channels)
        self.conv2 = torch.nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2(F.silu(self.norm(self.conv1(x))))


def compiled(model: torch.nn.Module, side: str, x: torch.Tensor) -> Callable[[], object]:
    torch._dynamo.reset()
    if side == "torch.compile":
        fn = torch.compile(model)
    else:
        config = PassConfig(measure_decisions=False, enable_group_norm_stats=side == "on")
        backend = MagiBackend(config)
        fn = torch.compile(model, backend=backend)
        fn(x)
        fired = backend.fired("group_norm_stats")
        assert fired == (side == "on"), f"group_norm_stats fired={fired} on side {side}"
    fn(x)
    return lambda f=fn, x=x: f(x)


def ab(label: str, model: torch.nn.Module, x: torch.Tensor, args: argparse.Namespace) -> None:
    with torch.no_grad():
        ref = model.double()(x.double())
        model.to(x.dtype)
        eager_err = _relative_l2(model(x), ref)
        names = ("torch.compile", "off", "on")
        runs = {side: compiled(model, side, x) for side in names}
        errs = {side: _relative_l2(run(), ref) for side, run in runs.items()}
        share = measure_pair((runs["off"], runs["on"]), rounds=args.rounds)
        total = measure_pair((runs["torch.compile"], runs["on"]), rounds=args.rounds)
        before = measure_pair((runs["torch.compile"], runs["off"]), rounds=args.rounds)
    print(
        f"{label:<34} pass off {share.baseline_ms:8.4f} -> on {share.candidate_ms:8.4f} ms "
        f"{share.ratio:.3f}x (spread {share.spread:.1%}); vs torch.compile "
        f"{total.baseline_ms:8.4f} ms: on {total.ratio:.3f}x, off {before.ratio:.3f}x; "
        f"rel-L2 fp64: eager {eager_err:.3e} tc {errs['torch.compile']:.3e} "
        f"off {errs['off']:.3e} on {errs['on']:.3e}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--device", default="cuda", help="cpu: a small dry run of the probe")
    args = parser.parse_args()
    print(f"{device_name()}, torch {torch.__version__}, bf16", flush=True)
    shapes = [(128, 7, 136, 240), (256, 7, 136, 240), (512, 3, 68, 120)]
    preset = "540p"
    if args.device == "cpu":
        shapes, preset = [(64, 2, 6, 8)], "tiny"
    for c, t, h, w in shapes:
        torch.manual_seed(0)
        x = torch.randn(1, c, t, h, w, device=args.device, dtype=torch.bfloat16)
        model = GroupNormBlock(c).to(args.device).eval()
        ab(f"conv-GN-SiLU-conv C={c} T={t} {h}x{w}", model, x, args)
        del model
    torch.manual_seed(0)
    model = VAEDecoderLike(preset).to(args.device).eval()
    x = model.example_input(device=args.device, dtype=torch.bfloat16)
    ab(f"VAEDecoderLike {preset} static", model, x, args)


if __name__ == "__main__":
    main()
