"""Session 19's wrong Wan decode: the code of its graph 35 (the decoder's conv_in, compiled
dynamic in the T=21 decode), each Triton kernel run with every config Inductor autotunes over.

The graph was wrong in two processes and right in a third (docs/benchmarks.md, "Session 19"),
deterministic within a process (the locate's replay and its recompiled control were both wrong,
launching the same sources with the same configs). A config-dependent kernel fits that: the
autotuner's pick varies between processes and is cached within one. This probe loads the
graph's output code as Inductor wrote it in the right run
(`docs/results/session19/graph35_output_code.txt`, torch 2.11), runs each of its three kernels
with each config on the inputs the decode gives it (a 1-frame slice of a 21-frame latent and a
2-frame cache), against the same values computed by ATen, and then the whole graph as compiled.
Run (GPU): `python tools/probes/graph35_configs.py`.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

CODE = Path(__file__).resolve().parents[2] / "docs/results/session19/graph35_output_code.txt"


def load():
    loader = importlib.machinery.SourceFileLoader("graph35_output_code", str(CODE))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def each_config(kernel, args, out: torch.Tensor, want: torch.Tensor, name: str) -> None:
    if not kernel.launchers:
        kernel._make_launchers()
    launchers = list(kernel.launchers)
    stream = torch.cuda.current_stream().cuda_stream
    for launcher in launchers:
        kernel.launchers = [launcher]
        out.fill_(float("nan"))
        kernel.run(*args, stream=stream)
        torch.cuda.synchronize()
        diff = (out.float() - want.float()).abs()
        wrong = int((~(out == want)).sum())  # NaN counts as wrong (unwritten)
        print(
            f"  {name} {launcher.config}: {'RIGHT' if wrong == 0 else 'WRONG'} "
            f"({wrong} of {out.numel()} elements differ, max |diff| {diff.nan_to_num(1e9).max():.3g})",
            flush=True,
        )
    kernel.launchers = launchers


def main() -> int:
    print(torch.__version__, torch.cuda.get_device_name(), flush=True)
    module = load()
    torch.manual_seed(0)
    dev, bf16 = "cuda", torch.bfloat16
    z = torch.randn(1, 48, 21, 34, 60, device=dev, dtype=bf16)
    cache = torch.randn(1, 48, 2, 34, 60, device=dev, dtype=bf16)
    weight = torch.randn(1024, 48, 3, 3, 3, device=dev, dtype=bf16) * 0.05
    bias = torch.randn(1024, device=dev, dtype=bf16)
    for i in (2, 5, 20):
        x = z[:, :, i : i + 1]
        s94, s89 = cache.shape[2], x.stride(1)
        want0 = F.pad(torch.cat([cache, x], 2), (1, 1, 1, 1, 0, 0))
        want0 = want0.contiguous(memory_format=torch.channels_last_3d)
        out0 = torch.empty_strided(want0.shape, want0.stride(), device=dev, dtype=bf16)
        print(f"latent frame {i} (storage offset {x.storage_offset()}, channel stride {s89}):")
        each_config(
            module.triton_poi_fused_cat_constant_pad_nd_convolution_0,
            (cache, x, out0, 2 - s94, s94, s89, 144, 2232),
            out0,
            want0,
            "producer",
        )
    want1 = weight.contiguous(memory_format=torch.channels_last_3d)
    out1 = torch.empty_strided(want1.shape, want1.stride(), device=dev, dtype=bf16)
    each_config(
        module.triton_poi_fused_cat_constant_pad_nd_convolution_1,
        (weight, out1, 49152, 27),
        out1,
        want1,
        "weight",
    )
    conv = torch.randn(1, 1024, 1, 34, 60, device=dev, dtype=bf16)
    conv = conv.contiguous(memory_format=torch.channels_last_3d)
    want2 = (conv.float() + bias.float()[:, None, None, None]).to(bf16).contiguous()
    out2 = torch.empty_like(want2)
    each_config(
        module.triton_poi_fused_cat_constant_pad_nd_convolution_2,
        (conv, bias, out2, 1024, 2040),
        out2,
        want2,
        "bias",
    )
    print("the whole graph (autotuned here), each latent frame, relative L2 from ATen:")
    dists = []
    for i in range(2, 21):
        x = z[:, :, i : i + 1]
        (got,) = module.call([cache.shape[2], cache, x.stride(1), x, weight, bias])
        want = F.conv3d(F.pad(torch.cat([cache, x], 2), (1, 1, 1, 1, 0, 0)), weight, bias)
        dists.append(float((got.float() - want.float()).norm() / want.float().norm()))
    print("  " + " ".join(f"{d:.2g}" for d in dists))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
