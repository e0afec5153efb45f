"""What rounding attention's probabilities to bf16 before their matmul with v costs in output
accuracy, on the CPU (session 49).

After `UpcastMatmulPass`, the last fp32 cuBLAS matmul of Cosmos's decode on an H200 is its
spatial attention's second one, the softmax's fp32 output times v (12.2 of 36.2 ms,
docs/benchmarks.md "Session 49"). Fused attention kernels round the probabilities to the
inputs' dtype before that matmul; PyTorch's math attention does not. This computes one
attention of Cosmos's shape (batch 3, one head of 512 channels, 88 x 160 tokens; or `--tokens`)
from bf16 q, k and v four ways, each against an fp64 attention of the same bf16 inputs: as the
math attention does (fp32 scores, softmax and matmul), with the probabilities rounded to bf16
before the fp32-accumulated matmul, with them in fp16, and split into two bf16 parts (the
probabilities rounded, and what that rounding left, rounded: two bf16 matmuls, fp32 sums);
each output then as fp32 and as bf16 (what the decoder keeps). `--peaky S` multiplies q by S,
for sharper attention than random inputs give.

Run: `python tools/probes/attention_probs_rounding.py [--tokens N] [--peaky S]`.
"""

from __future__ import annotations

import argparse

import torch


def _rel(x: torch.Tensor, ref: torch.Tensor) -> float:
    return ((x.double() - ref).norm() / ref.norm()).item()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=88 * 160)
    parser.add_argument("--channels", type=int, default=512)
    parser.add_argument("--batch", type=int, default=3)
    parser.add_argument("--peaky", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    gen = torch.Generator().manual_seed(args.seed)
    n, c = args.tokens, args.channels
    scale = c**-0.5
    names = ("fp32 probabilities", "bf16 probabilities", "fp16 probabilities", "bf16 hi + lo")
    rows: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    sharp = []
    for _ in range(args.batch):
        q = (torch.randn(n, c, generator=gen) * args.peaky).bfloat16()
        k, v = (torch.randn(n, c, generator=gen).bfloat16() for _ in range(2))
        scores = (q.float() @ k.float().T) * scale
        p = torch.softmax(scores, dim=-1)
        sharp.append(p.max(dim=-1).values.mean().item())
        ref = torch.softmax(scores.double(), dim=-1) @ v.double()
        del scores
        hi = p.bfloat16()
        lo = (p - hi.float()).bfloat16()
        outs = [p.to(low).float() @ v.float() for low in (torch.float32, torch.bfloat16)]
        outs.append(p.half().float() @ v.float())
        outs.append(hi.float() @ v.float() + lo.float() @ v.float())
        for name, out in zip(names, outs, strict=True):
            rows[name].append((_rel(out, ref), _rel(out.bfloat16(), ref)))
        del p, ref
    print(
        f"torch {torch.__version__}; attention of bf16 q, k, v: {args.batch} x {n} tokens x {c} "
        f"channels, q x {args.peaky}; mean largest probability a row {sum(sharp) / len(sharp):.3g}"
    )
    print("rel-L2 from an fp64 attention of the same inputs (max over the batch):")
    for name, errs in rows.items():
        fp32_out = max(e[0] for e in errs)
        bf16_out = max(e[1] for e in errs)
        print(f"  {name:20s} output fp32 {fp32_out:.3e}   output bf16 {bf16_out:.3e}")


if __name__ == "__main__":
    main()
