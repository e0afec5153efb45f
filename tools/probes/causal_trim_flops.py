"""How many of the Wan 2.2 decode's FLOPs multiply causal zero frames (meta device, no GPU).

Counts every convolution of the zoo's full-size decode at T=1 (the first chunk only) and T=2
(one chunk more) on the meta device, and sums the FLOPs of the frame taps that `CausalPadTrimPass`
drops: a 3-tap conv3d with one output frame reads two zero frames in the first chunk (2/3 of its
FLOPs) and one in the second (1/3, where one frame is cached in front).
Session 22: T=1 11.89 TFLOP, of which 6.95 on zero frames; the second chunk 0.40 more.
Run: `python tools/probes/causal_trim_flops.py` (seconds).
"""

from __future__ import annotations

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from pytest_magi import zoo
from pytest_magi.zoo import _settings

aten = torch.ops.aten


class ConvCalls(TorchDispatchMode):
    """Records each convolution: input shape, weight shape, output shape, FLOPs."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        out = func(*args, **(kwargs or {}))
        if func is aten.convolution.default:
            x, w = args[0], args[1]
            taps = 1
            for k in w.shape[2:]:
                taps *= int(k)
            flops = 2 * out.numel() * w.shape[1] * taps
            self.calls.append((tuple(x.shape), tuple(w.shape), tuple(out.shape), flops))
        return out


def convolutions(
    frames: int,
) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]]:
    """The full-size decode's convolutions at `frames` latent frames, on the meta device."""
    spec = zoo.load("wan2.2-vae", "tiny").spec  # the model's recipe; built again at full size
    settings = _settings(spec, "full", {"frames": frames})
    with torch.device("meta"):
        built = spec.build(settings, torch.device("meta"), torch.bfloat16)
    mode = ConvCalls()
    with mode, torch.no_grad():
        spec.run(built.owner, built.inputs)
    return mode.calls


def one_frame_3_taps(call: tuple) -> bool:  # type: ignore[type-arg]
    _, weight, out, _ = call
    return len(weight) == 5 and weight[2] == 3 and out[2] == 1


def main() -> None:
    first = convolutions(1)
    total = sum(c[3] for c in first)
    zero_taps = sum(c[3] * 2 / 3 for c in first if one_frame_3_taps(c))
    print(
        f"T=1: {len(first)} convs, {total / 1e12:.2f} TFLOP; taps on the first chunk's zero "
        f"frames {zero_taps / 1e12:.2f} TFLOP"
    )
    second = convolutions(2)[len(first) :]  # the second chunk's (the first is the same)
    # one cached frame in front of one new one, one zero frame: a third of those FLOPs
    zero_taps = sum(c[3] / 3 for c in second if one_frame_3_taps(c) and c[0][2] == 3)
    print(f"the second chunk: taps on its zero frame {zero_taps / 1e12:.2f} TFLOP")


if __name__ == "__main__":
    main()
