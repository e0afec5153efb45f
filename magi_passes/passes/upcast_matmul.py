"""`UpcastMatmulPass`: a batched matmul of fp32 operands that are exact upcasts of bf16 or fp16
tensors runs on those tensors with an fp32 output (`aten.bmm.dtype`, tensor cores), instead of
as an fp32 matmul.

Matches, in the post-grad graph::

    a = shape_ops(mul(convert_element_type(x, float32), s))     # x: bf16 or fp16
    b = shape_ops(mul(convert_element_type(y, float32), t))     # the same dtype as x
    z = bmm(a, b)                                               # fp32

where each `mul` by a Python number is optional and `shape_ops` is a chain of reshape, view,
expand, permute, transpose and unsqueeze (in any order with the `mul`, which commutes with
them). Emits::

    z = bmm.dtype(shape_ops(x), shape_ops(y), float32) * (s * t)

The operands hold the same values as before (an upcast is exact), the products are accumulated
in fp32 as before, and the constant factor moves out of the sum: the output is the fp32
matmul's up to the order of its fp32 sums (and one rounding of `s * t` where it is not a power
of two).

This is the first matmul of PyTorch's math attention (`_scaled_dot_product_attention_math`,
which upcasts bf16 and fp16 to fp32 first and scales q and k by the fourth root of the scale
each): what `F.scaled_dot_product_attention` runs where no fused kernel takes its inputs, such
as Cosmos's decoder's spatial attention (one head of 512 channels over 3 x 14080 tokens, its
channels not contiguous), where the two fp32 matmuls took most of the decode's GPU time.

The second matmul (the probabilities times v) has one upcast operand: the other is the
softmax's fp32 output, which rounding to bf16 would change (by about one bf16 rounding of the
attention's output, as fused attention kernels do). With `PassConfig.upcast_matmul_split` it is
split instead (where the upcast operand is bf16, which has fp32's exponent range; fp16 would
overflow), into two bf16 parts: ``hi = convert(p, bf16)`` and ``lo = convert(p - hi, bf16)``,
and the matmul becomes ``bmm.dtype(hi, v) + bmm.dtype(lo, v)`` (operands in their places,
fp32 outputs). ``hi + lo`` keeps 16 significant bits of each value
where fp32 keeps 24, against 8 where the probabilities are rounded to bf16
(`tests/test_upcast_matmul.py` bounds the error at Cosmos's shape); Inductor writes both parts
from the softmax's own kernel. The split is counted as `split`.

Skipped (counts in `PassResult.counts`): `skipped_not_upcast` (an operand is not an upcast of
a bf16 or fp16 tensor through those ops, or a shape op takes symbolic sizes, and the matmul is
not split), `skipped_dtypes`
(the two sources differ in dtype), `skipped_device` (not on CUDA: `bmm.dtype` runs there only),
`skipped_symbolic` (the matmul's sizes are symbolic: left to Inductor).

Which attention reaches it is PyTorch's choice at trace time, made on the tensors' strides and
sizes: on a GPU a fused kernel takes most heads, and the math attention runs where none does,
as for Cosmos's spatial attention, whose q, k and v come from its convolutions channels first
(a last dimension of stride 3 x 88 x 160). In fake CUDA on a CPU-only build no fused kernel is
there to choose, so every attention is math: a fake-CUDA count of rewrites is an upper bound.

Opt-in (`PassConfig.enable_upcast_matmul`; the split with `upcast_matmul_split` too, not yet
timed on a GPU) and measured where it is on (`measured_by`). It lengthens the compile, so
Cosmos's form does not take it.

Measured: docs/results.md, "Upcast matmul on Cosmos".
"""

from __future__ import annotations

import numbers
from typing import Any, ClassVar

import torch

from ..fx.nodes import fake_call, fake_value
from .base import MagiPass, PassResult

aten = torch.ops.aten
prims = torch.ops.prims
BMM = aten.bmm.default
UPCAST_FROM = (torch.bfloat16, torch.float16)
COUNT_KEYS = (
    "rewritten",
    "split",
    "skipped_not_upcast",
    "skipped_dtypes",
    "skipped_device",
    "skipped_symbolic",
)
# ops that move or view values without changing them, replayed on the low-precision source
SHAPE_OPS = frozenset(
    {
        aten.reshape.default,
        aten.view.default,
        aten._unsafe_view.default,
        aten.expand.default,
        aten.permute.default,
        aten.transpose.int,
        aten.unsqueeze.default,
    }
)
SCALE_OPS = frozenset({aten.mul.Scalar, aten.mul.Tensor})


def _scalar(value: Any) -> float | None:
    """`value` as a float if it is a Python number (not a bool), else None."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    return None


def upcast_source(
    node: Any,
) -> tuple[torch.fx.Node, list[torch.fx.Node], float] | None:
    """For a bmm operand: the bf16 or fp16 node it is an fp32 upcast of, the shape ops between
    (source side first) and the product of the scalar factors on the way; None where the
    operand is anything else."""
    chain: list[torch.fx.Node] = []
    scale = 1.0
    while isinstance(node, torch.fx.Node) and node.op == "call_function":
        if node.target in SHAPE_OPS:
            if _has_node(node.args[1:]) or _has_node(node.kwargs):
                return None  # symbolic sizes: left to Inductor
            chain.append(node)
            node = node.args[0]
            continue
        if node.target in SCALE_OPS and len(node.args) == 2 and not node.kwargs:
            factor = _scalar(node.args[1])
            if factor is None:
                return None
            scale *= factor
            node = node.args[0]
            continue
        if _is_upcast(node):
            source = node.args[0]
            value = fake_value(source)
            if isinstance(value, torch.Tensor) and value.dtype in UPCAST_FROM:
                assert isinstance(source, torch.fx.Node)
                return source, chain[::-1], scale
        return None
    return None


def _is_upcast(node: torch.fx.Node) -> bool:
    """Whether `node` converts its input to fp32 and changes nothing else: Inductor's
    `convert_element_type`, or `_to_copy` with a dtype only (as traced before decompositions)."""
    if node.target == prims.convert_element_type.default:
        return node.args[1] == torch.float32
    if node.target == aten._to_copy.default:
        return len(node.args) == 1 and node.kwargs == {"dtype": torch.float32}
    return False


def _has_node(args: Any) -> bool:
    """Whether `args` (nested lists, tuples, dicts) holds an fx node."""
    found: list[torch.fx.Node] = []
    torch.fx.node.map_arg(args, found.append)
    return bool(found)


class UpcastMatmulPass(MagiPass):
    """fp32 batched matmuls of upcast bf16/fp16 operands on those operands, with an fp32 output
    (module docstring)."""

    name: ClassVar[str] = "upcast_matmul"
    measured_by: ClassVar[str | None] = "enable_upcast_matmul"

    def enabled(self) -> bool:
        return self.config.enable_upcast_matmul

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        counts = dict.fromkeys(COUNT_KEYS, 0)
        result = PassResult(self.name, applied=False, reason="", counts=counts)
        bmms = list(graph.find_nodes(op="call_function", target=BMM))
        for bmm in bmms:
            self.rewrite(graph, bmm, counts)
        if counts["rewritten"] or counts["split"]:
            graph.lint()
            result.applied = True
            result.reason = (
                f"{counts['rewritten']} fp32 batched matmul(s) of upcast operands on the "
                f"low-precision operands, {counts['split']} with the other operand split in "
                f"two low-precision parts; fp32 out"
            )
        elif bmms:
            result.reason = "no batched matmul of upcast operands (see counts)"
        else:
            result.reason = "no batched matmul"
        return result

    def rewrite(self, graph: torch.fx.Graph, bmm: torch.fx.Node, counts: dict[str, int]) -> None:
        out = fake_value(bmm)
        if not isinstance(out, torch.Tensor) or out.dtype != torch.float32:
            counts["skipped_not_upcast"] += 1
            return
        if out.device.type != "cuda":
            counts["skipped_device"] += 1
            return
        if not all(isinstance(d, int) for d in out.shape):
            counts["skipped_symbolic"] += 1
            return
        sources = [upcast_source(arg) for arg in bmm.args[:2]]
        if sources.count(None) == 1 and self.config.upcast_matmul_split and _splits(sources):
            self.split(graph, bmm, sources)
            counts["split"] += 1
            return
        if any(s is None for s in sources):
            counts["skipped_not_upcast"] += 1
            return
        (a, a_chain, a_scale), (b, b_chain, b_scale) = sources  # type: ignore[misc]
        if fake_value(a).dtype != fake_value(b).dtype:
            counts["skipped_dtypes"] += 1
            return
        with graph.inserting_before(bmm):
            a_low, b_low = _replay(graph, a, a_chain), _replay(graph, b, b_chain)
            new = fake_call(graph, aten.bmm.dtype, (a_low, b_low, torch.float32))
        _replace(graph, bmm, new, a_scale * b_scale)
        counts["rewritten"] += 1

    def split(self, graph: torch.fx.Graph, bmm: torch.fx.Node, sources: list[Any]) -> None:
        """`bmm` with the operand that is no upcast split into two parts of the other's low
        precision, `hi` (its rounding) and `lo` (the rounding of what `hi` left): two
        low-precision matmuls with fp32 outputs, summed. `hi + lo` keeps 16 significant bits of
        each value (bf16) where fp32 keeps 24: attention's second matmul stays within a few
        fp32 roundings of its fp32 output, where rounding the probabilities to bf16 (as fused
        attention kernels do) moves it by about one bf16 rounding."""
        own = sources.index(None)
        source, chain, scale = sources[1 - own]
        operand = bmm.args[own]
        low = fake_value(source).dtype
        with graph.inserting_before(bmm):
            other = _replay(graph, source, chain)
            hi = fake_call(graph, prims.convert_element_type.default, (operand, low))
            back = fake_call(graph, prims.convert_element_type.default, (hi, torch.float32))
            rest = fake_call(graph, aten.sub.Tensor, (operand, back))
            lo = fake_call(graph, prims.convert_element_type.default, (rest, low))
            halves = [
                fake_call(graph, aten.bmm.dtype, (*_in_order(part, other, own), torch.float32))
                for part in (hi, lo)
            ]
            new = fake_call(graph, aten.add.Tensor, tuple(halves))
        _replace(graph, bmm, new, scale)


def _replace(graph: torch.fx.Graph, bmm: torch.fx.Node, new: torch.fx.Node, scale: float) -> None:
    """`bmm`'s users read `new` times `scale` (where it is not 1) instead; `bmm` and what fed
    only it (`_erase_unused`: the upcast operands' fp32 chains) leave the graph."""
    if scale != 1.0:
        with graph.inserting_after(new):
            new = fake_call(graph, aten.mul.Scalar, (new, scale))
    operands = list(bmm.args[:2])
    bmm.replace_all_uses_with(new)
    graph.erase_node(bmm)
    for operand in operands:
        _erase_unused(graph, operand)


def _splits(sources: list[Any]) -> bool:
    """Whether the upcast operand among `sources` is bf16, the only dtype the other, fp32,
    operand can be split into: bf16 has fp32's exponent range, fp16 would overflow above
    65504 and lose values below 6e-8, so an fp16 upcast's matmul keeps its fp32 operand."""
    source = next(s for s in sources if s is not None)[0]
    return fake_value(source).dtype == torch.bfloat16


def _in_order(part: Any, other: Any, own: int) -> tuple[Any, Any]:
    """The two operands of a matmul in their places: `part` at index `own`."""
    return (part, other) if own == 0 else (other, part)


def _erase_unused(graph: torch.fx.Graph, node: Any) -> None:
    """`node` and what fed only it, up its operand chain, where nothing reads them any more
    (the fp32 operands' shape ops, scales and upcasts; never a placeholder)."""
    while isinstance(node, torch.fx.Node) and node.op == "call_function" and not node.users:
        parent = node.args[0] if node.args else None
        graph.erase_node(node)
        node = parent


def _replay(graph: torch.fx.Graph, source: torch.fx.Node, chain: list[torch.fx.Node]) -> Any:
    """`chain`'s shape ops applied to `source` in turn (their own arguments after the first)."""
    node = source
    for op in chain:
        node = fake_call(graph, op.target, (node, *op.args[1:]), dict(op.kwargs))
    return node
