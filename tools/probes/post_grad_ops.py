"""Which post-grad operations magi's passes add to a zoo model's graph, without a GPU (session 34).

On the H100 (torch 2.11, session 34) HunyuanVideo's form spent 1.2-3.8 s more than
torch.compile in Inductor's fusion phase, and in fake CUDA (`codegen_time.py`) Inductor's
scheduler is given 569 operations for it against torch.compile's 370. This generates the model's
full-size decode (bf16, fake CUDA, weights channels-last in place where its form says so) as
plain Inductor, as the form, and as the form with the channels-last rewrite off, counts the
post-grad graph's `call_function` targets after the magi passes (a pass of one's own run last,
`inductor_codegen(passes=...)`), and prints the targets whose counts differ.

Run: `python tools/probes/post_grad_ops.py hunyuanvideo-vae [--option height=45 ...]` (the
input-shape options of `codegen_time.py`).
"""

from __future__ import annotations

import argparse
import collections
import copy

import torch
from codegen_time import add_shape_options, shape_options

from magi_passes import PassConfig, forms
from magi_passes.channels_last import convert_conv_parameters
from pytest_magi import zoo
from pytest_magi.codegen import inductor_codegen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=zoo.names())
    add_shape_options(parser)
    args = parser.parse_args()
    model = zoo.load(args.model, "full", dtype=torch.bfloat16, **shape_options(parser, args))
    form = forms.form_for(model.module)
    config = form.config() if form is not None else None
    sides = {
        "inductor": None,
        "magi": config,
        "magi-no-cl": (config or PassConfig()).replace(enable_conv_channels_last=False),
    }
    counts: dict[str, collections.Counter[str]] = {}
    for side, side_config in sides.items():
        found: collections.Counter[str] = collections.Counter()

        def count(graph: torch.fx.Graph, found: collections.Counter[str] = found) -> None:
            found.update(str(n.target) for n in graph.nodes if n.op == "call_function")

        module = model.as_module()
        if form is not None and form.channels_last_parameters:
            module = copy.deepcopy(module)
            convert_conv_parameters(module)
        inductor_codegen(module, *model.inputs, config=side_config, passes=[count])
        counts[side] = found
    print(
        f"torch {torch.__version__}; fake CUDA; {args.model} full, bf16; form "
        f"{form.describe() if form is not None else 'generic'}; post-grad call_function targets "
        f"whose counts differ: {', '.join(sides)}"
    )
    for target in sorted(set().union(*counts.values())):
        row = [counts[side][target] for side in sides]
        if len(set(row)) > 1:
            print(f"  {target:<40} " + " ".join(f"{n:6d}" for n in row))


if __name__ == "__main__":
    main()
