"""Conv weights laid out channels-last outside the compiled graph: a module's parameters in place
(`convert_conv_parameters`), or, with `PassConfig.channels_last_weights_once`, a graph's weight
inputs converted once per weight version (`_hoistable_conv_weights`, `_with_converted_weights`).

Weights converted once (opt-in): in inference (grad disabled while dynamo traced, or weights that
do not require grad) conv weights that reach a graph the channels-last rewrite fires on are
converted outside the compiled graph, once per weight version (`tensor._version`, storage
pointer), and the compiled graph receives the converted copy, so no per-call weight re-layout
kernel exists. The cost is one extra copy of those weights in memory, and `.data` in-place
updates are not seen (see `PassConfig`). By default the weights' clones stay in the graph.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import torch
from torch._prims_common import suggest_memory_format

from ..fx.layout import channels_last_format

_CONV_FUNCTIONS = {
    torch.conv2d: 1,
    torch.conv3d: 1,
    torch.nn.functional.conv2d: 1,
    torch.nn.functional.conv3d: 1,
}


def convert_conv_parameters(module: torch.nn.Module) -> int:
    """Lay every conv2d/conv3d weight of ``module`` out channels-last, in place; returns how many
    changed (weights already channels-last, transposed convolutions and 1-D ones are left).

    The parameters stay the same objects (``weight.data`` is replaced, as ``module.to`` does),
    so optimisers and hooks that hold them keep working, and their values are unchanged. Eager
    convolutions then produce channels-last outputs too (PyTorch follows the weight's format),
    so a graph traced from the module records channels-last activations: no weight is
    re-laid out per call, and a causal VAE's caches leave and enter each call channels-last
    (`python benchmarks/zoo.py census` counts the Wan form's launches with and without it). The
    Wan form sets it (``magi_compile``'s ``channels_last_parameters``). What changes for the
    user: the module's weights and its outputs have channels-last strides, and a library that
    saves only contiguous tensors (safetensors) needs ``.contiguous()`` on them first.

    Measured: docs/results.md, "Wan 2.2 decode"."""
    changed = 0
    for m in module.modules():
        if not isinstance(m, torch.nn.modules.conv._ConvNd) or m.transposed:
            continue
        weight = m.weight
        fmt = channels_last_format(weight.dim()) if isinstance(weight, torch.Tensor) else None
        if fmt is None or suggest_memory_format(weight) == fmt:
            continue
        with torch.no_grad():
            weight.data = weight.data.contiguous(memory_format=fmt)
        changed += 1
    return changed


def _hoistable_conv_weights(
    gm: torch.fx.GraphModule, example_inputs: list[Any]
) -> dict[int, torch.memory_format]:
    """Graph inputs used only as conv2d/conv3d weights, in inference, not yet channels-last."""
    placeholders = list(gm.graph.find_nodes(op="placeholder"))
    if len(placeholders) != len(example_inputs):
        return {}
    grad = torch.is_grad_enabled()
    found: dict[int, torch.memory_format] = {}
    for i, (node, value) in enumerate(zip(placeholders, example_inputs, strict=True)):
        if not isinstance(value, torch.Tensor) or not value.is_floating_point():
            continue
        if isinstance(value, torch._subclasses.FakeTensor) or type(value) not in (
            torch.Tensor,
            torch.nn.Parameter,
        ):
            continue
        if grad and value.requires_grad:
            continue
        if value.is_inference():
            # inference tensors carry no version counter: an update could not be detected
            continue
        fmt = channels_last_format(value.dim())
        if fmt is None or value.is_contiguous(memory_format=fmt) or not node.users:
            continue
        if all(
            user.op == "call_function"
            and user.target in _CONV_FUNCTIONS
            and ((len(user.args) > 1 and user.args[1] is node) or user.kwargs.get("weight") is node)
            and user.args[0] is not node
            for user in node.users
        ):
            found[i] = fmt
    return found


def _convert_example_weights(
    gm: torch.fx.GraphModule, inputs: list[Any], hoisted: dict[int, torch.memory_format]
) -> None:
    """Give the compiler channels-last example weights, keeping dynamo's (static) fake values.

    A fresh real tensor would be fakified anew, and under `dynamic=True` its kernel sizes would
    become symbols; converting dynamo's own fake value keeps its static shape and its fake mode.
    """
    placeholders = list(gm.graph.find_nodes(op="placeholder"))
    for i, fmt in hoisted.items():
        node = placeholders[i]
        fake = node.meta.get("example_value")
        if isinstance(fake, torch._subclasses.FakeTensor):
            with fake.fake_mode:
                converted = fake.contiguous(memory_format=fmt)
            node.meta["example_value"] = converted
            inputs[i] = converted
        else:
            inputs[i] = inputs[i].contiguous(memory_format=fmt)


def _eager_output_formats(gm: torch.fx.GraphModule) -> list[torch.memory_format | None]:
    """The memory format of each graph output as dynamo traced it (with the user's weights).

    Converting weights outside the graph changes what the compiler traces: a conv reading a
    channels-last weight returns channels-last, where eager returned contiguous. These formats
    let the wrapper give callers eager's layout back.
    """

    output = next(iter(gm.graph.find_nodes(op="output")))
    formats: list[torch.memory_format | None] = []
    for arg in torch.fx.node.map_aggregate(output.args[0], lambda a: a) or ():
        val = arg.meta.get("example_value") if isinstance(arg, torch.fx.Node) else None
        fmt = None
        if isinstance(val, torch.Tensor) and val.dim() in (4, 5):
            # only outputs eager returns dense in one format (a permuted output is left as
            # Inductor lays it out, exactly as plain torch.compile does)
            candidate = suggest_memory_format(val)
            try:
                dense = bool(val.is_contiguous(memory_format=candidate))
            except Exception:  # a symbolic stride it cannot decide without a guard
                dense = False
            fmt = candidate if dense else None
        formats.append(fmt)
    return formats


def _with_converted_weights(
    compiled: Callable[..., Any],
    hoisted: dict[int, torch.memory_format],
    output_formats: list[torch.memory_format | None] | None = None,
) -> Callable[..., Any]:
    """Wrap a compiled graph so weight args are replaced by cached channels-last copies, and
    outputs keep the memory format eager gives them."""

    formats = output_formats or []
    cache: dict[int, tuple[Any, int, int, torch.Tensor]] = {}

    def convert(args: list[Any]) -> None:
        for i, fmt in hoisted.items():
            w = args[i]
            hit = cache.get(i)
            if (
                hit is not None
                and hit[0]() is w
                and hit[1] == w._version
                and hit[2] == w.data_ptr()
            ):
                args[i] = hit[3]
                continue
            with torch.no_grad():
                converted = w.contiguous(memory_format=fmt)
            cache[i] = (weakref.ref(w), w._version, w.data_ptr(), converted)
            args[i] = converted

    # dynamo calls a backend's result with positional args; no functools.wraps here, it would
    # copy a `_boxed_call` marker that aot_module_simplified's wrapper carries without honouring
    def run(*args: Any) -> Any:
        arg_list = list(args)
        convert(arg_list)
        out = compiled(*arg_list)
        if not any(formats) or not isinstance(out, (list, tuple)) or len(out) != len(formats):
            return out
        fixed = [
            o.contiguous(memory_format=fmt)
            if fmt is not None and isinstance(o, torch.Tensor) and suggest_memory_format(o) != fmt
            else o
            for o, fmt in zip(out, formats, strict=True)
        ]
        return type(out)(fixed) if isinstance(out, tuple) else fixed

    return run
