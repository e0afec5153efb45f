"""RMS-norm apply + SiLU as the Wan 2.2 decoder writes it (`F.normalize`: a precise square root and
a division per element) against `x * rsqrt(clamp_min(sum(x^2), eps^2))`, alone and followed by a
causal pad into channels-last; torch.compile of each, timed with `triton.testing.do_bench`
(GPU probe, session 9: docs/benchmarks.md). Run: `python tools/probes/rsqrt_micro.py`."""

import torch
import torch.nn.functional as F
import triton


def normalize(x, g):
    y = F.normalize(x.float(), dim=1) * 22.627 * g + 0.0
    return F.silu(y.to(x.dtype))


def rsqrt(x, g):
    xf = x.float()
    s = (xf * xf).sum(1, keepdim=True)
    y = xf * torch.rsqrt(s.clamp_min(1e-24)) * 22.627 * g + 0.0
    return F.silu(y.to(x.dtype))


def pad_cl(f):
    def padded(x, g):
        out = F.pad(f(x, g), (1, 1, 1, 1, 2, 0))
        return out.contiguous(memory_format=torch.channels_last_3d)

    return padded


def main() -> None:
    torch.manual_seed(0)
    for shape in [(1, 512, 5, 272, 480), (1, 1024, 2, 68, 120)]:
        x = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
        g = torch.randn(shape[1], 1, 1, 1, device="cuda", dtype=torch.bfloat16)
        ref = F.silu(F.normalize(x.double(), dim=1) * 22.627 * g.double())
        variants = [
            ("normalize", normalize),
            ("rsqrt", rsqrt),
            ("normalize+pad+CL", pad_cl(normalize)),
            ("rsqrt+pad+CL", pad_cl(rsqrt)),
        ]
        for name, f in variants:
            torch._dynamo.reset()
            compiled = torch.compile(f)
            out = compiled(x, g)
            ms = triton.testing.do_bench(lambda c=compiled, x=x, g=g: c(x, g), rep=200)
            err = ""
            if "pad" not in name:
                err = f"rel-L2 {((out.double() - ref).norm() / ref.norm()).item():.3e}"
            print(f"{shape} {name:18s} {ms * 1e3:8.1f} us {err}", flush=True)


if __name__ == "__main__":
    main()
