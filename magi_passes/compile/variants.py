"""The variants of one graph that the magi backend compiles, and what their passes did: the plain
config (every measured pass off), the measured passes that changed a graph, the decision written
into their results, and the graph copy and device name a measurement needs."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import torch
from torch.fx._lazy_graph_module import _LazyGraphModule

from ..config import PassConfig
from ..passes.base import PassResult
from .decisions import Decision
from .manager import PASS_ORDER, PassManager


class _Compiled(NamedTuple):
    """One compiled variant of a graph: what runs, its passes, how many weights it hoisted."""

    fn: Callable[..., Any]
    manager: PassManager
    hoisted: int
    seconds: float


# name -> PassConfig switch of the passes whose rewrite is measured (`MagiPass.measured_by`)
_MEASURED: dict[str, str] = {
    cls.name: cls.measured_by for cls in PASS_ORDER if cls.measured_by is not None
}


@functools.lru_cache(maxsize=64)
def _plain_config(config: PassConfig) -> PassConfig | None:
    """`config` with every measured pass switched off; None when none of them is on."""
    switches = {field: False for field in _MEASURED.values() if getattr(config, field)}
    return config.replace(**switches) if switches else None


def _measured_passes_applied(manager: PassManager) -> list[str]:
    """Names of the measured passes that changed a graph of `manager`'s compilations."""
    names: list[str] = []
    for results in manager.history:
        for r in results:
            if r.name in _MEASURED and r.applied and r.name not in names:
                names.append(r.name)
    return names


def _annotate(manager: PassManager, decision: Decision) -> None:
    """Put the decision into the measured passes' `PassResult.reason`, in every compilation of
    `manager` so far (a later backward compilation is the same variant)."""
    if not decision.in_play:
        return  # nothing measured and nothing that could have been: the rules' reasons stand
    text = decision.describe()
    for results in manager.history:
        for i, r in enumerate(results):
            if r.name not in _MEASURED:
                continue
            if decision.choice == "plain":
                results[i] = PassResult(r.name, applied=False, reason=text)
            elif r.applied or decision.source != "static":
                r.reason = f"{r.reason}; {text}"


def _graph_copy(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """A GraphModule over a copy of `gm`'s graph (same attributes and meta): compiling one
    variant must not change the graph the other variant compiles (pre-grad passes work in
    place)."""
    # of the original's kind: dynamo's graph modules generate their code lazily, at the first
    # call or when AOTAutograd's cache key asks for it, so that attributes come in one order
    kind = _LazyGraphModule if isinstance(gm, _LazyGraphModule) else torch.fx.GraphModule
    new = kind(gm, copy.deepcopy(gm.graph), class_name=type(gm).__name__)
    new.meta = dict(gm.meta)
    for old, node in zip(gm.graph.nodes, new.graph.nodes, strict=True):
        if hasattr(old, "_dynamo_source"):  # AOTAutograd maps dynamo's inputs by it
            node._dynamo_source = old._dynamo_source
    # every attribute of the original (dynamo's among them), in its order: AOTAutograd's cache
    # key pickles them in order, so the variant compiled from the copy is found again by a later
    # process that compiles the graph itself (its decision cached or read from a file)
    own = vars(new)
    attributes = {name: own.get(name, value) for name, value in vars(gm).items()}
    attributes.update((name, value) for name, value in own.items() if name not in attributes)
    own.clear()
    own.update(attributes)
    return new


def _device_name(inputs: Sequence[Any]) -> str:
    """The name of the device the graph runs on (the decision holds for that device only)."""
    for t in inputs:
        if isinstance(t, torch.Tensor) and t.device.type == "cuda":
            try:
                return str(torch.cuda.get_device_name(t.device))
            except Exception:  # a fake or vanished device
                return "cuda"
        if isinstance(t, torch.Tensor) and t.dim() > 0:
            return t.device.type
    return "unknown"


def _check_one_device(example_inputs: Sequence[Any]) -> None:
    """Graph inputs (the module's parameters among them) on two real devices: say so plainly.

    Eager fails on such inputs too, but inside a compile torch reports internal assertions
    instead (seen on torch 2.11 with a cuda input and cpu weights). Meta and 0-dim tensors are
    left alone: eager accepts them next to any device.
    """
    devices = sorted(
        {
            str(t.device)
            for t in example_inputs
            if isinstance(t, torch.Tensor) and t.dim() > 0 and t.device.type != "meta"
        }
    )
    if len(devices) > 1:
        raise RuntimeError(
            f"magi backend: the graph's inputs and parameters are on different devices "
            f"({', '.join(devices)}); eager would fail on them too. Move the model and its "
            f"inputs to one device, e.g. model.to(x.device)"
        )


def same_code(magi: Any, plain: Any) -> bool:
    """Whether two compiled variants run the same generated module: Inductor's ``source_code``
    of each, with its comment lines left out (they name the compile and its cache paths). False
    where either has none (a wrapped variant, a torch that does not say)."""
    codes = [getattr(fn, "source_code", None) for fn in (magi, plain)]
    texts = [code for code in codes if isinstance(code, str) and code]
    if len(texts) != 2:
        return False
    lines = [[ln for ln in text.splitlines() if not ln.lstrip().startswith("#")] for text in texts]
    return lines[0] == lines[1]
