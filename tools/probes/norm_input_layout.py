"""Where the one-graph Wan chunk's slow norm kernel comes from (fake CUDA, no GPU; session 25).

Generates the zoo's full-size Wan 2.2 decode (T=3, random weights, bf16, static shapes, frames of
their own as `magi_compile` gives them) with the magi passes (decisions off) for fake CUDA,
inside `magi_passes.dynamo_fixes.tensor_constant_compare` so that torch 2.11 traces one graph a
chunk as torch 2.13 does, once as shipped and once with `PassConfig(channels_last_norm_inputs=
True)`, and prints each looped norm reduction over the 272 x 480 stage with its store indices.
As shipped, the last up block's residual sum is stored across the channels (`x4 + 130560*r0_3`)
inside the loop that loads along them (the GPU's 9.03 ms kernel a further frame, 10% of HBM:
docs/benchmarks.md, "Session 25"); with the option every store runs along the channels.
Run: `python tools/probes/norm_input_layout.py` (about two minutes on 2 cores).
"""

from __future__ import annotations

import re

import torch

from magi_passes import PassConfig, dynamo_fixes
from magi_passes.frames import isolate_forward_code
from pytest_magi import zoo
from pytest_magi.codegen import inductor_codegen

STAGE = "xnumel = 522240"  # 4 frames x 272 x 480: the last up blocks' positions at T=3


def generate(pinned: bool) -> None:
    model = zoo.load("wan2.2-vae", "full", dtype=torch.bfloat16, frames=3)
    module = model.as_module()
    isolate_forward_code(module, per="instance")
    config = PassConfig(measure_decisions=False, channels_last_norm_inputs=pinned)
    with torch.no_grad(), dynamo_fixes.tensor_constant_compare():
        code = inductor_codegen(module, *model.inputs, config=config)
    print(f"channels_last_norm_inputs={pinned}: {code.kernel_count} kernels")
    for kernel in code.kernels:
        if kernel.kind != "reduction" or "norm" not in kernel.name or STAGE not in kernel.source:
            continue
        stores = re.findall(r"tl\.store\((\w+) \+ \(([^)]*)\)", kernel.source)
        print("   ", kernel.name)
        for pointer, index in stores:
            print(f"        store {pointer}: {index}")


def main() -> None:
    print(f"torch {torch.__version__}")
    for pinned in (False, True):
        generate(pinned)


if __name__ == "__main__":
    main()
