"""magi_passes: Inductor post-grad passes for conv-heavy and dynamic-shape graphs.

`torch.compile(model, backend="magi")` runs them; `inductor_options()` installs them for
`backend="inductor"`; `PassManager` is the `post_grad_custom_post_pass` itself.
"""

from __future__ import annotations

from .backend import (
    MagiBackend,
    inductor_options,
    magi_backend,
    magi_compile,
    warm_compile_workers,
)
from .base import MagiPass, PassResult
from .causal_pad_trim import CausalPadTrimPass
from .channels_last import ConvChannelsLastPass
from .config import PassConfig
from .conv_input import ConvInputWindowPass
from .conv_pad_fold import ConvPadFoldPass
from .deconv_interleave import DeconvInterleavePass
from .dynamic_reshape import DynamicReshapePass
from .forms import CompileForm, form_for
from .group_norm import GroupNormStatsPass
from .manager import PassManager
from .nd_tiling import NdTilingPass
from .norm_rsqrt import NormRsqrtPass
from .predicates import is_conv_heavy, is_dynamic
from .producer_recompute import ProducerRecomputePass
from .upcast_matmul import UpcastMatmulPass
from .workarounds import DynamicCatTilingWorkaround, PaddingMiscompileWorkaround

__all__ = [
    "ConvChannelsLastPass",
    "ConvInputWindowPass",
    "CausalPadTrimPass",
    "CompileForm",
    "ConvPadFoldPass",
    "DeconvInterleavePass",
    "DynamicCatTilingWorkaround",
    "DynamicReshapePass",
    "GroupNormStatsPass",
    "MagiBackend",
    "MagiPass",
    "NdTilingPass",
    "NormRsqrtPass",
    "PassConfig",
    "PassManager",
    "PaddingMiscompileWorkaround",
    "PassResult",
    "ProducerRecomputePass",
    "UpcastMatmulPass",
    "form_for",
    "inductor_options",
    "is_conv_heavy",
    "is_dynamic",
    "magi_backend",
    "magi_compile",
    "warm_compile_workers",
]
