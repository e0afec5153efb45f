"""`PassManager`: the ordered magi passes, installed as Inductor's `post_grad_custom_post_pass`.

Order, and why:

0. `PaddingMiscompileWorkaround`: first, on the graph as Inductor made it; it changes no node,
   only turns comprehensive padding off where this torch miscompiles it (pytorch#194281).
1. `DynamicReshapePass`: fixes view/reshape size expressions first, so later passes see the
   reinterpretable views the graph will really have.
2. `NormRsqrtPass`: turns divisions by a clamped vector norm into products with its rsqrt; it
   changes pointwise arithmetic only, never a layout or a reduction, so its place is free.
   `DeconvInterleavePass` (opt-in): turns transposed convolutions whose kernel is their stride
   (one input channel a group) into pointwise products, before any pass that reads
   convolutions, so none of them sees these as convolutions.
   `UpcastMatmulPass` (opt-in): runs fp32 batched matmuls of upcast bf16/fp16 operands on the
   low-precision operands with an fp32 output; it touches no convolution, so its place is free.
3. `CausalPadTrimPass`: drops a convolution's taps that read only zero padding (a causal
   conv's first frames), taking that part of the pad off; before the fold, which then folds the
   symmetric spatial pad that is left.
   `ConvPadFoldPass`: folds symmetric zero pads into the convolutions' padding before the layout
   pass, so that pass hoists its clones over the pads that are left (a causal frame pad) and the
   conv input's producer writes the unpadded domain.
   `ProducerRecomputePass` (opt-in): copies a norm's apply chain for each of its cheap readers
   before the layout pass, so that pass's clones convert each copy where it is written.
4. `DynamicCatTilingWorkaround`: right before the layout pass, whose rewrite (and ND tiling's)
   it keeps off dynamic CUDA graphs where a convolution reads a concatenation (a Triton
   miscompile of the 2-D tiled channels-last producer there); it marks such a graph and both
   passes read the mark.
5. `ConvChannelsLastPass`: decides conv layouts.
6. `ConvInputWindowPass`: after the layout pass, whose clones and hoisted pads are part of the
   chain from a conv input back to its producer; it moves the windows of that producer (a causal
   conv's cache) onto the conv input.
7. `GroupNormStatsPass`: after the layout pass, whose mark says whether the graph's activations
   are channels-last (the only layout where it rewrites GroupNorm's statistics).
8. `NdTilingPass`: after the layout pass, because whether ND tiling pays depends on whether that
   pass already converted the graph's convolutions (it reads the mark `ConvChannelsLastPass`
   leaves).
9. The user's own post-grad pass, if one was installed before (it is chained, never replaced).

The manager is itself a `CustomGraphPass`: its `uuid()` aggregates the package's source files
(docs/reliability.md, "Cache keys"), the config, every pass's uuid and the chained user pass's uuid, so Inductor's FX graph cache never mixes compilations made with
different passes or configs. `results` holds the `PassResult`s of the last compilation (forward
and backward graphs are separate compilations); `history` keeps every compilation's results and
`graphs` the post-pass graph text of each, for tests and reports (the last `max_history`
compilations: memory stays bounded in a long-running process, docs/reliability.md "Memory").
"""

from __future__ import annotations

import hashlib
import logging
import uuid as uuid_module
from typing import Any

import torch
from torch._inductor.custom_graph_pass import CustomGraphPass

from .._validate import check_bool
from ..config import PassConfig, check_pass_config
from ..passes.base import MagiPass, PassResult, _source_hash, get_inductor_config_value
from ..passes.causal_pad_trim import CausalPadTrimPass
from ..passes.channels_last import ConvChannelsLastPass
from ..passes.conv_input import ConvInputWindowPass
from ..passes.conv_pad_fold import ConvPadFoldPass
from ..passes.deconv_interleave import DeconvInterleavePass
from ..passes.dynamic_cat_workaround import DynamicCatTilingWorkaround
from ..passes.dynamic_reshape import DynamicReshapePass
from ..passes.group_norm import GroupNormStatsPass
from ..passes.nd_tiling import NdTilingPass
from ..passes.norm_rsqrt import NormRsqrtPass
from ..passes.padding_workaround import PaddingMiscompileWorkaround
from ..passes.producer_recompute import ProducerRecomputePass
from ..passes.upcast_matmul import UpcastMatmulPass

log = logging.getLogger(__name__)

PASS_ORDER: tuple[type[MagiPass], ...] = (
    PaddingMiscompileWorkaround,
    DynamicReshapePass,
    NormRsqrtPass,
    DeconvInterleavePass,
    UpcastMatmulPass,
    CausalPadTrimPass,
    ConvPadFoldPass,
    ProducerRecomputePass,
    DynamicCatTilingWorkaround,
    ConvChannelsLastPass,
    ConvInputWindowPass,
    GroupNormStatsPass,
    NdTilingPass,
)


class PassManager(CustomGraphPass):
    """Runs the enabled magi passes in order on each post-grad graph, then the user's pass."""

    #: How many compilations `history` and `graphs` keep (the oldest are dropped): a manager
    #: installed through `inductor_options()` sees every graph that `torch.compile` call
    #: compiles, recompilations included, for the life of the process.
    max_history: int = 64

    def __init__(
        self,
        config: PassConfig | None = None,
        *,
        user_pass: Any = None,
        record_graphs: bool = True,
    ) -> None:
        config = check_pass_config("PassManager", config)
        check_bool("PassManager", "record_graphs", record_graphs)
        self.config = config if config is not None else PassConfig()
        if user_pass is not None and not callable(user_pass):
            raise TypeError(
                f"PassManager(user_pass=...) must be a callable taking a torch.fx.Graph "
                f"(ideally a CustomGraphPass with uuid()), got {user_pass!r}"
            )
        if isinstance(user_pass, PassManager):
            raise ValueError(
                "PassManager(user_pass=...) got another PassManager: the magi passes would run "
                "twice. Install one PassManager only."
            )
        self.user_pass = user_pass
        self._opaque_token = f"opaque-user-pass:{uuid_module.uuid4().hex}"
        self.record_graphs = record_graphs
        self.passes: list[MagiPass] = [cls(self.config) for cls in PASS_ORDER]
        self.results: list[PassResult] = []
        self.history: list[list[PassResult]] = []
        self.graphs: list[str] = []

    @classmethod
    def chained_with_current(cls, config: PassConfig | None = None) -> PassManager:
        """A manager that chains whatever `post_grad_custom_post_pass` is installed right now."""
        current = get_inductor_config_value("post_grad_custom_post_pass")
        if isinstance(current, PassManager):
            current = current.user_pass
        return cls(config, user_pass=current)

    @property
    def mutates_inductor_config(self) -> tuple[str, ...]:
        keys: list[str] = []
        for p in self.passes:
            keys.extend(k for k in p.mutates_inductor_config if k not in keys)
        return tuple(keys)

    def __call__(self, graph: torch.fx.Graph) -> None:  # type: ignore[override]
        results: list[PassResult] = []
        for p in self.passes:
            if not p.enabled():
                results.append(PassResult(p.name, applied=False, reason="disabled by PassConfig"))
                continue
            p(graph)
            assert p.last_result is not None
            results.append(p.last_result)
            log.debug("%s", p.last_result)
        if self.user_pass is not None:
            self.user_pass(graph)
        self.results = results
        self.history.append(results)
        del self.history[: -self.max_history]
        if self.record_graphs:
            self.graphs.append(str(graph))
            del self.graphs[: -self.max_history]

    def uuid(self) -> str:
        h = hashlib.sha256(b"magi-pass-manager")
        # the package's sources (manager.py and backend.py among them) and the config, whatever
        # the passes' own uuids cover
        h.update(_source_hash(type(self)).encode())
        h.update(self.config.key().encode())
        for p in self.passes:
            h.update(p.uuid().encode())
        if self.user_pass is not None:
            user_uuid = getattr(self.user_pass, "uuid", None)
            value = user_uuid() if callable(user_uuid) else None
            if value is None:
                # an opaque user pass: a token unique to this manager, so a cached graph is
                # never reused for it (a miss, never a wrong hit)
                value = self._opaque_token
            h.update(repr(value).encode())
        return h.hexdigest()

    def result(self, name: str) -> PassResult | None:
        """The last compilation's result of the pass called `name` (e.g. "conv_channels_last")."""
        return next((r for r in self.results if r.name == name), None)

    def fired(self, name: str) -> bool:
        """Whether the pass `name` applied in any compilation this manager has seen."""
        return any(r.name == name and r.applied for rs in self.history for r in rs)

    def summary(self) -> str:
        return "\n".join(str(r) for r in self.results) or "(no compilation yet)"

    def __deepcopy__(self, memo: dict[int, Any]) -> PassManager:
        # Inductor deep-copies config values when it snapshots its config; a copy of the manager
        # would record results nobody reads. The installed manager is an identity, not a value.
        return self

    def __repr__(self) -> str:
        return f"PassManager({self.config!r}, passes={[p.name for p in self.passes]})"
