"""Layout rewrites of the channels-last pass that stand on their own: pads moved into a
concatenation, conv weights converted in one kernel, norm inputs pinned channels-last, and a
causal conv's state outputs laid out channels-last."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from operator import methodcaller
from typing import Any, cast

import torch
from torch._prims_common import suggest_memory_format

from .layout import (
    channels_last_format,
    refresh_cat_value,
    refresh_pad_value,
    set_output_strides,
    weight_of,
)
from .nodes import clone_before, force_stride_order_op, is_call, pin_node, run_on_fake

aten = torch.ops.aten


def distribute_pads_into_cat(
    graph: torch.fx.Graph, pads: list[torch.fx.Node], cat: torch.fx.Node
) -> torch.fx.Node | None:
    """``pads`` (a single-user ``constant_pad_nd`` chain, outermost first) over ``cat``: when
    every pad pads only ``cat``'s dim, by non-negative amounts of one value, move the padding
    onto ``cat``'s first input (front) and last input (back) and return ``cat``, now of the
    padded shape (`PassConfig.channels_last_pad_through_cat`); the caller points the pads' user
    at it and erases them. None (nothing changed) otherwise. ``pad(cat([a, b], d))`` and
    ``cat([pad(a, front), pad(b, back)], d)`` are the same tensor."""
    if cat.target is not aten.cat.default or len(cat.users) != 1:
        return None
    inputs = cat.args[0]
    rank = cat.meta["val"].dim()
    dim = cat.args[1] if len(cat.args) > 1 else cat.kwargs.get("dim", 0)
    if not isinstance(inputs, (list, tuple)) or not inputs or not isinstance(dim, int):
        return None
    dim %= rank
    front = back = 0
    values = set()
    for pad in pads:
        amounts = pad.args[1]
        value = pad.args[2] if len(pad.args) > 2 else pad.kwargs.get("value", 0.0)
        if not isinstance(amounts, (list, tuple)) or not all(type(a) is int for a in amounts):
            return None  # symbolic amounts: a dynamic graph (the through-cat path is static)
        ints = cast("list[int]", list(amounts))  # (all ints: checked above)
        for i in range(0, len(ints), 2):
            d = rank - 1 - i // 2
            low, high = ints[i], ints[i + 1]
            if d != dim and (low or high):
                return None
            if d == dim:
                if low < 0 or high < 0:
                    return None  # a crop, not a pad
                front, back = front + low, back + high
        if not isinstance(value, (int, float)):
            return None  # a symbolic or missing fill value
        values.add(float(value))
    if len(values) != 1 or not (front or back):
        return None
    (value,) = values
    ends = {0: (front, 0)}
    last = len(inputs) - 1
    ends[last] = (ends.get(last, (0, 0))[0], back)
    new_inputs = list(inputs)
    for index, (low, high) in ends.items():
        if not (low or high):
            continue
        source = new_inputs[index]
        assert isinstance(source, torch.fx.Node)
        amounts = [0, 0] * (rank - 1 - dim) + [low, high]
        with graph.inserting_before(cat):
            padded = graph.call_function(aten.constant_pad_nd.default, (source, amounts, value))
        # where it came from, for Inductor's provenance and kernel names (its value is its own)
        padded.meta.update(
            {k: cat.meta[k] for k in ("stack_trace", "nn_module_stack") if k in cat.meta}
        )
        refresh_pad_value(padded)
        new_inputs[index] = padded
    cat.args = (new_inputs, *cat.args[1:])
    refresh_cat_value(cat)
    return cat


# at most this many weights per batched conversion: Inductor lowers a concatenation of up to
# `max_pointwise_cat_inputs` (8) pointwise inputs as one kernel
_BATCH = 8
# the largest weight batched (bytes): the sizes where batching was measured to pay; larger
# weights convert faster in a clone of their own (`batch_weight_clones`)
_BATCH_MAX_BYTES = 1 << 20


def batch_weight_clones(graph: torch.fx.Graph, clones: Iterable[torch.fx.Node]) -> int:
    """Convert the graph's conv weights to channels-last in one kernel instead of one each.

    A weight is a graph input, so its clone is a kernel of its own: a small transposing copy per
    weight, every call. In a static graph (the pass calls this for static graphs only, where its
    decision is measured), the channels-last clones of weight inputs of one dtype and one input
    channel count I become, per batch of up to 8, the weights' channels-last orders (`permute` to
    `(O, *k, I)`) as `(O * prod(k), I)` rows concatenated into one `(rows, I)` buffer, which
    Inductor writes in one kernel; each conv reads its weight as a channels-last `as_strided`
    view of that buffer. The values and strides are those of the clones.

    Rows, not flat vectors: a flattened `(O, *k, I)` order makes the kernel's one index run over
    O * prod(k) * I, and every load goes through a division and two remainders of it, at a
    stride of prod(k) along the tile's fast dim, at a small fraction of HBM bandwidth. As rows,
    the kernel is a 2-D tiled transpose, as one weight's own clone is: loads run along the rows'
    kernel positions, stores along I. Returns how many clones were replaced.

    Only where every clone's size is static and its bytes a multiple of 16 (each view then
    starts 16-byte aligned, as the conv kernels' vector loads want), and only weights of at most
    `_BATCH_MAX_BYTES`: batching saves launches, but its kernel moves bytes at half the rate of
    one weight's own clone: large weights (the Wan 2.2 decoder's, most 14-57 MB) convert faster
    one by one, small ones (WanCausalStage's, about 1 MB) gain from batching.

    Measured: docs/results.md, "GPU suite"."""
    weights: dict[tuple[torch.dtype, int], list[torch.fx.Node]] = {}
    for clone in clones:
        source = clone.args[0]
        value = clone.meta["val"]
        if (
            not isinstance(source, torch.fx.Node)
            or source.op != "placeholder"
            or not all(isinstance(d, int) for d in value.shape)
            or (value.numel() * value.element_size()) % 16
            or value.numel() * value.element_size() > _BATCH_MAX_BYTES
            or not clone.users
            or not all(weight_of(u) is clone for u in clone.users)
        ):
            continue
        weights.setdefault((value.dtype, int(value.shape[1])), []).append(clone)
    replaced = 0
    for group in weights.values():
        for start in range(0, len(group), _BATCH):
            batch = group[start : start + _BATCH]
            if len(batch) >= 2:
                _concatenate(graph, batch)
                replaced += len(batch)
    return replaced


def _concatenate(graph: torch.fx.Graph, batch: list[torch.fx.Node]) -> None:
    """Replace `batch`'s clones (weights of one input channel count I) with channels-last views
    of one `(rows, I)` buffer."""
    first_user = min((u for c in batch for u in c.users), key=_position(graph))

    def add(target: Any, args: tuple[Any, ...], value: torch.Tensor) -> torch.fx.Node:
        node = graph.call_function(target, args)
        node.meta["val"] = value
        return node

    with graph.inserting_before(first_user):
        rows = []
        for clone in batch:
            source = clone.args[0]
            assert isinstance(source, torch.fx.Node)
            value = source.meta["val"]
            order = [0, *range(2, value.dim()), 1]
            permuted = add(
                aten.permute.default,
                (source, order),
                run_on_fake(value, methodcaller("permute", order)),
            )
            shape = [-1, int(value.shape[1])]
            rows.append(
                add(
                    aten.reshape.default,
                    (permuted, shape),
                    run_on_fake(permuted.meta["val"], methodcaller("reshape", shape)),
                )
            )
        values = [r.meta["val"] for r in rows]
        buffer = add(aten.cat.default, (rows,), run_on_fake(values[0], lambda _: torch.cat(values)))
        offset = 0
        for clone in batch:
            value = clone.meta["val"]
            shape, stride = list(value.shape), list(value.stride())
            view = add(
                aten.as_strided.default,
                (buffer, shape, stride, offset),
                run_on_fake(buffer.meta["val"], methodcaller("as_strided", shape, stride, offset)),
            )
            clone.replace_all_uses_with(view)
            graph.erase_node(clone)
            offset += value.numel()


def _position(graph: torch.fx.Graph) -> Callable[[torch.fx.Node], int]:
    order = {node: i for i, node in enumerate(graph.nodes)}
    return lambda node: order[node]


# ops that only move data: an output built from a conv's input through these is a piece of it
_WINDOW_OPS = (aten.slice.Tensor, aten.select.int)
_MOVE_OPS = (
    *_WINDOW_OPS,
    aten.unsqueeze.default,
    aten.clone.default,
    aten.cat.default,
    aten.constant_pad_nd.default,
)


def _moved_from(node: torch.fx.Node) -> tuple[set[torch.fx.Node], bool]:
    """The tensors ``node`` is built from by data movement alone (``_MOVE_OPS``), and whether the
    way there takes a window of a frame or spatial dim (a slice or select of dim >= 2)."""
    leaves: set[torch.fx.Node] = set()
    windowed = False
    stack, seen = [node], set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n.op != "call_function" or n.target not in _MOVE_OPS:
            leaves.add(n)
            continue
        if n.target in _WINDOW_OPS:
            dim = n.args[1] if len(n.args) > 1 else n.kwargs.get("dim", 0)
            ndim = n.args[0].meta["val"].dim() if isinstance(n.args[0], torch.fx.Node) else 0
            windowed = windowed or (isinstance(dim, int) and dim % max(ndim, 1) >= 2)
        inputs: Any = n.args[0] if n.target is aten.cat.default else n.args[:1]
        stack.extend(a for a in inputs if isinstance(a, torch.fx.Node))
    return leaves, windowed


def _squared_source(node: torch.fx.Node) -> torch.fx.Node:
    """What ``node`` squares: through dtype conversions, ``mul(a, a)`` and ``pow(a, 2)``."""
    while True:
        if is_call(node, torch.ops.prims.convert_element_type.default, aten._to_copy.default):
            nxt = node.args[0]
        elif is_call(node, aten.mul.Tensor) and node.args[0] is node.args[1]:
            nxt = node.args[0]
        elif is_call(node, aten.pow.Tensor_Scalar) and node.args[1] == 2:
            nxt = node.args[0]
        else:
            return node
        if not isinstance(nxt, torch.fx.Node):
            return node
        node = nxt


# the reductions of a norm's statistic over the channels: F.normalize's sum (Wan), an RMS norm's
# mean (LTX-Video, over the last dim of a permuted tensor)
_CHANNEL_SUMS = (aten.sum.dim_IntList, aten.mean.dim)


def convert_norm_inputs(graph: torch.fx.Graph, *, trust_fake_layout: bool = False) -> int:
    """Pin channels-last every computed activation whose square is summed over its channels
    (`PassConfig.channels_last_norm_inputs`, module docstring). Every user but the graph's
    output reads the pinned tensor. Returns how many were pinned.

    ``trust_fake_layout=True`` is the previous rule, kept to measure the change
    (the ``magi-form-s28`` benchmark variant): an activation whose fake value is channels-last
    already is left alone, though Inductor may realise it channels-first."""
    force = force_stride_order_op()
    pinned = 0
    totals = [n for t in _CHANNEL_SUMS for n in graph.find_nodes(op="call_function", target=t)]
    for total in totals:
        squared = total.args[0]
        dims = total.args[1]
        if not isinstance(squared, torch.fx.Node) or not isinstance(dims, (list, tuple)):
            continue
        value = squared.meta.get("val")
        if not isinstance(value, torch.Tensor) or value.dim() not in (4, 5) or len(dims) != 1:
            continue
        source = _squared_source(squared)
        if source is squared:
            continue  # not a square
        channel = dims[0] % value.dim()
        if is_call(source, aten.permute.default):
            # the channels moved last and the norm taken over the last dim (LTX-Video's RMS
            # norm): the permuted tensor's source is what is pinned
            order: Any = source.args[1]
            channel = order[channel] % value.dim()
            permuted = source.args[0]
            if not isinstance(permuted, torch.fx.Node):
                continue
            source = permuted
        if channel != 1:
            continue  # not a sum over the channels
        if source.op != "call_function" or source.target is force:
            continue  # a graph input (a copy of its own), or pinned already
        if is_call(source, aten.convolution.default):
            continue  # a convolution's output: Inductor lays it out from its inputs already
        source_value = source.meta.get("val")
        if not isinstance(source_value, torch.Tensor):
            continue
        fmt = channels_last_format(source_value.dim())
        if fmt is None or (trust_fake_layout and suggest_memory_format(source_value) == fmt):
            continue
        # pinned even where the fake value is channels-last already: Inductor realises a
        # computed buffer in its own default order, not in the fake value's (module docstring)
        _pin(graph, source, fmt, force)
        pinned += 1
    return pinned


def _pin(
    graph: torch.fx.Graph, source: torch.fx.Node, fmt: torch.memory_format, force: Any
) -> None:
    """Insert ``force(source, strides of fmt)`` after ``source``; every user of ``source`` but
    the pin and the graph's output reads the pin."""
    value = run_on_fake(source.meta["val"], lambda t: t.contiguous(memory_format=fmt))
    pin = pin_node(graph, source, value, force)
    source.replace_all_uses_with(
        pin, delete_user_cb=lambda user: user is not pin and user.op != "output"
    )


def convert_state_outputs(
    graph: torch.fx.Graph, sources: dict[torch.fx.Node, torch.memory_format]
) -> int:
    """Lay out channels-last the graph outputs that are a causal convolution's state.

    A video VAE decodes chunk by chunk and hands each causal conv the last frames of its input
    from the previous call (``cache_x = x[:, :, -2:].clone()``, a graph output, then an input of
    the next call, concatenated in front of the conv's input). Graph outputs keep eager's strides,
    so that state went out channels-first and came back in to be concatenated with channels-last
    frames: a transposing write and a transposing read of every cache, every call. An output is
    converted when it is a fresh tensor (a ``clone`` or
    ``cat``), used by nothing else in the graph, built by data movement alone from tensors that a
    channels-last convolution reads, through a slice or select of a frame or spatial dim. The
    clone gets ``memory_format=channels_last(_3d)``; a cat gets channels-last clones of its inputs
    (fused into their producers). Values are unchanged; only that output's strides differ from
    eager's. Returns the number converted."""
    leaves: dict[torch.fx.Node, torch.memory_format] = {}
    for source, fmt in sources.items():
        for leaf in _moved_from(source)[0] | {source}:
            leaves[leaf] = fmt
    output = graph.find_nodes(op="output")[0]
    converted = 0
    for node in dict.fromkeys(output.all_input_nodes):
        if node.op != "call_function" or node.target not in _MOVE_OPS or len(node.users) != 1:
            continue
        val = node.meta.get("val")
        if not isinstance(val, torch.Tensor):
            continue
        layout = channels_last_format(val.dim())
        if layout is None or suggest_memory_format(val) == layout:
            continue
        built_from, windowed = _moved_from(node)
        if not windowed or not built_from or any(leaves.get(n) != layout for n in built_from):
            continue
        if node.target is aten.clone.default:
            node.kwargs = {**node.kwargs, "memory_format": layout}
            node.meta["val"] = run_on_fake(val, methodcaller("clone", memory_format=layout))
        elif node.target is aten.cat.default:
            inputs: Any = node.args[0]
            parts = [clone_before(graph, part, layout, node) for part in inputs]
            rest = node.args[1:]
            node.args = (parts, *rest)
            values = [p.meta["val"] for p in parts]
            node.meta["val"] = run_on_fake(val, partial(_cat_of, values, rest))
        else:  # a view of a conv's input (a slice): the output becomes a copy of the window
            clone = clone_before(graph, node, layout, output)
            output.replace_input_with(node, clone)
            node = clone
        set_output_strides(output, node)
        converted += 1
    return converted


def _cat_of(values: list[Any], rest: tuple[Any, ...], _: Any) -> Any:
    """``aten.cat`` of fake ``values`` (its other arguments ``rest``), for `run_on_fake`."""
    return aten.cat.default(values, *rest)
