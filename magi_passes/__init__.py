"""magi_passes: Inductor post-grad passes for conv-heavy and dynamic-shape graphs.

`torch.compile(model, backend="magi")` runs them; `inductor_options()` installs them for
`backend="inductor"`; `PassManager` is the `post_grad_custom_post_pass` itself.
"""

from __future__ import annotations

from .compile.api import inductor_options, magi_backend, magi_compile
from .compile.backend import MagiBackend
from .compile.forms import CompileForm, form_for
from .compile.manager import PassManager
from .compile.workers import warm_compile_workers
from .config import PassConfig
from .fx.predicates import is_conv_heavy, is_dynamic
from .passes.base import MagiPass, PassResult
from .passes.causal_pad_trim import CausalPadTrimPass
from .passes.channels_last import ConvChannelsLastPass
from .passes.conv_input import ConvInputWindowPass
from .passes.conv_pad_fold import ConvPadFoldPass
from .passes.deconv_interleave import DeconvInterleavePass
from .passes.dynamic_cat_workaround import DynamicCatTilingWorkaround
from .passes.dynamic_reshape import DynamicReshapePass
from .passes.group_norm import GroupNormStatsPass
from .passes.nd_tiling import NdTilingPass
from .passes.norm_rsqrt import NormRsqrtPass
from .passes.padding_workaround import PaddingMiscompileWorkaround
from .passes.producer_recompute import ProducerRecomputePass
from .passes.upcast_matmul import UpcastMatmulPass

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
