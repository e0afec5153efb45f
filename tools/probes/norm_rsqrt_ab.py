"""`NormRsqrtPass` on and off, on the Wan 2.2 decoder's conv-input producers at its real sizes.

Each module is the decoder's pattern (`WanRMS_norm` as diffusers writes it: `F.normalize` of the
fp32 input, rounded to the input's dtype, times scale and gamma; then SiLU and the causal pad),
alone, written channels-last, and followed by its 3x3x3 convolution. Both sides are
`MagiBackend(PassConfig(measure_decisions=False, enable_norm_rsqrt=...))`, so the pass is the only
difference; timed on the device side by side (`pytest_magi.timing.measure_pair`), each side's
relative L2 from an fp64 run beside eager's. Run: `python tools/probes/norm_rsqrt_ab.py`.
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


class Producer(torch.nn.Module):
    def __init__(self, channels: int, tail: str) -> None:
        super().__init__()
        self.scale = channels**0.5
        self.gamma = torch.nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.tail = tail
        self.conv = torch.nn.Conv3d(channels, channels, 3) if tail == "conv" else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.normalize(x.float(), dim=1).to(x.dtype) * self.scale * self.gamma + 0.0
        y = F.pad(F.silu(y), (1, 1, 1, 1, 2, 0))
        if self.tail == "cl":
            return y.contiguous(memory_format=torch.channels_last_3d)
        if self.conv is not None:
            return self.conv(y)
        return y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--device", default="cuda", help="cpu: a small dry run of the probe")
    args = parser.parse_args()
    torch.manual_seed(0)
    print(f"{device_name()}, torch {torch.__version__}, bf16", flush=True)
    shapes = [(1024, 2, 68, 120), (1024, 3, 136, 240), (512, 5, 272, 480), (256, 5, 272, 480)]
    if args.device == "cpu":
        shapes = [(16, 2, 6, 8)]
    for c, t, h, w in shapes:
        x = torch.randn(1, c, t, h, w, device=args.device, dtype=torch.bfloat16)
        for tail in ("none", "cl", "conv"):
            torch._dynamo.reset()
            model = Producer(c, tail).to(args.device).to(torch.bfloat16).eval()
            sides = []
            with torch.no_grad():
                ref = model.double()(x.double())
                model.to(torch.bfloat16)
                eager_err = _relative_l2(model(x), ref)
                for on in (False, True):
                    config = PassConfig(measure_decisions=False, enable_norm_rsqrt=on)
                    backend = MagiBackend(config)
                    fn = torch.compile(model, backend=backend)
                    err = _relative_l2(fn(x), ref)
                    fired = backend.fired("norm_rsqrt")
                    sides.append((fn, err, fired))
                sp = measure_pair(
                    (lambda f=sides[0][0], x=x: f(x), lambda f=sides[1][0], x=x: f(x)),
                    rounds=args.rounds,
                )
            print(
                f"C={c} T={t} {h}x{w} {tail:<4} off {sp.baseline_ms:8.4f} ms  on {sp.candidate_ms:8.4f}"
                f" ms  {sp.ratio:.3f}x (spread {sp.spread:.1%})  rel-L2 fp64: eager {eager_err:.3e}"
                f" off {sides[0][1]:.3e} on {sides[1][1]:.3e}  fired={sides[1][2]}",
                flush=True,
            )
            del sides, model, ref
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
