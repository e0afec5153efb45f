"""Whether a zoo model's generated CUDA code reads past any buffer, without a GPU (session 32).

Generates the model's full-size decode (bf16, random weights) for fake CUDA in its compile form
(its `PassConfig`, or the generic one), or as plain Inductor with ``--plain``, and runs
`pytest_magi.bounds.out_of_bounds` over every captured graph: the accesses found past their
buffer's storage, and how many accesses could be checked. Session 28 ran this check on seven
zoo decoders (docs/reliability.md, "torch 2.13 is not fixed"); KVAE-3D generates since session
32's sympy workaround (`magi_passes.workarounds.compile_working_around`).

Run: `python tools/probes/bounds_zoo.py kvae-3d-vae [--plain]` (a few minutes on 2 cores).
"""

from __future__ import annotations

import argparse

import torch

from magi_passes import PassConfig, forms
from pytest_magi import zoo
from pytest_magi.bounds import accesses_checked, out_of_bounds
from pytest_magi.codegen import inductor_codegen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=zoo.names())
    parser.add_argument("--plain", action="store_true", help="plain Inductor, no magi passes")
    args = parser.parse_args()
    model = zoo.load(args.model, "full", dtype=torch.bfloat16)
    form = forms.form_for(model.module)
    config = None if args.plain else (form.config() if form is not None else PassConfig())
    code = inductor_codegen(model.as_module(), *model.inputs, config=config)
    bad = [b for graph in code.captured for b in out_of_bounds(graph)]
    checked = sum(accesses_checked(graph) for graph in code.captured)
    side = "plain Inductor" if args.plain else (form.name if form is not None else "magi")
    print(
        f"torch {torch.__version__}; fake CUDA; {args.model} full, bf16, {side}: "
        f"{len(bad)} accesses past their buffer of {checked} checked; {code.kernel_count} kernels"
    )
    for access in bad:
        print(f"  {access}")


if __name__ == "__main__":
    main()
