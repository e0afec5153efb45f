"""`ConvInputWindowPass`: a causal conv's cache is read from the conv's input, so the producer of
the new frames writes that input directly.

Matches, in the post-grad graph, a convolution whose input `P` is built from a computed tensor
`x` by data movement alone, and windows of `x` that leave the graph (or feed the next cache)::

    P = clone?(constant_pad_nd?(clone?(cat([cache, x], d))))   # or the same chain without a cat
    y = convolution(P, w, ...)
    window = slice(x, d, -2, end)                                # the cache for the next call

This is how video VAEs (diffusers' Wan 2.x, HunyuanVideo, Mochi) run a causal conv chunk by chunk:
`x = silu(norm(h))`, `cache_x = x[:, :, -2:].clone()`, `conv(pad(cat([cache, x])))`.

Emits: each window read from `P` instead of `x` (a `slice` of `P` per dim: the pads and the
cached frames in front of `x` are stepped over), followed by a contiguous `clone` (what eager's
`.clone()` returns; Inductor's recorded output strides are updated to it). `x` then has one user,
the concatenation. When the pass changed a graph it also raises
`realize_opcount_threshold` (declared) to `INLINE_OPCOUNT` for that compilation.

Why: while `x` has a second user, Inductor lowers the concatenation as a `ConcatKernel` (it avoids
computing `x` twice) and stores `x` into a channels-first buffer; a second kernel then copies that
buffer, with the cache, into the padded channels-last conv input. With one user the concatenation
is a pointwise `cat`, but a normalisation + SiLU inlined into it is ~33-35 operations, over
Inductor's default limit of 30 for inlining a value into its consumer, so it would be stored
anyway; at 64 the producer (statistics applied, SiLU, cache frames, zero pad) is one kernel that
writes the conv input (on the Wan 2.2 decode the copies are the
`triton_poi_fused_cat_constant_pad_nd_convolution` kernels). The window is then copied from `P`
(two frames), where it was a view of `x`'s buffer before.

Why it is safe: `P` holds exactly the values of `x` inside the pads and after the cached frames
(`clone`, `constant_pad_nd` and `cat` move data and never change a value); the window is taken at
the same positions, so its values are bitwise those of the slice of `x`, and the clone makes it a
fresh tensor (no new aliasing; eager returned a clone). Fake values are recomputed for every new
node. The `realize_opcount_threshold` change only decides whether Inductor stores or recomputes a
value; it is restored after the compilation like every declared key.

Skipped: dynamic graphs (a placeholder with free symbols), whole. On the Wan 2.2 decode one
dynamic graph with the rewrite came out wrong: `locate`, with its retries compiled as dynamic as
the run, found the fault deterministic and a
logic error (wrong in fp32 too), cleared by the pass off, by the channels-last rewrite off, or by
`triton.max_tiles=1` (1-D tiles). So Inductor's 2-D tiled code for that dynamic graph is wrong;
static graphs, which every earlier recompile of it was, are right.

Skipped windows (counts in `PassResult.counts`):
- `skipped_other_users`: `x` has a user that is neither the chain to the conv nor a window (a
  slice with step 1): `x` must be stored for it anyway.
- `skipped_symbolic`: a window's position in `P` needs a size that is not a static integer
  (kept for graphs whose placeholders are static but whose sizes are not, e.g. data-dependent
  ones).
- `skipped_dtype`: the concatenation promoted `x` to another dtype.
Graphs without such a conv input are left alone ("no conv input with windows of its producer";
the reason adds when `channels_last_through_cat`, on by default, converted the concatenation
through its inputs: that rewrites the same chain, and this pass then needs it off).

Opt-in (`PassConfig.enable_conv_input_windows`, off by default) and measured where it is on
(`measured_by`): the magi backend times a graph it changes with and without the measured passes
and keeps the faster (`magi_passes.compile.decisions`). It is off because on the Wan 2.2 decode
its gain was within noise, and the dynamic graph above (a `WanResidualBlock`'s cache), now
skipped, came out wrong.

Measured: docs/results.md, "Wan 2.2 decode".
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import torch
from torch._inductor import config as inductor_config

from ..fx.layout import converted_through, set_output_strides
from ..fx.nodes import clone_node, fake_value, is_call, run_on_fake
from ..fx.predicates import is_dynamic
from .base import MagiPass, PassResult, get_inductor_config_value

aten = torch.ops.aten

#: Inductor's default limit (`realize_opcount_threshold`) for inlining a value into its consumer,
#: where the config says None (torch 2.13 keeps the number in a private default; 2.11 in the key)
DEFAULT_OPCOUNT = getattr(inductor_config, "_realize_opcount_threshold_default", 30)
#: the limit while a graph this pass changed is lowered: a norm + SiLU + cat + pad producer is
#: ~33-35 operations (fake CUDA, torch 2.13)
INLINE_OPCOUNT = 64
COUNT_KEYS = (
    "windows_moved",
    "producers_fused",
    "skipped_other_users",
    "skipped_symbolic",
    "skipped_dtype",
)
_END = sys.maxsize  # what `x[a:]` puts in a slice node for "to the end"
_CHAIN_OPS = (aten.clone.default, aten.constant_pad_nd.default)


def _static(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass
class _Span:
    """Where `x` lies in `P` along one dim: `front` elements before it, `back` after it (None
    where that amount is not a static integer)."""

    front: int | None = 0
    back: int | None = 0

    def add(self, front: Any, back: Any) -> None:
        f, b = _static(front), _static(back)
        self.front = None if self.front is None or f is None else self.front + f
        self.back = None if self.back is None or b is None else self.back + b


@dataclass
class _Input:
    """A conv input `P`, the computed tensor `x` it is built from, and where `x` lies in it."""

    conv_input: torch.fx.Node
    producer: torch.fx.Node
    link: torch.fx.Node  # the user of `x` on the way to `P` (the cat, a clone or a pad)
    spans: list[_Span]


def _trace(conv_input: torch.fx.Node) -> list[_Input]:
    """The computed tensors a conv input is built from by clone / pad / cat alone, each with its
    position in the input. Every node between them and `P` must have one user (the next)."""
    val = fake_value(conv_input)
    if not isinstance(val, torch.Tensor):
        return []
    ndim = val.dim()
    spans = [_Span() for _ in range(ndim)]
    node: Any = conv_input
    link = conv_input
    while is_call(node, *_CHAIN_OPS):
        if node is not conv_input and len(node.users) != 1:
            return []
        if node.target is aten.constant_pad_nd.default:
            amounts: Any = node.args[1]
            pads = list(amounts)
            if len(pads) % 2 or len(pads) // 2 > ndim:
                return []
            for i in range(len(pads) // 2):
                front, back = pads[2 * i], pads[2 * i + 1]
                if isinstance(front, int) and isinstance(back, int) and (front < 0 or back < 0):
                    return []  # a crop: x is not wholly inside P
                spans[ndim - 1 - i].add(front, back)
        link, node = node, node.args[0]
        if not isinstance(node, torch.fx.Node):
            return []
    if is_call(node, aten.cat.default):
        if node is not conv_input and len(node.users) != 1:
            return []
        inputs: Any = node.args[0]
        parts = list(inputs)
        cat_dim: Any = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
        dim = cat_dim % ndim
        sizes = [
            fake_value(p).shape[dim] if isinstance(fake_value(p), torch.Tensor) else None
            for p in parts
        ]
        found = []
        for i, part in enumerate(parts):
            part_spans = [_Span(s.front, s.back) for s in spans]
            part_spans[dim].add(sum_or_none(sizes[:i]), sum_or_none(sizes[i + 1 :]))
            found.append(_Input(conv_input, part, node, part_spans))
        return [f for f in found if _is_computed(f.producer)]
    if node is conv_input or not _is_computed(node):
        return []  # the conv reads x itself: nothing to move
    return [_Input(conv_input, node, link, spans)]


def _sliced(dim: Any, start: Any, end: Any, t: Any) -> Any:
    """``aten.slice.Tensor(t, dim, start, end)`` (a fake value's function for `_new_node`)."""
    return aten.slice.Tensor(t, dim, start, end)


def sum_or_none(values: list[Any]) -> int | None:
    """The sum of static integers; None if any is not one."""
    total = 0
    for v in values:
        s = _static(v)
        if s is None:
            return None
        total += s
    return total


def _is_computed(node: Any) -> bool:
    """A pointwise value computed in the graph (what Inductor can inline into the conv input)."""
    if not isinstance(node, torch.fx.Node) or node.op != "call_function":
        return False
    target = node.target
    return isinstance(target, torch._ops.OpOverload) and torch.Tag.pointwise in target.tags


def _window(node: torch.fx.Node, producer: torch.fx.Node) -> tuple[int, int, int] | None:
    """`(dim, start, end)` of a step-1 slice of `producer`, normalised to `producer`'s size along
    `dim` where that size is static (`end` may stay `_END`); None for anything else."""
    if not is_call(node, aten.slice.Tensor) or node.args[0] is not producer:
        return None
    args: list[Any] = list(node.args) + [None] * (5 - len(node.args))
    dim: Any = args[1] if args[1] is not None else node.kwargs.get("dim", 0)
    start: Any = args[2] if args[2] is not None else node.kwargs.get("start", 0)
    end: Any = args[3] if args[3] is not None else node.kwargs.get("end", _END)
    step = args[4] if args[4] is not None else node.kwargs.get("step", 1)
    if start is None:
        start = 0
    if end is None:
        end = _END
    if _static(dim) is None or _static(start) is None or _static(end) is None or step != 1:
        return None
    ndim = fake_value(producer).dim()
    return dim % ndim, start, end


def _slices_in_p(
    span: _Span, size: Any, window: tuple[int, int] | None
) -> tuple[int, int] | None | str:
    """The `(start, end)` of `x`'s window (or all of `x`) in `P` along one dim; None for "no
    slice needed"; "symbolic" when it cannot be said with static integers."""
    n = _static(size)
    if window is None:
        if span.front == 0 and span.back == 0:
            return None
        if span.front is None or span.back is None:
            return "symbolic"
        return span.front, (-span.back if span.back else _END)
    if n is None:
        return "symbolic"
    start, end = window
    a = max(start + n, 0) if start < 0 else min(start, n)
    b = max(end + n, 0) if end < 0 else min(end, n)
    b = max(a, b)
    if span.front is not None:
        return span.front + a, span.front + b
    return "symbolic"


def _new_node(
    graph: torch.fx.Graph,
    target: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    like: torch.fx.Node,
    compute: Callable[[Any], Any],
) -> torch.fx.Node:
    node = graph.call_function(target, args, kwargs)
    node.meta.update({k: v for k, v in like.meta.items() if k != "val"})
    node.meta["val"] = run_on_fake(fake_value(args[0]), compute)
    return node


class ConvInputWindowPass(MagiPass):
    """Windows of a conv input's producer (a causal conv's cache) read from the conv input, so
    the producer writes the conv input directly (module docstring)."""

    name: ClassVar[str] = "conv_input_windows"
    measured_by: ClassVar[str | None] = "enable_conv_input_windows"
    mutates_inductor_config: ClassVar[tuple[str, ...]] = ("realize_opcount_threshold",)

    def enabled(self) -> bool:
        return self.config.enable_conv_input_windows

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        counts = dict.fromkeys(COUNT_KEYS, 0)
        result = PassResult(self.name, applied=False, reason="", counts=counts)
        if is_dynamic(graph):
            result.reason = (
                "dynamic shapes: the rewrite miscompiles in Inductor's 2-D tiled dynamic code "
                "(located on the Wan 2.2 decode)"
            )
            return result
        convs = graph.find_nodes(op="call_function", target=aten.convolution.default)
        seen: set[torch.fx.Node] = set()
        candidates = 0
        for conv in convs:
            conv_input = conv.args[0]
            if not isinstance(conv_input, torch.fx.Node) or conv_input in seen:
                continue
            seen.add(conv_input)
            for found in _trace(conv_input):
                others = [u for u in found.producer.users if u is not found.link]
                if not others:
                    continue
                candidates += 1
                if self._move_windows(graph, found, others, counts):
                    counts["producers_fused"] += 1
        if counts["producers_fused"]:
            # the new windows sit right after their conv input; users placed before it move
            # (imported here: the pattern matcher is a heavy import for `import magi_passes`)
            from torch._inductor.pattern_matcher import stable_topological_sort

            stable_topological_sort(graph)
            current = get_inductor_config_value("realize_opcount_threshold")
            limit = DEFAULT_OPCOUNT if current is None else current
            if limit < INLINE_OPCOUNT:
                self.set_config("realize_opcount_threshold", INLINE_OPCOUNT, result)
            result.applied = True
            result.reason = (
                f"{counts['windows_moved']} window(s) of {counts['producers_fused']} conv-input "
                f"producer(s) now read from the conv input"
            )
        elif candidates:
            result.reason = "no conv-input producer qualifies (see counts)"
        elif self.config.channels_last_through_cat and any(
            converted_through(cat)
            for cat in graph.find_nodes(op="call_function", target=aten.cat.default)
        ):
            result.reason = (
                "no conv input with windows of its producer: channels_last_through_cat converted "
                "the conv input's concatenation through its inputs (set it False to use this pass)"
            )
        else:
            result.reason = "no conv input with windows of its producer"
        return result

    def _move_windows(
        self,
        graph: torch.fx.Graph,
        found: _Input,
        others: list[torch.fx.Node],
        counts: dict[str, int],
    ) -> bool:
        x, p = found.producer, found.conv_input
        x_val, p_val = fake_value(x), fake_value(p)
        if not isinstance(x_val, torch.Tensor) or not isinstance(p_val, torch.Tensor):
            return False
        if x_val.dtype != p_val.dtype:
            counts["skipped_dtype"] += 1
            return False
        plans: list[tuple[torch.fx.Node, list[tuple[int, int, int]]]] = []
        feeds_p = _ancestors(p)
        for user in others:
            window = _window(user, x)
            if window is None or user in feeds_p:  # (a window the conv input is built from)
                counts["skipped_other_users"] += 1
                return False
            dim, start, end = window
            cuts = []
            for d, span in enumerate(found.spans):
                cut = _slices_in_p(span, x_val.shape[d], (start, end) if d == dim else None)
                if cut == "symbolic":
                    counts["skipped_symbolic"] += 1
                    return False
                if cut is not None:
                    cuts.append((d, *cut))
            plans.append((user, cuts))
        for user, cuts in plans:
            self._replace(graph, user, p, cuts)
            counts["windows_moved"] += 1
        return True

    @staticmethod
    def _replace(
        graph: torch.fx.Graph,
        user: torch.fx.Node,
        p: torch.fx.Node,
        cuts: list[tuple[int, int, int]],
    ) -> None:
        """`user` (a slice of x) becomes `clone(slice(...slice(P)...))`, contiguous, placed right
        after `P`."""
        assert p.next is not None
        with graph.inserting_before(p.next):
            node = p
            for dim, start, end in cuts:
                node = _new_node(
                    graph,
                    aten.slice.Tensor,
                    (node, dim, start, end),
                    {},
                    user,
                    partial(_sliced, dim, start, end),
                )
            copy = clone_node(graph, node, torch.contiguous_format)
        user.replace_all_uses_with(copy)
        graph.erase_node(user)
        outputs = graph.find_nodes(op="output")
        if outputs and copy in outputs[0].all_input_nodes:
            set_output_strides(outputs[0], copy)


def _ancestors(node: torch.fx.Node) -> set[torch.fx.Node]:
    seen: set[torch.fx.Node] = set()
    stack = list(node.all_input_nodes)
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(n.all_input_nodes)
    return seen
