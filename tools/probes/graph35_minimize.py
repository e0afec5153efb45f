"""Which part of graph 35's producer makes Triton 3.6's code depend on the tile shape (GPU probe).

Session 20 ran the Wan decode's graph-35 producer (`docs/results/session19/graph35_output_code.txt`,
kernel 0: the cache and a 1-frame latent slice concatenated along frames, zero-padded in H and W,
written channels-last) with each config Inductor autotunes over: 32x32, 64x64 and 256x16
(YBLOCK x XBLOCK) wrote whole channel rows wrong, 16x256, 1x1024 and 256x4 were right, and
Triton's CPU interpreter ran every shape right (docs/benchmarks.md, "Session 20"). The sm_90 PTX of
the wrong ones converts the tile's layout through shared memory with `ldmatrix`, but so does a
right one, and the graph's weight transpose with the same conversion was right.

Here the output code is edited, one feature of kernel 0 at a time, and loaded as Inductor's
module (so each variant is compiled by Inductor's own autotuner, with its signature and
divisibility hints); each variant runs under each of its configs on the decode's inputs,
compared bit for bit with the same variant under 1x1024 (a 1-D tile: no layout conversion, right
in session 20). A variant whose configs all agree has lost what triggers the fault:

- `as-is`: the kernel as Inductor wrote it (session 20's result again);
- `static`: the three runtime sizes (`ks0`, `ks1`, `ks2`) replaced by constants of their values,
  as a static graph's kernel has them;
- `no-where`: the two masked loads added instead of selected per frame (each keeps its mask);
- `cache-only` / `slice-only`: one of the two masked loads;
- `i32`: the runtime sizes declared 32-bit (Inductor declared them i64);
- `channels-first`: the store in the loads' layout (x fastest): no transposing store;
- `fp32-out`: the output stored in fp32 (the layout conversion of 32-bit elements).

Offline, their sm_90 PTX (Triton 3.6, `triton.compile` for the six configs): every variant but
`channels-first` converts the tile through shared memory with the same instructions per config
as the original (`ldmatrix` for 32x32 and 64x64 and `ldmatrix.trans` for 256x16, the wrong
ones; `ldmatrix.trans` for 256x4 too, a right one; plain shared loads for 16x256; none for
1x1024; all YBLOCK x XBLOCK); `channels-first` has no
conversion at all, and `fp32-out` uses `ldmatrix` for 16x256 too. So a variant that agrees under
every config while its PTX still converts with `ldmatrix` clears the conversion itself.

Run (GPU, torch 2.11 / Triton 3.6 to reproduce session 20, about a minute):
`python tools/probes/graph35_minimize.py`. A variant that fails to compile or launch is reported
and the others go on. The edits are checked on the CPU (`--edits`: each variant's kernel source,
printed where it differs from the original).
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import re
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

import torch

CODE = Path(__file__).resolve().parents[2] / "docs/results/session19/graph35_output_code.txt"
NAME = "triton_poi_fused_cat_constant_pad_nd_convolution_0"
END = "''', device_str"
REFERENCE = "XBLOCK=1024, YBLOCK=1"
STORE_CL = "tl.store(out_ptr0 + (y0 + 48*x4 + 107136*y1), tmp29, xmask & ymask)"
STORE_CF = "tl.store(out_ptr0 + (x4 + 2232*y0 + 107136*y1), tmp29, xmask & ymask)"
SELECT = "tmp27 = tl.where(tmp19, tmp21, tmp26)"
SIZES_I64 = "'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64'"
OUT_BF16 = "'out_ptr0': '*bf16', 'ks0'"


def _kernel0(text: str) -> tuple[int, int]:
    start = text.index(f"{NAME} = async_compile.triton(")
    return start, text.index(END, start)


def _edit(text: str, old: str, new: str) -> str:
    start, end = _kernel0(text)
    part = text[start:end]
    if old not in part:
        raise ValueError(f"kernel 0 no longer contains {old!r}")
    return text[:start] + part.replace(old, new) + text[end:]


def _static(text: str, ks: tuple[int, int, int]) -> str:
    start, end = _kernel0(text)
    part = text[start:end]
    body = part.index("    ynumel = 144")  # after the signature, which keeps its parameters
    head, rest = part[:body], part[body:]
    for i, value in enumerate(ks):
        rest = re.sub(rf"\bks{i}\b", f"tl.full([1, 1], {value}, tl.int64)", rest)
    return text[:start] + head + rest + text[end:]


def variants(text: str, ks: tuple[int, int, int]) -> dict[str, str]:
    return {
        "as-is": text,
        "static": _static(text, ks),
        "no-where": _edit(text, SELECT, "tmp27 = tmp21 + tmp26"),
        "cache-only": _edit(text, SELECT, "tmp27 = tmp21"),
        "slice-only": _edit(text, SELECT, "tmp27 = tmp26"),
        "i32": _edit(text, SIZES_I64, SIZES_I64.replace("i64", "i32")),
        "channels-first": _edit(text, STORE_CL, STORE_CF),
        "fp32-out": _edit(text, OUT_BF16, OUT_BF16.replace("bf16", "fp32")),
    }


def load(text: str, tag: str) -> Any:
    path = Path(tempfile.mkdtemp()) / f"g35_{tag.replace('-', '_')}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, NAME)


def _key(launcher: Any) -> str:
    kwargs = launcher.config.kwargs
    return (
        f"XBLOCK={kwargs.get('XBLOCK')}, YBLOCK={kwargs.get('YBLOCK')} w{launcher.config.num_warps}"
    )


def show_edits(ks: tuple[int, int, int]) -> None:
    text = CODE.read_text()
    start, end = _kernel0(text)
    original = text[start:end].splitlines()
    for tag, edited in variants(text, ks).items():
        s, e = _kernel0(edited)
        diff = [
            line
            for line in difflib.unified_diff(original, edited[s:e].splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))
        ]
        print(f"== {tag}: {len(diff)} changed lines")
        print("\n".join(diff))


def sweep(ks: tuple[int, int, int], cache: torch.Tensor, x: torch.Tensor) -> None:
    shape, strides = (1, 48, 3, 36, 62), (321408, 1, 107136, 2976, 48)
    stream = torch.cuda.current_stream().cuda_stream
    for tag, text in variants(CODE.read_text(), ks).items():
        try:
            kernel = load(text, tag)
            if not kernel.launchers:
                kernel._make_launchers()
            launchers = list(kernel.launchers)
            dtype = torch.float32 if tag == "fp32-out" else torch.bfloat16
            runs = {}
            for launcher in launchers:
                out = torch.empty_strided(shape, strides, device=x.device, dtype=dtype)
                out.fill_(float("nan"))
                kernel.launchers = [launcher]
                kernel.run(cache, x, out, *ks, 144, 2232, stream=stream)
                torch.cuda.synchronize()
                runs[_key(launcher)] = out
            kernel.launchers = launchers
            want = next(v for k, v in runs.items() if k.startswith(REFERENCE))
            cells = []
            for key, got in runs.items():
                wrong = int((~((got == want) | (got.isnan() & want.isnan()))).sum())
                cells.append(f"{key}: {'same' if not wrong else f'{wrong} DIFFER'}")
            print(f"{tag:<15} " + "; ".join(cells), flush=True)
        except Exception:  # noqa: BLE001 - a probe: report the variant and go on
            print(f"{tag:<15} failed: {traceback.format_exc(limit=2)[-400:]}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", action="store_true", help="print the edits (CPU), run nothing")
    args = parser.parse_args(argv)
    ks = (0, 2, 21 * 2040)  # the cache's front pad, its frames, the latent slice's channel stride
    if args.edits:
        show_edits(ks)
        return 0
    import triton

    print(f"torch {torch.__version__}, triton {triton.__version__}, {torch.cuda.get_device_name()}")
    torch.manual_seed(0)
    z = torch.randn(1, 48, 21, 34, 60, device="cuda", dtype=torch.bfloat16)
    cache = torch.randn(1, 48, 2, 34, 60, device="cuda", dtype=torch.bfloat16)
    x = z[:, :, 5:6]
    assert (0, cache.shape[2], x.stride(1)) == ks
    sweep(ks, cache, x)
    return 0


if __name__ == "__main__":
    sys.exit(main())
