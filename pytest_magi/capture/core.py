"""The capture core: one way to compile something fresh, run the user's passes, and keep what
Inductor made. Used by :mod:`pytest_magi.pairs.compiled`, :mod:`pytest_magi.capture.codegen` and the benchmarks.

* Fresh entry points (:func:`fresh_entry`): a function calling ``fn`` with a code object of its
  own, uniquely named, so no Dynamo cache entry (and no automatic-dynamic state, which Dynamo keys
  by code name, file and line) of anyone else can exist on the frame compiled first.
* Code capture: :func:`capture_output_code` (``GraphLowering.save_output_code``: the code that
  really runs) and :func:`generate_only` (``compile_to_module`` replaced: code generated, never
  compiled; fake CUDA). Parsing and counting of that code: :mod:`pytest_magi.capture.kernels`.
* Graph recording and the user's passes: :class:`RecordingGraphPass` is the
  ``post_grad_custom_post_pass`` that copies the post-grad graph before its passes, runs them in
  order (:class:`PassChain`: a ``CustomGraphPass``, a ``MagiPass`` or a plain callable on the
  ``torch.fx.Graph``), and copies it after. Copies are ``torch.fx.Graph`` objects (with the nodes'
  ``meta``), counted by :func:`count_ops`.
* Argument checks shared by every entry point: :func:`validate_dynamic_dims`,
  :func:`validate_inductor_config`, :func:`validate_passes`.
"""

from __future__ import annotations

import contextlib
import hashlib
import types
import unittest.mock as mock
import uuid as uuid_module
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from torch._inductor.custom_graph_pass import CustomGraphPass

from .config_guard import check_value_type, unknown_key_message

GRAPH_CACHES_OFF = {"fx_graph_cache": False, "fx_graph_remote_cache": False}
AUTOGRAD_CACHES_OFF = {"enable_autograd_cache": False, "enable_remote_autograd_cache": False}
DYNAMIC_DIMS_EXAMPLE = "e.g. dynamic_dims={0: [2, 3]} marks dims 2 and 3 of the first input dynamic"


# --------------------------------------------------------------------------- entry points
def fresh_entry(fn: Callable[..., Any], tag: str) -> Callable[..., Any]:
    """A function calling ``fn`` whose code object is new and named ``_magi_<tag>_<hex>``."""

    def entry(*args: Any) -> Any:
        return fn(*args)

    name = f"_magi_{tag}_{uuid_module.uuid4().hex[:12]}"
    code = entry.__code__.replace(co_name=name, co_qualname=name)
    return types.FunctionType(code, entry.__globals__, name, None, entry.__closure__)


def existing(module: Any, patches: Mapping[str, Any]) -> dict[str, Any]:
    """The patches whose keys this torch version's config ``module`` has."""
    keys = set(module.get_config_copy())
    return {k: v for k, v in patches.items() if k in keys}


@contextlib.contextmanager
def graph_caches_off() -> Iterator[None]:
    """Within the block, Inductor's FX graph cache and the AOTAutograd cache are off (their
    remote twins too, where this torch has them): a graph compiled there is compiled, and its
    post-grad passes run, instead of being served from a cache."""
    inductor, functorch = torch._inductor.config, torch._functorch.config
    with (
        inductor.patch(existing(inductor, GRAPH_CACHES_OFF)),
        functorch.patch(existing(functorch, AUTOGRAD_CACHES_OFF)),
    ):
        yield


def marked_copies(inputs: Sequence[Any], dims: Mapping[int, tuple[int, ...]]) -> list[Any]:
    """Copies of the dynamic inputs with ``mark_dynamic`` applied (the user's tensors stay unmarked)."""
    out: list[Any] = []
    for i, x in enumerate(inputs):
        if i in dims:
            copy = x.detach().clone().requires_grad_(x.requires_grad)
            torch._dynamo.mark_dynamic(copy, list(dims[i]))
            x = copy
        out.append(x)
    return out


# --------------------------------------------------------------------------- code capture
@contextlib.contextmanager
def capture_output_code(sink: Callable[[str], None]) -> Iterator[None]:
    """Send every Inductor output module's source to ``sink`` while the block runs.

    The hook is ``GraphLowering.save_output_code`` (what ``torch._inductor.utils.run_and_get_code``
    uses, called on fresh compiles and on FX-graph-cache hits); a hook installed before is chained.
    """
    from torch._inductor.graph import GraphLowering

    previous = GraphLowering.save_output_code

    def save_output_code(code: str) -> None:
        sink(code)
        if previous is not None:
            previous(code)

    with mock.patch.object(GraphLowering, "save_output_code", save_output_code):
        yield


class _NotCompiled:
    """Stands in for the compiled module of :func:`generate_only`; nothing was compiled."""

    __file__ = "<not compiled: pytest_magi.capture.core>"

    def call(self, *args: Any, **kwargs: Any) -> None:
        return None


@contextlib.contextmanager
def generate_only(sink: Callable[[str], None]) -> Iterator[None]:
    """Make ``GraphLowering`` generate code into ``sink`` instead of compiling it."""
    from torch._inductor.graph import GraphLowering

    def compile_to_module(self: Any) -> Any:
        wrapper_code, kernel_code = (
            self.codegen_with_cpp_wrapper() if self.cpp_wrapper else self.codegen()
        )
        sink(wrapper_code.value)
        if kernel_code is not None and getattr(kernel_code, "value", None):
            sink(kernel_code.value)
        return _NotCompiled()

    with (
        mock.patch.object(GraphLowering, "compile_to_module", compile_to_module),
        mock.patch.object(GraphLowering, "save_output_code", lambda code: None),
    ):
        yield


# --------------------------------------------------------------------------- passes
def _pass_uuid(p: Any) -> str | None:
    get = getattr(p, "uuid", None)
    value = get() if callable(get) else None
    if isinstance(value, bytes):
        value = value.hex()
    return None if value is None else str(value)


def pass_name(p: Any) -> str:
    """A pass's ``name`` (MagiPass), function name, or class name."""
    name = getattr(p, "name", None)
    if isinstance(name, str):
        return name
    if isinstance(p, types.FunctionType):
        return p.__name__
    return type(p).__name__


def validate_passes(passes: Any, argument: str = "passes") -> tuple[Any, ...]:
    """``passes`` as a tuple of callables on a ``torch.fx.Graph``; TypeError saying the fix."""
    if passes is None:
        return ()
    accepted = (
        "a list of post-grad passes: CustomGraphPass or MagiPass instances, or callables "
        "taking the torch.fx.Graph"
    )
    if callable(passes) or not isinstance(passes, Sequence) or isinstance(passes, str):
        shown = (
            repr(passes)
            if isinstance(passes, str | int | float)
            else (f"<a {type(passes).__name__}>")
        )
        raise TypeError(
            f"{argument}={shown}: expected {accepted}; wrap a single pass in a list: "
            f"{argument}=[{type(passes).__name__}(...)]"
        )
    for i, p in enumerate(passes):
        if isinstance(p, type):
            raise TypeError(
                f"{argument}[{i}]={p.__name__} is a class, not a pass: give an instance, "
                f"{argument}=[{p.__name__}()]"
            )
        if not callable(p):
            raise TypeError(f"{argument}[{i}]={p!r} is not callable; expected {accepted}")
    return tuple(passes)


def declared_config(passes: Sequence[Any]) -> dict[str, Any]:
    """``{key: current value}`` of the Inductor config keys the passes declare they change
    (``mutates_inductor_config`` of a ``MagiPass``), for the compile's own ``config.patch``:
    what a pass sets then lasts for that compile only, backward graph included."""
    keys: list[str] = []
    for p in passes:
        for key in getattr(p, "mutates_inductor_config", ()) or ():
            if isinstance(key, str) and key not in keys:
                keys.append(key)
    current = torch._inductor.config.get_config_copy()
    return {k: current[k] for k in keys if k in current}


@contextlib.contextmanager
def inductor_config_restored() -> Iterator[None]:
    """Put back every ``torch._inductor.config`` key the block changed (a pass that sets a key
    it did not declare must not leak it into the process)."""
    before = torch._inductor.config.get_config_copy()
    try:
        yield
    finally:
        after = torch._inductor.config.get_config_copy()
        changed = {
            k: v for k, v in before.items() if after.get(k, v) is not v and after.get(k) != v
        }
        if changed:
            torch._inductor.config.load_config(changed)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - e.g. tensors among the arguments: not provably the same
        return False


class PassChain(CustomGraphPass):
    """The user's post-grad passes, run in order. ``uuid()`` combines theirs; a pass without
    one gets a token unique to this chain (a cache miss, never a wrong hit). ``results`` keeps
    the ``PassResult`` of each ``MagiPass`` (its ``last_result``) per graph; ``added`` maps, per
    graph, each node a pass added or changed (another target or arguments) to that pass's name."""

    def __init__(self, passes: Sequence[Any]) -> None:
        self.passes = tuple(passes)
        self.results: list[Any] = []
        self.added: list[dict[str, str]] = []
        self._token = uuid_module.uuid4().hex

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        added: dict[str, str] = {}
        for p in self.passes:
            seen = {n.name: (n.target, n.args, n.kwargs) for n in graph.nodes}
            p(graph)
            if isinstance(p, PassChain) and p.added:
                added.update(p.added[-1])
            else:
                name = pass_name(p)
                for n in graph.nodes:
                    if not _same(seen.get(n.name), (n.target, n.args, n.kwargs)):
                        added.setdefault(n.name, name)
            result = getattr(p, "last_result", None)
            if result is not None:
                self.results.append(result)
        self.added.append(added)

    def uuid(self) -> str:
        parts = [_pass_uuid(p) or f"opaque:{self._token}:{i}" for i, p in enumerate(self.passes)]
        return hashlib.sha256("|".join(["pytest_magi.PassChain/1", *parts]).encode()).hexdigest()

    def __deepcopy__(self, memo: dict[int, Any]) -> PassChain:
        return self  # an identity (its results are read back), not a value

    def __repr__(self) -> str:
        return f"PassChain([{', '.join(pass_name(p) for p in self.passes)}])"


# --------------------------------------------------------------------------- graphs
def copy_graph(graph: torch.fx.Graph) -> torch.fx.Graph:
    """A copy of ``graph`` (nodes, targets, ``meta``); later passes cannot change it."""
    new = torch.fx.Graph()
    value_map: dict[torch.fx.Node, torch.fx.Node] = {}
    output = new.graph_copy(graph, value_map)
    new.output(output)
    return new


@dataclass
class GraphLog:
    """The post-grad graphs of one side: ``before`` / ``after`` its passes, one per graph."""

    before: list[torch.fx.Graph] = field(default_factory=list)
    after: list[torch.fx.Graph] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # str(graph) after, as compiled
    # the pass (manager) that ran on each entry, where one recorded it (`drop_owned_by`)
    owners: list[Any] = field(default_factory=list)

    def drop_owned_by(self, owners: Sequence[Any]) -> None:
        """Forget the entries recorded for `owners` (variants compiled and not chosen)."""
        ids = {id(o) for o in owners}
        keep = [i for i, o in enumerate(self.owners) if id(o) not in ids]
        if len(keep) == len(self.owners) or len(self.owners) != len(self.after):
            return
        self.before[:] = [self.before[i] for i in keep]
        self.after[:] = [self.after[i] for i in keep]
        self.texts[:] = [self.texts[i] for i in keep]
        self.owners[:] = [self.owners[i] for i in keep]

    def stage(self, stage: str) -> list[torch.fx.Graph]:
        if stage not in ("before", "after"):
            raise ValueError(
                f"stage={stage!r}: expected 'before' (the post-grad graph before the passes "
                f"ran) or 'after' (the graph Inductor lowered)"
            )
        return self.before if stage == "before" else self.after


class RecordingGraphPass(CustomGraphPass):
    """A ``post_grad_custom_post_pass`` that records the graph, runs ``inner`` (a pass or
    None), and records it again: copies into ``log`` and ``sink(str(graph))`` after.

    ``uuid()`` is deterministic: a fixed tag and the inner pass's uuid.
    """

    TAG = "pytest_magi.capture.core.RecordingGraphPass/2"

    def __init__(
        self,
        inner: Any,
        sink: Callable[[str], None] | None = None,
        log: GraphLog | None = None,
    ) -> None:
        self.inner = inner
        self.sink = sink
        self.log = log if log is not None else GraphLog()

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        self.log.before.append(copy_graph(graph))
        if self.inner is not None:
            self.inner(graph)
        self.log.after.append(copy_graph(graph))
        text = str(graph)
        self.log.texts.append(text)
        if self.sink is not None:
            self.sink(text)

    def uuid(self) -> str:
        inner: Any = None
        if self.inner is not None:
            inner = _pass_uuid(self.inner) or (
                f"{type(self.inner).__module__}.{type(self.inner).__qualname__}"
            )
        return hashlib.sha256(f"{self.TAG}:{inner}".encode()).hexdigest()

    def __deepcopy__(self, memo: dict[int, Any]) -> RecordingGraphPass:
        # Inductor deep-copies config values when it snapshots its config; the recorder is an
        # identity (its log is this side's), not a value
        return self


def op_name(target: Any) -> str:
    """``aten.clone.default`` for an OpOverload, ``aten.clone`` for a packet, else the name."""
    if isinstance(target, torch._ops.OpOverload):
        ns = target.namespace
        return f"{ns}.{target._schema.name.split('::')[-1]}.{target._overloadname}"
    if isinstance(target, torch._ops.OpOverloadPacket):
        return f"{target._qualified_op_name.replace('::', '.')}"
    if isinstance(target, str):
        return target
    module = getattr(target, "__module__", None) or ""
    return f"{module + '.' if module else ''}{getattr(target, '__name__', repr(target))}"


def _matches(target: Any, op: Any) -> bool:
    if target is op:
        return True
    if isinstance(op, torch._ops.OpOverloadPacket):
        return isinstance(target, torch._ops.OpOverload) and target.overloadpacket is op
    if isinstance(op, str):
        name = op_name(target)
        if op in (name, name.rsplit(".", 1)[0]):
            return True
        parts = name.split(".")  # "clone" matches aten.clone.default
        return len(parts) >= 2 and op == parts[1]
    return False


def count_ops(graphs: Sequence[torch.fx.Graph], op: Any) -> int:
    """``call_function`` nodes calling ``op`` in ``graphs``. ``op``: an OpOverload
    (``aten.clone.default``), a packet (``aten.clone``: any overload), a name
    (``"aten.clone"``, ``"aten.clone.default"``, ``"clone"``) or any other callable target."""
    return sum(
        1 for g in graphs for n in g.nodes if n.op == "call_function" and _matches(n.target, op)
    )


def op_histogram(graphs: Sequence[torch.fx.Graph]) -> dict[str, int]:
    """``{op name: count}`` of the ``call_function`` nodes of ``graphs``."""
    counts: dict[str, int] = {}
    for g in graphs:
        for n in g.nodes:
            if n.op == "call_function":
                name = op_name(n.target)
                counts[name] = counts.get(name, 0) + 1
    return counts


def validate_op(op: Any, argument: str = "op") -> None:
    """TypeError unless ``op`` is something :func:`count_ops` can match."""
    if isinstance(op, str):
        if not op:
            raise ValueError(
                f"{argument}='': name an op, e.g. torch.ops.aten.clone or 'aten.clone'"
            )
        return
    if not callable(op):
        raise TypeError(
            f"{argument}={op!r}: expected an op such as torch.ops.aten.clone (any overload), "
            f"torch.ops.aten.clone.default, or its name 'aten.clone'"
        )


# --------------------------------------------------------------------------- validation
def validate_inductor_config(
    argument: str, patches: Any, *, allow_none: bool = True
) -> dict[str, Any]:
    """``patches`` as a dict of existing ``torch._inductor.config`` keys with values of the
    right type; TypeError/ValueError naming ``argument``, the key and close matches."""
    if patches is None and allow_none:
        return {}
    if not isinstance(patches, Mapping):
        raise TypeError(
            f"{argument}={patches!r:.200}: expected a dict of torch._inductor.config patches "
            f"with dotted keys, e.g. {argument}={{'triton.max_tiles': 2}}"
        )
    current = torch._inductor.config.get_config_copy()
    for key, value in patches.items():
        if not isinstance(key, str) or key not in current:
            raise ValueError(f"{argument}: {unknown_key_message(key)}")
        try:
            check_value_type(key, value, current[key])
        except TypeError as exc:
            raise TypeError(f"{argument}: {exc}") from None
    return dict(patches)


def _dims_of(index: int, dims: Any) -> list[Any]:
    if isinstance(dims, bool) or isinstance(dims, str) or not isinstance(dims, int | Sequence):
        raise ValueError(
            f"dynamic_dims[{index}]={dims!r}: expected a dim (int) or a sequence of dims; "
            f"{DYNAMIC_DIMS_EXAMPLE}"
        )
    dim_list = [dims] if isinstance(dims, int) else list(dims)
    if not dim_list:
        raise ValueError(f"dynamic_dims[{index}]={dims!r} is empty: name at least one dim")
    return dim_list


def _check_dim(index: int, dim: Any, tensor: torch.Tensor, seen: list[int]) -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise ValueError(
            f"dynamic_dims[{index}] contains {dim!r}, which is not an int dim; "
            f"{DYNAMIC_DIMS_EXAMPLE}"
        )
    if not -tensor.dim() <= dim < tensor.dim():
        raise ValueError(
            f"dynamic_dims[{index}] contains dim {dim}, out of range for input {index} of "
            f"shape {tuple(tensor.shape)} (valid dims: {-tensor.dim()}..{tensor.dim() - 1})"
        )
    dim %= tensor.dim()
    if dim in seen:
        raise ValueError(f"dynamic_dims[{index}] names dim {dim} twice")
    if tensor.shape[dim] < 2:
        raise ValueError(
            f"dynamic_dims[{index}] marks dim {dim} of input {index} dynamic, but its size "
            f"is {tensor.shape[dim]}: Dynamo specialises sizes 0 and 1. Give an example input "
            f"whose dim {dim} has size >= 2"
        )
    return dim


def validate_dynamic_dims(
    dynamic_dims: Mapping[int, int | Sequence[int]] | None, inputs: Sequence[Any]
) -> dict[int, tuple[int, ...]]:
    """``{input_index: dims}`` normalised (non-negative dims), or ValueError saying the fix."""
    if dynamic_dims is None:
        return {}
    if not isinstance(dynamic_dims, Mapping):
        raise ValueError(
            f"dynamic_dims={dynamic_dims!r}: expected None or a dict {{input_index: dim or "
            f"dims}}; {DYNAMIC_DIMS_EXAMPLE}"
        )
    result: dict[int, tuple[int, ...]] = {}
    for index, dims in dynamic_dims.items():
        if isinstance(index, bool) or not isinstance(index, int):
            raise ValueError(
                f"dynamic_dims key {index!r} is not an input index: keys are positions of the "
                f"example inputs (0..{len(inputs) - 1}); {DYNAMIC_DIMS_EXAMPLE}"
            )
        if not 0 <= index < len(inputs):
            raise ValueError(
                f"dynamic_dims key {index} is out of range: there are {len(inputs)} example "
                f"input(s), valid keys are 0..{len(inputs) - 1}"
            )
        tensor = inputs[index]
        if not isinstance(tensor, torch.Tensor):
            raise ValueError(
                f"dynamic_dims key {index} names example input {index}, a "
                f"{type(tensor).__name__}, not a tensor; only tensor dims can be dynamic"
            )
        seen: list[int] = []
        for dim in _dims_of(index, dims):
            seen.append(_check_dim(index, dim, tensor, seen))
        result[index] = tuple(seen)
    return result


def validate_bool(argument: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{argument}={value!r}: expected True or False")
    return value


def validate_label(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"label={value!r}: expected a str naming the pair (or None)")
    return value
