"""Measured pass decisions: per graph, with and without the rewrites that have a cost.

A static gate cannot know what a rewrite costs on a graph it was not tuned on: the channels-last
rewrite fires on every graph with a conv3d, and a video VAE it was not tuned on can decode
slower than torch.compile with it. So where a *measured* pass would change a graph, the
magi backend compiles the graph twice, as the passes decide ("magi") and with the measured passes
off ("plain": Inductor with only the always-on passes, the correctness workarounds among them),
times both on the graph's own example inputs, and keeps the faster; magi must win by
`Decider.margin` (default 2%), so noise and ties keep plain Inductor. This is what Inductor's
max-autotune does for kernels, one level up.

Which passes are measured: those whose class sets `measured_by` to the `PassConfig` field that
switches them off (`ConvChannelsLastPass`, `NdTilingPass`, `NormRsqrtPass`,
`GroupNormStatsPass`). The others never add work to a graph
(`DynamicReshapePass` removes copies) or exist for correctness (`PaddingMiscompileWorkaround`)
and always run as their static rule says.

Measured only where measuring means something: on a real CUDA device, inference graphs (grad off
or no input requiring grad: a forward-only timing would not see backward's cost), without
CUDA graphs. Everywhere else (CPU, fake CUDA, training) the static rule decides, and says so.

The decision is cached on disk (`DecisionCache`, in `decision_files`), one JSON file per key;
the key covers what decides (`decision_key`): the graph's structure, its inputs' shapes,
strides, dtypes and devices, the device's name, the torch version and the passes' uuid (their
sources and `PassConfig`). A second compile of the same model compiles only the chosen variant.
The default folder lies inside Inductor's cache folder (`magi_decisions/`), so it is scoped
exactly as that cache is (pytest-magi gives each xdist worker its own);
`MAGI_DECISION_CACHE_DIR` chooses another. A cache file that cannot be read is reported with a
`DecisionCacheWarning`, measured again and rewritten. A team shares its decisions as one
decision file (`decision_files`: export, import, `MAGI_DECISIONS_FILE`).

Measured: docs/results.md, "Never slower: the zoo".
"""

from __future__ import annotations

import hashlib
import math
import re
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import torch

from .decision_files import CACHE_ENV as CACHE_ENV
from .decision_files import CACHE_SUBDIR as CACHE_SUBDIR
from .decision_files import CHOICES as CHOICES
from .decision_files import DEFAULT_MARGIN as DEFAULT_MARGIN
from .decision_files import SCHEMA as SCHEMA
from .decision_files import SOURCES as SOURCES
from .decision_files import Decision as Decision
from .decision_files import DecisionCache as DecisionCache
from .decision_files import DecisionCacheWarning as DecisionCacheWarning
from .decision_files import decision_cache_dir as decision_cache_dir
from .decision_files import default_cache_dir as default_cache_dir

# A timer: (variant, example inputs) -> one round's milliseconds per call. The variant is a
# `Variant`: call it with the inputs; its `.name` ("magi" or "plain") is there for fake timers.
Timer = Callable[["Variant", Sequence[Any]], float]


def choose(magi_ms: float, plain_ms: float, margin: float = DEFAULT_MARGIN) -> str:
    """ "magi" when it is faster than plain by more than `margin` (a fraction), else "plain"."""
    for name, value in (("magi_ms", magi_ms), ("plain_ms", plain_ms)):
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ValueError(f"choose: {name} must be a positive, finite time, got {value!r}")
    check_margin("choose", margin)
    return "magi" if magi_ms * (1.0 + margin) < plain_ms else "plain"


def check_margin(where: str, margin: object) -> float:
    if (
        isinstance(margin, bool)
        or not isinstance(margin, (int, float))
        or not (0.0 <= margin < 1.0)
    ):
        raise ValueError(
            f"{where}: margin must be a fraction in [0, 1), got {margin!r}; fix: e.g. "
            f"margin=0.02 (magi must be 2% faster to be kept)"
        )
    return float(margin)


# --------------------------------------------------------------------------- the key
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _target_name(target: Any) -> str:
    if isinstance(target, str):
        return target
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__qualname__", None) or getattr(target, "__name__", None)
    if name is None:
        return _ADDRESS.sub("", repr(target))
    return f"{module}.{name}"


def _value_text(value: Any, index: Mapping[torch.fx.Node, int]) -> str:
    if isinstance(value, torch.fx.Node):
        return f"%{index[value]}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_value_text(v, index) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value_text(v, index)}" for k, v in value.items()) + "}"
    if isinstance(value, torch.Tensor):
        return f"tensor{_tensor_text(value)}"
    return _ADDRESS.sub("", repr(value))


def _tensor_text(t: torch.Tensor) -> str:
    return (
        f"({t.dtype}, {t.device.type}, size={tuple(str(s) for s in t.size())}, "
        f"stride={tuple(str(s) for s in t.stride())})"
    )


def graph_structure(gm: torch.fx.GraphModule) -> str:
    """The graph as text without node names or object addresses: ops, targets, wiring."""
    index: dict[torch.fx.Node, int] = {}
    lines = []
    for i, node in enumerate(gm.graph.nodes):
        index[node] = i
        target = _target_name(node.target)
        if node.op == "get_attr":
            attr = getattr(gm, str(node.target), None)
            if isinstance(attr, torch.Tensor):
                target += _tensor_text(attr)
        args = _value_text(node.args, index)
        kwargs = _value_text(node.kwargs, index)
        lines.append(f"{i} {node.op} {target} {args} {kwargs}")
    return "\n".join(lines)


def inputs_signature(example_inputs: Sequence[Any]) -> str:
    """Each input's dtype, device, sizes and strides (symbolic ones as their expressions)."""
    parts = []
    for value in example_inputs:
        if isinstance(value, torch.Tensor):
            parts.append(_tensor_text(value))
        elif isinstance(value, torch.SymInt):
            parts.append(f"symint({value.node.expr})")
        else:
            parts.append(type(value).__name__)
    return "; ".join(parts)


def decision_key(
    gm: torch.fx.GraphModule,
    example_inputs: Sequence[Any],
    *,
    device_name: str,
    torch_version: str,
    passes_uuid: str,
) -> str:
    """sha256 (hex) of everything that decides which variant is faster (module docstring)."""
    # dynamo's fake values carry the symbolic sizes of a dynamic graph: its decision then holds
    # for every size the graph serves, not only the one it was first measured at
    traced = [n.meta.get("example_value") for n in gm.graph.find_nodes(op="placeholder")]
    if len(traced) != len(example_inputs) or any(v is None for v in traced):
        traced = list(example_inputs)
    return _digest(
        f"magi-decision-v{SCHEMA}",
        (graph_structure(gm), inputs_signature(traced), device_name, torch_version, passes_uuid),
    )


def _digest(prefix: str, parts: Sequence[str]) -> str:
    h = hashlib.sha256(prefix.encode())
    for part in parts:
        h.update(b"\0" + part.encode())
    return h.hexdigest()


# an integer literal of `graph_structure`'s text; node references (%3) are wiring, not sizes
_INT_LITERAL = re.compile(r"(?<![\w.%])-?\d+(?![\w.])")
# a measured gap this wide (either way) carries over to a graph of the same structure at other
# shapes; a closer call is measured again (five times the default margin)
SHARE_GAP = 0.10


def decision_family(
    gm: torch.fx.GraphModule,
    example_inputs: Sequence[Any],
    *,
    device_name: str,
    torch_version: str,
    passes_uuid: str,
) -> str:
    """sha256 (hex) of a graph's structure with its sizes left out: `decision_key`'s parts with
    every integer literal of the graph and every input's sizes and strides dropped (each input
    keeps its dtype, device, rank and dimension order). One block compiled at several shapes is
    one family; `PassConfig.share_decisions_across_shapes` lets a decisive measurement of one
    member (`carries`) decide the others."""
    parts = []
    for value in example_inputs:
        if isinstance(value, torch.Tensor):
            strides = value.stride()
            order = sorted(range(value.dim()), key=lambda d: -int(strides[d]))
            parts.append(f"({value.dtype}, {value.device.type}, rank {value.dim()}, order {order})")
        else:
            parts.append(type(value).__name__)
    structure = _INT_LITERAL.sub("#", graph_structure(gm))
    return _digest(
        f"magi-decision-family-v{SCHEMA}",
        (structure, "; ".join(parts), device_name, torch_version, passes_uuid),
    )


def carries(decision: Decision) -> bool:
    """Whether a timed decision's gap is wide enough (`SHARE_GAP`) to decide a graph of the same
    family at other shapes without timing it."""
    if decision.magi_ms is None or decision.plain_ms is None:
        return False
    fast, slow = sorted((decision.magi_ms, decision.plain_ms))
    return slow >= fast * (1 + SHARE_GAP)


def shared_decision(evidence: Decision, key: str) -> Decision:
    """The decision of a graph decided by its family's `evidence` (a decision that `carries`)."""
    gap = max(evidence.magi_ms or 1.0, evidence.plain_ms or 1.0) / min(
        evidence.magi_ms or 1.0, evidence.plain_ms or 1.0
    )
    return Decision(
        choice=evidence.choice,
        source="shared",
        reason=(
            f"the same structure at other shapes was timed (plain {evidence.plain_ms:.3f} ms vs "
            f"magi {evidence.magi_ms:.3f} ms): its {gap:.2f}x gap carries over"
        ),
        margin=evidence.margin,
        key=key,
        passes=evidence.passes,
    )


# --------------------------------------------------------------------------- timing
def _call(fn: Callable[..., Any], args: Sequence[Any]) -> Any:
    # a backend's result is called as dynamo calls it: positional arguments (compile_fx's
    # result carries a `_boxed_call` marker from the function it wraps, but is not boxed)
    return fn(*args)


def sync_cuda(args: Sequence[Any]) -> None:
    """Wait for the GPU when any of ``args`` is a CUDA tensor (their work may be queued)."""
    if any(isinstance(a, torch.Tensor) and a.is_cuda for a in args):
        torch.cuda.synchronize()


def wall_timer(fn: Callable[..., Any], args: Sequence[Any], *, target_s: float = 0.01) -> float:
    """One round: ms per call over enough calls to fill `target_s`, synchronised before and
    after (CUDA work is waited for; host overhead counts, as it does for the user). A call that
    fills `target_s` by itself is the round: it was timed the same way, synchronised on both
    sides, so calling it again would only double the decision's cost."""
    sync_cuda(args)
    start = time.perf_counter()
    _call(fn, args)
    sync_cuda(args)
    once = time.perf_counter() - start
    if once >= target_s:
        return once * 1e3
    calls = max(1, min(1000, int(target_s / max(once, 1e-6))))
    start = time.perf_counter()
    for _ in range(calls):
        _call(fn, args)
    sync_cuda(args)
    return (time.perf_counter() - start) * 1e3 / calls


@dataclass(frozen=True)
class Variant:
    """One compiled variant of a graph, as a timer sees it."""

    name: str
    fn: Callable[..., Any]

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)


def interleaved_samples(
    variants: Sequence[Variant],
    args_for: Callable[[], Sequence[Any]],
    *,
    timer: Timer,
    rounds: int,
    warmup: int,
    settled: Callable[[list[list[float]]], bool] | None = None,
    min_rounds: int = 1,
) -> list[list[float]]:
    """Each variant's ms per call, one sample a round, rounds interleaved (drift hits all alike).
    After `min_rounds` rounds, `settled(samples)` may end the timing early."""
    args = args_for()
    for fn in variants:
        for _ in range(warmup):
            _call(fn, args)
    samples: list[list[float]] = [[] for _ in variants]
    for r in range(rounds):
        order = range(len(variants)) if r % 2 == 0 else reversed(range(len(variants)))
        for i in order:
            ms = float(timer(variants[i], args))
            if not (math.isfinite(ms) and ms > 0):
                raise ValueError(f"the timer returned {ms!r} ms; it must be positive and finite")
            samples[i].append(ms)
        if settled is not None and r + 1 >= min_rounds and settled(samples):
            break
    return samples


def separated(magi: Sequence[float], plain: Sequence[float], margin: float) -> str | None:
    """The choice every sample agrees on, or None: "magi" when even its slowest round beats
    plain's fastest by the margin, "plain" when even magi's fastest does not beat plain's
    slowest by it. Either way the medians choose the same (`choose`), and a further round
    would have to contradict every one so far to change that, so the timing can stop
    (`Decider.min_rounds`)."""
    if max(magi) * (1.0 + margin) < min(plain):
        return "magi"
    if min(magi) * (1.0 + margin) >= max(plain):
        return "plain"
    return None


class Measurement(NamedTuple):
    """What `Decider.measure` found: each variant's median ms per call, and the rounds run."""

    magi_ms: float
    plain_ms: float
    rounds: int


_INPLACE = re.compile(r"(^|\.)[a-z0-9_]*[a-z0-9]_$")


def mutates_inputs(gm: torch.fx.GraphModule) -> bool:
    """Whether the graph may write into a tensor it was given (an in-place op or setitem
    anywhere: conservative, the timing then runs on copies of the inputs)."""
    import operator

    for node in gm.graph.nodes:
        if node.op not in ("call_function", "call_method"):
            continue
        if node.target is operator.setitem:
            return True
        name = node.target if isinstance(node.target, str) else _target_name(node.target)
        if _INPLACE.search(name.split(".")[-1] if "." in name else name):
            return True
        overload = getattr(node.target, "_schema", None)
        if overload is not None and overload.is_mutable:
            return True
    return False


def copy_inputs(example_inputs: Sequence[Any]) -> list[Any]:
    """Copies of the tensors with the same sizes and strides (the compiled code checks them)."""
    copies: list[Any] = []
    for value in example_inputs:
        if isinstance(value, torch.Tensor):
            with torch.no_grad():
                copy = torch.empty_strided(
                    value.size(), value.stride(), dtype=value.dtype, device=value.device
                )
                copy.copy_(value)
            copies.append(copy)
        else:
            copies.append(value)
    return copies


# --------------------------------------------------------------------------- the decider
@dataclass
class Decider:
    """How the magi backend decides between a graph's variants (module docstring).

    - `timer`: `timer(fn, args) -> ms per call` for one round. The default times on the wall
      clock with CUDA synchronised; tests pass a fake one. A given timer also measures on CPU.
    - `margin`: magi is kept only when faster than plain by more than this fraction.
    - `rounds`, `warmup`: interleaved rounds per variant (median), calls before timing.
    - `min_rounds`: after this many rounds the timing stops once every sample agrees
      (`separated`); a close call runs all `rounds`. What the timing costs is mostly each
      variant's first calls, where Triton autotunes, not the rounds.
    - `cache`: where decisions persist (`DecisionCache()`: the default folder); None: no disk.
    """

    timer: Timer | None = None
    margin: float = DEFAULT_MARGIN
    rounds: int = 9
    warmup: int = 2
    cache: DecisionCache | None = None
    use_cache: bool = True
    min_rounds: int = 3

    def __post_init__(self) -> None:
        check_margin("Decider", self.margin)
        for name in ("rounds", "warmup", "min_rounds"):
            value = getattr(self, name)
            low = 0 if name == "warmup" else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(
                    f"Decider: {name} must be an int >= {low}, got {value!r}; fix: e.g. "
                    f"Decider({name}={9 if name == 'rounds' else 2})"
                )
        if self.timer is not None and not callable(self.timer):
            raise TypeError(
                f"Decider: timer must be a callable (fn, args) -> ms, got {self.timer!r}"
            )
        if self.cache is None and self.use_cache:
            self.cache = DecisionCache()

    @staticmethod
    def training(example_inputs: Sequence[Any]) -> bool:
        """Whether the graph is compiled for training (grad on and an input requiring it): a
        forward-only timing, or a decision recorded from one, cannot see backward's cost."""
        return torch.is_grad_enabled() and any(
            isinstance(t, torch.Tensor) and t.requires_grad for t in example_inputs
        )

    def blocked(self, example_inputs: Sequence[Any], patches: Mapping[str, Any]) -> str | None:
        """Why this graph cannot be measured here (None: it can)."""
        tensors = [t for t in example_inputs if isinstance(t, torch.Tensor)]
        if patches.get("triton.cudagraphs"):
            return "CUDA graphs are on (their replay is not what a plain call times)"
        if self.training(example_inputs):
            return "a training graph (a forward-only timing cannot see backward's cost)"
        if self.timer is not None:
            return None
        devices = {t.device.type for t in tensors if t.dim() > 0}
        if devices != {"cuda"}:
            return f"not a CUDA graph (inputs on {', '.join(sorted(devices)) or 'no device'})"
        from torch._subclasses.fake_tensor import FakeTensor

        if any(isinstance(t, FakeTensor) for t in tensors) or not _real_cuda():
            return "no real CUDA device (fake CUDA codegen)"
        return None

    def measure(
        self,
        magi: Callable[..., Any],
        plain: Callable[..., Any],
        example_inputs: Sequence[Any],
        *,
        copy: bool,
    ) -> Measurement:
        """Each variant's median ms per call over interleaved rounds, on the inputs (or copies),
        stopping after `min_rounds` once the samples are `separated`."""
        timer = self.timer or wall_timer
        magi_samples, plain_samples = interleaved_samples(
            (Variant("magi", magi), Variant("plain", plain)),
            (lambda: copy_inputs(example_inputs)) if copy else (lambda: list(example_inputs)),
            timer=timer,
            rounds=self.rounds,
            warmup=self.warmup,
            settled=lambda samples: separated(samples[0], samples[1], self.margin) is not None,
            min_rounds=self.min_rounds,
        )
        return Measurement(
            statistics.median(magi_samples), statistics.median(plain_samples), len(magi_samples)
        )

    def decide(
        self,
        magi_ms: float,
        plain_ms: float,
        *,
        key: str | None,
        passes: Sequence[str],
        rounds: int | None = None,
    ) -> Decision:
        rounds = self.rounds if rounds is None else rounds
        choice = choose(magi_ms, plain_ms, self.margin)
        return Decision(
            choice=choice,
            source="measured",
            reason=f"timed {rounds} interleaved rounds",
            magi_ms=magi_ms,
            plain_ms=plain_ms,
            margin=self.margin,
            rounds=rounds,
            key=key,
            passes=tuple(passes),
        )


def _real_cuda() -> bool:
    # fake CUDA (pytest_magi.fake_cuda) leaves torch.cuda.is_available() False on purpose
    return bool(torch.cuda.is_available())
