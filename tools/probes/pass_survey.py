"""Where an opt-in pass fires across the zoo, without a GPU (session 48).

Generates each model's full-size decode (bf16, fake CUDA) in its form (its `PassConfig`
fields; `PassConfig()` where it has none) with one `PassConfig` field switched on and prints the
named pass's counts summed over the model's graphs, and the output shapes of the nodes of one
target it leaves in them. Session 48 used it for `UpcastMatmulPass`: which zoo models run
PyTorch's math attention, whose first matmul it moves onto the bf16 operands (Cosmos 2,
MiniMax-H3 36, Allegro 15, SVD 1, VidTok 1). Fake CUDA on a CPU-only torch has no fused
attention kernel to choose, so there every attention is math and a count is an upper bound: on
an H200 (session 49) the pass fired on Cosmos's decode and not on MiniMax-H3's, whose attention
went to a fused kernel.

Run: `python tools/probes/pass_survey.py [MODEL ...]` (default: every video VAE and sd-vae;
`--field enable_upcast_matmul --pass upcast_matmul --target aten.bmm.dtype`, the defaults;
half a minute to a few minutes a model on 2 cores, Allegro the slowest).
"""

from __future__ import annotations

import argparse
import collections
import time

import torch

from magi_passes import PassConfig, forms
from pytest_magi import zoo
from pytest_magi.codegen import inductor_codegen


def _target(spelling: str) -> object:
    """`aten.bmm.dtype` as the op it names."""
    op: object = torch.ops
    for part in spelling.split("."):
        op = getattr(op, part)
    return op


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", default=[*zoo.VIDEO_VAES, "sd-vae"])
    parser.add_argument("--field", default="enable_upcast_matmul")
    parser.add_argument("--pass", dest="pass_name", default="upcast_matmul")
    parser.add_argument("--target", default="aten.bmm.dtype")
    args = parser.parse_args()
    target = _target(args.target)
    print(
        f"torch {torch.__version__}; fake CUDA, full size, bf16; each model in its form with "
        f"{args.field}=True; {args.pass_name}'s counts, the {args.target} outputs' shapes",
        flush=True,
    )
    for name in args.models:
        start = time.perf_counter()
        options = {"frames": 3} if name == "wan2.2-vae" else {}
        model = zoo.load(name, "full", dtype=torch.bfloat16, **options)
        form = forms.form_for(model.module)
        config = (form.config() if form else PassConfig()).replace(
            **{args.field: True}, measure_decisions=False
        )
        code = inductor_codegen(model.as_module(), *model.inputs, config=config)
        counts: collections.Counter[str] = collections.Counter()
        results = [r for r in code.pass_results if r.name == args.pass_name]
        for result in results:
            counts.update(result.counts)
        shapes = [
            tuple(node.meta["val"].shape)
            for graph in code.fx_graphs()
            for node in getattr(graph, "graph", graph).find_nodes(op="call_function", target=target)
        ]
        print(
            f"{name:22s} graphs {len(results)} {dict(counts)} {args.target} outputs {shapes} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
