"""The causal conv's spatial zero pad in the graph, or in the convolution's own `padding`.

The Wan 2.2 decoder pads every 3x3x3 conv input with `F.pad(x, (1, 1, 1, 1, 2, 0))` (or
`(1, 1, 1, 1, 0, 0)` after the cached frames are concatenated) and convolves with `padding=0`.
The producer kernel that writes that input (norm, SiLU, pad, channels-last) then iterates over
the padded positions: its loads are shifted by one element and its index wraps every W + 2
positions, so Triton cannot vectorise them. Folding the symmetric H/W pad into the convolution's
`padding` leaves the producer the unpadded (or only T-padded) domain. This probe times the two
forms side by side, each compiled by `MagiBackend(PassConfig(measure_decisions=False,
enable_conv_pad_fold=False))` (the fold is written into the model here; `ConvPadFoldPass` is off
so that it cannot fold the other side too), with each side's relative L2 from an fp64 run beside
eager's. Run: `python tools/probes/conv_pad_fold_ab.py`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402

CONFIG = PassConfig(measure_decisions=False, enable_conv_pad_fold=False)


class Producer(torch.nn.Module):
    """norm + SiLU (+ cache frames) + causal pad + 3x3x3 conv, the pad in the graph or folded."""

    def __init__(self, channels: int, cached: bool, folded: bool, tail: str) -> None:
        super().__init__()
        self.scale = channels**0.5
        self.gamma = torch.nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.cached = cached
        self.folded = folded
        self.tail = tail
        self.conv = torch.nn.Conv3d(channels, channels, 3)

    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> torch.Tensor:
        y = F.normalize(x.float(), dim=1).to(x.dtype) * self.scale * self.gamma + 0.0
        y = F.silu(y)
        front = 0 if self.cached else 2
        if self.cached:
            y = torch.cat([cache, y], dim=2)
        if self.folded:
            y = F.pad(y, (0, 0, 0, 0, front, 0)) if front else y
            if self.tail == "cl":
                return y.contiguous(memory_format=torch.channels_last_3d)
            return F.conv3d(y, self.conv.weight, self.conv.bias, padding=(0, 1, 1))
        y = F.pad(y, (1, 1, 1, 1, front, 0))
        if self.tail == "cl":
            return y.contiguous(memory_format=torch.channels_last_3d)
        return self.conv(y)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--device", default="cuda", help="cpu: a small dry run of the probe")
    args = parser.parse_args()
    torch.manual_seed(0)
    print(f"{device_name()}, torch {torch.__version__}, bf16", flush=True)
    shapes = [(1024, 2, 68, 120), (512, 5, 272, 480), (256, 5, 272, 480), (512, 3, 136, 240)]
    if args.device == "cpu":
        shapes = [(16, 2, 6, 8)]
    for c, t, h, w in shapes:
        x = torch.randn(1, c, t, h, w, device=args.device, dtype=torch.bfloat16)
        cache = torch.randn(1, c, 2, h, w, device=args.device, dtype=torch.bfloat16)
        for cached in (False, True):
            for tail in ("cl", "conv"):
                sides = []
                with torch.no_grad():
                    for folded in (False, True):
                        torch._dynamo.reset()
                        torch.manual_seed(1)
                        model = Producer(c, cached, folded, tail).to(args.device).eval()
                        ref = model.double()(x.double(), cache.double())
                        model.to(torch.bfloat16)
                        eager_err = _relative_l2(model(x, cache), ref)
                        fn = torch.compile(model, backend=MagiBackend(CONFIG))
                        err = (
                            _relative_l2(fn(x, cache), ref)
                            if tail == "conv" or not folded
                            else None
                        )
                        sides.append((fn, err, eager_err))
                        del ref
                    sp = measure_pair(
                        (
                            lambda f=sides[0][0], x=x, cache=cache: f(x, cache),
                            lambda f=sides[1][0], x=x, cache=cache: f(x, cache),
                        ),
                        rounds=args.rounds,
                    )
                errs = (
                    ""
                    if tail == "cl"
                    else (
                        f"  rel-L2 fp64: eager {sides[0][2]:.3e} pad {sides[0][1]:.3e} folded {sides[1][1]:.3e}"
                    )
                )
                print(
                    f"C={c} T={t} {h}x{w} {'cache' if cached else 'first'} {tail:<4} pad "
                    f"{sp.baseline_ms:8.4f} ms  folded {sp.candidate_ms:8.4f} ms  {sp.ratio:.3f}x"
                    f" (spread {sp.spread:.1%}){errs}",
                    flush=True,
                )
                del sides
                if args.device == "cuda":
                    torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
