"""`DynamicReshapePass`: merging reshapes get the product of the dims they merge as their size.

Also simplifies provably-resolvable `Max` in graph-output strides, and (opt-in) buckets symbolic
reduction sizes; both below.

Matches: every `aten.view.default`, `aten.reshape.default` and `aten._unsafe_view.default` in the
post-grad graph that has a symbolic source shape or target size, whose every target dim is
provably the product of one consecutive group of source dims (a pure merge; one-dim groups and
size-1 dims allowed), and where at least one merged target entry is a *different expression*
than the product of its group (`s` for the group `(4, s//4)`) while provably equal to it.

Emits: for each such entry, the product of its group, built in the graph from
`aten.sym_size.int(source, dim)` nodes and `operator.mul` (sizes provably constant enter as one
int factor); the view's size list gets the product node instead of the old entry. Each new node's
`meta["val"]` is the SymInt of its product (`4*(s//4)`); the view's fake value gets the new sizes
over the old strides, storage and offset. Size computations the view no longer uses (and nothing
else does) are erased; placeholders are kept.

Why (pytorch#181108): Inductor lowers a view of size `[B, T, s, D]` over a source of size
`[B, T, 4, s//4, D]` with the index `ModularIndexing(h, 1, 4*(s//4))`. Its range simplifier knows
`h < s` but not `h < 4*(s//4)` (the divisibility guard `Eq(4*(s//4), s)` is recorded but not used
there), so the modulo stays, `convert_to_reinterpret_view` fails, and the output is copied by an
extra kernel. With the size written as `4*(s//4)` the merged index is `h0*(s//4) + h1` and the view
is a reinterpretation. The same index simplification helps when the source is permuted (Swin's
window reverse), so non-contiguous sources are rewritten too. Counts: docs/dynamic-shapes.md.

Why it is safe: the new entry equals the old one for every input the compiled graph accepts. The
equality is proved with `statically_known_true` from the facts the ShapeEnv already holds (its
guards, replacements, divisibility and value ranges), which never adds a guard and never
specialises a symbol: no `int(sym)`, no `guard_*`, no `evaluate_expr`. A reshape's result depends
only on its sizes, so the tensor is the same, and no new aliasing appears (the node stays the same
view of the same source). `meta["val"]` stays true: the new fake value has provably equal sizes and
the old strides, storage and offset; it is made with `as_strided` under the ShapeEnv's
`suppress_guards()`, and the pass asserts that the ShapeEnv recorded no guard.

Skipped (counted in `PassResult.counts`; the reason says which):

- graphs with no view/reshape, and static graphs (no symbolic size in any of them);
- `views_static`: a view/reshape without symbolic sizes in a dynamic graph;
- `views_skipped_split`: some target dim splits a source dim (`[s] -> [4, s//4]`): a split
  indexes with the split sizes and does not need this;
- `views_skipped_unprovable`: some target dim matches no consecutive group of source dims by the
  ShapeEnv's static facts (`[s0, s1] -> [s2]`, where `s2 == s0*s1` would need a new guard);
- `views_already_product`: every merged entry already is the product expression;
- `views_skipped_fake_value`: the new fake value could not be made without a guard (an unbacked
  size the layout code asks about); the view is left as it was.

Second, on dynamic graphs: graph outputs (in training also the saved activations) whose fake
strides contain a `Max(a, b, ...)` that provably equals one of its arguments get that argument
(`Max(1, s//4)` -> `s//4` when the ShapeEnv proves `s//4 >= 1`). Inductor lays outputs out with
their fake strides; the kernel that computes them writes `s//4`-strided buffers, the index
expressions differ, and the output gets a pointwise kernel of its own (the last extra forward
kernel of pytorch#181108's training graph). Safe for the same reasons: the strides are equal for
every accepted input (proved with `statically_known_true`, new SymInts keep the old hints),
the new fake value is `as_strided` over the old one under `suppress_guards()`, and placeholders
are never touched. Counted as `outputs_restrided` and `strides_simplified`.

Opt-in, off by default (`PassConfig.bucket_dynamic_reductions`), and *not* guard-free: with the
view rewrite, dynamic shapes reach static kernel counts but keep looped reductions over a symbolic
reduction size (pytorch#181108: ~5x slower than static at equal counts). `bucket_dynamic_reductions`
guards each reduction over one symbol `r` (hint `h <= 1024`) into its power-of-two bucket
`b // 2 < r <= b`, `b = next_power_of_2(h)`; Inductor then emits a persistent reduction with
`R0_BLOCK = b`, as for static shapes, and a size outside the bucket recompiles. Counted as
`reductions_bucketed`, `reductions_already_bounded`, `reductions_skipped_compound` (not a single
symbol, or unbacked), `reductions_skipped_large` (hint > 1024), `reductions_skipped_small` (hint
<= 2: the bucket would pin the size) and `reductions_skipped_frozen` (a
backward graph compiled after Dynamo's guards were built: guards there would be ignored, so none
is added).
"""

from __future__ import annotations

import contextlib
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import sympy
import torch
from torch.fx.experimental.symbolic_shapes import free_symbols, guard_bool

from ..fx.symbolic import canonical_sizes, known_equal, known_true, simplify_max, sym_expr
from .base import MagiPass, PassResult

aten = torch.ops.aten

VIEW_TARGETS = (aten.view.default, aten.reshape.default, aten._unsafe_view.default)


def _has_symbols(values: Sequence[Any]) -> bool:
    return any(isinstance(v, torch.SymInt) and free_symbols(v) for v in values)


@dataclass(frozen=True)
class MergeGroup:
    """Target dim `target_dim` covers source dims `start..stop-1` (empty for an inserted 1)."""

    target_dim: int
    start: int
    stop: int


def _product(values: Sequence[Any]) -> Any:
    out: Any = 1
    for v in values:
        out = out * v
    return out


def match_merge_groups(
    source: Sequence[Any], target: Sequence[Any]
) -> tuple[list[MergeGroup] | None, str]:
    """Group `source` dims so that each `target` dim is the product of one consecutive group.

    Returns `(groups, "")` for a pure merge, or `(None, "split" | "unprovable")`. Equalities are
    proved with static facts only. Source dims of size 1 join the group before them (or the
    first group); a target dim of size 1 that no source dim matches is an empty group.
    """
    groups: list[MergeGroup] = []
    i, n = 0, len(source)
    for j, t in enumerate(target):
        if i < n and known_equal(source[i], t):
            groups.append(MergeGroup(j, i, i + 1))
            i += 1
            continue
        if known_equal(t, 1):
            groups.append(MergeGroup(j, i, i))
            continue
        product: Any = source[i] if i < n else 1
        stop = None
        for k in range(i + 1, n):
            product = product * source[k]
            if known_equal(product, t):
                stop = k + 1
                break
        if stop is None:
            return None, _classify_failure(source, target, i, j)
        groups.append(MergeGroup(j, i, stop))
        i = stop
    # trailing source dims must all be 1: they join the last group
    while i < n:
        if not known_equal(source[i], 1) or not groups:
            return None, "unprovable"
        last = groups[-1]
        groups[-1] = MergeGroup(last.target_dim, last.start, i + 1)
        i += 1
    # leading/inner source 1s skipped by an empty target group are fine: the sizes match in value
    return groups, ""


def _classify_failure(source: Sequence[Any], target: Sequence[Any], i: int, j: int) -> str:
    """Whether target dims `j..` split source dim `i` (provably), or nothing can be proved."""
    if i >= len(source):
        return "unprovable"
    product: Any = target[j]
    for m in range(j + 1, len(target)):
        product = product * target[m]
        if known_equal(product, source[i]):
            return "split"
    return "unprovable"


_SYM_OPS = (
    aten.sym_size.int,
    operator.mul,
    operator.floordiv,
    operator.add,
    operator.sub,
    operator.mod,
)


def _erase_if_unused_sym(graph: torch.fx.Graph, node: torch.fx.Node) -> None:
    """Erase a size computation nothing uses any more, and then its unused inputs."""
    if node.op != "call_function" or node.target not in _SYM_OPS or node.users:
        return
    inputs = [a for a in node.args if isinstance(a, torch.fx.Node)]
    graph.erase_node(node)
    for a in inputs:
        if isinstance(a.meta.get("val"), torch.SymInt):
            _erase_if_unused_sym(graph, a)


def _graph_has_symbols(graph: torch.fx.Graph) -> bool:
    for node in graph.find_nodes(op="placeholder"):
        val = node.meta.get("val")
        if isinstance(val, (torch.Tensor, torch.SymInt)) and free_symbols(val):
            return True
    return False


def _fake_mode_of(val: Any) -> Any:
    from torch._guards import detect_fake_mode

    return detect_fake_mode([val])


# reductions whose reduced size Inductor may make persistent; value: where `dim` is (None: all)
REDUCTION_DIM_ARG: dict[Any, int | None] = {
    aten.sum.dim_IntList: 1,
    aten.sum.default: None,
    aten.mean.dim: 1,
    aten.amax.default: 1,
    aten.amin.default: 1,
    aten.prod.dim_int: 1,
    aten.var_mean.correction: 1,
    aten.var.correction: 1,
    aten.argmax.default: 1,
    aten.argmin.default: 1,
    aten.any.dim: 1,
    aten.max.dim: 1,
    aten.min.dim: 1,
}
# Inductor's persistent-reduction threshold for inner reductions (`choices.py`)
PERSISTENT_REDUCTION_LIMIT = 1024


def reduction_size(node: torch.fx.Node) -> Any:
    """The number of elements one output element of a reduction node reduces (int or SymInt)."""
    if node.target not in REDUCTION_DIM_ARG or not isinstance(node.args[0], torch.fx.Node):
        return None
    val = node.args[0].meta.get("val")
    if not isinstance(val, torch.Tensor):
        return None
    pos = REDUCTION_DIM_ARG[node.target]
    dims: Any = None
    if pos is not None:
        dims = node.kwargs.get("dim", node.args[pos] if len(node.args) > pos else None)
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        dims = range(val.dim())
    elif isinstance(dims, int):
        dims = [dims]
    return _product([val.shape[d % val.dim()] for d in dims]) if val.dim() else 1


def _next_power_of_2(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def bucket_dynamic_reductions(graph: torch.fx.Graph, counts: dict[str, int]) -> str:
    """Opt-in: guard each symbolic reduction size `r` into its power-of-two bucket.

    For a reduction over one symbol `r` with hint `h <= 1024`, with `b = next_power_of_2(h)`, add
    the guards `b // 2 < r <= b`. They refine the symbol's range, so Inductor's
    `should_use_persistent_reduction` sees a bounded size and emits a persistent reduction with
    `R0_BLOCK = b`, as for static shapes (at most half of the block masked). This is NOT a
    statically-proved rewrite: the guards become part of Dynamo's guards, and a size outside the
    bucket recompiles (one graph per power-of-two bucket). A frozen ShapeEnv (a backward graph
    compiled after Dynamo installed its guards) is never guarded; its ranges were refined when
    the forward graph was compiled.
    """
    for key in (
        "reductions_bucketed",
        "reductions_already_bounded",
        "reductions_skipped_compound",
        "reductions_skipped_large",
        "reductions_skipped_small",
        "reductions_skipped_frozen",
    ):
        counts.setdefault(key, 0)
    bucketed: list[str] = []
    for node in graph.nodes:
        if node.op != "call_function" or node.target not in REDUCTION_DIM_ARG:
            continue
        size = reduction_size(node)
        if not isinstance(size, torch.SymInt):
            continue
        sym_node = size.node
        hint = getattr(sym_node, "hint", None)
        if not isinstance(sym_node.expr, sympy.Symbol) or not isinstance(hint, int):
            counts["reductions_skipped_compound"] += 1
            continue
        if hint > PERSISTENT_REDUCTION_LIMIT:
            counts["reductions_skipped_large"] += 1
            continue
        if hint <= 2:  # the bucket (1, 2] would pin r to 2: a specialisation, not a bucket
            counts["reductions_skipped_small"] += 1
            continue
        bound = _next_power_of_2(hint)
        if known_true(size <= bound) and known_true(size > bound // 2):
            counts["reductions_already_bounded"] += 1
            continue
        shape_env = sym_node.shape_env
        if getattr(shape_env, "frozen", True) or getattr(shape_env, "_error_on_new_guards", False):
            counts["reductions_skipped_frozen"] += 1
            continue
        # deliberate guards (opt-in): the hint satisfies both, so nothing is specialised to a value
        guard_bool(size <= bound)
        guard_bool(size > bound // 2)
        counts["reductions_bucketed"] += 1
        bucketed.append(f"{sym_node.expr} in ({bound // 2}, {bound}]")
    if bucketed:
        return f"{len(bucketed)} reduction sizes bucketed: {', '.join(bucketed)}"
    return "no reduction size to bucket"


def canonicalize_output_strides(graph: torch.fx.Graph, counts: dict[str, int]) -> str:
    """Graph outputs whose fake strides hold a provably-resolvable `Max` get the plain strides.

    Returns a reason when it changed something, else "".

    Inductor lays out graph outputs (in training: the saved activations too) with the strides of
    their `meta["val"]`. Fake strides of reductions over `s//4` read `Max(1, s//4)` (the
    contiguous-stride formula guards against a size of 0), while the buffers the fused kernel
    writes use `s//4`: the two index expressions differ, and Inductor writes the output in a kernel
    of its own (pytorch#181108, training). When the ShapeEnv already proves `s//4 >= 1`, the
    strides are equal for every input the graph accepts; writing them as `s//4` makes the layouts
    match. Only `call_function` outputs are touched (placeholders describe the inputs).
    """
    counts.setdefault("outputs_restrided", 0)
    counts.setdefault("strides_simplified", 0)
    outputs = graph.find_nodes(op="output")
    if not outputs:
        return ""
    seen: set[torch.fx.Node] = set()
    for node in outputs[0].all_input_nodes:
        if node in seen or node.op != "call_function":
            continue
        seen.add(node)
        val = node.meta.get("val")
        if not isinstance(val, torch.Tensor):
            continue
        strides = list(val.stride())
        new_strides = [simplify_max(st) for st in strides]
        changed = sum(a is not b for a, b in zip(strides, new_strides, strict=True))
        if not changed:
            continue
        mode = _fake_mode_of(val)
        shape_env = getattr(mode, "shape_env", None)
        with contextlib.ExitStack() as stack:
            if mode is not None:
                stack.enter_context(mode)
            if shape_env is not None:
                stack.enter_context(shape_env.suppress_guards())
            try:
                new_val = val.as_strided(val.shape, new_strides, val.storage_offset())
            except Exception:  # a question about an unbacked size: keep the fake value
                counts["outputs_skipped_fake_value"] = (
                    counts.get("outputs_skipped_fake_value", 0) + 1
                )
                continue
        node.meta["val"] = new_val
        counts["outputs_restrided"] += 1
        counts["strides_simplified"] += changed
    if counts["outputs_restrided"]:
        return f"{counts['outputs_restrided']} graph outputs get Max-free strides"
    return ""


class DynamicReshapePass(MagiPass):
    name: ClassVar[str] = "dynamic_reshape"

    def enabled(self) -> bool:
        return self.config.enable_dynamic_reshape

    def bucketing_enabled(self) -> bool:
        """The opt-in reduction bucketing (`PassConfig.bucket_dynamic_reductions`, off by default)."""
        return self.config.bucket_dynamic_reductions

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        result = PassResult(self.name, applied=False, reason="")
        counts = {
            "views_seen": 0,
            "views_rewritten": 0,
            "dims_rewritten": 0,
            "sym_nodes_inserted": 0,
            "views_static": 0,
            "views_already_product": 0,
            "views_skipped_split": 0,
            "views_skipped_unprovable": 0,
            "views_skipped_fake_value": 0,
        }
        result.counts = counts
        reasons = [self._rewrite_views(graph, counts)]
        if _graph_has_symbols(graph):
            reasons.append(canonicalize_output_strides(graph, counts))
        if self.bucketing_enabled():
            reasons.append(bucket_dynamic_reductions(graph, counts))
        result.applied = any(
            counts.get(k, 0) > 0
            for k in ("views_rewritten", "outputs_restrided", "reductions_bucketed")
        )
        result.reason = "; ".join(r for r in reasons if r)
        return result

    def _rewrite_views(self, graph: torch.fx.Graph, counts: dict[str, int]) -> str:
        # graph order: a sym_size node made for one view may be reused by a later one
        views = [n for n in graph.nodes if n.op == "call_function" and n.target in VIEW_TARGETS]
        if not views:
            return "no view/reshape nodes"
        counts["views_seen"] = len(views)
        candidates: list[tuple[torch.fx.Node, torch.Tensor, list[Any]]] = []
        for node in views:
            resolved = self._resolve(node)
            if resolved is None:
                counts["views_skipped_unprovable"] += 1
                continue
            src_val, target = resolved
            if not (_has_symbols(list(src_val.shape)) or _has_symbols(target)):
                counts["views_static"] += 1
                continue
            candidates.append((node, src_val, target))
        if not candidates:
            if counts["views_static"] == len(views):
                return "static shapes: no view/reshape with a symbolic size"
            return "no view/reshape with a symbolic size to prove"
        sym_cache: dict[tuple[torch.fx.Node, int], torch.fx.Node] = {}
        for node, src_val, target in candidates:
            self._rewrite(graph, node, src_val, target, counts, sym_cache)
        if counts["views_rewritten"] == 0:
            skipped = {k: v for k, v in counts.items() if k.startswith("views_") and v}
            return f"no merging view/reshape to rewrite ({skipped})"
        graph.lint()
        return (
            f"{counts['views_rewritten']} of {len(views)} view/reshape nodes get product sizes "
            f"({counts['dims_rewritten']} dims)"
        )

    @staticmethod
    def _resolve(node: torch.fx.Node) -> tuple[torch.Tensor, list[Any]] | None:
        """The source fake value and the target size as ints/SymInts (-1 read from the output)."""
        if len(node.args) < 2 or not isinstance(node.args[0], torch.fx.Node):
            return None
        src_val = node.args[0].meta.get("val")
        out_val = node.meta.get("val")
        size = node.args[1]
        if not isinstance(src_val, torch.Tensor) or not isinstance(out_val, torch.Tensor):
            return None
        if not isinstance(size, (list, tuple)) or len(size) != out_val.dim():
            return None
        target: list[Any] = []
        for j, entry in enumerate(size):
            if isinstance(entry, torch.fx.Node):
                value = entry.meta.get("val")
                if not isinstance(value, (int, torch.SymInt)):
                    return None
                target.append(value)
            elif isinstance(entry, (int, torch.SymInt)):
                # `entry == -1` only on ints: on a SymInt it would be a guard
                target.append(out_val.shape[j] if isinstance(entry, int) and entry == -1 else entry)
            else:
                return None
        return src_val, target

    def _rewrite(
        self,
        graph: torch.fx.Graph,
        node: torch.fx.Node,
        src_val: torch.Tensor,
        target: list[Any],
        counts: dict[str, int],
        sym_cache: dict[tuple[torch.fx.Node, int], torch.fx.Node],
    ) -> None:
        # Groups are proved on the fake value's own sizes (the facts the ShapeEnv holds are stated
        # in them), the products are built from the canonical sizes (what Inductor's IR has);
        # each canonical size is proved equal to its fake size, so the products are equal too.
        raw = list(src_val.shape)
        source = canonical_sizes(raw)
        groups, failure = match_merge_groups(raw, target)
        if groups is None and any(a is not b for a, b in zip(source, raw, strict=True)):
            groups, failure = match_merge_groups(source, target)
        if groups is None:
            counts[f"views_skipped_{failure}"] += 1
            return
        to_rewrite: list[MergeGroup] = []
        for g in groups:
            if g.stop - g.start < 2:
                continue  # one-dim and empty groups: nothing is merged
            product = _product(source[g.start : g.stop])
            if sym_expr(product) != sym_expr(target[g.target_dim]):
                to_rewrite.append(g)
        if not to_rewrite:
            counts["views_already_product"] += 1
            return
        src_node = node.args[0]
        assert isinstance(src_node, torch.fx.Node)
        new_values = list(target)
        for g in to_rewrite:
            new_values[g.target_dim] = _product(source[g.start : g.stop])
        new_val = self._recompute_val(node, new_values)
        if new_val is None:
            counts["views_skipped_fake_value"] += 1
            return
        old_size = list(node.args[1])  # type: ignore[arg-type]
        new_size = list(old_size)
        with graph.inserting_before(node):
            for g in to_rewrite:
                new_size[g.target_dim] = self._product_node(
                    graph, src_node, source, g, counts, sym_cache
                )
        node.args = (src_node, new_size, *node.args[2:])
        node.meta["val"] = new_val
        for entry in old_size:
            if isinstance(entry, torch.fx.Node):
                _erase_if_unused_sym(graph, entry)
        counts["views_rewritten"] += 1
        counts["dims_rewritten"] += len(to_rewrite)

    @staticmethod
    def _product_node(
        graph: torch.fx.Graph,
        src_node: torch.fx.Node,
        source: list[Any],
        group: MergeGroup,
        counts: dict[str, int],
        sym_cache: dict[tuple[torch.fx.Node, int], torch.fx.Node],
    ) -> Any:
        """`sym_size(src, d0) * sym_size(src, d1) * ... * static`, with true `meta["val"]`s."""
        static = math.prod(int(s) for s in source[group.start : group.stop] if isinstance(s, int))
        factors: list[torch.fx.Node] = []
        for d in range(group.start, group.stop):
            if isinstance(source[d], int):
                continue
            key = (src_node, d)
            sym = sym_cache.get(key)
            if sym is None:
                sym = graph.call_function(aten.sym_size.int, (src_node, d))
                sym.meta["val"] = source[d]
                sym_cache[key] = sym
                counts["sym_nodes_inserted"] += 1
            factors.append(sym)
        if not factors:
            return static
        acc: torch.fx.Node = factors[0]
        value: Any = acc.meta["val"]
        for f in factors[1:]:
            value = value * f.meta["val"]
            acc = graph.call_function(operator.mul, (acc, f))
            acc.meta["val"] = value
            counts["sym_nodes_inserted"] += 1
        if static != 1:
            value = value * static
            acc = graph.call_function(operator.mul, (acc, static))
            acc.meta["val"] = value
            counts["sym_nodes_inserted"] += 1
        return acc

    @staticmethod
    def _recompute_val(node: torch.fx.Node, sizes: list[Any]) -> torch.Tensor | None:
        """The view's fake value with the new sizes (the caller proved them equal to the old).

        Not by re-running the view's fake kernel: its contiguity checks evaluate symbolic
        conditions and record guards (measured: `Ne(Mod(4, 4*(s//4)), 0)`). The new sizes equal
        the old ones in value, so the old strides, storage and offset stay valid: `as_strided`
        over the old fake value keeps its aliasing exactly as it was. Even `as_strided` asks
        memory-format questions of its symbolic strides, so it runs under the ShapeEnv's
        `suppress_guards()` (no guard, no replacement, no axiom is recorded): the answers only
        shape the fake tensor's cached layout flags, never the graph. When the old fake value
        already has the new sizes (structurally), it is kept as it is.
        """
        old_val = node.meta["val"]
        if len(sizes) != old_val.dim():
            return None
        if all(sym_expr(a) == sym_expr(b) for a, b in zip(sizes, old_val.shape, strict=True)):
            return old_val
        mode = _fake_mode_of(old_val)
        shape_env = getattr(mode, "shape_env", None)
        n_guards = len(shape_env.guards) if shape_env is not None else 0
        with contextlib.ExitStack() as stack:
            if mode is not None:
                stack.enter_context(mode)
            if shape_env is not None:
                stack.enter_context(shape_env.suppress_guards())
            try:
                new_val = old_val.as_strided(sizes, old_val.stride(), old_val.storage_offset())
            except Exception:  # e.g. a data-dependent question about an unbacked size
                return None
        if shape_env is not None and len(shape_env.guards) != n_guards:  # pragma: no cover
            raise AssertionError(
                f"DynamicReshapePass: as_strided over the fake value of {node.name} recorded "
                f"guards {shape_env.guards[n_guards:]!r}; the rewrite must be guard-free"
            )
        return new_val
