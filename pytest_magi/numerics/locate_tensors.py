"""What the locating backend checks with: its tolerances and settings (validated), strided
clones that keep strides and aliasing, output distances, RNG state, and where an FX node came
from (module path, source line)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import torch

from ..capture.core import (
    copy_graph,
    existing,
    op_name,
    validate_inductor_config,
)
from .judgment import (
    REFERENCE_DTYPES,
    _non_finite,
    _relative_l2,
)
from .locate_report import RewrittenNode

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
