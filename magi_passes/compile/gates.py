"""What dynamo's graph calls, read before anything is compiled: whether a measured pass can
change it at all (`_measured_passes_cannot_fire`), so that a graph none can change is compiled
once and never timed; and where the graph's convolutions timed alone settle the channels-last
decision without a plain variant (`conv_prior`, under `PassConfig.conv_prior`)."""

from __future__ import annotations

import functools
import re
import statistics
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import torch

from ..config import PassConfig
from ..fx.layout import channels_last_format
from ..fx.predicates import is_dynamic
from ..passes.channels_last import fires_on
from .decisions import Decision, Timer, Variant, _call, wall_timer
from .weights import _CONV_FUNCTIONS


def _calls(
    gm: torch.fx.GraphModule, function: Callable[[Any], bool], module_type: type[Any]
) -> bool:
    """Whether dynamo's graph calls a function `function` accepts or a module of `module_type`."""
    for node in gm.graph.nodes:
        if node.op == "call_function" and function(node.target):
            return True
        if node.op == "call_module" and isinstance(gm.get_submodule(node.target), module_type):
            return True
    return False


def _calls_named(gm: torch.fx.GraphModule, name: re.Pattern[str], module_type: type[Any]) -> bool:
    """Whether dynamo's graph calls a function whose name `name` finds (`re.search`) or a
    module of `module_type`."""
    return _calls(
        gm, lambda target: bool(name.search(getattr(target, "__name__", ""))), module_type
    )


def _has_conv3d(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph has a conv3d: the channels-last rewrite's gate (conv2d-only graphs
    are left to Inductor's layout optimisation, so their weights must stay as they are)."""
    conv3d = (torch.conv3d, torch.nn.functional.conv3d)
    return _calls(gm, lambda target: target in conv3d, torch.nn.Conv3d)


_CONV_NAME = re.compile(r"(^|_)conv(?!ert)", re.IGNORECASE)  # conv3d, _convolution; not convert


def _has_convolution(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph has a convolution of any kind. Conservative: any function whose
    name says convolution counts, so an unfamiliar spelling is measured, not skipped."""
    return _calls_named(gm, _CONV_NAME, torch.nn.modules.conv._ConvNd)


_NORM_NAME = re.compile(r"^(normalize|vector_norm|norm)$")


def _has_vector_norm(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph takes a vector norm (`F.normalize`, `torch.linalg.vector_norm`,
    `torch.norm`, `Tensor.norm`): what `NormRsqrtPass` may rewrite. Conservative, as
    `_has_convolution` is."""
    for node in gm.graph.nodes:
        if node.op == "call_function":
            name = getattr(node.target, "__name__", "")
        elif node.op == "call_method":
            name = str(node.target)
        else:
            continue
        if _NORM_NAME.match(name):
            return True
    return False


_PAD_NAME = re.compile(r"^(pad|constant_pad_nd)$")


def _has_pad(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph pads a tensor (`F.pad`, `constant_pad_nd`, a `ConstantPad`
    module): what `ConvPadFoldPass` may fold into a convolution. Conservative, as
    `_has_convolution` is."""
    return _calls_named(gm, _PAD_NAME, torch.nn.modules.padding._ConstantPadNd)


_TRANSPOSED_NAME = re.compile(r"conv_transpose", re.IGNORECASE)


def _has_transposed_convolution(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph has a transposed convolution (`F.conv_transpose*`, a
    `ConvTranspose*` module): what `DeconvInterleavePass` may rewrite. Conservative, as
    `_has_convolution` is."""
    return _calls_named(gm, _TRANSPOSED_NAME, torch.nn.modules.conv._ConvTransposeNd)


_MATMUL_NAME = re.compile(r"scaled_dot_product_attention|matmul|bmm|einsum")


def _has_batched_matmul(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph calls a function that may become a batched matmul (attention,
    `matmul`, `bmm`, `einsum`, the `@` operator) or a `MultiheadAttention` module: what
    `UpcastMatmulPass` may rewrite. Conservative, as `_has_convolution` is."""
    return _calls_named(gm, _MATMUL_NAME, torch.nn.MultiheadAttention)


def _measured_passes_cannot_fire(gm: torch.fx.GraphModule, config: PassConfig) -> str | None:
    """Why no measured pass can change `gm` (None: one may), read from dynamo's graph before
    anything is compiled: the channels-last rewrite needs a convolution that its gate admits
    (`fires_on`), ND tiling a dynamic graph with convolutions, the norm rewrite a vector norm.
    Without this, a graph that Inductor's FX graph cache serves (so that no pass history says
    what changed) would be compiled a second time, plain, and timed for nothing."""
    if config.enable_norm_rsqrt and _has_vector_norm(gm):
        return None
    if config.enable_upcast_matmul and _has_batched_matmul(gm):
        return None
    if not _has_convolution(gm):
        return "no measured pass can change this graph (no convolution, no vector norm)"
    channels_last = fires_on(config, _has_conv3d(gm))
    nd_tiling = config.enable_nd_tiling and is_dynamic(gm.graph)
    pad_passes = (config.enable_conv_pad_fold or config.enable_causal_pad_trim) and _has_pad(gm)
    interleave = config.enable_deconv_interleave and _has_transposed_convolution(gm)
    if channels_last or nd_tiling or pad_passes or interleave:
        return None
    return (
        "no measured pass can change this graph (channels-last: no conv3d; ND tiling: "
        "static shapes; no vector norm; no pad to fold or trim; no transposed convolution "
        "to interleave)"
    )


# --------------------------------------------------------------------------- conv prior
#: `PassConfig.conv_prior` keeps magi for a conv graph without its plain variant only where its
#: convolutions run this much longer channels-first than channels-last with the layout copies
#: the rewrite adds (each weight per call, the graph's activation inputs in, its outputs out)
CONV_PRIOR_GAP = 0.25
_CONV_ROUNDS = 3
#: seconds one round of a convolution or copy timed alone fills (`decisions.wall_timer`)
CONV_ROUND_S = 0.002
_CONV_ARGS = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")


def _example(value: Any) -> Any:
    return value.meta.get("example_value") if isinstance(value, torch.fx.Node) else value


def _conv_args(node: torch.fx.Node) -> dict[str, Any]:
    return dict(zip(_CONV_ARGS, node.args, strict=False)) | dict(node.kwargs)


def conv_calls(gm: torch.fx.GraphModule) -> dict[tuple[Any, ...], int]:
    """The graph's `torch.conv2d` / `torch.conv3d` calls by what decides their speed (input and
    weight sizes, dtype, device, bias, stride, padding, dilation, groups), with their counts;
    empty where a call's sizes are symbolic or unknown."""
    calls: Counter[tuple[Any, ...]] = Counter()
    for node in gm.graph.nodes:
        if node.op != "call_function" or node.target not in _CONV_FUNCTIONS:
            continue
        args = _conv_args(node)
        x, w, b = (_example(args.get(k)) for k in ("input", "weight", "bias"))
        if not (isinstance(x, torch.Tensor) and isinstance(w, torch.Tensor)):
            return {}
        rest = [_example(args.get(k, d)) for k, d in zip(_CONV_ARGS[3:], (1, 0, 1, 1), strict=True)]
        rest = [tuple(r) if isinstance(r, list) else r for r in rest]
        flat = [
            *x.shape,
            *w.shape,
            *(v for r in rest for v in (r if isinstance(r, tuple) else (r,))),
        ]
        if not all(isinstance(v, (int, str)) for v in flat):
            return {}  # a symbolic size: one size's timing is not every size's
        key = (tuple(x.shape), tuple(w.shape), x.dtype, x.device, b is not None, *rest)
        calls[key] += 1
    return calls


def boundary_activations(gm: torch.fx.GraphModule) -> list[tuple[str, torch.Tensor]]:
    """The graph's activations that cross its boundary at a convolution's rank: its tensor
    inputs ("in") other than the convolutions' weights and biases, and its outputs ("out"):
    where the channels-last rewrite lays a tensor out again (fake values: their sizes)."""
    convs = [n for n in gm.graph.nodes if n.op == "call_function" and n.target in _CONV_FUNCTIONS]
    ranks = {
        v.dim() for v in (_example(_conv_args(n).get("input")) for n in convs) if v is not None
    }
    params = {_conv_args(n).get(k) for n in convs for k in ("weight", "bias")}
    found: list[tuple[str, torch.Tensor]] = []
    for node in gm.graph.nodes:
        if node.op == "placeholder" and node not in params:
            found.append(("in", _example(node)))
        elif node.op == "output":
            outs = node.args[0] if isinstance(node.args[0], (tuple, list)) else [node.args[0]]
            found += [("out", _example(o)) for o in outs]
    return [
        (side, t)
        for side, t in found
        if isinstance(t, torch.Tensor) and t.dim() in ranks and t.is_floating_point()
    ]


def _median_ms(timer: Timer, name: str, fn: Callable[..., Any], args: Sequence[Any]) -> float:
    _call(fn, args)
    return statistics.median(float(timer(Variant(name, fn), args)) for _ in range(_CONV_ROUNDS))


def _time_one_conv(timer: Timer, call: tuple[Any, ...]) -> tuple[float, float]:
    """One convolution of `conv_calls`, timed alone: channels-first, and channels-last with its
    weight laid out channels-last again."""
    x_shape, w_shape, dtype, device, bias, stride, padding, dilation, groups = call
    conv = torch.conv3d if len(x_shape) == 5 else torch.conv2d
    fmt = channels_last_format(len(x_shape))
    assert fmt is not None  # a conv2d's or conv3d's input: 4 or 5 dims
    x = torch.randn(x_shape, dtype=dtype, device=device)
    w = torch.randn(w_shape, dtype=dtype, device=device)
    b = torch.randn(w_shape[0], dtype=dtype, device=device) if bias else None

    def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        return conv(x, w, b, stride, padding, dilation, groups)

    def to_last(t: torch.Tensor) -> torch.Tensor:
        return t.contiguous(memory_format=fmt)

    weight_copy = _median_ms(timer, "layout copy", to_last, [w])
    first = _median_ms(timer, "conv channels-first", run, [x, w])
    last = _median_ms(timer, "conv channels-last", run, [to_last(x), to_last(w)])
    return first, last + weight_copy


def _time_copy(timer: Timer, side: str, shape: tuple[int, ...], dtype: Any, device: Any) -> float:
    """A boundary activation laid out again: channels-last on the way in, back on the way out."""
    t = torch.randn(shape, dtype=dtype, device=device)
    fmt = channels_last_format(t.dim())
    assert fmt is not None  # at a convolution's rank (`boundary_activations`)
    if side == "out":
        return _median_ms(
            timer, "layout copy", torch.Tensor.contiguous, [t.contiguous(memory_format=fmt)]
        )
    return _median_ms(timer, "layout copy", lambda a: a.contiguous(memory_format=fmt), [t])


def time_convolutions(gm: torch.fx.GraphModule, timer: Timer) -> tuple[float, float, int] | None:
    """The graph's convolutions timed alone on random inputs of their sizes, in ms per call of
    the graph: channels-first, and channels-last with the copies the rewrite adds (each weight,
    the `boundary_activations`); the timer sees `Variant`s named "conv channels-first", "conv
    channels-last" and "layout copy". And how many convolutions there are. None: the graph has
    none, or one of unknown size."""
    calls = conv_calls(gm)
    if not calls:
        return None
    first = last = 0.0
    with torch.no_grad():
        for call, n in calls.items():
            one_first, one_last = _time_one_conv(timer, call)
            first, last = first + n * one_first, last + n * one_last
        # a causal decoder's cache crosses by the hundred, many alike: each size timed once
        crossing = Counter(
            (side, tuple(t.shape), t.dtype, t.device) for side, t in boundary_activations(gm)
        )
        last += sum(n * _time_copy(timer, *copy) for copy, n in crossing.items())
    return first, last, sum(calls.values())


def conv_prior(
    gm: torch.fx.GraphModule,
    timer: Timer | None,
    *,
    margin: float,
    key: str | None,
    passes: Sequence[str],
) -> Decision | None:
    """Magi, measured without the plain variant, where the graph's convolutions timed alone
    (`time_convolutions`, by ``timer`` or in rounds of `CONV_ROUND_S` on the wall clock) run
    `CONV_PRIOR_GAP` longer channels-first than channels-last with the layout copies the
    rewrite adds (`PassConfig.conv_prior`); None (time both variants) otherwise, or where a
    convolution cannot run alone (a warning says why)."""
    try:
        timed = time_convolutions(gm, timer or functools.partial(wall_timer, target_s=CONV_ROUND_S))
    except Exception as exc:  # out of memory, say: the graph's variants are timed instead
        warnings.warn(
            f"magi backend: timing the graph's convolutions alone failed "
            f"({type(exc).__name__}: {exc}); both variants are timed",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    if timed is None:
        return None
    first, last, count = timed
    if first < last * (1.0 + CONV_PRIOR_GAP):
        return None
    return Decision(
        choice="magi",
        source="measured",
        reason=(
            f"its {count} convolutions timed alone: {first:.3f} ms channels-first against "
            f"{last:.3f} ms channels-last with the layout copies of its weights, inputs and "
            f"outputs (PassConfig.conv_prior; the graph's variants were not timed)"
        ),
        magi_ms=last,  # the convolutions' ms, as the reason says
        plain_ms=first,
        margin=margin,
        rounds=_CONV_ROUNDS,
        key=key,
        passes=tuple(passes),
    )
