"""`DynamicReshapePass`: merging reshapes get the product of the dims they merge as their size.

Matches: every `aten.view.default`, `aten.reshape.default` and `aten._unsafe_view.default` in the
post-grad graph with a symbolic source shape or target size, where every target dim is provably
the product of a consecutive group of source dims (a pure merge; one-dim groups and dims of size
one included), at least one group's target entry is a *different* expression than the product of
its group (`s` where the group is `(4, s//4)`), and the two are provably equal.

Emits: for each such target entry, the product of its group built in the graph from
`aten.sym_size.int(source, dim)` nodes (static sizes folded to one int factor) and
`operator.mul`; the view's size list gets the product node instead of the old entry. Every new
node's `meta["val"]` is the SymInt of the product (`4*(s//4)`), and the view's own fake value is
recomputed from the new size list under the graph's fake mode. Sym nodes the view no longer uses
(and that nothing else uses) are erased; placeholders are kept.

Why (pytorch#181108): Inductor lowers a view whose size is `[B, T, s, D]` over a source of shape
`[B, T, 4, s//4, D]` with the index `ModularIndexing(h, 1, 4*(s//4))`. Its range simplifier knows
`h < s` but not `h < 4*(s//4)` (the divisibility guard `Eq(4*(s//4), s)` is recorded but not used
there), so `convert_to_reinterpret_view` fails and the graph output is copied by an extra kernel.
With the size written as `4*(s//4)` the merged index is plain `h0*(s//4) + h1` and the view is a
reinterpretation: the GQA projection of pytorch#181108 loses its copy kernel (docs/dynamic-shapes.md).

Why it is safe: the new entry equals the old one for every input the compiled graph accepts. The
equality is proved with `statically_known_true` from the facts the ShapeEnv already holds (its
guards, replacements, divisibility and value ranges), which never adds a guard and never
specialises a symbol; no `int(sym)`, no `guard_*`/`evaluate_expr`. A reshape's result depends only
on its sizes, so the tensor is the same; no new aliasing is introduced (the view stays the same view
of the same source), and `meta["val"]` stays true (recomputed, and its shape provably equal to the
old one).

Skipped, counted in `PassResult.counts` with the reason:

- static graphs (no free symbols in any candidate's shapes): returned at once;
- `views_skipped_split`: some target dim splits a source dim (`[s] -> [4, s//4]`): splits already
  index with the split sizes and never need this;
- `views_skipped_unprovable`: a target dim matches no consecutive group of source dims by the
  ShapeEnv's static facts (e.g. `[s0, s1] -> [s2]` where `s2 == s0*s1` would need a new guard);
- `views_skipped_noncontiguous`: a group to rewrite is provably not mergeable in place (its strides
  say the source is, e.g., transposed), so Inductor copies either way and the graph is left as it
  was;
- `views_already_product`: every merged entry already is the product expression;
- `views_static`: the view has no symbolic size at all.
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
from torch.fx.experimental.symbolic_shapes import free_symbols, statically_known_true

from .base import MagiPass, PassResult

aten = torch.ops.aten

VIEW_TARGETS = (aten.view.default, aten.reshape.default, aten._unsafe_view.default)

def _expr(value: Any) -> sympy.Expr:
    """The sympy expression of an int or SymInt (no guard: reads the node's expression)."""
    if isinstance(value, torch.SymInt):
        return value.node.expr
    return sympy.Integer(int(value))


def known_equal(a: Any, b: Any) -> bool:
    """`a == b` for ints/SymInts, proved from static facts only (never adds a guard)."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return bool(statically_known_true(a == b))


def known_not_equal(a: Any, b: Any) -> bool:
    if isinstance(a, int) and isinstance(b, int):
        return a != b
    return bool(statically_known_true(a != b))


def _has_symbols(values: Sequence[Any]) -> bool:
    return any(isinstance(v, torch.SymInt) and free_symbols(v) for v in values)


def canonical_sizes(shape: Sequence[Any]) -> list[Any]:
    """`shape` with every symbolic size that is provably a constant replaced by the constant.

    Fake values can carry roundabout expressions where Inductor's IR has a literal: the fake
    value of `x.view(b, t, c // 64, 64)` has the size `c // (c // 64)` for the 64. A product built
    from that would not be structurally the one Inductor indexes with. The constant candidate is
    the symbol's hint, and it is used only when `statically_known_true(size == hint)`: reading a
    hint adds no guard, and nothing is specialised that the ShapeEnv did not already prove.
    """
    out: list[Any] = []
    for size in shape:
        if isinstance(size, torch.SymInt):
            hint = getattr(size.node, "hint", None)
            if isinstance(hint, int) and known_equal(size, hint):
                out.append(hint)
                continue
        out.append(size)
    return out


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


def _provably_not_mergeable(val: torch.Tensor, group: MergeGroup) -> bool:
    """True when the strides prove the group's dims cannot be merged without a copy."""
    sizes, strides = val.shape, val.stride()
    dims = [d for d in range(group.start, group.stop) if not known_equal(sizes[d], 1)]
    for outer, inner in zip(dims, dims[1:], strict=False):
        if known_not_equal(strides[outer], strides[inner] * sizes[inner]):
            return True
    return False


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


def _fake_mode_of(val: Any) -> Any:
    from torch._guards import detect_fake_mode

    return detect_fake_mode([val])


class DynamicReshapePass(MagiPass):
    name: ClassVar[str] = "dynamic_reshape"

    def enabled(self) -> bool:
        return self.config.enable_dynamic_reshape

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
            "views_skipped_noncontiguous": 0,
        }
        result.counts = counts
        views = [n for t in VIEW_TARGETS for n in graph.find_nodes(op="call_function", target=t)]
        if not views:
            result.reason = "no view/reshape nodes"
            return result
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
            result.reason = (
                "static shapes: no view/reshape with a symbolic size"
                if counts["views_static"] == len(views)
                else "no view/reshape with a symbolic size to prove"
            )
            return result
        sym_cache: dict[tuple[torch.fx.Node, int], torch.fx.Node] = {}
        for node, src_val, target in candidates:
            self._rewrite(graph, node, src_val, target, counts, sym_cache)
        if counts["views_rewritten"] == 0:
            skipped = {k: v for k, v in counts.items() if k.startswith("views_") and v}
            result.reason = f"no merging view/reshape to rewrite ({skipped})"
            return result
        graph.lint()
        result.applied = True
        result.reason = (
            f"{counts['views_rewritten']} of {len(views)} view/reshape nodes get product sizes "
            f"({counts['dims_rewritten']} dims)"
        )
        return result

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
                target.append(out_val.shape[j] if entry == -1 else entry)
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
        if groups is None and source != raw:
            groups, failure = match_merge_groups(source, target)
        if groups is None:
            counts[f"views_skipped_{failure}"] += 1
            return
        to_rewrite: list[MergeGroup] = []
        for g in groups:
            if g.stop - g.start < 2:
                continue  # one-dim and empty groups: nothing is merged
            product = _product(source[g.start : g.stop])
            if _expr(product) != _expr(target[g.target_dim]):
                to_rewrite.append(g)
        if not to_rewrite:
            counts["views_already_product"] += 1
            return
        if any(_provably_not_mergeable(src_val, g) for g in to_rewrite):
            counts["views_skipped_noncontiguous"] += 1
            return
        src_node = node.args[0]
        assert isinstance(src_node, torch.fx.Node)
        new_values = list(target)
        for g in to_rewrite:
            new_values[g.target_dim] = _product(source[g.start : g.stop])
        new_val = self._recompute_val(node, new_values)
        if new_val is None:  # pragma: no cover - the groups were proved equal above
            counts["views_skipped_unprovable"] += 1
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
        the old ones in value, so the old strides, storage and offset stay valid:
        `as_strided` over the old fake value keeps its aliasing exactly as it was.
        """
        old_val = node.meta["val"]
        if len(sizes) != old_val.dim():
            return None
        mode = _fake_mode_of(old_val)
        shape_env = getattr(mode, "shape_env", None)
        n_guards = len(shape_env.guards) if shape_env is not None else 0
        with mode if mode is not None else contextlib.nullcontext():
            new_val = old_val.as_strided(sizes, old_val.stride(), old_val.storage_offset())
        if shape_env is not None and len(shape_env.guards) != n_guards:  # pragma: no cover
            raise AssertionError(
                f"DynamicReshapePass: as_strided over the fake value of {node.name} recorded "
                f"guards {shape_env.guards[n_guards:]!r}; the rewrite must be guard-free"
            )
        return new_val
