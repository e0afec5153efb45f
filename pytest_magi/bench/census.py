"""Census mode of the zoo benchmark: the Wan decoder's form chunk by chunk in fake CUDA, launches
and bytes per lever.

    python benchmarks/zoo.py census --variants form,pad-cat     # a few minutes a variant

`magi_compile(vae.decoder)` compiles the Wan 2.2 decoder in its form (`magi_passes.forms`): one
static graph per chunk call. This generates the zoo's full-size T=3 decode (bf16, random weights)
that way for fake CUDA, no GPU, once per variant of the form (its `PassConfig` with the decisions
off, plus the variant's fields), and prints, for each chunk graph, the Triton launches and an
upper bound of their bytes (every load and store statement counted at the kernel's full numel, 2
bytes an element), the pad copies (a kernel named after a pad that loads one buffer and stores
one; its name comes from the fusion around it, so weight conversions named after a pad count
too), the strided stores (a reduction kernel's store whose index has a reduction index times a
constant over 1000: a norm storing across the channels; a pointwise transpose is not counted)
and the strided accesses (the same for loads and stores, `across_channels`). The third chunk is
the steady one, the cost of every further latent frame.

Each chunk is its own graph as under `magi_compile`: a `torch._dynamo.graph_break()` in front of
the decoder's call, since compiling the whole `vae.decode` would inline the three chunks into one
graph on torch 2.13. Variants: `form`, `pad-cat` (`channels_last_pad_through_cat`), `cl-state`
(`channels_last_conv_state`), `weights-once` (`channels_last_weights_once`: fake-CUDA codegen
emulates it by handing the graph channels-last weights before dynamo traces, so eager's
activations come out channels-last too, which the GPU backend's weights-once does not do: its
graph is traced with the weights as they are), `cl-params` (the decoder's conv weights made
channels-last in place before compiling, `convert_conv_parameters`: what that emulation is),
`norm-pin-trust-fake` (the norm-input pin leaving alone an activation channels-last in eager,
`convert_norm_inputs(trust_fake_layout=True)`); several joined by "+" (`cl-params+pad-cat`)
combine.
"""

from __future__ import annotations

import argparse
import math
import re
from typing import Any

import torch

from magi_passes.compile import dynamo_fixes, forms
from magi_passes.compile.frames import isolate_forward_code
from magi_passes.compile.weights import convert_conv_parameters
from magi_passes.passes.channels_last import norm_pin_rule
from pytest_magi import zoo
from pytest_magi.capture.codegen import inductor_codegen

VARIANTS = {
    "form": {},
    "pad-cat": {"channels_last_pad_through_cat": True},
    "cl-state": {"channels_last_conv_state": True},
    "weights-once": {"channels_last_weights_once": True},
    "cl-params": {},  # the decoder's conv weights channels-last in place (convert_conv_parameters)
    "norm-pin-trust-fake": {},  # the norm-input pin trusting fake layouts (convert_norm_inputs)
}
_NUMEL = re.compile(r"\b(\w*numel) = (\d+)")
_STORE = re.compile(r"tl\.store\(\w+ \+ \(([^)]*)\)")
_ACCESS = re.compile(r"tl\.(?:load|store)\(\w+ \+ \(([^)]*)\)")
_ACROSS = re.compile(r"(\d+)\*r0_\w+")


def _steps_across(index: str, over: int) -> bool:
    """Whether a load or store ``index`` steps a reduction index by more than ``over``
    elements: a norm over the channels that reads or writes across them."""
    return any(int(c) > over for c in _ACROSS.findall(index))


def across_channels(kernel, over: int = 1000) -> list[str]:
    """The indices of ``kernel``'s loads and stores that step across the channels
    (`_steps_across`); tests/test_norm_inputs.py holds the fixed forms to none."""
    return [i for i in _ACCESS.findall(kernel.source) if _steps_across(i, over)]


def chunk_graphs(name: str, size: str = "full", **load: int) -> list:
    """The chunk graphs of variant ``name``: one of `VARIANTS`, or several joined by "+".
    ``size`` and ``load`` (``frames``, ``height``, ``width``) pick the decode: the zoo's
    ``size`` with 3 latent frames by default (tests/test_norm_inputs.py uses a tiny one)."""
    parts = name.split("+")
    overrides = {k: v for part in parts for k, v in VARIANTS[part].items()}
    options: dict[str, Any] = {"frames": 3, **load}
    model = zoo.load("wan2.2-vae", size, dtype=torch.bfloat16, **options)
    module = model.as_module()
    isolate_forward_code(module, per="instance")
    (decoder,) = [m for m in module.modules() if forms.form_for(m) is forms.WAN_DECODER]
    inner = decoder.forward

    def one_graph_a_call(x, *args, **kwargs):
        x = x.contiguous()  # the form's contiguous inputs
        torch._dynamo.graph_break()  # each decoder call a graph of its own, as magi_compile has it
        return inner(x, *args, **kwargs)

    decoder.forward = one_graph_a_call
    if "cl-params" in parts:
        convert_conv_parameters(decoder)
    config = forms.WAN_DECODER.config({}).replace(measure_decisions=False, **overrides)
    with (
        norm_pin_rule(trust_fake_layout="norm-pin-trust-fake" in parts),
        torch.no_grad(),
        dynamo_fixes.tensor_constant_compare(),
    ):
        code = inductor_codegen(module, *model.inputs, config=config)
    # the decoder's chunk graphs: those with convolutions (the rest is vae.decode's own code)
    return [g for g in code.captured if len(g.extern_calls) > 10]


def row(graph) -> tuple[int, float, int, int, int]:
    """Triton launches, their bytes (upper bound), pad copies, strided stores and strided
    accesses (loads and stores), per call."""
    kernels = {k.name: k for k in graph.kernels}
    launches = [kernels[c] for c in graph.calls if c in kernels]
    total = 0.0
    pads = strided = accesses = 0
    for kernel in launches:
        numel = math.prod(int(n) for _, n in _NUMEL.findall(kernel.source))
        total += 2.0 * numel * (kernel.num_loads + kernel.num_stores)
        if "constant_pad_nd" in kernel.name and kernel.num_loads == 1 and kernel.num_stores == 1:
            pads += 1
        strided += sum(_steps_across(s, 1000) for s in _STORE.findall(kernel.source))
        accesses += len(across_channels(kernel))
    return len(launches), total / 1e9, pads, strided, accesses


def main(argv: list[str] | None = None) -> int:
    """The census mode's command line."""
    parser = argparse.ArgumentParser(
        prog="zoo.py census", description="the Wan decoder's form chunk by chunk in fake CUDA"
    )
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help=f"comma list of {', '.join(VARIANTS)}"
    )
    names = parser.parse_args(argv).variants.split(",")
    unknown = [p for n in names for p in n.split("+") if p not in VARIANTS]
    if unknown:
        parser.error(f"--variants: unknown {unknown}; choose from {list(VARIANTS)}, joined by +")
    print(
        f"torch {torch.__version__}; fake CUDA; wan2.2-vae full, T=3, bf16, its form, decisions off"
    )
    print(
        "| variant | chunk | launches | GB (upper bound) | pad copies | strided stores "
        "| strided accesses |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        for i, graph in enumerate(chunk_graphs(name)):
            launches, gb, pads, strided, accesses = row(graph)
            print(
                f"| {name} | {i} | {launches} | {gb:.2f} | {pads} | {strided} | {accesses} |",
                flush=True,
            )
    return 0
