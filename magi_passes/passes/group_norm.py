"""`GroupNormStatsPass`: GroupNorm's statistics per channel first, then per group.

Matches, in the post-grad graph, the statistics half of Inductor's GroupNorm decomposition::

    xg       = reshape(x, [N, G, C // G, S])               # x: (N, C, *spatial), S = prod(spatial)
    var, mu  = var_mean(xg, [2, 3], correction=0, keepdim=True)

Emits::

    var_c, mu_c = var_mean(xg, [3], correction=0, keepdim=True)    # per channel: (N, G, C//G, 1)
    mu          = mean(mu_c, [2], keepdim=True)
    var         = mean(var_c + (mu_c - mu) ** 2, [2], keepdim=True)

Why: where `ConvChannelsLastPass` lays a convolution's output out channels-last, the channels of
a position are adjacent in memory, and a group is C/G of them (4 of 128 in VAEDecoderLike). The
group's reduction walks its positions, so each load takes C/G channels and skips the other C:
the reduction reads scattered 8-byte pieces, several times slower than the channels-first
reduction. Per channel, the reduction over positions
keeps every channel of a position in one tile: the loads are contiguous along the channels
(Inductor's "outer" reduction), and a tiny second reduction combines C/G values per group.

Why it is the same statistic: each channel has the same count S, so the group mean is the mean
of the channel means, and the group's population variance is the mean of the channel variances
plus the variance of the channel means (the parallel-variance identity, exact in real numbers;
both forms are fp32 Welford reductions, so only the order of rounding differs).

Then, in static graphs, the normalisation's two per-group operands (the mean; the rsqrt of the
variance plus eps) are read per channel: each channel combines its own group's channel statistics
(the same operations in the same order, so the same values), one small kernel stores both as
`(N, G, C/G, 1)`, and the apply kernel loads them at the channel's index instead of gathering
them through `c // (C/G)`, which Triton cannot vectorise (`_per_channel_operands`). The affine
and everything after are left alone.

With `PassConfig.group_norm_chunked_stats` (opt-in) a static GroupNorm's positions
are cut into chunks first (`chunk_plan`, `_chunked`): each channel's statistics over each chunk,
then each channel's group operands straight from its group's channels x chunks, so Inductor
makes two kernels instead of splitting a reduction over all positions into stages of its own;
a static size without a usable divisor keeps the per-channel form.

Counted in `PassResult.counts`: `group_norms_rewritten`, `group_norms_chunked` (and, for each
size of chunk reduction made, `chunk_reduction_<outputs>x<positions>`: the (channels x chunks,
positions per chunk) of the reduction Inductor makes of it, by which
`magi_passes.compile.kernel_configs`
knows that kernel), `group_norm_operands_per_channel` (0 where a size is symbolic, or where
Inductor's decomposition already applies the statistics per channel, as its CPU one does), and
the gates:
- `group_norms_skipped_layout`: the graph has no convolution that `ConvChannelsLastPass`
  converted (`channels_last_convs`), so its activations are channels-first and the fused
  reduction already reads contiguous positions;
- `group_norms_skipped_dtype`: the statistics are not computed in fp32 or fp64 (Inductor's
  decomposition upcasts bf16/fp16 to fp32; anything else is left as it is).
A `var_mean` that is not GroupNorm's (not of a 4-D `reshape` of `(N, C, ...)` into
`(N, G, C/G, S)` over dims 2 and 3, population variance, keepdim) is not matched.

Measured (`measured_by = "enable_group_norm_stats"`): the magi backend times a graph it changes
with and without the measured passes and keeps the faster (`magi_passes.compile.decisions`).

Measured: docs/results.md, "GPU suite".
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar

import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true

from ..fx.marks import channels_last_convs
from ..fx.nodes import fake_value, run_on_fake
from ..fx.symbolic import known_equal
from .base import MagiPass, PassResult

aten = torch.ops.aten

COUNT_KEYS = (
    "group_norms_rewritten",
    "group_norms_chunked",
    "group_norm_operands_per_channel",
    "group_norms_skipped_layout",
    "group_norms_skipped_dtype",
)
# `PassConfig.group_norm_chunked_stats`: a group's chunk statistics are combined for each of its
# channels by one persistent reduction, so a group holds at most this many (channels x chunks)
# (Inductor's persistent threshold for a reduction along contiguous memory), and a chunk at least
# CHUNK_MIN_POSITIONS positions
CHUNKS_PER_GROUP_MAX = 1024
CHUNK_MIN_POSITIONS = 32
_STAT_DTYPES = (torch.float32, torch.float64)
# the elementwise ops of the normalisation between the statistics and the grouped activation
_APPLY_OPS = (aten.sub.Tensor, aten.mul.Tensor, aten.add.Tensor, aten.rsqrt.default)


def is_group_norm_stats(node: torch.fx.Node) -> bool:
    """Whether `node` is `var_mean(reshape(x, [N, G, C/G, S]), [2, 3], correction=0,
    keepdim=True)` with `x` of shape `(N, C, ...)`: GroupNorm's statistics as decomposed."""
    if node.op != "call_function" or node.target is not aten.var_mean.correction:
        return False
    if len(node.args) < 2 or node.kwargs.get("correction") != 0 or not node.kwargs.get("keepdim"):
        return False
    grouped = node.args[0]
    if not isinstance(grouped, torch.fx.Node) or grouped.target not in (
        aten.reshape.default,
        aten.view.default,
    ):
        return False
    g, x = fake_value(grouped), fake_value(grouped.args[0])
    if not isinstance(g, torch.Tensor) or not isinstance(x, torch.Tensor):
        return False
    dims = node.args[1]
    if not isinstance(dims, (list, tuple)) or not all(isinstance(d, int) for d in dims):
        return False  # (None: every dim)
    reduced = [d for d in dims if isinstance(d, int)]  # all of them (checked above)
    if g.dim() != 4 or x.dim() < 3 or sorted(d % 4 for d in reduced) != [2, 3]:
        return False
    return statically_known_true(g.shape[0] == x.shape[0]) and statically_known_true(
        g.shape[1] * g.shape[2] == x.shape[1]
    )


class GroupNormStatsPass(MagiPass):
    """GroupNorm's statistics per channel, then per group, where activations are channels-last
    (module docstring)."""

    name: ClassVar[str] = "group_norm_stats"
    measured_by: ClassVar[str | None] = "enable_group_norm_stats"

    def enabled(self) -> bool:
        return self.config.enable_group_norm_stats

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        counts = dict.fromkeys(COUNT_KEYS, 0)
        result = PassResult(self.name, applied=False, reason="", counts=counts)
        stats = [n for n in graph.nodes if is_group_norm_stats(n)]
        if not stats:
            result.reason = "no GroupNorm statistics"
            return result
        if channels_last_convs(graph) == 0:
            counts["group_norms_skipped_layout"] = len(stats)
            result.reason = "no channels-last convolution: GroupNorm reads contiguous positions"
            return result
        for node in stats:
            if fake_value(node.args[0]).dtype not in _STAT_DTYPES:
                counts["group_norms_skipped_dtype"] += 1
                continue
            shape = fake_value(node.args[0]).shape
            chunks = chunk_plan(shape) if self.config.group_norm_chunked_stats else None
            counts["group_norm_operands_per_channel"] += self._rewrite(graph, node, chunks)
            counts["group_norms_rewritten"] += 1
            if chunks is not None:
                counts["group_norms_chunked"] += 1
                n, g, k, _ = shape
                key = chunk_reduction_key(n * g * k * chunks[0], chunks[1])
                counts[key] = counts.get(key, 0) + 1
        if counts["group_norms_rewritten"]:
            result.applied = True
            result.reason = (
                f"{counts['group_norms_rewritten']} GroupNorm statistic(s) reduced per channel, "
                f"then per group"
            )
        else:
            result.reason = "no GroupNorm statistics qualify (see counts)"
        return result

    @staticmethod
    def _rewrite(
        graph: torch.fx.Graph, stats: torch.fx.Node, chunks: tuple[int, int] | None = None
    ) -> int:
        """Replace `stats`'s two results with the per-channel-then-per-group ones (with
        ``chunks``, `chunk_plan`'s: per channel and chunk of positions, then per group); returns
        how many of the normalisation's operands now read them per channel."""
        grouped = stats.args[0]
        assert isinstance(grouped, torch.fx.Node)

        mode_of = fake_value(grouped)  # new values are made under the fake mode of the graph's own

        created: list[torch.fx.Node] = []  # every node of this rewrite

        def add(
            target: Any,
            args: tuple[Any, ...],
            fn: Callable[..., Any],
            kwargs: dict[str, Any] | None = None,
        ) -> torch.fx.Node:
            node = graph.call_function(target, args, kwargs or {})
            values = [fake_value(a) if isinstance(a, torch.fx.Node) else a for a in args]
            node.meta["val"] = run_on_fake(mode_of, lambda _: fn(*values))
            created.append(node)
            return node

        with graph.inserting_before(stats):
            if chunks is None:
                per_channel = add(
                    aten.var_mean.correction,
                    (grouped, [3]),
                    lambda t, dims: torch.var_mean(t, dims, correction=0, keepdim=True),
                    {"correction": 0, "keepdim": True},
                )
                var_c = add(operator.getitem, (per_channel, 0), operator.getitem)
                mean_c = add(operator.getitem, (per_channel, 1), operator.getitem)
                mean, var = _combine(add, mean_c, var_c, dims=[2])
                twins = _per_channel_twins(add, grouped, mean_c, var_c)
            else:
                mean, var, twins = _chunked(add, grouped, chunks)
        for user in list(stats.users):
            if user.target is operator.getitem and user.args[1] in (0, 1):
                user.replace_all_uses_with(var if user.args[1] == 0 else mean)
                graph.erase_node(user)
        if not stats.users:
            graph.erase_node(stats)
        if twins is None:
            return 0
        replaced = _per_channel_operands(graph, grouped, {mean: twins[0], var: twins[1]}, add)
        _drop_orphans(graph, created, roots=(mean, var))
        return replaced


def _drop_orphans(
    graph: torch.fx.Graph, created: list[torch.fx.Node], roots: tuple[Any, ...]
) -> None:
    """Erase what the rewrite left unused: its own nodes that nothing reads (the twins where no
    operand was per group, Inductor's CPU form) and, once every operand reads per channel, the
    per-group statistics (`roots`) with the ops that derived the old operands from them (the
    variance plus eps, its rsqrt). Inductor's scheduler would drop their buffers unrun, but only
    after lowering them and weighing them for fusion, which costs compile time on decoders with
    many GroupNorms. Only pure nodes computed from `roots`, or made by the rewrite, are erased."""
    region = set(created)
    seen: set[torch.fx.Node] = set()
    stack = [r for r in roots if isinstance(r, torch.fx.Node)]
    while stack:  # everything computed from the per-group statistics
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            stack.extend(node.users)
    region |= seen
    pending = [n for n in region if not n.users]
    while pending:
        node = pending.pop()
        if node not in region or node.users or node.op != "call_function" or node.is_impure():
            continue  # (erased already, read again, or not ours to drop)
        inputs = node.all_input_nodes
        graph.erase_node(node)
        region.discard(node)
        pending.extend(i for i in inputs if i in region and not i.users)


Add = Callable[..., torch.fx.Node]


def _combine(
    add: Add, mean_c: torch.fx.Node, var_c: torch.fx.Node, dims: list[int]
) -> tuple[Any, Any]:
    """The group's mean and population variance from its parts' (channels, or channels' chunks
    of positions, all of one count; over `dims`, kept): the mean of the means, and the mean of
    each part's variance plus its mean's squared deviation."""
    mean = add(aten.mean.dim, (mean_c, dims, True), torch.mean)
    spread = add(aten.sub.Tensor, (mean_c, mean), torch.sub)
    square = add(aten.mul.Tensor, (spread, spread), torch.mul)
    within = add(aten.add.Tensor, (var_c, square), torch.add)
    var = add(aten.mean.dim, (within, dims, True), torch.mean)
    return mean, var


def chunk_plan(shape: Any) -> tuple[int, int] | None:
    """How `PassConfig.group_norm_chunked_stats` cuts the positions of a grouped activation of
    ``shape`` `(N, G, C/G, S)`: ``(chunks, positions per chunk)``, the most chunks that divide S
    with at most `CHUNKS_PER_GROUP_MAX` chunks of the group's channels together and at least
    `CHUNK_MIN_POSITIONS` positions each; None (per channel, as without the option) where a
    size is symbolic or fewer than two chunks qualify."""
    if len(shape) != 4 or not all(isinstance(d, int) for d in shape):
        return None
    _, _, k, positions = shape
    most = min(CHUNKS_PER_GROUP_MAX // max(k, 1), positions // CHUNK_MIN_POSITIONS)
    chunks = next((p for p in range(most, 1, -1) if positions % p == 0), None)
    return None if chunks is None else (chunks, positions // chunks)


CHUNK_REDUCTION_PREFIX = "chunk_reduction_"


def chunk_reduction_key(outputs: int, positions: int) -> str:
    """The `PassResult.counts` key of a chunk reduction with ``outputs`` (batch x channels x
    chunks) each over ``positions``: ``chunk_reduction_<outputs>x<positions>``."""
    return f"{CHUNK_REDUCTION_PREFIX}{outputs}x{positions}"


def chunk_reductions(counts: dict[str, int]) -> frozenset[tuple[int, int]]:
    """The (outputs, positions) of every chunk reduction recorded in a `PassResult.counts`."""
    sizes = set()
    for key in counts:
        if key.startswith(CHUNK_REDUCTION_PREFIX):
            outputs, _, positions = key[len(CHUNK_REDUCTION_PREFIX) :].partition("x")
            sizes.add((int(outputs), int(positions)))
    return frozenset(sizes)


def _chunked(
    add: Add, grouped: torch.fx.Node, chunks: tuple[int, int]
) -> tuple[Any, Any, tuple[torch.fx.Node, torch.fx.Node]]:
    """GroupNorm's statistics from chunks of positions (`PassConfig.group_norm_chunked_stats`):
    each channel's over each chunk, `(N, P, G, C/G)` with the channels innermost (the reduction
    reads a channels-last activation's channels together, as the per-channel one does), then
    the group's `(N, G, 1, 1)` and, for each channel, its group's `(N, G, C/G, 1)` (the twins,
    `_per_channel_twins`), each combining the group's C/G x P chunks."""
    n, g, k, _ = fake_value(grouped).shape
    p, length = chunks
    cut = add(aten.reshape.default, (grouped, [n, g, k, p, length]), torch.reshape)
    moved = add(aten.permute.default, (cut, [0, 3, 1, 2, 4]), torch.permute)
    parts = add(
        aten.var_mean.correction,
        (moved, [4]),
        lambda t, dims: torch.var_mean(t, dims, correction=0, keepdim=False),
        {"correction": 0, "keepdim": False},
    )
    var_p = add(operator.getitem, (parts, 0), operator.getitem)  # (N, P, G, C/G)
    mean_p = add(operator.getitem, (parts, 1), operator.getitem)
    mean_g, var_g = _combine(add, mean_p, var_p, dims=[1, 3])  # (N, 1, G, 1)
    mean = add(aten.reshape.default, (mean_g, [n, g, 1, 1]), torch.reshape)
    var = add(aten.reshape.default, (var_g, [n, g, 1, 1]), torch.reshape)

    mean_t, var_t = _combine(
        add, _across(add, mean_p, [n, p, g], k), _across(add, var_p, [n, p, g], k), dims=[1, 4]
    )
    twins = tuple(
        add(aten.reshape.default, (t, [n, g, k, 1]), torch.reshape) for t in (mean_t, var_t)
    )
    return mean, var, (twins[0], twins[1])


def _per_channel_twins(
    add: Add, grouped: torch.fx.Node, mean_c: torch.fx.Node, var_c: torch.fx.Node
) -> tuple[torch.fx.Node, torch.fx.Node] | None:
    """The group's mean and variance once per channel, `(N, G, C/G, 1)`: each channel combines
    the C/G channels of its group itself (`_combine` over a broadcast of the channel statistics:
    the same operations in the same order, so the same values). Computed this way, with no
    per-group tensor in between, Inductor stores both in one small kernel (a per-group value
    broadcast to the channels would be stored first, then copied).

    None (the per-group operands are left as they are) where any size of the grouped activation
    is symbolic: on VAEDecoderLike with dynamic H/W the dynamic graph was slower with it, while
    the static one gained."""
    n, g, k, positions = fake_value(grouped).shape
    if not all(isinstance(d, int) for d in (n, g, k, positions)):
        return None

    return _combine(add, _across(add, mean_c, [n, g], k), _across(add, var_c, [n, g], k), dims=[3])


def _across(add: Add, stat: torch.fx.Node, lead: list[int], k: int) -> torch.fx.Node:
    """A group's k channel statistics (`stat`: the ``lead`` dims, then its k values) as each of
    its channels sees them: ``[*lead, j, i] = stat[*lead, i]`` for every channel j."""
    row = add(aten.reshape.default, (stat, [*lead, 1, k]), torch.reshape)
    return add(aten.expand.default, (row, [*lead, k, k]), torch.Tensor.expand)


def _per_channel_operands(
    graph: torch.fx.Graph,
    grouped: torch.fx.Node,
    twins: dict[torch.fx.Node, torch.fx.Node],
    add: Add,
) -> int:
    """Where the normalisation broadcasts a per-group value (the mean; the rsqrt of the variance
    plus eps) over `grouped`, read it per channel instead, from a buffer of its own: the value's
    per-channel twin (`twins`, the ops between the statistic and the broadcast replayed on it),
    stored `(N, G, C/G, 1)` contiguous, so that the apply kernel loads it at the channel's index.
    Read per group, a channels-last apply kernel indexes it by `c // (C/G)`: a gather per element
    that Triton cannot vectorise, at about half the bandwidth of the per-channel load. Returns
    how many operands it replaced."""
    full = tuple(fake_value(grouped).shape)
    stored: dict[torch.fx.Node, torch.fx.Node] = {}

    def store(twin: torch.fx.Node) -> torch.fx.Node:
        if twin not in stored:
            with graph.inserting_after(twin):
                copy = add(aten.clone.default, (twin,), torch.clone)
            with graph.inserting_after(copy):
                # Inductor stores the input of `as_strided` in a buffer of its own (the copy is
                # not a view, so nothing is unwrapped) and reads it with these sizes and strides
                value = fake_value(copy)
                stored[twin] = add(
                    aten.as_strided.default,
                    (copy, list(value.shape), list(value.stride())),
                    torch.as_strided,
                )
        return stored[twin]

    replaced = 0
    pending = list(twins)
    while pending:
        small = pending.pop()
        twin = twins[small]
        small_shape = tuple(fake_value(small).shape)
        for user in list(small.users):
            if user.op != "call_function" or user.target not in _APPLY_OPS:
                continue
            shape = tuple(fake_value(user).shape)
            if _same_shape(shape, full):
                user.replace_input_with(small, store(twin))
                replaced += 1
            elif _same_shape(shape, small_shape) and user not in twins:
                # still per group (eps added, rsqrt taken): the same op on the twin
                args = tuple(twin if a is small else a for a in user.args)
                with graph.inserting_after(twin):
                    twins[user] = add(user.target, args, user.target, dict(user.kwargs))
                pending.append(user)
    return replaced


def _same_shape(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Equal sizes, proved from static facts only (never a guard)."""
    return len(a) == len(b) and all(known_equal(x, y) for x, y in zip(a, b, strict=True))
