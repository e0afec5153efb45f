"""What dynamo's graph calls, read before anything is compiled: whether a measured pass can
change it at all (`_measured_passes_cannot_fire`), so that a graph none can change is compiled
once and never timed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import torch

from ..config import PassConfig
from ..fx.predicates import is_dynamic
from ..passes.channels_last import fires_on


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
