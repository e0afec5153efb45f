"""Session 19's graph 35, kernel 0 (the conv input's producer), checked without a GPU.

Two checks of a config-dependent fault (docs/benchmarks.md, "Session 19"), for the kernel as
Inductor wrote it (`docs/results/session19/graph35_output_code.txt`; needs the torch and Triton
it came from, 2.11 / 3.6, e.g. in a CPU venv):

- default: compiled offline to sm_90 PTX (`triton.compile` with an explicit target) for several
  block shapes and warps, with the global loads and stores each config's PTX issues. A vector
  access where the index is not contiguous across the vector would be such a fault.
- `--interpret`: run by Triton's interpreter on CPU tensors (`TRITON_INTERPRET=1`) for 9 block
  shapes, on a 1-frame slice of a 21-frame latent (frames 2 and 20) and a 2-frame cache, each
  output compared element by element with ATen's cat + pad + channels-last copy.

Run: `python tools/probes/graph35_ptx.py [--interpret]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

CODE = Path(__file__).resolve().parents[2] / "docs/results/session19/graph35_output_code.txt"
NAME = "triton_poi_fused_cat_constant_pad_nd_convolution_0"
# the kernel's signature and the divisibility Inductor declared (its triton_meta)
SIGNATURE = {
    "in_ptr0": "*bf16", "in_ptr1": "*bf16", "out_ptr0": "*bf16", "ks0": "i64", "ks1": "i64",
    "ks2": "i64", "ynumel": "i32", "xnumel": "i32", "YBLOCK": "constexpr", "XBLOCK": "constexpr",
}  # fmt: skip
ATTRS = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 6)}
PTX_CONFIGS = [(32, 32, 4), (64, 64, 8), (16, 256, 4), (256, 16, 4), (1, 1024, 4), (8, 128, 4)]
BLOCKS = [(32, 32), (64, 64), (256, 16), (16, 256), (8, 512), (4, 1024), (1, 2048), (128, 32),
          (256, 256)]  # fmt: skip


def kernel() -> Any:
    """The kernel's @triton.jit function, from a module of its own in a temporary folder."""
    text = CODE.read_text()
    start = text.index(f"@triton.jit\ndef {NAME}")
    source = text[start : text.index("''', device_str", start)]
    path = Path(tempfile.mkdtemp()) / "graph35_kernel0.py"
    path.write_text("import triton\nimport triton.language as tl\n\n\n" + source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, NAME)


def ptx() -> None:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    fn = kernel()
    print(f"triton {triton.__version__}, sm_90 PTX of {NAME}")
    for yblock, xblock, warps in PTX_CONFIGS:
        blocks = {"YBLOCK": yblock, "XBLOCK": xblock}
        source = ASTSource(fn=fn, signature=SIGNATURE, constexprs=blocks, attrs=ATTRS)
        options = {"num_warps": warps, "num_stages": 1}
        text = triton.compile(source, target=GPUTarget("cuda", 90, 32), options=options).asm["ptx"]
        loads = dict(Counter(re.findall(r"ld\.global[^\s]*", text)))
        stores = dict(Counter(re.findall(r"st\.global[^\s]*", text)))
        print(f"YBLOCK={yblock} XBLOCK={xblock} num_warps={warps}: loads {loads}, stores {stores}")


def interpret() -> None:
    import torch
    import torch.nn.functional as F
    import triton

    fn = kernel()
    torch.manual_seed(0)
    z = torch.randn(1, 48, 21, 34, 60, dtype=torch.bfloat16)
    cache = torch.randn(1, 48, 2, 34, 60, dtype=torch.bfloat16)
    print(f"triton {triton.__version__} interpreter, {NAME}")
    for frame in (2, 20):
        x = z[:, :, frame : frame + 1]
        want = F.pad(torch.cat([cache, x], 2), (1, 1, 1, 1, 0, 0))
        want = want.contiguous(memory_format=torch.channels_last_3d)
        for yblock, xblock in BLOCKS:
            out = torch.full_like(want, float("nan"))
            grid = (triton.cdiv(2232, xblock), triton.cdiv(144, yblock), 1)
            fn[grid](cache, x, out, 0, 2, x.stride(1), 144, 2232, YBLOCK=yblock, XBLOCK=xblock)
            wrong = int((~(out == want)).sum())
            verdict = "right" if wrong == 0 else f"WRONG ({wrong} elements)"
            print(f"latent frame {frame}, YBLOCK={yblock} XBLOCK={xblock}: {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interpret", action="store_true", help="Triton's interpreter, CPU")
    args = parser.parse_args(argv)
    if args.interpret:
        os.environ["TRITON_INTERPRET"] = "1"  # read when triton is first imported
        if "triton" in sys.modules:
            raise SystemExit("--interpret: triton was imported before TRITON_INTERPRET was set")
        interpret()
    else:
        ptx()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
