"""Fixed Triton configs for the kernels `GroupNormStatsPass` makes, where Inductor's own choice was
measured slow, or its autotuning costs compile time.

Inductor picks a Triton kernel's block sizes and warps from heuristics on its sizes. For two
kinds of kernel that the channels-last GroupNorm rewrite creates, the heuristic's choice was the
slowest the GPU measured (VAEDecoderLike 540p and a 256-channel GroupNorm block); a third is
fixed for the compile time its autotuning costs:

- **the per-channel statistics** (`group_norm_stats`): the first, split stage of the Welford
  reduction over positions of a channels-last activation. Its reduction hint is OUTER, for which
  Inductor's heuristics emit one config and never benchmark another: `XBLOCK=64, R0_BLOCK=8`
  with 4 warps on these sizes, 1 KB per load per program. It gets `XBLOCK=64, R0_BLOCK=4` with
  8 warps, what `max_autotune_pointwise` finds among six. Where the split stage has fewer than
  `STATS_MIN_OUTPUTS` outputs (VAEDecoderLike's, the same time either way) the heuristic is kept.
- **the normalise + SiLU apply** (`group_norm_apply`): a 1-D pointwise kernel that reads the
  activation once, its per-channel operands (the statistics, the affine) and writes once, with
  an `exp`. Inductor benchmarks two configs for it (1024 elements with 4 warps, 512 with 8) and
  may keep the slower; it gets 2048 elements with 2 warps, what Inductor's coordinate descent
  finds. A kernel with a second full-size read (the residual add) is left alone: coordinate
  descent kept Inductor's config there.
- **the chunk statistics** (`group_norm_chunk_stats`, with `PassConfig.group_norm_chunked_stats`
  only): each channel's statistics over each chunk of positions, a Welford reduction whose loads
  run along the channels exactly as the per-channel split stage's do (channel x0 contiguous,
  positions strided by the channels). Inductor gives it the "default" reduction hint, so it
  compiles and benchmarks six configs at the first call, seconds of compile time on a
  GroupNorm-heavy decoder. It gets the statistics' config (one of the six Inductor tries).
  Allegro's decoder's form turns the option on; the chunk kernels' own times are not measured
  apart. Known by its sizes, which the
  pass records (`group_norm.chunk_reductions`). A chunk of at most 64 positions makes a
  persistent reduction (R0_BLOCK all of them, no argument), which keeps Inductor's config
  (`may_be_persistent`: on the GPU Triton refused the fixed one).

How: Inductor asks its `InductorChoices` handler (`V.choices`) for every Triton kernel's keyword
arguments (`triton_kernel_kwargs`, "used to apply fixed configurations"); a `fixed_config`
there makes the kernel launch with that config alone. `group_norm_kernel_configs(manager)` puts
a handler in front of the current one for the duration of one compilation and restores it
after; the handler changes nothing unless `manager`'s `GroupNormStatsPass` rewrote the graph
being compiled (and, for the apply kernel, stored its operands per channel), so kernels of any
other graph keep Inductor's choices. Every other question goes to the handler it stands in
front of (a user's own included). `PassConfig.group_norm_kernel_configs` switches it. A kernel
it configured launches through `triton_heuristics.fixed_config` in the generated code
(`pytest_magi`'s `KernelInfo.fixed_config`).

The magi backend and `pytest_magi.inductor_codegen(config=...)` install it; `inductor_options()`
cannot (an Inductor option cannot scope a handler), so `backend="inductor"` users keep
Inductor's configs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

import sympy

from ..passes.base import PassResult

# the fewest outputs (channels x splits) of a split statistics stage that gets the fixed config
STATS_MIN_OUTPUTS = 100_000
# the fewest positions per output: Inductor makes an OUTER reduction of at most 64 persistent
# (R0_BLOCK = all of it), which a fixed R0_BLOCK must not override; 224 were measured
STATS_MIN_POSITIONS = 128
STATS_CONFIG = {"XBLOCK": 64, "R0_BLOCK": 4, "num_warps": 8, "num_stages": 1}
# the chunk statistics read as the per-channel statistics do (module docstring)
CHUNK_STATS_CONFIG = STATS_CONFIG
# the fewest elements of an apply kernel that gets the fixed config
APPLY_MIN_ELEMENTS = 1 << 22
APPLY_CONFIG = {"XBLOCK": 2048, "num_warps": 2, "num_stages": 1}
# a read of at most numel / SMALL_READ elements is a per-channel operand
SMALL_READ = 1024


def _int(value: Any) -> int | None:
    """`value` as an int where it is a static size, else None."""
    if isinstance(value, int):
        return value
    if isinstance(value, sympy.Integer):
        return int(value)
    return None


def _tiling(groups: Any) -> dict[str, Any] | None:
    """The kernel's tiling (`{"x": numel, "r0_": rnumel}`): the first of Inductor's kernel
    arguments, as torch 2.11 and 2.13 pass them."""
    tiling = groups[0] if isinstance(groups, (list, tuple)) and groups else None
    return tiling if isinstance(tiling, dict) else None


def may_be_persistent(features: Any, kernel_kwargs: Mapping[str, Any]) -> bool:
    """Whether Inductor may make the reduction of `features` persistent: one program holds all
    its positions (`R0_BLOCK` = all of them, a constant, not an argument), so a fixed config
    with an `R0_BLOCK` cannot apply; on the GPU Triton rejects it when it compiles the kernel
    ("'R0_BLOCK' is not in list": Allegro's and EasyAnimate's chunk reductions of
    at most 64 positions). Asked as `TritonKernel` asks the choices handler, with a cooperative
    reduction assumed wherever Inductor's config allows one (a cooperative one is persistent up
    to more positions): where unsure, the kernel keeps Inductor's config."""
    from torch._inductor import config as inductor_config
    from torch._inductor.virtualized import V

    forced = kernel_kwargs.get("override_persistent_reduction")
    if forced is not None:
        return bool(forced)
    cooperative = kernel_kwargs.get("override_cooperative_reduction")
    if cooperative is None:
        triton = inductor_config.triton
        cooperative = triton.cooperative_reductions or triton.force_cooperative_reductions
    return bool(V.choices.should_use_persistent_reduction(features, bool(cooperative)))


def pick(
    features: Any,
    groups: Any,
    *,
    apply: bool,
    chunks: frozenset[tuple[int, int]] = frozenset(),
    kernel_kwargs: Mapping[str, Any] | None = None,
) -> str | None:
    """Which fixed config (a key of `CONFIGS`) the kernel of `features` gets, or None.
    `apply`: whether the apply kernel's operands are stored per channel (static graphs);
    `chunks`: the (outputs, positions) of the chunk reductions the pass made;
    `kernel_kwargs`: the keyword arguments Inductor builds the kernel with (a reduction that
    may be persistent gets no config, `may_be_persistent`)."""
    from torch._inductor.runtime.hints import ReductionHint
    from torch._inductor.virtualized import V

    tiling = _tiling(groups)
    if tiling is None or set(tiling) - {"x", "r0_"}:
        return None  # 2-D tiles, several reduction dims: not the kernels measured
    numel, rnumel = _int(tiling.get("x")), _int(tiling.get("r0_", 1))
    if numel is None or rnumel is None:
        return None
    if features.is_reduction():
        kinds = {
            getattr(getattr(n.node, "data", None), "reduction_type", None)
            for n in features.reduction_nodes()
        }
        if kinds != {"welford_reduce"} or may_be_persistent(features, kernel_kwargs or {}):
            return None
        if (numel, rnumel) in chunks and rnumel >= CHUNK_STATS_CONFIG["R0_BLOCK"]:
            return "group_norm_chunk_stats"
        if (
            features.get_reduction_hint() == ReductionHint.OUTER
            and numel >= STATS_MIN_OUTPUTS
            and rnumel >= STATS_MIN_POSITIONS
        ):
            return "group_norm_stats"
        return None
    if not apply or rnumel != 1 or numel < APPLY_MIN_ELEMENTS or not features.contains_op("exp"):
        return None
    nodes = list(features.scheduler_nodes())
    written = {d.name for node in nodes for d in node.read_writes.writes}
    full = small = 0
    for name in {d.name for node in nodes for d in node.read_writes.reads} - written:
        size = _int(V.graph.get_numel(name))
        if size is None:
            return None
        if size >= numel:
            full += 1
        elif size * SMALL_READ <= numel:
            small += 1
        else:
            return None
    # (a fused intermediate is a write too, so any number of full-size writes)
    sizes = [_int(V.graph.get_numel(name)) for name in written]
    if full != 1 or small < 2 or any(size != numel for size in sizes):
        return None
    return "group_norm_apply"


CONFIGS = {
    "group_norm_stats": STATS_CONFIG,
    "group_norm_apply": APPLY_CONFIG,
    "group_norm_chunk_stats": CHUNK_STATS_CONFIG,
}


class _Choices:
    """Stands in front of Inductor's current choices handler for one compilation."""

    def __init__(self, prior: Any, manager: Any) -> None:
        self._prior = prior
        self._manager = manager

    def __getattr__(self, name: str) -> Any:
        return getattr(self._prior, name)

    def _result(self) -> PassResult | None:
        result = self._manager.result("group_norm_stats")
        return result if result is not None and result.applied else None

    def triton_kernel_kwargs(
        self, kernel_cls: Any, features: Any, groups: Any, kernel_kwargs: dict[str, Any]
    ) -> dict[str, Any]:
        kwargs = self._prior.triton_kernel_kwargs(kernel_cls, features, groups, kernel_kwargs)
        result = self._result()
        if result is None or kwargs.get("fixed_config") is not None:
            return kwargs
        from torch._inductor.codegen.triton import FixedTritonConfig

        from ..passes.group_norm import chunk_reductions

        apply = result.counts.get("group_norm_operands_per_channel", 0) > 0
        try:
            name = pick(
                features,
                groups,
                apply=apply,
                chunks=chunk_reductions(result.counts),
                kernel_kwargs=kwargs,
            )
        except Exception:  # Inductor internals differ by version: keep Inductor's choice
            return kwargs
        if name is None:
            return kwargs
        return {**kwargs, "fixed_config": FixedTritonConfig(dict(CONFIGS[name]))}


@contextlib.contextmanager
def group_norm_kernel_configs(manager: Any) -> Iterator[None]:
    """For one compilation: the fixed configs above for the kernels of a graph that `manager`'s
    `GroupNormStatsPass` rewrote (module docstring). A no-op when `manager` is None, its config
    switches them off, or Inductor has no `triton_kernel_kwargs` hook."""
    config = getattr(manager, "config", None)
    if config is None or not (config.group_norm_kernel_configs and config.enable_group_norm_stats):
        yield
        return
    from torch._inductor.virtualized import V

    prior = V.choices
    if not hasattr(prior, "triton_kernel_kwargs"):
        yield
        return
    with V.set_choices_handler(_Choices(prior, manager)):
        yield
