"""What a side's post-grad passes changed in one graph, and where its values first go wrong.

Two questions :func:`pytest_magi.numerics.locate.locate` asks of the first wrong graph of a side that
runs passes, on the post-grad graph Inductor handed the passes (``before``) and the graph they
handed back (``after``), both recorded by the side (:class:`pytest_magi.capture.core.GraphLog`):

- :func:`rewritten_nodes`: the nodes of ``after`` that the passes added, or changed in place (another
  target, other arguments), upstream of a given output; each with the node of ``before`` whose
  users it took over (``replaces``), the pass that made it where the side's
  :class:`~pytest_magi.capture.core.PassChain` recorded it, and the module path and source line of the
  model's code it stands for (its own ``meta``, else the replaced node's, else the nearest user's
  that has one: a pass that builds nodes without copying ``meta`` leaves them none).
- :func:`first_divergence`: both graphs run eagerly on the same inputs (the first wrong call's
  saved inputs, from the same RNG state), each node of ``after`` compared in topological order
  with its counterpart in ``before`` (the node of the same name, or the one it replaces); the
  first whose value differs beyond the tolerance of its dtype is the narrowest place the passes
  make the numbers wrong. None when every counterpart agrees: then the passes compute what the
  graph computed before them, and the fault is below the graph (Inductor's lowering or code).

Nodes are matched by name: a pass mutates one ``torch.fx.Graph``, whose namespace never hands
out a name twice, so a node of ``after`` named as one of ``before`` is that node. Works without
pytest.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from .core import copy_graph, op_name

#: Intermediate values both graphs may hold at once, judged from the nodes' ``meta["val"]``:
#: above it :func:`first_divergence` compares nothing (it keeps every value of ``before``).
VALUE_BYTES_LIMIT = 8 * 2**30


@dataclass(frozen=True)
class PassDiff:
    """How ``after`` differs from ``before``: ``replaces`` maps each node of ``after`` that took
    over the users of a node of ``before`` to that node's name; ``changed`` names the nodes of
    ``after`` the passes added or changed in place, in graph order."""

    replaces: Mapping[str, str]
    changed: tuple[str, ...]


def _arg_nodes(node: torch.fx.Node) -> list[torch.fx.Node]:
    found: list[torch.fx.Node] = []

    def keep(n: torch.fx.Node) -> torch.fx.Node:
        found.append(n)
        return n

    torch.fx.node.map_arg((node.args, node.kwargs), keep)
    return found


def _arg_key(node: torch.fx.Node, rename: Mapping[str, str]) -> str:
    mapped = torch.fx.node.map_arg((node.args, node.kwargs), lambda n: rename.get(n.name, n.name))
    return repr((str(node.target), mapped))


def diff_graphs(before: torch.fx.Graph, after: torch.fx.Graph) -> PassDiff:
    """What the passes did to ``before`` to make ``after`` (see :class:`PassDiff`)."""
    old = {n.name: n for n in before.nodes}
    replaces: dict[str, str] = {}
    for node in after.nodes:
        was = old.get(node.name)
        if was is None:
            continue
        new_args, old_args = _arg_nodes(node), _arg_nodes(was)
        if len(new_args) != len(old_args):
            continue
        for a, b in zip(new_args, old_args, strict=True):
            if a.name != b.name and a.name not in old and a.name not in replaces:
                replaces[a.name] = b.name
    changed = tuple(
        n.name
        for n in after.nodes
        if n.op not in ("placeholder", "output")
        and (
            n.name not in old
            or old[n.name].target != n.target
            or _arg_key(n, replaces) != _arg_key(old[n.name], {})
        )
    )
    return PassDiff(replaces, changed)


def _outputs(graph: torch.fx.Graph) -> list[Any]:
    output = next(iter(graph.find_nodes(op="output")))
    found: list[Any] = []

    def keep(value: Any) -> Any:
        found.append(value)
        return value

    torch.fx.node.map_aggregate(output.args[0], keep)
    return found


def ancestors(graph: torch.fx.Graph, output: int | None) -> set[str]:
    """Names of the nodes ``output`` (an index into the graph's flattened outputs; None: all of
    them) is computed from, itself included."""
    outputs = _outputs(graph)
    roots = outputs if output is None or output >= len(outputs) else [outputs[output]]
    seen: set[str] = set()
    stack = [r for r in roots if isinstance(r, torch.fx.Node)]
    while stack:
        node = stack.pop()
        if node.name in seen:
            continue
        seen.add(node.name)
        stack.extend(node.all_input_nodes)
    return seen


def target_text(node: torch.fx.Node) -> str:
    if node.op == "call_method":
        return f"Tensor.{node.target}"
    if node.op == "call_function":
        return op_name(node.target)
    return str(node.target)


def _has_origin(node: torch.fx.Node) -> bool:
    return bool(node.meta.get("stack_trace") or node.meta.get("nn_module_stack"))


def origin_node(
    node: torch.fx.Node, before: Mapping[str, torch.fx.Node], replaces: Mapping[str, str]
) -> torch.fx.Node | None:
    """The node whose ``meta`` says where ``node`` comes from in the model's code: itself, the
    node of ``before`` it replaces, or (breadth first) the nearest user with one of those."""
    queue, seen = [node], set()
    while queue:
        current = queue.pop(0)
        if current.name in seen:
            continue
        seen.add(current.name)
        if _has_origin(current):
            return current
        was = before.get(replaces.get(current.name, ""))
        if was is not None and _has_origin(was):
            return was
        queue.extend(current.users)
    return None


def rewritten_nodes(
    before: torch.fx.Graph,
    after: torch.fx.Graph,
    output: int | None = None,
    added_by: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The nodes the passes added or changed upstream of ``output`` of ``after`` (None: of any
    output), in graph order; each a dict: ``node``, ``target``, ``by`` (the pass, where
    ``added_by`` names it), ``replaces`` (``"div (aten.div.Tensor)"``, or ""), ``origin`` (the
    node its ``meta`` came from) and that node's ``meta`` under ``"meta"``."""
    diff = diff_graphs(before, after)
    upstream = ancestors(after, output)
    old = {n.name: n for n in before.nodes}
    nodes = {n.name: n for n in after.nodes}
    found: list[dict[str, Any]] = []
    for name in diff.changed:
        if name not in upstream:
            continue
        node = nodes[name]
        was = old.get(diff.replaces.get(name, ""))
        if was is None and name in old:
            was = old[name]  # changed in place: what it was
        source = origin_node(node, old, diff.replaces)
        found.append(
            {
                "node": name,
                "target": target_text(node),
                "by": (added_by or {}).get(name, ""),
                "replaces": f"{was.name} ({target_text(was)})" if was is not None else "",
                "origin": "" if source is None or source is node else source.name,
                "meta": {} if source is None else dict(source.meta),
            }
        )
    return found


def _value_bytes(graph: torch.fx.Graph) -> int:
    total = 0
    for node in graph.nodes:
        val = node.meta.get("val")
        vals = val if isinstance(val, list | tuple) else [val]
        for v in vals:
            if not isinstance(v, torch.Tensor):
                continue
            numel = v.numel()
            if not isinstance(numel, int):  # symbolic: its size hint, never a guard on it
                numel = getattr(getattr(numel, "node", None), "hint", None)
            if isinstance(numel, int):
                total += numel * v.element_size()
    return total


class _Stop(Exception):
    """Raised by the interpreter of ``after`` at the first divergence (nothing more to run)."""


def _module(graph: torch.fx.Graph) -> torch.fx.GraphModule:
    copied = copy_graph(graph)
    if copied.find_nodes(op="get_attr"):
        raise ValueError("the post-grad graph reads module attributes (get_attr): not run")
    return torch.fx.GraphModule(torch.nn.Module(), copied)


def first_divergence(
    before: torch.fx.Graph,
    after: torch.fx.Graph,
    inputs: Sequence[Any],
    distance: Callable[[Any, Any], float],
    tolerance: Callable[[torch.dtype], float],
    prepare: Callable[[], Sequence[Any]] | None = None,
) -> dict[str, Any] | None:
    """The first node of ``after`` (graph order) whose value differs from its counterpart's in
    ``before`` by more than ``tolerance(dtype)`` (``distance(actual, expected)``), both graphs
    run eagerly on ``inputs``: a dict ``node``, ``target``, ``replaces`` (the counterpart when it
    has another name), ``distance``, ``shape``, ``dtype``, ``changed`` (whether the passes added
    or changed that node itself), ``origin`` and ``meta`` (as :func:`rewritten_nodes`). None
    when every compared node agrees. ``prepare``: called before each run, returns the inputs to
    run on (fresh copies, the RNG reset); default: ``inputs`` as they are.

    ValueError (saying why) when the graphs cannot be run: another number of placeholders than
    ``inputs``, module attributes, or more intermediate values than :data:`VALUE_BYTES_LIMIT`.
    """
    for graph in (before, after):
        n = len(graph.find_nodes(op="placeholder"))
        if n != len(inputs):
            raise ValueError(
                f"the post-grad graph takes {n} inputs, the graph dynamo compiled {len(inputs)} "
                "(AOTAutograd deduplicated or added some): values not compared"
            )
    size = _value_bytes(before) + _value_bytes(after)
    if size > VALUE_BYTES_LIMIT:
        raise ValueError(
            f"the post-grad graphs hold {size / 2**30:.1f} GiB of intermediate values, above "
            f"{VALUE_BYTES_LIMIT / 2**30:.0f} GiB: values not compared"
        )
    diff = diff_graphs(before, after)
    changed = set(diff.changed)
    old_nodes = {n.name: n for n in before.nodes}
    expected: dict[str, Any] = {}

    class Record(torch.fx.Interpreter):
        def run_node(self, n: torch.fx.Node) -> Any:
            value = super().run_node(n)
            if isinstance(value, torch.Tensor):
                expected[n.name] = value
            return value

    def run(module: torch.fx.GraphModule, interpreter: type[torch.fx.Interpreter]) -> None:
        args = list(prepare() if prepare is not None else inputs)
        with torch.no_grad():
            interpreter(module).run(*args)

    run(_module(before), Record)
    found: list[dict[str, Any]] = []

    class Compare(torch.fx.Interpreter):
        def run_node(self, n: torch.fx.Node) -> Any:
            value = super().run_node(n)
            other = diff.replaces.get(n.name, n.name)
            if n.op == "placeholder" or other not in expected:
                return value
            if not isinstance(value, torch.Tensor):
                return value
            far = distance(value, expected[other])
            if not far <= tolerance(value.dtype):
                source = origin_node(n, old_nodes, diff.replaces)
                found.append(
                    {
                        "node": n.name,
                        "target": target_text(n),
                        "replaces": (
                            f"{other} ({target_text(old_nodes[other])})" if other != n.name else ""
                        ),
                        "distance": far if math.isfinite(far) else math.inf,
                        "shape": tuple(int(s) for s in value.shape),
                        "dtype": str(value.dtype).removeprefix("torch."),
                        "changed": n.name in changed,
                        "origin": "" if source is None or source is n else source.name,
                        "meta": {} if source is None else dict(source.meta),
                    }
                )
                raise _Stop
            return value

    try:
        run(_module(after), Compare)
    except _Stop:
        pass
    return found[0] if found else None
