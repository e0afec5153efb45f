"""Where a compiled model's numbers go wrong, and what cures it: ``locate(model, *inputs)``.

The mechanism is a dynamo backend, :class:`LocatingBackend`, that compiles every graph dynamo
hands it with the side's own compiler (a :class:`pytest_magi.capture.sides.SideBackend`: plain Inductor
with the side's config patches and passes, the magi backend, or any backend) and returns a
wrapper. Each call of the wrapper

1. copies the graph's inputs with :func:`strided_clone` (same sizes, strides, storage offsets and
   aliasing among them: Inductor's code depends on layout, so the eager run must see the same),
2. runs the compiled code on the real inputs (what the model gets back, unchanged),
3. runs the *same* dynamo FX graph eagerly on the copies (a structural copy of ``gm`` taken
   before the compile, so nothing a compiler does to ``gm`` shows in the reference; it shares
   ``gm``'s attributes, no weight is copied), from the RNG state the compiled run started from
   (random ops draw the same numbers where the compiler calls the same random ops), and
4. measures each output's relative L2 distance from the eager graph's
   (``numerics._relative_l2``; a NaN/inf where eager is finite is infinitely far).

An output is wrong when its distance exceeds the tolerance of its dtype
(:data:`DEFAULT_TOLERANCE`). Per graph the backend keeps the call count and each output's worst
distance, shape and dtype, and the FX node that produced it: its module path (the innermost
``nn_module_stack`` entry) and its source line (the last frame of ``stack_trace``). Memory stays
bounded: only the first call that has a wrong output keeps its inputs (strided copies) and RNG
state, for the cures, until :meth:`LocatingBackend.report` has run them.

First, the replay: the code compiled in the run is called again on the saved inputs, with no
compile (``LocateReport.replayed``). Wrong again: that code itself is wrong on those inputs.
Right: the wrong output needed the live run around it.

Cures, on that first wrong graph *alone* (recompiled from the saved copy, run on the saved
inputs, compared with the eager graph; a retry "clears" when no output is wrong), in this order:

0. the control: the graph recompiled exactly as the side compiles it. When that is right, the
   fault is not reproduced alone (it needs what ran before the graph in the process: state a
   compile reads, Triton's autotuning, the live inputs' memory), every retry below would "clear"
   it too, and the report names no cure (``LocateReport.reproduced`` is False). A dynamic graph
   is recompiled from its symbolic examples, as dynamic as the run's compile. The replay and the
   control
   record the Triton kernels they launch (:mod:`pytest_magi.capture.launches`), and the report lists
   the kernels whose config (after autotuning) or source differs between the two
   (``LocateReport.kernels``): where a wrong replay and a right control part, below the graph;
1. ``fp32_rerun=True``: the graph recompiled with every bf16/fp16 input cast to fp32, against
   the eager graph in fp32: still wrong there is a *logic* error, right there a *precision* one;
2. each of the side's passes removed in turn (a magi side: each enabled ``PassConfig.enable_*``
   field turned off, skipped where that pass did not apply to the graph; user passes: each
   dropped);
3. each entry of a settings table (:data:`DEFAULT_SETTINGS`, or ``settings=``) applied on top
   of the side's config, skipped where the side already has it.

Each retry really recompiles (FX graph and AOTAutograd caches off, as for a pair's sides; kernel
caches stay on). ``budget_s`` (counted from the backend's creation) stops the retries before
one that would end past it, judged by the longest retry so far; the rest are reported untried.

Scope: nothing leaks. Config patches are applied around each compile only, :func:`locate`
compiles through a fresh entry function with its own backend object (dynamo reuses no one
else's code and nobody reuses its code: cache entries are matched by backend), and an
``nn.Module`` gets ``forward`` code objects of its own while it runs
(``magi_passes.frames.isolate_forward_code(per="class")``, removed afterwards), so the graph-break
frames it compiles leave no cache entries, recompile counts or automatic-dynamic sizes on the
model's own code. Inference only: calls run under ``torch.no_grad()`` and no backward is checked.
Docs: ``docs/locate.md``.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import math
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from magi_passes import MagiBackend, PassConfig

from .capture.core import (
    copy_graph,
    existing,
    fresh_entry,
    op_name,
    pass_name,
    validate_bool,
    validate_inductor_config,
    validate_label,
    validate_passes,
)
from .capture.launches import KernelLaunch, kernel_differences, launch_lines, recorded_launches
from .capture.pass_diff import first_divergence, rewritten_nodes
from .capture.sides import SideBackend, SideSpec, resolve_side
from .numerics import (
    REFERENCE_DTYPES,
    _cast,
    _non_finite,
    _relative_l2,
    bound_for,
    reference_outputs,
)

# Relative L2 distance (compiled vs the eager graph, same inputs) above which an output is wrong.
# A deep bf16 graph's eager-vs-compiled rounding is ~2e-2 (Inductor keeps fused intermediates in
# fp32 where eager rounds each op to bf16); the Wan 2.2 decode's miscompiled chunk graph was 1.24
# (0.012 once cured). 5e-2 sits 2.5x above the first and 25x below the second. fp16 rounds 8x
# finer (3 more mantissa bits): 1e-2. fp32: reassociated reductions (split GroupNorm statistics,
# another conv algorithm) stay near 1e-6..1e-5 on deep graphs: 1e-4. fp64: 1e-9.
DEFAULT_TOLERANCE: dict[torch.dtype, float] = {
    torch.bfloat16: 5e-2,
    torch.float16: 1e-2,
    torch.float32: 1e-4,
    torch.float64: 1e-9,
}
# float8 and other floating dtypes without an entry (2-3 mantissa bits)
OTHER_FLOAT_TOLERANCE = 2.5e-1

# Inductor settings a cure tries, one retry per entry, in this order: first what is known to
# cure a real miscompile (comprehensive padding: the Wan 2.2 decode, pytorch#194281), then
# layout and precision, reductions and tiling, memory planning, and last what costs most to
# compile (no fusion at all: one kernel per op). Keys this torch lacks are dropped.
DEFAULT_SETTINGS: tuple[dict[str, Any], ...] = (
    {"comprehensive_padding": False},
    {"layout_optimization": False},
    {"emulate_precision_casts": True},
    {"shape_padding": False},
    {"split_reductions": False},
    {"triton.persistent_reductions": False},
    {"triton.mix_order_reduction": False},
    {"loop_ordering_after_fusion": False},
    {"triton.tile_reductions": True},  # its default is False
    {"triton.max_tiles": 1},
    {"online_softmax": False},
    {"allow_buffer_reuse": False, "inplace_buffers": False},
    {"pattern_matcher": False},
    {"max_fusion_size": 1},
)

FP32_VERDICTS = ("logic", "precision", "error", "n/a")
# registered backends that run no Inductor code generation: Inductor settings change nothing
NOT_INDUCTOR = ("eager", "aot_eager", "aot_eager_decomp_partition", "aot_eager_default_partitioner")
_LOW_PRECISION = (torch.bfloat16, torch.float16)


# --------------------------------------------------------------------------- report records
@dataclass
class OutputRecord:
    """One output of one graph: its worst distance over the calls and where it comes from."""

    index: int
    shape: tuple[int, ...] | None = None
    dtype: str = ""
    distance: float = 0.0
    non_finite: int = 0  # NaN/inf compiled elements where eager is finite (worst call)
    wrong: bool = False
    note: str = ""
    node: str = ""
    target: str = ""
    module: str = ""
    module_type: str = ""
    file: str = ""
    line: int | None = None
    function: str = ""
    code: str = ""
    position: int = -1  # the producing node's place in the graph (earliest = closest to a cause)

    @property
    def source(self) -> str:
        """``file:line, in function`` of the code that produced it (empty when unknown)."""
        return _source_text(self.file, self.line, self.function)


def _source_text(file: str, line: int | None, function: str) -> str:
    return f"{file}:{line}, in {function}" if file else ""


@dataclass
class GraphRecord:
    """One graph dynamo compiled: calls, and each output's worst distance from the eager graph."""

    index: int
    calls: int = 0
    outputs: list[OutputRecord] = field(default_factory=list)
    first_wrong_call: int | None = None
    note: str = ""

    @property
    def n_outputs(self) -> int:
        return len(self.outputs)

    @property
    def worst(self) -> float:
        return max((o.distance for o in self.outputs), default=0.0)

    @property
    def wrong(self) -> list[int]:
        """Indices of the outputs wrong on some call."""
        return [o.index for o in self.outputs if o.wrong]


@dataclass
class FirstBad:
    """The first wrong output: the earliest-produced wrong output of the first wrong call."""

    graph: int
    call: int
    output: int
    n_outputs: int
    shape: tuple[int, ...] | None
    dtype: str
    distance: float
    non_finite: int
    node: str
    target: str
    module: str
    module_type: str
    file: str
    line: int | None
    function: str
    code: str

    @property
    def source(self) -> str:
        return _source_text(self.file, self.line, self.function)


@dataclass
class RewrittenNode:
    """A node of the first wrong graph's post-grad graph that the side's passes added or changed,
    upstream of the first wrong output (``pass_diff.rewritten_nodes``). ``by``: the pass that
    made it (empty where the side does not say: a magi side's own passes); ``replaces``: the node
    of the graph before the passes whose users it took over, or what it was when changed in
    place; ``origin``: the node whose ``meta`` gave the module and source (empty: its own)."""

    node: str
    target: str
    by: str = ""
    replaces: str = ""
    origin: str = ""
    module: str = ""
    module_type: str = ""
    file: str = ""
    line: int | None = None
    function: str = ""
    code: str = ""

    @property
    def source(self) -> str:
        return _source_text(self.file, self.line, self.function)


@dataclass
class Divergence:
    """The narrowest place the passes make the numbers wrong: the first node, in graph order, of
    the first wrong graph's post-grad graph whose value with the passes differs beyond its
    dtype's tolerance from its value without them (both graphs run eagerly on the first wrong
    call's inputs; ``pass_diff.first_divergence``). ``replaces``: the node of the graph before
    the passes it was compared with, where that has another name; ``changed``: whether the
    passes added or changed this node itself (else it inherits a changed input's value)."""

    node: str
    target: str
    distance: float
    shape: tuple[int, ...] | None = None
    dtype: str = ""
    replaces: str = ""
    changed: bool = False
    origin: str = ""
    module: str = ""
    module_type: str = ""
    file: str = ""
    line: int | None = None
    function: str = ""
    code: str = ""

    @property
    def source(self) -> str:
        return _source_text(self.file, self.line, self.function)


@dataclass
class Retry:
    """One rerun of the first wrong graph alone: its compiled code replayed, or a recompile.

    ``status``: "cleared" (no output wrong), "wrong", "error" (it raised), "skipped" (nothing
    to change: ``note`` says why), "untried" (the budget ran out first).
    """

    name: str
    # "replay" (the code compiled in the run, rerun on the saved inputs: no compile), "control"
    # (recompiled as compiled, nothing changed), "pass" or "setting"
    kind: str
    status: str
    distance: float | None = None
    wrong: int | None = None
    seconds: float = 0.0
    note: str = ""

    @property
    def cleared(self) -> bool:
        return self.status == "cleared"


@dataclass
class Fp32Rerun:
    """The first wrong graph recompiled with its bf16/fp16 inputs cast to fp32.

    ``verdict``: "logic" (still wrong in fp32), "precision" (right in fp32: rounding, or a fault
    of the low-precision kernels alone, since fp32 compiles other ones), "error", or "n/a" (no
    input to widen). Judged with the tolerance of each output's original dtype.
    """

    verdict: str
    distance: float | None = None
    seconds: float = 0.0
    note: str = ""


@dataclass
class ReferenceCheck:
    """The model's final output against a run at higher precision (``reference="fp32"``/
    ``"fp64"``): the compiled model's and eager's distance, on the floating output leaf where
    the compiled model is furthest. The compiled output is wrong beyond
    ``max(REFERENCE_FACTOR * eager, REFERENCE_FLOOR[dtype])`` (the rule of ``numerics``)."""

    reference: str
    compiled: float
    eager: float
    bound: float
    leaf: int = 0

    @property
    def wrong(self) -> bool:
        return not self.compiled <= self.bound


@dataclass
class LocateReport:
    """What :func:`locate` / :meth:`LocatingBackend.report` found. ``str()`` is a readable
    summary; ``to_dict()`` is JSON-serialisable."""

    label: str
    side: str
    graphs: list[GraphRecord]
    first_bad: FirstBad | None
    retries: list[Retry] = field(default_factory=list)
    fp32: Fp32Rerun | None = None
    # how the replayed code's Triton launches differ from the control's: per kernel, another
    # config or source ([]: none; None: not compared, e.g. no Triton kernel or a retry failed)
    kernels: list[str] | None = None
    # the Triton kernels the replay launched, each once: "name [source hash]: config"
    # (launches.launch_lines; None: no replay ran or it launched no Triton kernel)
    launched: list[str] | None = None
    # each Triton kernel of the wrong replay whose candidate configs disagree with the one its
    # autotuner kept, or that could not be swept (config_sweep.sweep_lines; []: every config of
    # every kernel agrees; None: not swept: the replay was right or launched no Triton kernel)
    configs: list[str] | None = None
    reference: ReferenceCheck | None = None
    tolerance: dict[str, float] = field(default_factory=dict)
    budget_s: float | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    # the nodes the side's passes added or changed upstream of the first wrong output, in the
    # first wrong graph's post-grad graph ([]: none, or the side runs no passes)
    rewritten: list[RewrittenNode] = field(default_factory=list)
    # the first post-grad node whose value the passes change beyond tolerance (None: see
    # diverges_note: the graphs agree, the side runs no passes, or they could not be run)
    diverges: Divergence | None = None
    diverges_note: str = ""

    @property
    def ok(self) -> bool:
        """No graph output wrong (and, with a reference, the final output not wrong either)."""
        return self.first_bad is None and not (self.reference is not None and self.reference.wrong)

    @property
    def reproduced(self) -> bool | None:
        """Whether the first wrong graph, recompiled alone exactly as the side compiles it, was
        wrong again (None: no control retry ran). When it was right, no retry can name a cure."""
        control = next((r for r in self.retries if r.kind == "control"), None)
        if control is None or control.status not in ("cleared", "wrong"):
            return None
        return control.status == "wrong"

    @property
    def replayed(self) -> bool | None:
        """Whether the code compiled in the run, rerun on the first wrong call's saved inputs,
        was wrong again (None: no replay ran). Wrong again while the control is right: the
        fault is in that compile's code, not in the graph (see ``kernels``)."""
        replay = next((r for r in self.retries if r.kind == "replay"), None)
        if replay is None or replay.status not in ("cleared", "wrong"):
            return None
        return replay.status == "wrong"

    @property
    def clears(self) -> list[str]:
        """Names of the retries that cleared the first wrong graph (none where the fault was not
        reproduced alone: every retry would then clear it)."""
        if self.reproduced is False:
            return []
        return [r.name for r in self.retries if r.cleared and r.kind not in ("control", "replay")]

    @property
    def untried(self) -> list[str]:
        return [r.name for r in self.retries if r.status == "untried"]

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        for graph, record in zip(data["graphs"], self.graphs, strict=True):
            graph.update(n_outputs=record.n_outputs, worst=record.worst, wrong=record.wrong)
        data.update(
            ok=self.ok,
            clears=self.clears,
            untried=self.untried,
            reproduced=self.reproduced,
            replayed=self.replayed,
        )
        if self.reference is not None:
            data["reference"]["wrong"] = self.reference.wrong
        return _jsonable(data)

    def __str__(self) -> str:
        return "\n".join(_report_lines(self))


# --------------------------------------------------------------------------- tensors
def _plain_strided(x: torch.Tensor) -> bool:
    return (
        type(x) in (torch.Tensor, torch.nn.Parameter)
        and x.layout == torch.strided
        and x.device.type != "meta"
        and not (x.is_quantized or x.is_nested or x.is_conj() or x.is_neg())
    )


def _extent_bytes(x: torch.Tensor) -> int:
    """Bytes of storage ``x`` reaches: its offset plus the span of its strides."""
    span = 1 + sum((size - 1) * stride for size, stride in zip(x.shape, x.stride(), strict=True))
    if x.numel() == 0:
        span = 0
    return (int(x.storage_offset()) + span) * x.element_size()


def strided_clone(values: Sequence[Any]) -> list[Any]:
    """Copies of the tensors in ``values`` with the same sizes, strides, storage offsets and
    dtypes, sharing storage where the originals share it (one copied storage per storage, as
    far as the tensors reach into it); other values are passed as they are. Tensors of another
    kind (subclasses, sparse, quantized, conj/neg views) get ``clone()``."""
    need: dict[tuple[str, int], int] = {}
    for x in values:
        if isinstance(x, torch.Tensor) and _plain_strided(x):
            key = (str(x.device), x.untyped_storage().data_ptr())
            need[key] = max(need.get(key, 0), _extent_bytes(x))
    storages: dict[tuple[str, int], Any] = {}
    out: list[Any] = []
    with torch.no_grad():
        for x in values:
            if not isinstance(x, torch.Tensor):
                out.append(x)
                continue
            if not _plain_strided(x):
                out.append(x.detach().clone())
                continue
            key = (str(x.device), x.untyped_storage().data_ptr())
            if key not in storages:
                source = torch.empty(0, dtype=torch.uint8, device=x.device)
                source.set_(x.untyped_storage(), 0, (need[key],), (1,))
                storages[key] = source.clone().untyped_storage()
            copy_ = torch.empty(0, dtype=x.dtype, device=x.device)
            copy_.set_(storages[key], x.storage_offset(), x.shape, x.stride())
            out.append(copy_)
    return out


def _versions(values: Sequence[Any]) -> list[int]:
    found: list[int] = []
    for x in values:
        if isinstance(x, torch.Tensor):
            try:
                found.append(x._version)
            except RuntimeError:  # inference tensors keep no version counter
                found.append(-1)
    return found


def _on_cuda(x: Any) -> bool:
    return isinstance(x, torch.Tensor) and x.device.type == "cuda"


def _rng_state(cuda_devices: Sequence[int]) -> tuple[torch.Tensor, list[torch.Tensor]]:
    return torch.get_rng_state(), [torch.cuda.get_rng_state(d) for d in cuda_devices]


def _set_rng_state(
    cuda_devices: Sequence[int], state: tuple[torch.Tensor, list[torch.Tensor]]
) -> None:
    torch.set_rng_state(state[0])
    for device, cuda_state in zip(cuda_devices, state[1], strict=True):
        torch.cuda.set_rng_state(cuda_state, device)


def _flatten(value: Any) -> list[Any]:
    """Leaves of nested lists/tuples/dicts in order (None and FX nodes are leaves)."""
    if isinstance(value, list | tuple):
        return [leaf for v in value for leaf in _flatten(v)]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _flatten(v)]
    return [value]


def output_distance(actual: Any, expected: Any) -> tuple[float, int, str]:
    """``(distance, non_finite, note)`` of one compiled output from the eager graph's.

    Floating tensors: relative L2 distance (``numerics._relative_l2``) over the elements where
    eager is finite; a NaN/inf compiled element where eager is finite makes it ``inf``
    (``non_finite`` counts them). Other tensors and values: 0 when equal, else ``inf``.
    """
    if not isinstance(expected, torch.Tensor) or not isinstance(actual, torch.Tensor):
        if isinstance(expected, torch.Tensor) or isinstance(actual, torch.Tensor):
            return math.inf, 0, f"a {type(actual).__name__} where eager gives a tensor"
        try:
            same = bool(actual == expected)
        except Exception:  # noqa: BLE001 - an incomparable value is a difference
            same = False
        return (0.0, 0, "") if same else (math.inf, 0, f"{actual!r} != eager {expected!r}")
    if actual.shape != expected.shape:
        return math.inf, 0, f"shape {tuple(actual.shape)} != eager {tuple(expected.shape)}"
    note = (
        f"dtype {actual.dtype} != eager {expected.dtype}" if actual.dtype != expected.dtype else ""
    )
    a, e = actual.detach(), expected.detach().to(actual.device)
    if not (e.is_floating_point() or e.is_complex()):
        return (0.0, 0, note) if torch.equal(a, e) else (math.inf, 0, "values differ")
    if e.is_complex():
        a, e = torch.view_as_real(a.resolve_conj()), torch.view_as_real(e.resolve_conj())
    if a.numel() == 0:
        return 0.0, 0, note
    finite = torch.isfinite(e)
    if bool(finite.all()):
        bad = _non_finite(a)
        return (math.inf, bad, note) if bad else (_relative_l2(a, e), 0, note)
    bad = _non_finite(a[finite])
    note = "; ".join(filter(None, [note, f"eager non-finite at {int((~finite).sum())} elements"]))
    if bad:
        return math.inf, bad, note
    return _relative_l2(a[finite], e[finite]), 0, note


# --------------------------------------------------------------------------- FX origins
_FRAME = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+), in (?P<function>.+)$')
_MAGI_NAME = re.compile(r"__magi_\d+$")  # isolate_forward_code's suffix on forward's name


def module_path(stack_path: str) -> str:
    """Dynamo's ``nn_module_stack`` path as a module name: ``"L['self'].up_blocks[2]"`` ->
    ``"up_blocks.2"``; ``"L['fn'].owner.__dict__['_modules']['decoder'].forward.__self__.conv"``
    -> ``"owner.decoder.conv"``."""
    path = re.sub(r"^[LG]\[['\"][^'\"]*['\"]\]", "", stack_path)
    path = re.sub(r"\[['\"]([^'\"]*)['\"]\]", r".\1", path)
    path = re.sub(r"\[(\d+)\]", r".\1", path)
    path = "." + path + "."
    for detour in (".__dict__.", "._modules.", ".forward.__self__."):
        while detour in path:
            path = path.replace(detour, ".")
    return path.strip(".")


def _origin(node: Any, position: int) -> dict[str, Any]:
    """Where an output comes from: node, target, module path and type, last source frame."""
    if not isinstance(node, torch.fx.Node):
        return {"node": repr(node)[:80], "target": "constant", "position": position}
    if node.op == "call_method":
        target = f"Tensor.{node.target}"
    elif node.op == "call_function":
        target = op_name(node.target)
    elif node.op == "placeholder":
        target = "graph input"
    else:
        target = str(node.target)
    found: dict[str, Any] = {"node": node.name, "target": target, "position": position}
    found.update(meta_origin(node.meta))
    return found


def meta_origin(meta: Mapping[str, Any]) -> dict[str, Any]:
    """``module``, ``module_type``, ``file``, ``line``, ``function``, ``code`` from an FX node's
    ``meta`` (its innermost ``nn_module_stack`` entry and the last frame of its ``stack_trace``;
    the keys it does not have are left out)."""
    found: dict[str, Any] = {}
    stack = meta.get("nn_module_stack") or {}
    if stack:
        path, kind = list(stack.values())[-1]
        found["module"] = module_path(str(path))
        found["module_type"] = getattr(kind, "__name__", None) or str(kind).rsplit(".", 1)[-1]
    lines = str(meta.get("stack_trace") or "").splitlines()
    for i in range(len(lines) - 1, -1, -1):
        match = _FRAME.match(lines[i])
        if match:
            code = lines[i + 1].strip() if i + 1 < len(lines) else ""
            found.update(
                file=match["file"],
                line=int(match["line"]),
                function=_MAGI_NAME.sub("", match["function"].strip()),
                code="" if set(code) <= {"^", "~", " "} else code,
            )
            break
    return found


def _output_origins(gm: torch.fx.GraphModule) -> list[dict[str, Any]]:
    order = {node: i for i, node in enumerate(gm.graph.nodes)}
    output = next(iter(gm.graph.find_nodes(op="output")))
    return [
        _origin(n, order.get(n, -1) if isinstance(n, torch.fx.Node) else -1)
        for n in _flatten(output.args[0])
    ]


def _copy_module(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """A GraphModule on a copy of ``gm``'s graph (nodes and meta), sharing its attributes: what
    a compiler later does to ``gm``'s graph does not reach it, and no weight is copied."""
    return torch.fx.GraphModule(gm, copy_graph(gm.graph))


def _rewritten_record(item: dict[str, Any]) -> RewrittenNode:
    return RewrittenNode(
        item["node"], item["target"], item["by"], item["replaces"], item["origin"],
        **meta_origin(item["meta"]),
    )  # fmt: skip


# --------------------------------------------------------------------------- validation
def validate_tolerance(tolerance: Any) -> dict[torch.dtype, float]:
    """``tolerance`` (None, a number for every dtype, or ``{dtype: number}`` over the defaults)
    as a full ``{dtype: float}``; TypeError/ValueError saying the fix."""
    table = dict(DEFAULT_TOLERANCE)
    if tolerance is None:
        return table
    example = "e.g. tolerance=1e-2 or tolerance={torch.bfloat16: 2e-2}"
    if isinstance(tolerance, Mapping):
        items = list(tolerance.items())
    elif isinstance(tolerance, int | float) and not isinstance(tolerance, bool):
        items = [(dtype, tolerance) for dtype in table]
    else:
        raise TypeError(
            f"tolerance={tolerance!r}: expected None (the per-dtype defaults), a relative L2 "
            f"distance for every dtype, or a dict {{torch.dtype: distance}}; {example}"
        )
    for dtype, value in items:
        if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
            raise TypeError(
                f"tolerance key {dtype!r}: expected a floating torch.dtype such as "
                f"torch.bfloat16; {example}"
            )
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value <= 0
        ):
            raise ValueError(
                f"tolerance for {dtype}={value!r}: expected a positive finite relative L2 "
                f"distance (compiled vs the eager graph); {example}"
            )
        table[dtype] = float(value)
    return table


def validate_settings(settings: Any) -> list[dict[str, Any]]:
    """``settings`` (None: :data:`DEFAULT_SETTINGS` minus the keys this torch lacks) as a list
    of Inductor config patches, one retry each; unknown keys name close matches."""
    if settings is None:
        table = [existing(torch._inductor.config, entry) for entry in DEFAULT_SETTINGS]
        return [entry for entry in table if entry]
    if isinstance(settings, Mapping) or isinstance(settings, str | bytes):
        raise TypeError(
            f"settings={settings!r:.200}: expected a list of dicts of torch._inductor.config "
            f"patches, one retry each, e.g. settings=[{{'comprehensive_padding': False}}, "
            f"{{'split_reductions': False}}] (a dict with several keys is one retry)"
        )
    if not isinstance(settings, Sequence):
        raise TypeError(
            f"settings={settings!r:.200}: expected a list of dicts of torch._inductor.config "
            f"patches, e.g. settings=[{{'comprehensive_padding': False}}]"
        )
    table = []
    for i, entry in enumerate(settings):
        if not isinstance(entry, Mapping) or not entry:
            raise TypeError(
                f"settings[{i}]={entry!r:.200}: expected a non-empty dict of "
                f"torch._inductor.config patches, e.g. {{'comprehensive_padding': False}}"
            )
        table.append(validate_inductor_config(f"settings[{i}]", entry, allow_none=False))
    return table


def _validate_budget(budget_s: Any) -> float | None:
    if budget_s is None:
        return None
    if isinstance(budget_s, bool) or not isinstance(budget_s, int | float) or not budget_s > 0:
        raise ValueError(
            f"budget_s={budget_s!r}: expected None (no limit) or a positive number of seconds, "
            f"e.g. budget_s=420 to fit a 10-minute call"
        )
    return float(budget_s)


def _validate_reference(reference: Any) -> str | None:
    if reference is not None and reference not in REFERENCE_DTYPES:
        raise ValueError(
            f"reference={reference!r}: expected None, 'fp32' or 'fp64' (the whole model run "
            f"at that precision, to say whether the final output is wrong at all)"
        )
    return reference


def _describe_patches(patches: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in patches.items())


# --------------------------------------------------------------------------- the backend
@dataclass
class _Symbolic:
    """What a dynamic graph was compiled with: dynamo's fake mode (its ShapeEnv) and the
    placeholders' fake values, symbolic sizes included. A retry compiles from these, so it is as
    dynamic as the run's compile was (real inputs would specialise every size)."""

    fake_mode: Any
    examples: list[Any]

    def inputs(self, dtype: torch.dtype | None = None) -> list[Any]:
        """The fake example inputs (floating bf16/fp16 ones cast to ``dtype`` where given)."""
        if dtype is None:
            return list(self.examples)
        return [
            _fake_cast(x, dtype) if isinstance(x, torch.Tensor) and x.dtype in _LOW_PRECISION else x
            for x in self.examples
        ]

    def scope(self) -> contextlib.AbstractContextManager[Any]:
        from torch._guards import TracingContext, tracing

        return tracing(TracingContext(self.fake_mode))


def _fake_cast(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """A fake tensor cast under its own fake mode (its sizes stay symbolic)."""
    mode = getattr(x, "fake_mode", None)
    with mode if mode is not None else contextlib.nullcontext():
        return x.to(dtype)


def _symbolic(gm: torch.fx.GraphModule) -> _Symbolic | None:
    """The graph's symbolic example values while dynamo compiles it (None: a static graph, or
    not called by dynamo)."""
    from torch._guards import TracingContext
    from torch.fx.experimental.symbolic_shapes import free_symbols

    context = TracingContext.try_get()
    if context is None or context.fake_mode is None:
        return None
    examples = [n.meta.get("example_value") for n in gm.graph.find_nodes(op="placeholder")]
    if any(x is None for x in examples) or not any(free_symbols(x) for x in examples):
        return None
    modes = [x.fake_mode for x in examples if getattr(x, "fake_mode", None) is not None]
    return _Symbolic(modes[0] if modes else context.fake_mode, examples)


@dataclass
class _GraphState:
    record: GraphRecord
    eager: torch.fx.GraphModule
    compiled: Callable[..., Any]
    origins: list[dict[str, Any]]
    managers: list[Any]
    symbolic: _Symbolic | None = None
    # the post-grad graph before and after the side's passes, and which pass made which node
    post_grad: tuple[torch.fx.Graph, torch.fx.Graph, dict[str, str]] | None = None


@dataclass
class _Saved:
    graph: int
    eager: torch.fx.GraphModule
    inputs: list[Any]
    grad: bool
    managers: list[Any]
    devices: list[int]  # CUDA devices among the inputs
    rng: tuple[torch.Tensor, list[torch.Tensor]]  # the RNG state the wrong call started from
    compiled: Callable[..., Any]  # the code compiled in the run (the replay reruns it)
    symbolic: _Symbolic | None  # a dynamic graph's symbolic examples (the retries compile them)
    post_grad: tuple[torch.fx.Graph, torch.fx.Graph, dict[str, str]] | None = None


class _PatchedBackend:
    """A callable dynamo backend run under Inductor config patches (a retry of a "backend"
    side: its compiler is not ours, so the patches can only be ambient around its call)."""

    def __init__(self, backend: Callable[..., Any], patches: Mapping[str, Any]) -> None:
        self.backend = backend
        self.patches = dict(patches)

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Any:
        with torch._inductor.config.patch(self.patches):
            return self.backend(gm, list(example_inputs))


def _magi_parts(backend: MagiBackend) -> tuple[PassConfig, dict[str, Any]]:
    """The effective ``PassConfig`` of a ``MagiBackend`` and its Inductor patches."""
    patches = dict(backend.inductor_config_patches)
    base = patches.pop("pass_config", None) or backend.config or PassConfig.from_env()
    fields = {k: patches.pop(k) for k in list(patches) if k in PassConfig.field_names()}
    return base.replace(**fields), patches


def _fresh_magi(
    backend: MagiBackend, config: PassConfig | None = None, patches: Mapping[str, Any] | None = None
) -> MagiBackend:
    """A copy of ``backend`` with no managers of its own yet (its owner's results stay its
    owner's), optionally with another config and Inductor patches."""
    new = copy.copy(backend)
    new.managers = []
    new.hoisted_weights = []
    new.seconds = dict.fromkeys(new.seconds, 0.0)
    new.retried = []
    if config is not None:
        new.config = config
        new.inductor_config_patches = dict(patches or {})
    return new


#: the name of the control retry (the first wrong graph recompiled with nothing changed)
CONTROL = "as compiled (control)"
#: the name of the replay (the code compiled in the run, rerun on the saved inputs)
REPLAY = "the run's code, rerun (replay)"


def _kernel_diff(
    replay: Retry, replayed: list[KernelLaunch], control: Retry, recompiled: list[KernelLaunch]
) -> list[str] | None:
    """How the replayed code's Triton launches differ from the control's (None: one of them
    did not run, or neither launched a Triton kernel)."""
    if replay.status not in ("cleared", "wrong") or control.status not in ("cleared", "wrong"):
        return None
    if not replayed and not recompiled:
        return None
    verdict = {"cleared": "right", "wrong": "wrong"}
    labels = (f"replay, {verdict[replay.status]}", f"control, {verdict[control.status]}")
    return kernel_differences(replayed, recompiled, labels)


def fresh_spec(spec: SideSpec) -> SideSpec:
    """``spec`` with a fresh ``MagiBackend`` copy on a magi side, so compiling through it adds
    nothing to the original backend's managers (a pair's ``results``)."""
    if spec.kind == "magi" and isinstance(spec.backend, MagiBackend):
        return dataclasses.replace(spec, backend=_fresh_magi(spec.backend))
    return spec


def _pass_names_of_field(config: PassConfig, field_name: str) -> list[str]:
    """Names of the magi passes that ``PassConfig.<field_name> = False`` disables."""
    from magi_passes.compile.manager import PASS_ORDER

    off = config.replace(**{field_name: False})
    names: list[str] = []
    for cls in PASS_ORDER:
        try:
            if cls(config).enabled() and not cls(off).enabled():
                names.append(cls.name)
        except Exception:  # noqa: BLE001 - a pass that cannot say: retried, not skipped
            return []
    return names


class LocatingBackend:
    """A dynamo backend that compiles each graph like ``spec_or_backend`` and checks every call
    against the same graph run eagerly (see the module docstring).

    ``spec_or_backend``: a :class:`pytest_magi.capture.sides.SideSpec`, or what ``backend=`` of
    :func:`locate` takes (None: plain Inductor; "magi", a ``PassConfig``, a ``MagiBackend``, a
    dict of Inductor patches, a backend name or callable) with ``passes``/``inductor_config``.
    A magi side compiles through a copy of its ``MagiBackend`` (the original's managers stay
    untouched). ``tolerance``, ``settings``, ``fp32_rerun``, ``budget_s``, ``label``: as for
    :func:`locate`; ``cure=False`` reports without retrying.

    ``torch.compile(model, backend=LocatingBackend(...))``, call the model, then
    :meth:`report`.
    """

    def __init__(
        self,
        spec_or_backend: Any = None,
        *,
        passes: Sequence[Any] | None = None,
        inductor_config: Mapping[str, Any] | None = None,
        tolerance: Any = None,
        settings: Sequence[Mapping[str, Any]] | None = None,
        fp32_rerun: bool = False,
        budget_s: float | None = None,
        label: str | None = None,
        cure: bool = True,
    ) -> None:
        self._start = time.perf_counter()
        chain = validate_passes(passes)
        extra = validate_inductor_config("inductor_config", inductor_config)
        if isinstance(spec_or_backend, SideSpec):
            if chain or extra:
                raise ValueError(
                    f"LocatingBackend({spec_or_backend.description}): a SideSpec already says "
                    f"its passes and Inductor config; give passes=/inductor_config= only with "
                    f"a backend spelling (None, 'magi', a PassConfig, a dict, ...)"
                )
            spec = spec_or_backend
        else:
            if spec_or_backend == "magi":
                spec_or_backend = MagiBackend(None, {})
            spec = resolve_side(
                "backend", "inductor" if spec_or_backend is None else spec_or_backend, chain, extra
            )
        self.spec = fresh_spec(spec)
        self.tolerance = validate_tolerance(tolerance)
        self.settings = validate_settings(settings)
        self.fp32_rerun = validate_bool("fp32_rerun", fp32_rerun)
        self.budget_s = _validate_budget(budget_s)
        self.label = validate_label(label) or self.spec.description
        self.cure = validate_bool("cure", cure)
        self.side = SideBackend("located", self.spec)
        self._states: list[_GraphState] = []
        self._first: FirstBad | None = None
        self._saved: _Saved | None = None
        self._cured: tuple[list[Retry], Fp32Rerun | None] | None = None
        self._kernels: list[str] | None = None
        self._launched: list[str] | None = None
        self._configs: list[str] | None = None
        self._notes: list[str] = []
        self._rewritten: list[RewrittenNode] = []
        self._diverged: tuple[Divergence | None, str] | None = None

    # ------------------------------------------------------------------ compile and check
    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Any:
        eager = _copy_module(gm)
        origins = _output_origins(gm)
        symbolic = _symbolic(gm)
        magi = self.spec.backend if self.spec.kind == "magi" else None
        before = len(magi.managers) if magi is not None else 0
        logged, chain = len(self.side.log.after), self.side.chain
        added = len(chain.added) if chain is not None else 0
        compiled = self.side(gm, list(example_inputs))
        managers = list(magi.managers[before:]) if magi is not None else []
        post_grad = None
        if (self.spec.passes or magi is not None) and len(self.side.log.after) > logged:
            made_by = chain.added[-1] if chain is not None and len(chain.added) > added else {}
            post_grad = (self.side.log.before[-1], self.side.log.after[-1], dict(made_by))
        state = _GraphState(
            GraphRecord(len(self._states)), eager, compiled, origins, managers, symbolic, post_grad
        )
        self._states.append(state)

        # dynamo calls what a backend returns with positional args (no _boxed_call here)
        def run(*args: Any) -> Any:
            return self._run(state, args)

        return run

    def tolerance_for(self, dtype: torch.dtype | None) -> float:
        if dtype is None:
            return 0.0
        if dtype in self.tolerance:
            return self.tolerance[dtype]
        return OTHER_FLOAT_TOLERANCE if dtype.is_floating_point else 0.0

    def _run(self, state: _GraphState, args: tuple[Any, ...]) -> Any:
        record = state.record
        record.calls += 1
        clones = strided_clone(args)
        versions = _versions(clones)
        grad = torch.is_grad_enabled()
        devices = sorted({x.device.index or 0 for x in clones if _on_cuda(x)})
        before = _rng_state(devices)
        out = state.compiled(*args)
        after = _rng_state(devices)
        try:
            _set_rng_state(devices, before)  # random ops draw what the compiled run drew
            with torch.no_grad():
                expected = state.eager(*clones)
        except Exception as error:  # noqa: BLE001 - the model's call must still return
            record.note = f"the eager graph raised {type(error).__name__}: {error}"[:300]
            return out
        finally:
            _set_rng_state(devices, after)  # and the model's stream goes on as compiled left it
        wrong = self._compare(state, _flatten(out), _flatten(expected))
        if wrong and self._first is None:
            self._first = self._first_bad(state, wrong)
            record.first_wrong_call = record.calls
            if versions != _versions(clones):
                self._notes.append(
                    f"graph {record.index} mutates its inputs: its cures ran on the inputs as "
                    f"the eager graph left them (compiled and eager alike)"
                )
            self._saved = _Saved(
                record.index, state.eager, clones, grad, state.managers, devices, before,
                state.compiled, state.symbolic, state.post_grad,
            )  # fmt: skip
            self._rewritten = self._rewritten_upstream(state, self._first.output)
        return out

    def _compare(self, state: _GraphState, actual: list[Any], expected: list[Any]) -> list[int]:
        record = state.record
        if len(actual) != len(expected):
            record.note = (
                f"the compiled graph returned {len(actual)} outputs, the eager graph "
                f"{len(expected)}"
            )
        if not record.outputs:
            record.outputs = [
                OutputRecord(i, **(state.origins[i] if i < len(state.origins) else {}))
                for i in range(len(expected))
            ]
        wrong: list[int] = []
        missing = object()  # an output one side did not return: infinitely far
        actual = actual + [missing] * (len(expected) - len(actual))
        for i, (a, e) in enumerate(zip(actual, expected, strict=False)):
            if i >= len(record.outputs):
                break
            distance, bad, note = output_distance(a, e)
            if a is missing:
                distance, note = math.inf, "the compiled graph did not return it"
            item = record.outputs[i]
            dtype = e.dtype if isinstance(e, torch.Tensor) else None
            if item.shape is None or distance > item.distance:
                item.shape = tuple(e.shape) if isinstance(e, torch.Tensor) else None
                item.dtype = str(dtype).removeprefix("torch.") if dtype is not None else ""
                item.distance, item.non_finite, item.note = distance, bad, note
            if not distance <= self.tolerance_for(dtype):
                item.wrong = True
                wrong.append(i)
        return wrong

    def _first_bad(self, state: _GraphState, wrong: list[int]) -> FirstBad:
        record = state.record
        # the wrong output produced first in the graph: later ones may only inherit its error
        pick = min(
            wrong, key=lambda i: (record.outputs[i].position < 0, record.outputs[i].position)
        )
        o = record.outputs[pick]
        return FirstBad(
            record.index, record.calls, pick, record.n_outputs, o.shape, o.dtype, o.distance,
            o.non_finite, o.node, o.target, o.module, o.module_type, o.file, o.line,
            o.function, o.code,
        )  # fmt: skip

    # ------------------------------------------------------------------ report
    @property
    def graphs(self) -> list[GraphRecord]:
        return [s.record for s in self._states]

    def report(self) -> LocateReport:
        """What the calls so far found; on the first call with a wrong output also where the
        passes' values first go wrong and the cures (run once: later reports reuse them, and
        the saved inputs are freed after)."""
        if self._saved is not None and self._diverged is None:
            self._diverged = self._divergence(self._saved)
        if self._saved is not None and self.cure and self._cured is None:
            self._cured = self._cure(self._saved)
        notes = list(self._notes)  # the cures' own notes included
        self._saved = None  # the inputs kept for the cures: freed once they ran
        retries, fp32 = self._cured or ([], None)
        if not self._states:
            notes.append("dynamo compiled no graph: nothing was checked")
        return LocateReport(
            label=self.label,
            side=self.spec.description,
            graphs=[copy.deepcopy(s.record) for s in self._states],
            first_bad=copy.copy(self._first),
            retries=list(retries),
            fp32=fp32,
            kernels=None if self._kernels is None else list(self._kernels),
            launched=None if self._launched is None else list(self._launched),
            configs=None if self._configs is None else list(self._configs),
            tolerance={str(k).removeprefix("torch."): v for k, v in self.tolerance.items()},
            budget_s=self.budget_s,
            seconds=time.perf_counter() - self._start,
            notes=notes,
            rewritten=copy.deepcopy(self._rewritten),
            diverges=copy.copy(self._diverged[0]) if self._diverged else None,
            diverges_note=self._diverged[1] if self._diverged else "",
        )

    # ------------------------------------------------------------------ the passes' own diff
    @staticmethod
    def _rewritten_upstream(state: _GraphState, output: int) -> list[RewrittenNode]:
        """The post-grad nodes the side's passes added or changed upstream of ``output``."""
        if state.post_grad is None:
            return []
        before, after, made_by = state.post_grad
        outputs = next(iter(after.find_nodes(op="output"))).args[0]
        # AOTAutograd's inference graph returns the graph's outputs as they are; where the
        # counts differ (mutated inputs returned too), every output's ancestry is searched
        index = output if len(_flatten(outputs)) == state.record.n_outputs else None
        try:
            found = rewritten_nodes(before, after, index, made_by)
        except Exception:  # noqa: BLE001 - the report stands without the diff
            return []
        return [_rewritten_record(item) for item in found]

    def _divergence(self, saved: _Saved) -> tuple[Divergence | None, str]:
        """The first post-grad node whose value the passes change beyond tolerance, and a note
        where there is none."""
        if saved.post_grad is None:
            return None, (
                "the side runs no post-grad passes: no graph without them to compare values with"
                if not (self.spec.passes or self.spec.kind == "magi")
                else "no post-grad graph was recorded for this graph"
            )
        before, after, _ = saved.post_grad
        current = _rng_state(saved.devices)

        def prepare() -> list[Any]:
            _set_rng_state(saved.devices, saved.rng)
            return strided_clone(saved.inputs)

        try:
            found = first_divergence(
                before,
                after,
                saved.inputs,
                lambda a, e: output_distance(a, e)[0],
                self.tolerance_for,
                prepare,
            )
        except Exception as error:  # noqa: BLE001 - reported; the cures still run
            return None, f"values not compared: {type(error).__name__}: {error}"[:300]
        finally:
            _set_rng_state(saved.devices, current)
        if found is None:
            return None, (
                "the post-grad graph with the passes computes the same values as without them "
                "(run eagerly): the fault is below the graph (Inductor's lowering or code)"
            )
        meta = found.pop("meta")
        found.update(meta_origin(meta))
        return Divergence(**found), ""

    # ------------------------------------------------------------------ cures
    def _variants(self, saved: _Saved) -> list[tuple[str, str, SideSpec, str]]:
        """``(name, kind, spec, skip note)`` of each retry, in order."""
        spec = self.spec
        found: list[tuple[str, str, SideSpec, str]] = []
        magi_parts = _magi_parts(spec.backend) if spec.kind == "magi" else None
        if magi_parts is not None:
            config, patches = magi_parts
            for name in PassConfig.field_names():
                if not (name.startswith("enable_") and getattr(config, name) is True):
                    continue
                off = config.replace(**{name: False})
                variant = dataclasses.replace(spec, backend=_fresh_magi(spec.backend, off, patches))
                passes = _pass_names_of_field(config, name)
                applied = any(m.fired(p) for m in saved.managers for p in passes)
                skip = "" if applied or not passes or not saved.managers else (
                    f"{', '.join(passes)} did not apply to this graph"
                )  # fmt: skip
                found.append((f"magi: {name}=False", "pass", variant, skip))
        names = [pass_name(p) for p in spec.passes]
        for i, name in enumerate(names):
            shown = name if names.count(name) == 1 else f"{name} (#{i + 1})"
            rest = spec.passes[:i] + spec.passes[i + 1 :]
            found.append((f"passes: without {shown}", "pass", self._with(spec, rest, {}), ""))
        ambient = torch._inductor.config.get_config_copy()
        effective = {**ambient, **(spec.patches or {}), **(magi_parts[1] if magi_parts else {})}
        for setting in self.settings:
            same = all(k in effective and effective[k] == v for k, v in setting.items())
            skip = f"the side already has {_describe_patches(setting)}" if same else ""
            if spec.kind == "backend" and spec.description in NOT_INDUCTOR:
                skip = f"backend {spec.description!r} generates no Inductor code"
            found.append(
                (_describe_patches(setting), "setting", self._with(spec, None, setting), skip)
            )
        return found

    def _with(
        self, spec: SideSpec, passes: tuple[Any, ...] | None, setting: Mapping[str, Any]
    ) -> SideSpec:
        """``spec`` with other passes and/or Inductor settings on top of its config."""
        passes = spec.passes if passes is None else passes
        if spec.kind == "inductor":
            return dataclasses.replace(
                spec, patches={**(spec.patches or {}), **setting}, passes=passes
            )
        if spec.kind == "magi":
            config, patches = _magi_parts(spec.backend)
            backend = _fresh_magi(spec.backend, config, {**patches, **setting})
            return dataclasses.replace(spec, backend=backend, passes=passes)
        return dataclasses.replace(spec, backend=_PatchedBackend(spec.backend, setting))

    def _over_budget(self, longest: float) -> bool:
        if self.budget_s is None:
            return False
        return time.perf_counter() - self._start + longest > self.budget_s

    def _cure(self, saved: _Saved) -> tuple[list[Retry], Fp32Rerun | None]:
        current = _rng_state(saved.devices)
        try:
            return self._cures(saved)
        finally:
            _set_rng_state(saved.devices, current)  # the retries' random draws leave no trace

    def _cures(self, saved: _Saved) -> tuple[list[Retry], Fp32Rerun | None]:
        expected = self._eager(saved, saved.inputs)
        longest = 0.0
        fp32 = None
        if self.fp32_rerun:
            if self._over_budget(0.0):
                fp32 = Fp32Rerun("n/a", note=f"untried: over the budget of {self.budget_s:g} s")
            else:
                fp32 = self._fp32(saved)
                longest = fp32.seconds
        replay, replayed = self._replay(saved, expected)
        self._launched = launch_lines(replayed) or None
        if replay.status == "wrong" and replayed:
            if self._over_budget(replay.seconds):
                self._notes.append(
                    f"configs of the replay's kernels not swept: over the budget of "
                    f"{self.budget_s:g} s"
                )
            else:
                self._configs = self._sweep(saved)
        retries: list[Retry] = [replay]
        if self._over_budget(longest):
            note = f"over the budget of {self.budget_s:g} s"
            retries.append(Retry(CONTROL, "control", "untried", note=note))
        else:
            launches: list[KernelLaunch] = []
            control = self._retry(
                CONTROL, "control", fresh_spec(self.spec), saved, expected, launches
            )
            longest = max(longest, control.seconds)
            retries.append(control)
            self._kernels = _kernel_diff(replay, replayed, control, launches)
        for name, kind, variant, skip in self._variants(saved):
            if skip:
                retries.append(Retry(name, kind, "skipped", note=skip))
                continue
            if self._over_budget(longest):
                note = f"over the budget of {self.budget_s:g} s"
                retries.append(Retry(name, kind, "untried", note=note))
                continue
            retry = self._retry(name, kind, variant, saved, expected)
            longest = max(longest, retry.seconds)
            retries.append(retry)
        return retries, fp32

    def _eager(self, saved: _Saved, inputs: Sequence[Any]) -> list[Any]:
        clones = strided_clone(inputs)
        _set_rng_state(saved.devices, saved.rng)
        with torch.no_grad():
            return _flatten(saved.eager(*clones))

    def _compile_and_run(
        self,
        spec: SideSpec,
        saved: _Saved,
        inputs: Sequence[Any],
        launches: list[KernelLaunch] | None = None,
        widen: torch.dtype | None = None,
    ) -> list[Any]:
        """The graph recompiled by ``spec`` (as dynamic as the run's compile: its symbolic
        examples where it had them; ``widen``: bf16/fp16 ones cast) and run on ``inputs``."""
        side = SideBackend("retry", spec)
        examples: list[Any] = list(inputs)
        scope: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        if saved.symbolic is not None:
            examples, scope = saved.symbolic.inputs(widen), saved.symbolic.scope()
        with torch.set_grad_enabled(saved.grad), scope:
            compiled = side(_copy_module(saved.eager), examples)
        return self._run_saved(compiled, saved, inputs, launches)

    @staticmethod
    def _run_saved(
        compiled: Callable[..., Any],
        saved: _Saved,
        inputs: Sequence[Any],
        launches: list[KernelLaunch] | None = None,
    ) -> list[Any]:
        """``compiled`` on strided copies of ``inputs`` from the wrong call's RNG state; the
        Triton kernels it launched appended to ``launches``."""
        clones = strided_clone(inputs)
        _set_rng_state(saved.devices, saved.rng)
        with torch.set_grad_enabled(saved.grad), recorded_launches() as record:
            out = _flatten(compiled(*clones))
        if launches is not None:
            launches.extend(record)
        return out

    def _sweep(self, saved: _Saved) -> list[str] | None:
        """Each Triton kernel of the wrong code, rerun with each of its candidate configs on
        its own arguments: does its output depend on the config (``config_sweep``)?"""
        from .config_sweep import sweep_configs, sweep_lines

        _set_rng_state(saved.devices, saved.rng)
        try:
            with torch.set_grad_enabled(saved.grad):
                sweeps = sweep_configs(saved.compiled, *saved.inputs)
            alone = [s.name for s in sweeps if not s.error and not s.runs]
            if alone:
                self._notes.append(
                    f"config sweep: {len(alone)} of {len(sweeps)} kernels had no other config "
                    "to compare (one config, or served by the autotune cache: run with "
                    "torch._inductor.config.autotune_local_cache=False to sweep them)"
                )
            return sweep_lines(sweeps)
        except Exception as error:  # noqa: BLE001 - reported; the recompiles still run
            self._notes.append(f"config sweep failed: {type(error).__name__}: {error}"[:300])
            return None

    def _replay(self, saved: _Saved, expected: list[Any]) -> tuple[Retry, list[KernelLaunch]]:
        """The code compiled in the run, rerun on the saved inputs: is the code itself wrong?"""
        launches: list[KernelLaunch] = []
        start = time.perf_counter()
        try:
            actual = self._run_saved(saved.compiled, saved, saved.inputs, launches)
        except Exception as error:  # noqa: BLE001 - reported; the recompiles still run
            note = f"{type(error).__name__}: {error}"[:300]
            return Retry(
                REPLAY, "replay", "error", seconds=time.perf_counter() - start, note=note
            ), []
        worst, wrong = self._judge(actual, expected)
        status = "cleared" if wrong == 0 else "wrong"
        return Retry(REPLAY, "replay", status, worst, wrong, time.perf_counter() - start), launches

    def _judge(self, actual: list[Any], expected: list[Any]) -> tuple[float, int]:
        """(worst distance, wrong outputs) of a retry's outputs against the eager graph's."""
        worst, wrong = 0.0, 0
        if len(actual) != len(expected):
            return math.inf, max(len(actual), len(expected))
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            distance, _, _ = output_distance(a, e)
            worst = max(worst, distance)
            original = self._saved_dtype(i, e)
            if not distance <= self.tolerance_for(original):
                wrong += 1
        return worst, wrong

    def _saved_dtype(self, index: int, value: Any) -> torch.dtype | None:
        """The dtype output ``index`` of the first wrong graph had (fp32 reruns widen it)."""
        if self._first is not None:
            outputs = self._states[self._first.graph].record.outputs
            if index < len(outputs) and outputs[index].dtype:
                return getattr(torch, outputs[index].dtype, None)
        return value.dtype if isinstance(value, torch.Tensor) else None

    def _retry(
        self,
        name: str,
        kind: str,
        spec: SideSpec,
        saved: _Saved,
        expected: list[Any],
        launches: list[KernelLaunch] | None = None,
    ) -> Retry:
        start = time.perf_counter()
        try:
            actual = self._compile_and_run(spec, saved, saved.inputs, launches)
        except Exception as error:  # noqa: BLE001 - one failing retry must not hide the rest
            note = f"{type(error).__name__}: {error}"[:300]
            return Retry(name, kind, "error", seconds=time.perf_counter() - start, note=note)
        worst, wrong = self._judge(actual, expected)
        status = "cleared" if wrong == 0 else "wrong"
        return Retry(name, kind, status, worst, wrong, time.perf_counter() - start)

    def _fp32(self, saved: _Saved) -> Fp32Rerun:
        low = [x for x in saved.inputs if isinstance(x, torch.Tensor) and x.dtype in _LOW_PRECISION]
        if not low:
            return Fp32Rerun("n/a", note="no bf16/fp16 input: nothing to widen")
        start = time.perf_counter()
        wide = list(_cast(tuple(saved.inputs), torch.float32))
        try:
            expected = self._eager(saved, wide)
            actual = self._compile_and_run(fresh_spec(self.spec), saved, wide, widen=torch.float32)
        except Exception as error:  # noqa: BLE001 - reported, the cures still run
            note = f"{type(error).__name__}: {error}"[:300]
            return Fp32Rerun("error", seconds=time.perf_counter() - start, note=note)
        worst, wrong = self._judge(actual, expected)
        verdict = "logic" if wrong else "precision"
        return Fp32Rerun(verdict, worst, time.perf_counter() - start)


# --------------------------------------------------------------------------- locate
def check_reference(
    model: Callable[..., Any],
    inputs: Sequence[Any],
    compiled_output: Any,
    reference: str,
    *,
    eager_output: Any = None,
    inference: bool = True,
) -> ReferenceCheck | None:
    """The compiled model's final output and eager's against ``model`` run at ``reference``
    ("fp32"/"fp64", ``numerics.reference_outputs``); None when no output is floating."""
    dtype = REFERENCE_DTYPES[_validate_reference(reference) or "fp32"]
    if eager_output is None:
        with torch.no_grad() if inference else contextlib.nullcontext():
            eager_output = model(*inputs)
    ref = reference_outputs(model, tuple(inputs), dtype, inference)
    found: ReferenceCheck | None = None
    leaves = zip(_flatten(compiled_output), _flatten(eager_output), _flatten(ref), strict=False)
    for i, (c, e, r) in enumerate(leaves):
        if not all(isinstance(t, torch.Tensor) and t.is_floating_point() for t in (c, e, r)):
            continue
        if c.shape != r.shape or e.shape != r.shape:
            continue
        compiled = math.inf if _non_finite(c) else _relative_l2(c, r)
        eager = math.inf if _non_finite(e) else _relative_l2(e, r)
        bound = bound_for(eager, c.dtype)
        if found is None or not compiled <= found.compiled:
            found = ReferenceCheck(reference, compiled, eager, bound, i)
    return found


@contextlib.contextmanager
def _own_frames(model: Any) -> Iterator[None]:
    """Give an ``nn.Module``'s (sub)modules ``forward`` code of their own while the block
    runs (``isolate_forward_code(per="class")``), unless some already have a per-instance
    ``forward`` (``magi_compile``'s, or another library's hook), which are left alone."""
    from magi_passes.compile.frames import isolate_forward_code, restore_forward_code

    if not isinstance(model, torch.nn.Module) or any("forward" in vars(m) for m in model.modules()):
        yield
        return
    isolate_forward_code(model, "class")
    try:
        yield
    finally:
        restore_forward_code(model)


def check_calls(where: str, calls: Any) -> None:
    """``calls`` must be an int >= 1."""
    if isinstance(calls, bool) or not isinstance(calls, int) or calls < 1:
        raise ValueError(
            f"{where}(calls={calls!r}): expected an int >= 1, the number of calls of the compiled "
            f"model (2 for a model whose second call compiles other graphs)"
        )


def _check_model(model: Any, inputs: tuple[Any, ...]) -> None:
    if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
        raise TypeError(
            "locate(model=<a torch.compile'd module>): give the eager model, locate compiles "
            "it itself (e.g. locate(compiled._orig_mod, x))"
        )
    if not callable(model):
        raise TypeError(
            f"locate(model_or_fn={model!r:.100}): expected an nn.Module or a callable to "
            f"compile, e.g. locate(model, x)"
        )
    if not inputs:
        raise ValueError(
            "locate(model_or_fn, *inputs) needs the inputs of one call (the graphs are checked "
            "while it runs); e.g. locate(model, x)"
        )


def locate(
    model_or_fn: Any,
    *inputs: Any,
    backend: Any = None,
    passes: Sequence[Any] | None = None,
    inductor_config: Mapping[str, Any] | None = None,
    reference: str | None = None,
    settings: Sequence[Mapping[str, Any]] | None = None,
    fp32_rerun: bool = False,
    tolerance: Any = None,
    budget_s: float | None = None,
    label: str | None = None,
    calls: int = 1,
) -> LocateReport:
    """Compile ``model_or_fn`` with ``backend``, call it ``calls`` times on ``inputs`` under
    ``torch.no_grad()``, check every graph's outputs against the same graph run eagerly, and
    try cures on the first wrong graph. See the module docstring and ``docs/locate.md``.

    ``backend``: as ``baseline=``/``candidate=`` of ``CompiledPair`` (None: plain Inductor;
    "magi", a ``PassConfig``, a ``MagiBackend``, a dict of Inductor patches, a backend name or
    callable); ``passes``/``inductor_config``: the side's post-grad passes and Inductor
    patches. ``reference``: "fp32"/"fp64" also runs the whole model at that precision and
    reports the final output's distance (compiled and eager). ``settings``: the Inductor
    settings to retry (:data:`DEFAULT_SETTINGS`). ``fp32_rerun``: logic or precision.
    ``tolerance``: a relative L2 distance, or ``{dtype: distance}`` (:data:`DEFAULT_TOLERANCE`).
    ``budget_s``: stop retrying before the total would pass this many seconds.
    ``calls``: how many times to call the compiled model (a model whose later calls compile
    other graphs, such as a video VAE's decode on its second call, needs 2); the final output
    checked against ``reference`` is the last call's.
    """
    inputs = tuple(inputs)
    _check_model(model_or_fn, inputs)
    check_calls("locate", calls)
    reference = _validate_reference(reference)
    name = getattr(model_or_fn, "__name__", None) or type(model_or_fn).__name__
    locating = LocatingBackend(
        backend,
        passes=passes,
        inductor_config=inductor_config,
        tolerance=tolerance,
        settings=settings,
        fp32_rerun=fp32_rerun,
        budget_s=budget_s,
        label=label,
    )
    if label is None:
        locating.label = f"{name}[{locating.spec.description}]"
    entry = fresh_entry(model_or_fn, "locate")
    with _own_frames(model_or_fn), torch.no_grad():
        compiled = torch.compile(entry, backend=locating)
        for _ in range(calls):
            output = compiled(*inputs)
    report = locating.report()
    if reference is not None:
        report.reference = check_reference(model_or_fn, inputs, output, reference)
        report.seconds = time.perf_counter() - locating._start
    return report


# --------------------------------------------------------------------------- text and JSON
def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # "inf", "nan": JSON has no such numbers
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}"


def _not_reproduced_text(replayed: bool | None) -> str:
    if replayed is True:
        return (
            "not reproduced by a recompile: the code compiled in the run is wrong again on the "
            "saved inputs (replay) while a fresh compile of the same graph is right, so the "
            "fault is in that compile's code, not in the graph (see the Triton kernels that "
            "differ); no pass or setting can be named"
        )
    if replayed is False:
        return (
            "not reproduced alone: the code compiled in the run and a fresh compile are both "
            "right on the saved inputs, so the wrong output needed the live run (the inputs' "
            "memory as the model left it, work queued before the graph); no cure can be named"
        )
    return (
        "not reproduced alone: recompiled as compiled, the graph is right on its saved "
        "inputs; the fault needs what ran before it in the process (state a compile "
        "reads, the live inputs' memory), so no cure can be named"
    )


def _where_lines(item: RewrittenNode | Divergence, indent: str) -> list[str]:
    """The module and source lines of a post-grad node (where its ``meta`` says)."""
    lines: list[str] = []
    via = f" (from {item.origin})" if item.origin else ""
    if item.module or item.module_type:
        module = item.module or "(the top-level module)"
        kind = f" ({item.module_type})" if item.module_type else ""
        lines.append(f"{indent}module  {module}{kind}{via}")
        via = ""
    if item.file:
        lines.append(f"{indent}source  {item.source}{via}")
        if item.code:
            lines.append(f"{indent}        {item.code}")
    return lines


#: rewritten nodes the text shows (``report.rewritten`` keeps them all)
SHOWN_REWRITTEN = 8


def _pass_lines(report: LocateReport) -> list[str]:
    """The first post-grad node whose value the passes change, and the passes' own diff
    upstream of the first wrong output."""
    lines: list[str] = []
    found = report.diverges
    if found is not None:
        shape = list(found.shape) if found.shape is not None else "-"
        was = f", in place of {found.replaces}" if found.replaces else ""
        what = "rewritten by the passes" if found.changed else "not rewritten (an input was)"
        lines.append(
            "first value that goes wrong: the post-grad graph with the passes against without "
            "them, run eagerly"
        )
        lines.append(f"  node    {found.node} ({found.target}){was}: {what}")
        lines.append(f"  value   {shape} {found.dtype}, {_fmt(found.distance)} from without them")
        lines.extend(_where_lines(found, "  "))
    elif report.diverges_note:
        lines.append(f"values with and without the passes: {report.diverges_note}")
    if report.rewritten:
        lines.append("rewritten by the passes, upstream of it (post-grad graph):")
        previous: list[str] = []
        for item in report.rewritten[:SHOWN_REWRITTEN]:
            by = f" by {item.by}" if item.by else ""
            was = f", replaces {item.replaces}" if item.replaces else ""
            lines.append(f"  {item.node} ({item.target}){by}{was}")
            where = _where_lines(dataclasses.replace(item, origin=""), "    ")
            if where != previous:  # nodes of one rewrite share their source: shown once
                lines.extend(where)
            previous = where
        if len(report.rewritten) > SHOWN_REWRITTEN:
            lines.append(f"  ... {len(report.rewritten) - SHOWN_REWRITTEN} more")
    return lines


def _report_lines(report: LocateReport) -> list[str]:
    graphs = report.graphs
    calls = sum(g.calls for g in graphs)
    head = f"locate {report.label}: "
    lines: list[str] = []
    if report.first_bad is None:
        lines.append(head + f"no wrong output in {len(graphs)} graph(s) ({calls} call(s))")
    else:
        bad = sum(1 for g in graphs if g.wrong)
        lines.append(head + f"{bad} of {len(graphs)} graph(s) have wrong outputs")
    tolerance = ", ".join(f"{k} {v:g}" for k, v in report.tolerance.items())
    lines.append(f"  relative L2 from the same graph run eagerly; wrong above: {tolerance}")
    lines.append("  graph  calls  outputs  wrong  worst")
    for g in graphs:
        lines.append(
            f"  {g.index:>5}  {g.calls:>5}  {g.n_outputs:>7}  {len(g.wrong):>5}  {_fmt(g.worst)}"
            + (f"  ({g.note})" if g.note else "")
        )
    first = report.first_bad
    if first is not None:
        shape = list(first.shape) if first.shape is not None else "-"
        lines.append(
            f"first wrong output: graph {first.graph}, output {first.output} of "
            f"{first.n_outputs}, {shape} {first.dtype}, {_fmt(first.distance)} from the eager "
            f"graph (call {first.call})"
            + (f", {first.non_finite} NaN/inf" if first.non_finite else "")
        )
        lines.append(f"  node    {first.node} ({first.target})")
        module = first.module or (
            "(the top-level module)" if first.module_type else "(none: not inside an nn.Module)"
        )
        lines.append(
            f"  module  {module}" + (f" ({first.module_type})" if first.module_type else "")
        )
        if first.file:
            lines.append(f"  source  {first.source}")
            if first.code:
                lines.append(f"          {first.code}")
        lines.extend(_pass_lines(report))
    if report.fp32 is not None:
        fp32 = report.fp32
        text = {
            "logic": "still wrong in fp32: a logic error, not precision",
            # fp32 compiles other kernels (other sources, other autotuned configs): right there
            # does not clear the low-precision code itself (session 19's Wan conv_in: 0.744
            # from its eager graph in bf16, far beyond rounding, right in fp32)
            "precision": "right in fp32: precision, or a fault of the low-precision code "
            "alone (fp32 compiles other kernels)",
        }.get(fp32.verdict)
        if text is None:  # "error", "n/a"
            lines.append(f"fp32 rerun: {fp32.verdict}: {fp32.note}")
        else:
            lines.append(f"fp32 rerun: {text} (worst {_fmt(fp32.distance)})")
    if report.retries:
        width = max(len(r.name) for r in report.retries)
        lines.append(f"retried graph {first.graph if first else '?'} alone:")
        for r in report.retries:
            status = {"cleared": "clears", "wrong": f"still wrong ({r.wrong})"}.get(
                r.status, r.status
            )
            lines.append(
                f"  {r.name:<{width}}  {_fmt(r.distance):>8}  {status}"
                + (f"  {r.seconds:.1f} s" if r.seconds else "")
                + (f"  {r.note}" if r.note else "")
            )
        clears = report.clears
        if report.reproduced is False:
            lines.append(_not_reproduced_text(report.replayed))
        else:
            lines.append(f"clears it: {'; '.join(clears)}" if clears else "nothing tried clears it")
        if report.kernels is not None:
            if report.kernels:
                lines.append("Triton kernels that differ between the replay and the control:")
                lines.extend(f"  {k}" for k in report.kernels)
            else:
                lines.append(
                    "Triton kernels: the replay and the control launch the same sources with "
                    "the same configs"
                )
        if report.launched:
            lines.append("Triton kernels the replay launched (name [source]: config):")
            lines.extend(f"  {k}" for k in report.launched)
        if report.configs:
            lines.append(
                "Triton kernels whose output depends on their config (each candidate config "
                "against the one the autotuner kept; a pointwise kernel must agree bit for bit):"
            )
            lines.extend(f"  {k}" for k in report.configs)
        elif report.configs is not None:
            lines.append("Triton kernels: every candidate config of each agrees with the one kept")
    if report.reference is not None:
        ref = report.reference
        verdict = "the compiled output is wrong" if ref.wrong else "the compiled output is fine"
        if not ref.wrong and ref.compiled < ref.eager:
            verdict += " (closer to it than eager)"
        lines.append(
            f"reference {ref.reference}: compiled {_fmt(ref.compiled)}, eager {_fmt(ref.eager)} "
            f"(bound {_fmt(ref.bound)}): {verdict}"
        )
    lines.extend(f"note: {n}" for n in report.notes)
    return lines
