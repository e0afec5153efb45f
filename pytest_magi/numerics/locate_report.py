"""What `locate` reports: `LocateReport` and its records (each compiled graph, the first wrong
output and where it came from, the nodes the passes rewrote upstream of it, the first value they
change, each retry and what it cured, the fp32 rerun, the check against a reference), as text
and as JSON."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any


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
            # does not clear the low-precision code itself (the Wan decoder's conv_in was 0.744
            # from its eager graph in bf16, far beyond rounding, and right in fp32)
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
