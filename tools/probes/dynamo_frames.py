"""Dynamo's share of a zoo model's compile, with a frame per module instance against one for the
compiled module only (`CompileForm.frames`, session 38), without a GPU or Inductor.

Compiles the model's decode with a backend that generates nothing (it returns zeros of the
graph's outputs, taken from dynamo's example values), so the first call's wall time is dynamo's
tracing, guards and the rest of its frame compiles; the sides alternate ``--rounds`` times.
Each line also says how many graphs dynamo made so far, the call nodes of the last one and
whether its ops are those of the first (the two frame levels must give the same graph). On the
H100 the compile totals of one run moved by up to 2x on one graph (docs/benchmarks.md "Session
38"), so the two levels were compared here: SVD 1.29-1.58 against 2.10-2.58 s, Allegro
2.75-3.08 against 4.87-5.49 (torch 2.11, full size, bf16;
docs/results/session38/dynamo_frames_cpu_torch211.log).

Run: `python tools/probes/dynamo_frames.py svd-vae [--size full] [--rounds 2]`.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import torch

from pytest_magi import zoo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=zoo.names())
    parser.add_argument("--size", default="full", choices=("tiny", "full"))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    dtype = torch.bfloat16 if args.size == "full" else torch.float32
    model = zoo.load(args.model, args.size, dtype=dtype)
    graphs: list[list[str]] = []

    def no_codegen(gm: torch.fx.GraphModule, example_inputs: Any) -> Any:
        graphs.append(sorted(str(n.target) for n in gm.graph.nodes if n.op == "call_function"))
        (outputs,) = [n.args[0] for n in gm.graph.nodes if n.op == "output"]
        values = [o.meta["example_value"] if isinstance(o, torch.fx.Node) else o for o in outputs]

        def run(*_: Any) -> list[Any]:
            return [
                torch.zeros(v.shape, dtype=v.dtype) if isinstance(v, torch.Tensor) else v
                for v in values
            ]

        return run

    print(f"torch {torch.__version__}; {args.model} {args.size}; dynamo only (no code generated)")
    for _ in range(args.rounds):
        for isolate in ("instance", "root"):
            torch._dynamo.reset()
            compiled = model.compile(backend=no_codegen, isolate=isolate)
            start = time.perf_counter()
            compiled.run()
            took = time.perf_counter() - start
            print(
                f"  frames {isolate:<8} first call {took:5.2f} s; graphs so far {len(graphs)}, "
                f"{len(graphs[-1])} call nodes, same ops as the first: {graphs[-1] == graphs[0]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
