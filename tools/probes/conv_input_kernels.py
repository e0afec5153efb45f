"""The Triton kernels of diffusers' `WanResidualBlock` steady chunk with `ConvInputWindowPass` off
and on (`inductor_codegen`: fake CUDA here, the real GPU there). Run:
`python tools/probes/conv_input_kernels.py C TX TC [-d]` (`-d`: the caches' frame dim dynamic; the pass skips dynamic graphs, so off and on
then match)."""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from conv_input_ab import CachedBlock  # noqa: E402

from magi_passes import PassConfig  # noqa: E402
from pytest_magi.codegen import inductor_codegen  # noqa: E402

C, T, TC = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
m = CachedBlock(C).to(torch.bfloat16).eval()  # noqa: E402
x = torch.randn(1, C, T, 34, 60, dtype=torch.bfloat16)
c1 = torch.randn(1, C, TC, 34, 60, dtype=torch.bfloat16)
c2 = torch.randn(1, C, TC, 34, 60, dtype=torch.bfloat16)
dyn = {1: 2, 2: 2} if "-d" in sys.argv else None
with torch.no_grad():
    for name, cfg in [
        ("off", PassConfig(enable_conv_input_windows=False)),
        ("on", PassConfig(enable_conv_input_windows=True)),
    ]:
        code = inductor_codegen(m, x, c1, c2, config=cfg, dynamic_dims=dyn)
        print(
            "==",
            name,
            code.kernel_count,
            [str(r) for r in code.pass_results if "conv_input" in str(r)],
        )
        for k in code.kernels:
            print(" ", k.kind, k.name, k.size_hints)
