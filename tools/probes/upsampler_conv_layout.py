"""The Wan 2.2 upsamplers' `resample` graph as session 23's frames compile it (fake CUDA, no GPU).

On torch 2.11 the rest of `WanResample.forward` after its unresumable graph break runs eagerly,
so its `nn.Sequential(WanUpsample, nn.Conv2d)` now compiles as a frame of its own
(`magi_passes.frames`): a conv2d-only graph, which `ConvChannelsLastPass` leaves to Inductor.
This generates that graph's CUDA code for the decoder's two shapes (up block 0: 2 frames, 1024
channels at 34 x 60 -> 68 x 120; up block 1: 4 frames at 68 x 120 -> 136 x 240), bf16, with
plain Inductor, with the magi passes as shipped and with `channels_last_conv2d_graphs=True`
(`magi-cl-conv2d`), and prints for each: the Triton kernels, the extern calls, and the strides
the convolution's input, weight and output get (channels-first or channels-last). It says
what layout the GPU's conv gets, not how fast: that is `run.sh clconv2d` on a GPU.
Run: `python tools/probes/upsampler_conv_layout.py` (about a minute on 2 cores).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import PassConfig  # noqa: E402
from pytest_magi.codegen import inductor_codegen  # noqa: E402

SHAPES = {"up block 0": (2, 1024, 34, 60), "up block 1": (4, 1024, 68, 120)}
SIDES = {
    "inductor": None,
    "magi": PassConfig(measure_decisions=False),
    "magi-cl-conv2d": PassConfig(measure_decisions=False, channels_last_conv2d_graphs=True),
}


def resample(channels: int) -> nn.Module:
    """diffusers' `WanResample.resample` for 'upsample3d': nearest-exact 2x, then a 3x3 conv."""
    return nn.Sequential(
        nn.Upsample(scale_factor=(2.0, 2.0), mode="nearest-exact"),
        nn.Conv2d(channels, channels, 3, padding=1),
    )


_CONV = re.compile(r"extern_kernels\.convolution\((?P<args>[^)]*)\)")


def conv_lines(raw: str) -> list[str]:
    """The convolution calls and the size/stride asserts of the buffers they read and write."""
    out = []
    for match in _CONV.finditer(raw):
        names = [a.strip() for a in match.group("args").split(",")[:2]]
        out.append(f"convolution({', '.join(names)}, ...)")
        for name in names:
            for line in raw.splitlines():
                if re.search(rf"\b{re.escape(name)}\b = empty_strided_cuda", line) or re.search(
                    rf"assert_size_stride\({re.escape(name)},", line
                ):
                    out.append("  " + line.strip())
    for line in raw.splitlines():
        if re.search(r"\bbuf\d+ = extern_kernels\.convolution", line):
            out.append("  " + line.strip())
    return out


def main() -> int:
    print(f"torch {torch.__version__}; fake CUDA; bf16")
    for label, shape in SHAPES.items():
        torch.manual_seed(0)
        module = resample(shape[1]).to(torch.bfloat16).eval()
        x = torch.randn(shape, dtype=torch.bfloat16)
        print(f"\n== {label}: input {tuple(shape)}")
        for side, config in SIDES.items():
            code = inductor_codegen(module, x, config=config)
            names = [k.name for k in code.kernels]
            print(f"-- {side}: {code.kernel_count} Triton kernels {names}")
            for captured in code.captured:
                for line in conv_lines(captured.raw):
                    print(f"   {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
