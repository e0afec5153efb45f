"""Inductor's own cost accounting of generated CUDA code: bytes per Triton kernel, FLOPs and bytes
per extern call, recorded while the code is generated (fake CUDA where there is no GPU).

* Triton kernels: with ``torch._inductor.config.profile_bandwidth`` on, Inductor writes each
  kernel's ``estimate_kernel_num_bytes()`` (the bytes it reads and writes, what
  ``torch._inductor.metrics`` and ``benchmark_kernel`` report) into the kernel's decorator as
  ``inductor_meta["kernel_num_gb"]``; :func:`kernel_bytes` reads it back. The option adds only
  profiling hooks to the wrapper (``start_graph()``/``end_graph()``); kernels, fusion and
  launches are those of a plain compile.
* Extern calls (convolution, mm/bmm/addmm, attention, fallbacks): ``Scheduler.codegen_extern_call``
  is wrapped for the block's duration; each call records the scheduler node's own
  ``estimate_flops()`` (``torch.utils.flop_counter`` formulas on the fake shapes, through
  Inductor's ``count_flops_fx``; for a node without an origin node, its origin of the same op)
  and ``get_read_write_buffers_sizes()`` (the bytes of its inputs and outputs).

:func:`extern_costs_by_graph` matches the records to each captured graph's extern calls by name
and order; a call without a record has no cost (``None``), never a guessed one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import re
import unittest.mock as mock
from collections.abc import Iterator, Sequence
from typing import Any

_NUM_GB_RE = re.compile(r"'kernel_num_gb':\s*([0-9.eE+-]+)")
# a division or remainder by a size symbol of the kernel (`ks0`, `s1`): known only at run time
_RUNTIME_DIVMOD_RE = re.compile(r"(?://|%)\s*\(?\s*k?s\d+\b")
_SIZE_HINTS_RE = re.compile(r"size_hints=\{([^}]*)\}")
_HINT_RE = re.compile(r"'(\w+)':\s*(\d+)")
_FLOP_RE = re.compile(r"'kernel_flop':\s*(\d+)")

#: the Inductor config a budget's code is generated with (see the module docstring)
ACCOUNTING_CONFIG: dict[str, Any] = {"profile_bandwidth": True}


@dataclasses.dataclass(frozen=True)
class ExternRecord:
    """One extern call as the scheduler generated it."""

    graph: int  # a per-block number of the GraphLowering it belongs to
    name: str  # "mm", "convolution", "_scaled_dot_product_efficient_attention"
    flops: int | None
    bytes: int | None
    dtype: str | None
    # a convolution's input layout: "channels_last", "channels_first"; None for other calls
    layout: str | None = None


def kernel_bytes(source: str) -> int | None:
    """The bytes a Triton kernel reads and writes by Inductor's account (``kernel_num_gb`` in
    its ``inductor_meta``), or None where Inductor wrote none (foreach kernels)."""
    match = _NUM_GB_RE.search(source)
    if match is None:
        return None
    return round(float(match.group(1)) * 1e9)


def kernel_index_divmods(source: str) -> int:
    """Integer divisions and remainders by a run-time size a Triton kernel computes per call:
    each such ``//`` or ``%`` in its body times the elements it runs over (``size_hints``,
    Inductor's power-of-two hints: every element for a line of the reduction index, the
    non-reduction ones otherwise). 0 for static shapes, whose divisors are constants the
    compiler turns into multiplications."""
    hints_match = _SIZE_HINTS_RE.search(source)
    if hints_match is None or "def triton" not in source:
        return 0
    hints = {name: int(value) for name, value in _HINT_RE.findall(hints_match.group(1))}
    every = math.prod(hints.values())
    outer = math.prod(v for name, v in hints.items() if not name.startswith("r"))
    total = 0
    for line in source[source.index("def triton") :].splitlines():
        found = len(_RUNTIME_DIVMOD_RE.findall(line))
        if found:
            total += found * (every if "r0_" in line or "rindex" in line else outer)
    return total


def kernel_flops(source: str) -> int | None:
    """Inductor's FLOP count of a Triton kernel where it wrote one (``kernel_flop``), else None."""
    match = _FLOP_RE.search(source)
    return int(match.group(1)) if match else None


def short_extern_name(python_kernel_name: str | None) -> str | None:
    """``extern_kernels.mm`` -> ``mm``; ``torch.ops.aten._foo.default`` -> ``_foo`` (the names
    ``pytest_magi.capture.kernels`` gives the wrapper's extern calls)."""
    if not python_kernel_name:
        return None
    if python_kernel_name.startswith("extern_kernels."):
        return python_kernel_name[len("extern_kernels.") :]
    parts = python_kernel_name.removeprefix("torch.ops.").split(".")
    if len(parts) >= 2 and parts[0] == "aten":
        return parts[1]
    return None


def _flops_of(scheduler_node: Any) -> int | None:
    from torch._inductor.fx_utils import count_flops_fx, countable_fx

    flops = scheduler_node.estimate_flops()
    if flops is not None:
        return int(flops)
    node = scheduler_node.node
    op = getattr(node, "op_overload", None)
    packet = getattr(op, "overloadpacket", None)
    origins = sorted(getattr(node, "origins", ()) or (), key=lambda n: n.name)
    for origin in origins:
        if not countable_fx(origin):
            continue
        if packet is not None and getattr(origin.target, "overloadpacket", None) is not packet:
            continue
        counted = count_flops_fx(origin)
        if counted is not None:
            from torch._inductor.virtualized import V

            return int(V.graph.sizevars.optimization_hint(counted, fallback=0))
    return None


def _conv_layout(name: str, node: Any) -> str | None:
    """A convolution's input layout from its strides: ``"channels_last"`` where the channel
    dim is provably the densest (stride 1), ``"channels_first"`` otherwise; None for other
    calls or inputs without known strides."""
    if name != "convolution":
        return None
    from torch._inductor.virtualized import V

    try:
        x = node.inputs[0]
        size, stride = list(x.get_size()), list(x.get_stride())
        if len(size) < 4:
            return None
        sizevars = V.graph.sizevars
        dense = sizevars.statically_known_equals(stride[1], 1)
        single = sizevars.statically_known_equals(size[1], 1)
    except Exception:  # strides not known: no claim
        return None
    return "channels_last" if dense and not single else "channels_first"


def _dtype_of(node: Any) -> str | None:
    try:
        return str(node.get_dtype()).removeprefix("torch.")
    except Exception:  # a multi-output node has no single dtype
        return None


@contextlib.contextmanager
def recorded_extern_calls() -> Iterator[list[ExternRecord]]:
    """For the block's duration, every extern call Inductor generates is recorded (in order)."""
    from torch._inductor.scheduler import Scheduler
    from torch._inductor.virtualized import V

    original = Scheduler.codegen_extern_call
    records: list[ExternRecord] = []
    graphs: dict[int, int] = {}

    def codegen_extern_call(self: Any, scheduler_node: Any) -> Any:
        node = scheduler_node.node
        name = short_extern_name(getattr(node, "python_kernel_name", None))
        if name is not None:
            try:
                flops = _flops_of(scheduler_node)
            except Exception:  # a formula that cannot run on these shapes: no count
                flops = None
            try:
                nbytes: int | None = int(scheduler_node.get_read_write_buffers_sizes())
            except Exception:
                nbytes = None
            graph = graphs.setdefault(id(V.graph), len(graphs))
            records.append(
                ExternRecord(graph, name, flops, nbytes, _dtype_of(node), _conv_layout(name, node))
            )
        return original(self, scheduler_node)

    with mock.patch.object(Scheduler, "codegen_extern_call", codegen_extern_call):
        yield records


def extern_costs_by_graph(
    extern_calls: Sequence[Sequence[str]], records: Sequence[ExternRecord]
) -> list[list[ExternRecord | None]]:
    """For each captured graph's extern calls (names, in order), its records: the graphs'
    records in order of generation, a graph's group being the next one whose records contain
    its calls in order (a group that does not fit, e.g. a compile tried again, is skipped)."""
    groups: list[list[ExternRecord]] = []
    for record in records:
        if not groups or groups[-1][0].graph != record.graph:
            groups.append([])
        groups[-1].append(record)
    out: list[list[ExternRecord | None]] = []
    position = 0
    for names in extern_calls:
        if not names:
            out.append([])
            continue
        matched: list[ExternRecord | None] | None = None
        while position < len(groups) and matched is None:
            matched = _match(names, groups[position])
            position += 1
        out.append(matched if matched is not None else [None] * len(names))
    return out


def _match(names: Sequence[str], group: Sequence[ExternRecord]) -> list[ExternRecord | None] | None:
    found: list[ExternRecord | None] = []
    at = 0
    for name in names:
        while at < len(group) and group[at].name != name:
            at += 1
        if at == len(group):
            return None
        found.append(group[at])
        at += 1
    return found
