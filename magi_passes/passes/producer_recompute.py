"""`ProducerRecomputePass`: a norm's apply chain recomputed for each of its readers, not stored.

Matches, in a static post-grad graph, a full-size value ``y`` computed by a chain of cheap
pointwise and view ops (`CHAIN_OPS`) that is read by two or more cheap consumers (`READERS`:
pointwise ops, slices, concatenations), and whose chain reads more than Inductor's
`realize_reads_threshold` inputs. Emits, for each reader after the first, a copy of the chain
that reads the same inputs, so that every copy has one reader.

Why: Inductor's lowering stores a value with several FX readers in a buffer of its own when it
reads more than `torch._inductor.config.realize_reads_threshold` (4) inputs
(`should_realize_on_reuse`). A GroupNorm's apply reads five (the activation, the mean, the
reciprocal root, the weight, the bias), and two readers are common: SiLU as Inductor decomposes
it, ``y / (1 + exp(-y))``, reads its input twice, and a replicate pad of frames,
``cat([y[:, :, :1], y, y[:, :, -1:]])`` (Allegro's temporal convolutions), three times. So the
norm's output is written in fp32 to a buffer the size of the activation and read back by the
kernel that writes the convolution's input (located in fake CUDA: Allegro's
temporal layer as Inductor and the magi form compile it, and EasyAnimate's conv windows). With one reader per copy Inductor inlines each copy into its reader; the copies of one
kernel load the same addresses and compute the same expressions, which Inductor's kernel CSE
merges, so a pointwise reader computes the chain once. In fake CUDA (torch 2.13) a GroupNorm,
SiLU, replicate pad and Conv3d twice over `(1, 512, 8, 90, 160)` bf16 (magi's passes) went from
15 launches, with two fp32 buffers of 59M elements, to 13 and none: the norm, SiLU and pad
write the convolution's channels-last input in one kernel.

Only where it pays: a value whose readers (and their readers, through the chain ops) all
keep its shape is left alone (`skipped_fused`). Inductor fuses such a stored value into the
kernel that reads it and drops the store, so nothing is written there; copying only made the
generated code larger. That was measured first: Allegro's decoder pads its frames before
each norm, not after it, and with every multi-reader chain copied its code generation in fake
CUDA (height 45, width 80) took 94.6 s instead of 80.3, for 1407 launches instead of 1413.

Where it stops: only the nodes of the reader's own size are copied; smaller operands (per-group
or per-channel statistics, weights) stay shared, since Inductor keeps them apart or inlines them
either way. A chain longer than `MAX_CHAIN` nodes, a reader that is not cheap (a convolution, a
reduction: it needs the value stored anyway), more than `MAX_READERS` readers, or a symbolic size
leaves the value alone. The pass runs before `ConvChannelsLastPass`, whose clones then convert
each copy where it is written.

Why it is the same: every copy computes the same ops on the same inputs in the same order and
dtypes; only where the fp32 intermediate lives changes (a register instead of a buffer), so the
values are bit-identical.

Opt-in (`PassConfig.recompute_norm_producers`): not yet timed on a GPU. Counts in
`PassResult.counts`: `values_recomputed` (values given copies), `chain_copies` (copies made),
`skipped_few_reads` (values Inductor would inline anyway), `skipped_fused` (no reader changes
the shape), `skipped_readers` (a reader is not cheap, or too many), `skipped_chain` (too long,
or a symbolic size).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import torch
from torch._inductor import config as inductor_config

from ..fx.nodes import fake_value
from .base import MagiPass, PassResult

aten = torch.ops.aten
prims = torch.ops.prims

COUNT_KEYS = (
    "values_recomputed",
    "chain_copies",
    "skipped_few_reads",
    "skipped_fused",
    "skipped_readers",
    "skipped_chain",
)
MAX_CHAIN = 40
MAX_READERS = 4
_POINTWISE = (
    aten.add.Tensor,
    aten.sub.Tensor,
    aten.mul.Tensor,
    aten.div.Tensor,
    aten.neg.default,
    aten.exp.default,
    aten.rsqrt.default,
    aten.sigmoid.default,
    prims.convert_element_type.default,
)
_VIEWS = (
    aten.reshape.default,
    aten.view.default,
    aten.unsqueeze.default,
    aten.squeeze.dim,
    aten.permute.default,
    aten.expand.default,
)
#: the ops a copied chain may consist of
CHAIN_OPS = frozenset((*_POINTWISE, *_VIEWS))
#: the readers that write a different shape than they read (a frame pad, a window)
RESIZERS = frozenset((aten.slice.Tensor, aten.cat.default))
#: the readers a value may have for its chain to be copied for them
READERS = frozenset((*_POINTWISE, *RESIZERS))


def _numel(node: Any) -> int | None:
    value = fake_value(node)
    if not isinstance(value, torch.Tensor):
        return None
    sizes = value.shape
    return math.prod(sizes) if all(isinstance(s, int) for s in sizes) else None


def _feeds_a_resize(value: torch.fx.Node) -> bool:
    """Whether ``value``, or a value of its size computed from it by `CHAIN_OPS` alone, is read
    by a `RESIZERS` op. Otherwise every reader has the value's iteration space and Inductor
    fuses the stored value into the kernel that reads it, dropping the store (SiLU right
    before a convolution): copying would only add work to its code generation."""
    size = _numel(value)
    stack: list[torch.fx.Node] = [value]
    seen: set[torch.fx.Node] = set()
    while stack and len(seen) <= MAX_CHAIN:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for reader in node.users:
            if reader.op != "call_function":
                continue
            if reader.target in RESIZERS:
                return True
            if reader.target in CHAIN_OPS and _numel(reader) == size:
                stack.append(reader)
    return False


def producer_chain(value: torch.fx.Node) -> tuple[list[torch.fx.Node], set[torch.fx.Node]] | None:
    """The chain that computes ``value``: its `CHAIN_OPS` ancestors of ``value``'s size (itself
    included) in an order where every node comes after the chain nodes it reads (so ``value``
    last), and the nodes they read that are not in it (its inputs); None where it is longer than
    `MAX_CHAIN` or a size is symbolic."""
    size = _numel(value)
    if size is None:
        return None
    chain: list[torch.fx.Node] = []
    inputs: set[torch.fx.Node] = set()
    seen: set[torch.fx.Node] = set()
    members = 0
    # depth first; a member is appended once every node pushed above it, its reads, is done
    stack: list[tuple[torch.fx.Node, bool]] = [(value, False)]
    while stack:
        node, reads_done = stack.pop()
        if reads_done:
            chain.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        if node.op == "call_function" and node.target in CHAIN_OPS and _numel(node) == size:
            members += 1
            if members > MAX_CHAIN:
                return None
            stack.append((node, True))
            stack.extend((read, False) for read in node.all_input_nodes)
        else:
            inputs.add(node)
    return chain, inputs


def _copy_chain(
    graph: torch.fx.Graph, chain: list[torch.fx.Node], *, before: torch.fx.Node
) -> torch.fx.Node:
    """A copy of ``chain`` (`producer_chain`'s order, its value last) inserted before ``before``,
    reading the chain's own inputs; returns the copy of the value."""
    copies: dict[torch.fx.Node, torch.fx.Node] = {}
    with graph.inserting_before(before):
        for node in chain:
            copies[node] = graph.node_copy(node, lambda a: copies.get(a, a))
    return copies[chain[-1]]


class ProducerRecomputePass(MagiPass):
    """A full-size pointwise chain with several cheap readers copied for each of them (module
    docstring)."""

    name: ClassVar[str] = "producer_recompute"

    def enabled(self) -> bool:
        return self.config.recompute_norm_producers

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        counts = dict.fromkeys(COUNT_KEYS, 0)
        result = PassResult(self.name, applied=False, reason="", counts=counts)
        for value in list(graph.nodes):  # in order: a chain's inner readers are split first
            if value.op != "call_function" or value.target not in CHAIN_OPS:
                continue
            readers = list(value.users)
            if len(readers) < 2:
                continue
            if len(readers) > MAX_READERS or any(
                r.op != "call_function" or r.target not in READERS for r in readers
            ):
                counts["skipped_readers"] += 1
                continue
            if not _feeds_a_resize(value):
                counts["skipped_fused"] += 1
                continue
            found = producer_chain(value)
            if found is None:
                counts["skipped_chain"] += 1
                continue
            chain, inputs = found
            # Inductor's own threshold, as the compile being run has it (4 unless patched)
            if len(inputs) <= inductor_config.realize_reads_threshold:
                counts["skipped_few_reads"] += 1
                continue
            for reader in readers[1:]:
                reader.replace_input_with(value, _copy_chain(graph, chain, before=reader))
                counts["chain_copies"] += 1
            counts["values_recomputed"] += 1
        if counts["values_recomputed"]:
            graph.lint()
            result.applied = True
            result.reason = (
                f"{counts['values_recomputed']} value(s) recomputed for each reader "
                f"({counts['chain_copies']} chain copies)"
            )
        else:
            result.reason = "no stored pointwise chain with several cheap readers"
        return result
