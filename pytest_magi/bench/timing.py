"""The zoo benchmark: eager, torch.compile and magi on real models, side by side in one process.

    python benchmarks/zoo.py                                   # every zoo model, full size, bf16, GPU
    python benchmarks/zoo.py --models wan2.2-vae --wan-frames 2,3,5 --json out.json
    python benchmarks/zoo.py --models efficientnet_b0 --variants magi,magi-no-cl --profile
    python benchmarks/zoo.py --models wan2.2-vae --frames 3 --variants magi --wan-frames 2,5 --profile

For each model (`pytest_magi.zoo`, random weights, `.compile()` compiles `.module` in place on a
copy, as users do) every variant is compiled by its first two calls (compile time: the first
call plus the second call's time beyond a steady call's, synchronised: the Wan 2.2 decode's
second call compiles 11-15 more graphs, 36-93 s on an H200, because its first chunk takes paths
the first call's did not; graphs, graph breaks, recompiles and frames that fell back to eager
are the first call's, from dynamo's counters; where those two calls' compile time went,
dynamo's phase timers: `pytest_magi.compile_phases`), then timed against torch.compile with
`pytest_magi.timing.measure_pair` (interleaved rounds, CUDA events, L2 flushed, median of
per-round ratios, IQR spread). Each row carries the model's FLOPs (`torch.utils.flop_counter` on
a meta copy), its floor at `--peak-tflops` and the distance from it. For the Wan 2.2 decode,
`--wan-frames` times the whole decode at several latent frame counts and fits the cost of one
more latent frame (least-squares slope), against the FLOP floor of one more frame, and the fixed
part of a decode (the fit's intercept: work done once per decode, such as the first chunk's
graphs, where session 21 found a workaround's 115 ms that no per-frame figure showed), each count
timed against `--baseline` and every run checked against a higher-precision decode at that count.
The variants share the process, and so what the process keeps from a variant's first calls
(cuDNN's and the caching allocator's state): one Cosmos decoder graph ran at 94 or 122 ms by what
had run before it (session 47), the same cuDNN kernels in both, one of them 4x slower in the
slow copy (session 48). Where two variants' ratio decides something, list them in both orders,
in two processes.

Variants: `torch.compile` (the baseline: `torch.compile(module)` as users write it), `magi`
(`magi_compile(module)`: the passes plus a dynamo frame of its own for every module instance,
`magi_passes.frames`, in the model's measured form where it has one, `magi_passes.forms`: the
Wan decoder one static graph a chunk), `magi-split` (`magi_compile(module, form=None)`: the
generic form, which splits the Wan decoder where torch 2.11 breaks its graph; the diagnostic
`magi-*` variants below are of the generic form), `magi-form-cl-state` and
`magi-form-weights-once` (`magi` with the causal conv state handed over channels-last, or the
weights converted once outside the graph: the levers a fake-CUDA census of the Wan form's steady
chunk found, its cache transposes and per-call weight conversions), `magi-form-no-pad-cat`
(`magi` without `channels_last_pad_through_cat`: the second chunk's pad copies back),
`magi-form-no-cl-params` (`magi` with the conv weights left as the model has them, re-laid out
channels-last in every call), `magi-form-s26` (both: the Wan form as session 26 shipped it),
`magi-form-s28` (`magi` with the norm-input pin of sessions 25-28, which left alone an activation
whose fake value is channels-last already: `convert_norm_inputs(trust_fake_layout=True)`),
`magi-form-cl-params` (`magi` with the conv weights made channels-last in place, as the Wan form
has it, for a model whose form does not: the decided decoders' compile time),
`magi-form-cl-norm` (`magi` with the norm-input pin on, as the Wan form has it: LTX-Video's RMS
norms over permuted channels, matched since session 29), `magi-form-s29` (`magi` in the form
session 29 shipped: LTX-Video's and HunyuanVideo's without the levers session 30 gave them),
`magi-form-s39` (`magi` in the form session 39 shipped: Allegro's without its weights in place
and its chunked GroupNorm statistics, which session 40 gave it for its compile time),
`magi-form-gn-chunks` (`magi` with `PassConfig.group_norm_chunked_stats`: GroupNorm's statistics
in two kernels instead of four, for the rewrite's compile time; session 31, not yet timed),
`magi-form-cl-params-norm` and `magi-form-cl-params-gn-chunks` (`magi-form-cl-params` with the
norm-input pin, or with the chunked GroupNorm statistics: Kandinsky-6 SR's RMS norms and
KVAE-3D's GroupNorms, whose forms session 31 recorded without either; session 32),
`magi-form-no-pw-autotune` (`magi` with Inductor's `triton.autotune_pointwise` off: each
pointwise kernel compiled and launched with its first config instead of two compiled and
benchmarked at the first call; in fake CUDA most of the configs HunyuanVideo's first call
autotunes are pointwise, 94 of 116 in its form and 92 of 118 under torch.compile; session 33),
`magi-form-no-gn-stats` and `magi-form-no-nd-tiling` (`magi` without the GroupNorm statistics
rewrite, or without ND tiling: what each costs a form's compile and buys its runtime; in fake
CUDA the statistics rewrite gives HunyuanVideo's scheduler 63 of the form's 145 operations
beyond torch.compile's, ND tiling none; session 34), `magi-form-sympy-min-max` (`magi` with
Inductor's index propagation building SymPy's Min / Max, as torch 2.11 does on its own:
`PassConfig.torch_index_min_max` off; what the backport saves a form's compile; session 36),
`magi-form-root-frames` (`magi` with a frame of its own for the decoder only, not for each of
its submodules: `isolate_forward_code(per="root")`, dynamo tracing the submodules as it does for
torch.compile; for the decoders that are one graph; session 36; since session 37 the forms of
HunyuanVideo's, LTX-2's and VidTok's decoders do so themselves, `CompileForm.frames`, and
`magi-form-instance-frames` is their `magi` with a frame per module instance, as before),
`magi-form-no-cl-slices` (`magi` with `PassConfig.channels_last_through_slices` off: each frame
window a convolution reads cloned channels-last on its own, as before session 37, instead of a
view of its source converted once; EasyAnimate's chunked causal convolutions),
`magi-form-recompute` (`magi` with `PassConfig.recompute_norm_producers`: a norm's apply chain
copied for each reader instead of stored in fp32; session 39),
`magi-form-sympy-first` (`magi` with `PassConfig.work_around_sympy_first`: each graph compiled
inside the scopes that cure torch's sympy failures from its first try, not after a try that
raised one; session 46: KVAE-3D's decoder),
`magi-form-passes` (`magi` with its decisions recorded as kept magi on H100s and H200s,
`DeconvInterleavePass` off and the conv weights as the model has them: the form's passes where
it records plain Inductor; Cosmos's decoder as sessions 47 and 48 timed it, 94 ms or 122 by the
process's history), `magi-form-passes-cl-params` (that, with the conv weights channels-last in
place: Cosmos's form from session 45 to 47), `magi-form-deconv-interleave` (`magi-form-passes`
with `PassConfig.enable_deconv_interleave`: transposed convolutions whose kernel is their
stride, one input channel a group, as fused products instead of cuDNN calls; Cosmos's inverse
Haar wavelet, as session 48 first timed it; its form since then also takes its weights in
place), `magi-form-upcast-matmul` (`magi` with `PassConfig.enable_upcast_matmul`: fp32 batched
matmuls of upcast bf16/fp16 operands, as in PyTorch's math attention, on the low-precision
operands with an fp32 output; Cosmos's spatial attention, session 48; on an H200 in session 49
3.44-3.46x torch.compile against the form's 2.59x), `magi-form-upcast-matmul-split` (that with
`PassConfig.upcast_matmul_split`: the attention's second matmul, its fp32 probabilities split
into two bf16 parts, as two bf16 matmuls with fp32 outputs, session 49),
`magi-backend` (`torch.compile(module, backend="magi")`: the passes
alone), the fair baselines `torch.compile+frames` (frames of their own, no passes: what the
isolation alone buys) and `torch.compile+limit` (`torch.compile(module)` with dynamo's recompile
limit raised to `--recompile-limit`, 64 by default, and the accumulated limit to 16 times that,
scoped by `torch._dynamo.config.patch` to the compiling call and to every later call of that
variant: `recompile_limit`/`accumulated_recompile_limit`, or `cache_size_limit`/
`accumulated_cache_size_limit` on a torch that has only the older names), and diagnostic ones:
`magi-no-cl` (channels-last rewrite off), `magi-cl-always` (the rewrite
forced on conv2d-only graphs too; `magi-cl-conv2d` the same with `magi`'s frames, for the Wan
decode, whose per-frame upsampling conv2d graphs are left to Inductor and cost cuDNN layout
conversions, `nchwToNhwcKernel` and back, 0.7 ms a further frame in session 18's profile), `magi-weights-once` (weights converted once outside the graph,
the opt-in `channels_last_weights_once`; the default converts them in the graph), `magi-no-state`
(causal conv state handed between calls in eager's layout: `channels_last_conv_state` off, the
default), `magi-cl-state` (the state handed over channels-last: the opt-in on; with
`channels_last_through_cat`, a cache that comes in channels-last is copied into its slice of the
conv input instead of transposed),
`magi-no-norm-rsqrt` (norm divisions left as they are: `NormRsqrtPass` off), `magi-no-gn-stats`
(GroupNorm statistics reduced per group as Inductor decomposes them: `GroupNormStatsPass` off),
`magi-conv-input` (the opt-in `ConvInputWindowPass` on: a causal conv's cache read from its input),
`magi-no-pad-fold` (a conv input's zero pad left in the graph: `ConvPadFoldPass` off),
`magi-no-cl-cat` (a conv input's concatenation converted as a whole, not through its inputs:
`channels_last_through_cat` off), `magi-no-pad-trim` (`CausalPadTrimPass` off; `magi-pad-trim`,
from when it was opt-in, switches it on: the taps
of a causal conv's first frames that read only its zero frames dropped from the weight),
and `magi-static` / `torch.compile+frames+static` (`magi` / `torch.compile+frames` compiled with
`dynamic=False`: no automatic dynamic shapes, so every chunk shape of a video decode gets a static
graph of its own), `magi-dynamo-fix` (`magi_compile(module, dynamo_fixes=True)`: a tensor
compared with a string no longer breaks the graph on torch 2.11, `magi_passes.dynamo_fixes`, so
the Wan decoder is one graph a chunk), `magi-dynamo-fix-static` (the same with `dynamic=False`
and `contiguous_inputs=True`, so the chunk graphs are reused at every decode length),
`magi-contiguous` (`magi` with `contiguous_inputs=True` alone: at a new decode length fewer
graphs recompile with symbolic sizes; tiny decode, torch 2.11 CPU, T=3 then T=5: 9 dynamic
graphs of 41 instead of 12 of 42), `magi-cl-norm` and `magi-dynamo-fix-static-cl-norm` (`magi`
and `magi-dynamo-fix-static` with the opt-in `channels_last_norm_inputs`: an RMS norm's input
pinned channels-last in static graphs)
and the fair baseline `torch.compile+fix` (`torch.compile(module)` with those fixes, no passes).
Each magi variant's line also says where its compile time went (`MagiBackend.seconds_text`:
the variants that run, the variants compiled only to be timed, and the timing).
`--baseline V` times every variant against V instead of torch.compile (`--baseline
magi-no-state --variants magi`: what that one option buys).
Every compiled copy has code objects of its own, so variants never share dynamo's frames.

The passes' own share: when `torch.compile+frames`, `torch.compile+limit` or `torch.compile+fix`
ran, each magi variant is also timed against the fastest of them whose output is right (a
baseline the numerics check calls WRONG is no baseline; `measure_pair`, interleaved) and the
ratio printed ("passes' own share"): what the passes buy beyond what frames of their own, a
higher recompile limit or magi_compile's dynamo fixes give plain torch.compile. With
`--wan-frames` the same is printed per further latent frame. Without those variants the
benchmark says how to get the number.

`--profile`: every variant (eager too) is profiled with `pytest_magi.profiling.profile` and its
table printed: time per kernel class (conv/matmul, each Triton kernel pattern, layout copies,
eager ATen kernels, launch gaps) beside the floor (FLOPs at `--peak-tflops`, bytes at
`--hbm-gbps`). The model is compiled under `pytest_magi.profiling.inductor_byte_counts()` then,
so each Triton kernel carries Inductor's own byte count (no kernel changes). With
`--wan-frames a,...,b` it also prints each variant's profile per further latent frame: the
profile at T=b minus the profile at T=a, divided by b - a.

`--no-eager-timing`: eager runs once, for the numerics' bound, and is not timed (a process that
is there for its cold compile: Allegro's eager decode takes 5.6 s a call on an H100, 30-40 s of
warm-up and rounds, session 40); the baseline's time is then the one of its pair with the first
other variant, and blank (null in `--json`) with none.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import logging
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magi_passes import MagiBackend, PassConfig, forms  # noqa: E402
from pytest_magi import profiling, zoo  # noqa: E402
from pytest_magi.compile_phases import compile_phases  # noqa: E402
from pytest_magi.compile_phases import shown as phases_shown  # noqa: E402
from pytest_magi.compile_phases import summary as phases_summary  # noqa: E402
from pytest_magi.compile_stats import _LIMIT_MARK, LIMIT_LOGGER, _captured  # noqa: E402
from pytest_magi.numerics import (  # noqa: E402
    _relative_l2,
    bound_for,
    reference_outputs,
)
from pytest_magi.timing import MIN_ROUNDS, device_name, measure_pair  # noqa: E402

# the decisions of a form recorded as "kept magi" on H100s and H200s, for the variants that time
# a form's passes where it records plain (Cosmos's decoder on H200s in session 47)
KEPT_EVERYWHERE = {"decided_on": "H100,H200", "decided_plain_on": ""}
# the passes as session 47 timed Cosmos's decoder: its transposed convolutions left to cuDNN
PASSES_S47 = {"enable_deconv_interleave": False, **KEPT_EVERYWHERE}
# name -> (PassConfig overrides, or None for plain Inductor; frame isolation of the copy)
VARIANTS: dict[str, tuple[dict[str, Any] | None, str]] = {
    "torch.compile": (None, "class"),
    "torch.compile+frames": (None, "instance"),
    "torch.compile+limit": (None, "class"),
    "magi": ({}, "instance"),
    "magi-split": ({}, "instance"),
    "magi-form-cl-state": ({"channels_last_conv_state": True}, "instance"),
    "magi-form-weights-once": ({"channels_last_weights_once": True}, "instance"),
    "magi-form-no-pad-cat": ({"channels_last_pad_through_cat": False}, "instance"),
    "magi-form-no-cl-params": ({}, "instance"),
    "magi-form-s26": ({"channels_last_pad_through_cat": False}, "instance"),
    "magi-form-s28": ({}, "instance"),
    "magi-form-cl-params": ({}, "instance"),
    "magi-form-cl-norm": ({"channels_last_norm_inputs": True}, "instance"),
    "magi-form-s29": ({}, "instance"),
    "magi-form-s39": ({}, "instance"),
    "magi-form-gn-chunks": ({"group_norm_chunked_stats": True}, "instance"),
    "magi-form-cl-params-norm": ({"channels_last_norm_inputs": True}, "instance"),
    "magi-form-cl-params-gn-chunks": ({"group_norm_chunked_stats": True}, "instance"),
    "magi-form-no-pw-autotune": ({}, "instance"),
    "magi-form-no-gn-stats": ({"enable_group_norm_stats": False}, "instance"),
    "magi-form-no-nd-tiling": ({"enable_nd_tiling": False}, "instance"),
    "magi-form-sympy-min-max": ({"torch_index_min_max": False}, "instance"),
    "magi-form-root-frames": ({}, "root"),
    "magi-form-instance-frames": ({}, "instance"),
    "magi-form-no-cl-slices": ({"channels_last_through_slices": False}, "instance"),
    "magi-form-recompute": ({"recompute_norm_producers": True}, "instance"),
    "magi-form-sympy-first": ({"work_around_sympy_first": True}, "instance"),
    "magi-form-passes": (dict(PASSES_S47), "instance"),
    "magi-form-passes-cl-params": (dict(PASSES_S47), "instance"),
    "magi-form-deconv-interleave": (
        {"enable_deconv_interleave": True, **KEPT_EVERYWHERE},
        "instance",
    ),
    "magi-form-upcast-matmul": ({"enable_upcast_matmul": True}, "instance"),
    "magi-form-upcast-matmul-split": (
        {"enable_upcast_matmul": True, "upcast_matmul_split": True},
        "instance",
    ),
    "magi-backend": ({}, "class"),
    "magi-no-cl": ({"enable_conv_channels_last": False}, "instance"),
    "magi-cl-always": ({"channels_last_conv2d_graphs": True}, "class"),
    "magi-cl-conv2d": ({"channels_last_conv2d_graphs": True}, "instance"),
    "magi-cl-always-weights-once": (
        {"channels_last_conv2d_graphs": True, "channels_last_weights_once": True},
        "class",
    ),
    "magi-weights-once": ({"channels_last_weights_once": True}, "instance"),
    "magi-no-workaround": ({"work_around_inductor_bugs": False}, "instance"),
    "magi-no-state": ({"channels_last_conv_state": False}, "instance"),
    "magi-cl-state": ({"channels_last_conv_state": True}, "instance"),
    "magi-no-norm-rsqrt": ({"enable_norm_rsqrt": False}, "instance"),
    "magi-no-gn-stats": ({"enable_group_norm_stats": False}, "instance"),
    "magi-conv-input": ({"enable_conv_input_windows": True}, "instance"),
    "magi-no-pad-fold": ({"enable_conv_pad_fold": False}, "instance"),
    "magi-no-cl-cat": ({"channels_last_through_cat": False}, "instance"),
    "magi-static": ({}, "instance"),
    "magi-pad-trim": ({"enable_causal_pad_trim": True}, "instance"),
    "magi-no-pad-trim": ({"enable_causal_pad_trim": False}, "instance"),
    "torch.compile+frames+static": (None, "instance"),
    "magi-dynamo-fix": ({}, "instance"),
    "magi-dynamo-fix-static": ({}, "instance"),
    "magi-contiguous": ({}, "instance"),
    "magi-cl-norm": ({"channels_last_norm_inputs": True}, "instance"),
    "magi-dynamo-fix-static-cl-norm": ({"channels_last_norm_inputs": True}, "instance"),
    "torch.compile+fix": (None, "class"),
}
# the variants compiled in the model's measured form where it has one (`magi_passes.forms`), as
# magi_compile compiles it; `magi-split` is `magi` in the generic form
FORM_VARIANTS = (
    "magi",
    "magi-form-cl-state",
    "magi-form-weights-once",
    "magi-form-no-pad-cat",
    "magi-form-no-cl-params",
    "magi-form-s26",
    "magi-form-s28",
    "magi-form-cl-params",
    "magi-form-cl-norm",
    "magi-form-s29",
    "magi-form-s39",
    "magi-form-gn-chunks",
    "magi-form-cl-params-norm",
    "magi-form-cl-params-gn-chunks",
    "magi-form-no-pw-autotune",
    "magi-form-no-gn-stats",
    "magi-form-no-nd-tiling",
    "magi-form-sympy-min-max",
    "magi-form-root-frames",
    "magi-form-instance-frames",
    "magi-form-no-cl-slices",
    "magi-form-recompute",
    "magi-form-sympy-first",
    "magi-form-passes",
    "magi-form-passes-cl-params",
    "magi-form-deconv-interleave",
    "magi-form-upcast-matmul",
    "magi-form-upcast-matmul-split",
)
# the form variants compiled with their own frames (VARIANTS), not the form's (`CompileForm.frames`)
FRAME_VARIANTS = ("magi-form-root-frames", "magi-form-instance-frames")
# the `magi-form-*` variants that change one of the form's own options (`magi_passes.forms`)
FORM_OPTION_OVERRIDES: dict[str, dict[str, Any]] = {
    "magi-form-no-cl-params": {"channels_last_parameters": False},
    "magi-form-s26": {"channels_last_parameters": False},
    "magi-form-cl-params": {"channels_last_parameters": True},
    "magi-form-cl-params-norm": {"channels_last_parameters": True},
    "magi-form-cl-params-gn-chunks": {"channels_last_parameters": True},
    "magi-form-passes-cl-params": {"channels_last_parameters": True},
    "magi-form-passes": {"channels_last_parameters": False},
    "magi-form-deconv-interleave": {"channels_last_parameters": False},
}
# the `magi-form-*` variants compiled with Inductor options of their own (`MagiBackend`'s)
FORM_INDUCTOR_OPTIONS: dict[str, dict[str, Any]] = {
    "magi-form-no-pw-autotune": {"triton.autotune_pointwise": False},
}
# `magi-form-s29`: what session 30 added to a form, taken back (its options, its PassConfig
# fields); a form not listed is as session 29 shipped it
S29_FORM_CHANGES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "ltx-video-decoder": (
        {"channels_last_parameters": False},
        {"channels_last_norm_inputs": False},
    ),
    "hunyuanvideo-decoder": ({"channels_last_parameters": False}, {}),
}
# `magi-form-s39`: what session 40 added to a form, taken back (Allegro's weights in place and
# chunked GroupNorm statistics, for its compile time); its recorded decisions are kept
S39_FORM_CHANGES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "allegro-decoder": (
        {"channels_last_parameters": False},
        {"group_norm_chunked_stats": False},
    ),
}
# the variants that take back what a session gave a form: variant -> the session it shipped,
# the changes since
TAKEN_BACK = {"magi-form-s29": (29, S29_FORM_CHANGES), "magi-form-s39": (39, S39_FORM_CHANGES)}
# variants compiled with `dynamic=False`: every shape dynamo sees gets a static graph of its own
# (automatic dynamic shapes off), so the Wan decode's steady chunk is static in its cache frames
STATIC_VARIANTS = (
    "magi-static",
    "torch.compile+frames+static",
    "magi-dynamo-fix-static",
    "magi-dynamo-fix-static-cl-norm",
)
# variants compiled and called with dynamo's recompile limit raised (`--recompile-limit`)
LIMIT_VARIANTS = ("torch.compile+limit",)
# the baselines that give plain torch.compile what magi_compile's frames give it: the passes'
# own share is magi against the faster of these
FAIR_BASELINES = ("torch.compile+frames", "torch.compile+limit", "torch.compile+fix")
# the variants compiled with magi_compile's opt-in dynamo fixes (magi_passes.dynamo_fixes)
FIX_VARIANTS = (
    "magi-dynamo-fix",
    "magi-dynamo-fix-static",
    "magi-dynamo-fix-static-cl-norm",
    "torch.compile+fix",
)
# the variants whose calls make their tensor arguments contiguous first (magi_compile's opt-in
# contiguous_inputs): with static shapes, a chunk graph is then reused at every decode length
CONTIGUOUS_VARIANTS = (
    "magi-dynamo-fix-static",
    "magi-dynamo-fix-static-cl-norm",
    "magi-contiguous",
)
ACCUMULATED_LIMIT_FACTOR = 16
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


@dataclass
class Row:
    model: str
    variant: str
    inputs: str
    ms: float
    ratio_vs_compile: float | None
    spread: float | None
    compile_s: float | None
    graphs: int | None
    graph_breaks: int | None
    recompiles: int | None
    flops: int
    floor_ms: float
    passes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def floor_distance(self) -> float:
        return self.ms / self.floor_ms if self.floor_ms else float("nan")


def _sync() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _compile_stats() -> dict[str, int]:
    from torch._dynamo.utils import counters

    return {
        "graphs": int(counters["stats"].get("unique_graphs", 0)),
        "graph_breaks": int(sum(counters["graph_break"].values())),
        "recompiles": int(counters["recompiles"].get("total", 0))
        if "recompiles" in counters
        else 0,
    }


@contextlib.contextmanager
def raised_recompile_limit(limit: int) -> Iterator[None]:
    """dynamo's per-frame recompile limit raised to ``limit`` (accumulated: 16 x), scoped.

    torch >= 2.6 names them ``recompile_limit`` / ``accumulated_recompile_limit`` (2.13 keeps
    ``cache_size_limit`` / ``accumulated_cache_size_limit`` as aliases); older torch has only
    the ``cache_size_limit`` names."""
    from torch._dynamo import config

    if hasattr(config, "recompile_limit"):
        names = ("recompile_limit", "accumulated_recompile_limit")
    else:
        names = ("cache_size_limit", "accumulated_cache_size_limit")
    accumulated = max(int(getattr(config, names[1])), ACCUMULATED_LIMIT_FACTOR * limit)
    with config.patch(**{names[0]: limit, names[1]: accumulated}):
        yield


@dataclass
class ScopedModel:
    """A compiled zoo model whose every call (the compiling one included) runs inside
    ``scope()``: ``torch.compile+limit`` under a raised recompile limit."""

    model: zoo.ZooModel
    scope: Callable[[], contextlib.AbstractContextManager[Any]]

    def run(self, *inputs: Any) -> Any:
        with self.scope():
            return self.model.run(*inputs)

    def with_inputs(self, *inputs: Any) -> ScopedModel:
        return ScopedModel(self.model.with_inputs(*inputs), self.scope)


Runnable = zoo.ZooModel | ScopedModel


def variant_form(model: zoo.ZooModel, variant: str) -> forms.CompileForm | None:
    """The measured form `variant` compiles ``model`` in (`magi_passes.forms`): ``magi``'s (and
    the `magi-form-*` variants') is the model's own, as `magi_compile` picks it; every other
    variant's is the generic form."""
    return forms.form_for(model.module) if variant in FORM_VARIANTS else None


class S28Backend(MagiBackend):
    """`MagiBackend` with the norm-input pin's rule before session 29 (`magi-form-s28`): each
    graph it compiles pins only the norm inputs whose fake value is not channels-last already."""

    def __call__(self, gm: Any, example_inputs: Any, **kwargs: Any) -> Any:
        from magi_passes.channels_last import norm_pin_rule

        # no Inductor caches: the pass manager's cache key does not see the rule, so this
        # variant's graphs would be served to `magi` (and the other way round)
        with (
            norm_pin_rule(trust_fake_layout=True),
            torch._inductor.config.patch(force_disable_caches=True),
        ):
            return super().__call__(gm, example_inputs, **kwargs)


def _build_variant(
    model: zoo.ZooModel, variant: str, recompile_limit: int
) -> tuple[Runnable, MagiBackend | None]:
    overrides, isolate = VARIANTS[variant]
    form = variant_form(model, variant)
    if form is not None:
        option_overrides = FORM_OPTION_OVERRIDES.get(variant, {})
        if variant in TAKEN_BACK:
            option_overrides, overrides = TAKEN_BACK[variant][1].get(form.name, ({}, {}))
        settings = forms.options(form, **option_overrides)
        # a `magi-form-*` variant's overrides go on top of the form's own fields
        backend_class = S28Backend if variant == "magi-form-s28" else MagiBackend
        backend = backend_class(
            form.config().replace(**overrides),
            form.backend_options(FORM_INDUCTOR_OPTIONS.get(variant)),
        )
        # the form's frames, as magi_compile gives them, unless the variant sets its own
        isolate = isolate if variant in FRAME_VARIANTS else form.frames
        return model.compile(backend=backend, isolate=isolate, **settings), backend
    kwargs: dict[str, Any] = {"dynamic": False} if variant in STATIC_VARIANTS else {}
    kwargs["dynamo_fixes"] = variant in FIX_VARIANTS
    if variant in CONTIGUOUS_VARIANTS:
        kwargs["contiguous_inputs"] = True
    if overrides is None:
        compiled = model.compile(backend="inductor", isolate=isolate, **kwargs)
        if variant in LIMIT_VARIANTS:
            return ScopedModel(compiled, lambda: raised_recompile_limit(recompile_limit)), None
        return compiled, None
    config = PassConfig.from_env().replace(**overrides) if overrides else PassConfig.from_env()
    backend = MagiBackend(config)
    return model.compile(backend=backend, isolate=isolate, **kwargs), backend


def _taken_back(variant: str, form: forms.CompileForm) -> str:
    """What a `TAKEN_BACK` variant takes back from ``form``, for its log line."""
    session, changes = TAKEN_BACK.get(variant, (0, {}))
    options, fields = changes.get(form.name, ({}, {}))
    if not (options or fields):
        return ""
    text = ", ".join(f"{k}={v!r}" for k, v in {**options, **fields}.items())
    return f"; as session {session} shipped it: {text}"


def _variant_changes(variant: str) -> str:
    """What a `magi-form-*` variant sets on top of its form (options and `PassConfig` fields),
    for its log line (a `TAKEN_BACK` variant's says `_taken_back`)."""
    if variant in TAKEN_BACK:
        return ""
    changes = {**FORM_OPTION_OVERRIDES.get(variant, {}), **(VARIANTS[variant][0] or {})}
    if not changes:
        return ""
    return "; this variant: " + ", ".join(f"{k}={v!r}" for k, v in changes.items())


def _first_call(compiled: Runnable) -> tuple[float, dict[str, int]]:
    from torch._dynamo.utils import counters

    counters.clear()
    # dynamo's "hit config.recompile_limit" warnings: frames that then run eagerly
    with _captured(LIMIT_LOGGER, _LIMIT_MARK, logging.WARNING) as limit_hits:
        seconds = _timed_call(compiled)
    return seconds, {**_compile_stats(), "eager_fallbacks": len(limit_hits.messages)}


def _timed_call(compiled: Runnable) -> float:
    _sync()
    start = time.perf_counter()
    compiled.run()
    _sync()
    return time.perf_counter() - start


def _passes_summary(backend: MagiBackend | None) -> str:
    if backend is None:
        return ""
    fired: dict[str, int] = {}
    for manager in backend.managers:
        for result in manager.results:
            if result.applied:
                fired[result.name] = fired.get(result.name, 0) + 1
    graphs = len(backend.managers)
    text = ", ".join(f"{k} {v}/{graphs}" for k, v in fired.items()) or f"none fired ({graphs})"
    if backend.unseen:
        text += (
            f"; {backend.unseen} of the {graphs} graphs were served by Inductor's FX graph cache "
            f"and ran no pass here (the counts leave them out)"
        )
    return text


def bench_model(name: str, args: argparse.Namespace, log: Callable[[str], None]) -> list[Row]:
    dtype = DTYPES[args.dtype]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    options: dict[str, int] = (
        {"frames": args.frames} if args.frames and name == "wan2.2-vae" else {}
    )
    if args.batch and name in ("resnet50", "efficientnet_b0"):
        options["batch"] = args.batch
    model = zoo.load(name, args.size, device=device, dtype=dtype, **options)
    flops = model.flops()
    floor_ms = flops / (args.peak_tflops * 1e12) * 1e3
    shapes = "x".join(str(s) for s in model.inputs[0].shape)
    log(
        f"== {name} ({args.size}, {args.dtype}, input {shapes}): {flops / 1e12:.3f} TFLOP, "
        f"floor {floor_ms:.3f} ms at {args.peak_tflops:g} TFLOP/s"
    )
    with torch.no_grad():
        eager_out = model.run()
    # the numerics every speed number stands beside: each run's distance from a higher-precision
    # run of the same model, held to max(2 x eager's, the dtype's floor) (pytest_magi.numerics)
    high = torch.float64 if dtype == torch.float32 else torch.float32
    reference = reference_outputs(model.as_module(), model.inputs, high, True)
    eager_err = _relative_l2(eager_out, reference)
    bound = bound_for(eager_err, dtype)
    del eager_out
    log(f"  eager: rel-L2 vs {high} {eager_err:.2e}; bound for compiled runs {bound:.2e}")
    rows: list[Row] = []
    compiled: dict[str, Runnable] = {}
    # Inductor's modules imported before any variant is built: `torch.compile(module)` imports
    # them itself (1.9 s on this CPU, more on the H100's host), `magi_compile(module)` at its
    # first call, so a cold process would count them in magi's compile and not in torch.compile's
    # (docs/benchmarks.md, "Session 36")
    importlib.import_module("torch._inductor.compile_fx")
    for variant in [args.baseline, *[v for v in args.variants if v != args.baseline]]:
        cm, backend = _build_variant(model, variant, args.recompile_limit)
        with compile_phases() as spent:
            first, stats = _first_call(cm)
            second = _timed_call(cm)
        steady = _timed_call(cm)
        seconds = first + max(0.0, second - steady)
        compiled[variant] = cm
        err = _relative_l2(cm.run(), reference)
        verdict = "ok" if err <= bound else "WRONG"
        log(
            f"  {variant:<22} compiled in {seconds:6.1f} s (first call {first:.1f} s, second "
            f"{second:.1f} s, steady {steady:.2f} s); {stats}; rel-L2 vs {high} {err:.2e} "
            f"({verdict}); {_passes_summary(backend)}"
        )
        if backend is not None:
            log(f"  {'':<22} {backend.seconds_text()}")
        log(f"  {'':<22} phases: {phases_summary(spent)}")
        form = variant_form(model, variant)
        if form is not None:
            changes = _taken_back(variant, form) + _variant_changes(variant)
            log(f"  {'':<22} form {form.describe()}{changes}")
        rows.append(
            Row(
                name,
                variant,
                shapes,
                0.0,
                None,
                None,
                seconds,
                stats["graphs"],
                stats["graph_breaks"],
                stats["recompiles"],
                flops,
                floor_ms,
                _passes_summary(backend),
                {
                    "rel_l2_vs_reference": err,
                    "eager_rel_l2": eager_err,
                    "numerics": verdict,
                    **({"compile_seconds": dict(backend.seconds)} if backend else {}),
                    "compile_phases": phases_shown(spent),
                },
            )
        )
    base = compiled[args.baseline]
    if not args.no_eager_timing:
        eager_vs = measure_pair((model.run, base.run), rounds=args.rounds)
        rows.insert(
            0,
            Row(
                name,
                "eager",
                shapes,
                eager_vs.baseline_ms,
                1.0 / eager_vs.ratio,
                eager_vs.spread,
                None,
                None,
                None,
                None,
                flops,
                floor_ms,
            ),
        )
    first = 0 if args.no_eager_timing else 1  # the baseline's row
    rows[first].ratio_vs_compile = 1.0
    for row in rows[first + 1 :]:
        sp = measure_pair((base.run, compiled[row.variant].run), rounds=args.rounds)
        row.ms, row.ratio_vs_compile, row.spread = sp.candidate_ms, sp.ratio, sp.spread
        row.extra["baseline_ms_same_run"] = sp.baseline_ms
        log(f"  {row.variant:<22} {sp}")
    if not args.no_eager_timing:
        rows[first].ms = eager_vs.candidate_ms
    elif len(rows) > 1:  # the baseline as timed beside the first other variant
        rows[0].ms = rows[1].extra["baseline_ms_same_run"]
    else:
        rows[0].ms = math.nan  # nothing timed it
    passes_share(rows, compiled, args, log)
    if args.profile:
        for row in rows:
            runner = model if row.variant == "eager" else compiled[row.variant]
            report = profile_variant(runner, flops, f"{name} {row.variant}", args)
            log(show_profile(report, args))
            row.extra["profile"] = report.to_dict()
    if name == "wan2.2-vae" and args.wan_frames:
        rows.extend(wan_frames(model, compiled, args, log))
    return rows


def passes_share(
    rows: list[Row],
    compiled: dict[str, Runnable],
    args: argparse.Namespace,
    log: Callable[[str], None],
) -> None:
    """Each magi variant timed against the faster fair baseline that ran (see the docstring)."""
    magi = [r for r in rows if r.variant.startswith("magi")]
    fair = [r for r in rows if r.variant in FAIR_BASELINES]
    if not magi:
        return
    if not fair:
        log(
            "  passes' own share: not measured; add torch.compile+frames,torch.compile+limit to "
            "--variants (magi is then timed against the faster of the two)"
        )
        return
    wrong = [r.variant for r in fair if r.extra.get("numerics") == "WRONG"]
    fair = [r for r in fair if r.variant not in wrong]
    if not fair:
        log(f"  passes' own share: not measured; every fair baseline's output is wrong ({wrong})")
        return
    best = min(fair, key=lambda r: r.ms)
    for row in magi:
        sp = measure_pair(
            (compiled[best.variant].run, compiled[row.variant].run), rounds=args.rounds
        )
        row.extra["passes_share"] = {
            "baseline": best.variant,
            "baseline_ms": sp.baseline_ms,
            "ms": sp.candidate_ms,
            "ratio": sp.ratio,
            "spread": sp.spread,
        }
        log(
            f"  passes' own share: {row.variant} {sp.candidate_ms:.3f} ms vs {best.variant} "
            f"{sp.baseline_ms:.3f} ms (the faster fair baseline): {sp.ratio:.3f}x "
            f"(spread {sp.spread:.1%})"
        )


def profile_variant(
    runner: Runnable, flops: int, label: str, args: argparse.Namespace
) -> profiling.ProfileReport:
    return profiling.profile(
        runner.run,
        rounds=args.profile_rounds,
        flops=flops,
        peak_tflops=args.peak_tflops,
        hbm_gbps=args.hbm_gbps,
        label=label,
    )


def show_profile(report: profiling.ProfileReport, args: argparse.Namespace) -> str:
    top = args.profile_top or None
    origins = report.origin_table(top=top)
    where = (
        f"\nwhere the kernels outside Inductor's own work came from:\n\n{origins}\n"
        if origins
        else ""
    )
    return f"\n{report.summary()}\n\n{report.table(top=top)}\n{where}"


def wan_frames(
    model: zoo.ZooModel,
    compiled: dict[str, Runnable],
    args: argparse.Namespace,
    log: Callable[[str], None],
) -> list[Row]:
    """The decode at several latent frame counts: each variant's cost of one more frame, and
    with ``--profile`` its profile per further frame (last count's minus first count's)."""
    frames = [int(t) for t in args.wan_frames.split(",")]
    per_frame_flops = model.flops(frames=3) - model.flops(frames=2)
    floor = per_frame_flops / (args.peak_tflops * 1e12) * 1e3
    baseline = args.baseline
    times: dict[str, list[float]] = {v: [] for v in ["eager", *compiled]}
    profiled = (min(frames), max(frames)) if args.profile and len(set(frames)) >= 2 else ()
    reports: dict[str, dict[int, profiling.ProfileReport]] = {v: {} for v in times}
    rows: list[Row] = []
    wrong: set[str] = set()  # variants wrong at some count: no fair baseline
    for t in frames:
        (zt,) = model.with_frames(t).inputs
        runs: dict[str, Runnable] = {
            "eager": model.with_inputs(zt),
            **{v: m.with_inputs(zt) for v, m in compiled.items()},
        }
        numerics, wrong_at_t = frames_numerics(runs, zt)
        wrong |= wrong_at_t
        log(f"  T={t:>2} numerics: {numerics}")
        base = runs[baseline]
        for variant, m in runs.items():
            if variant == baseline:
                continue
            sp = measure_pair((base.run, m.run), rounds=args.rounds)
            times[variant].append(sp.candidate_ms)
            if (
                variant == "eager"
                or not times[baseline]
                or len(times[baseline]) < len(times[variant])
            ):
                times[baseline].append(sp.baseline_ms)
            log(
                f"  T={t:>2} {variant:<22} {sp.candidate_ms:9.2f} ms vs {baseline} "
                f"{sp.baseline_ms:9.2f} ms: {sp.ratio:.3f}x (spread {sp.spread:.1%})"
            )
        if t in profiled and t not in reports["eager"]:
            flops_t = model.flops(frames=t)
            for variant, m in runs.items():
                reports[variant][t] = profile_variant(
                    m, flops_t, f"wan2.2-vae T={t} {variant}", args
                )
    slopes: dict[str, float] = {}
    fixed: dict[str, float] = {}
    for variant, ms in times.items():
        if len(ms) >= 2:
            slope = slopes[variant] = _slope(frames, ms)
            fixed[variant] = statistics.fmean(ms) - slope * statistics.fmean(frames)
            log(
                f"  per further latent frame: {variant:<22} {slope:8.2f} ms "
                f"({slope / floor:.2f}x the {floor:.1f} ms floor of {per_frame_flops / 1e12:.1f} TFLOP); "
                f"fixed part of a decode {fixed[variant]:.2f} ms"
            )
            row = Row(
                "wan2.2-vae per frame",
                variant,
                f"T={args.wan_frames}",
                slope,
                None,
                None,
                None,
                None,
                None,
                None,
                per_frame_flops,
                floor,
            )
            if profiled:
                lo, hi = profiled
                diff = reports[variant][hi].minus(
                    reports[variant][lo], divide_by=hi - lo, unit="further latent frame"
                )
                diff.label = f"wan2.2-vae {variant}, T={hi} minus T={lo}"
                log(show_profile(diff, args))
                row.extra["profile"] = diff.to_dict()
            row.extra["fixed_ms"] = fixed[variant]
            rows.append(row)
    fair = {v: slopes[v] for v in FAIR_BASELINES if v in slopes and v not in wrong}
    if fair:
        best = min(fair, key=lambda v: fair[v])
        for variant in (v for v in slopes if v.startswith("magi")):
            log(
                f"  passes' own share per further latent frame: {variant} {slopes[variant]:.2f} ms "
                f"vs {best} {fair[best]:.2f} ms (the faster fair baseline): "
                f"{fair[best] / slopes[variant]:.3f}x; fixed part of a decode "
                f"{fixed[variant]:.2f} vs {fixed[best]:.2f} ms "
                f"({fixed[variant] - fixed[best]:+.2f} ms; an intercept, so compared by difference)"
            )
    return rows


def frames_numerics(runs: dict[str, Runnable], z: torch.Tensor) -> tuple[str, set[str]]:
    """Each run's rel-L2 from a higher-precision decode of ``z``, with eager's bound: the
    numerics every per-frame time stands beside; and the runs beyond the bound."""
    high = torch.float64 if z.dtype == torch.float32 else torch.float32
    eager = runs["eager"]
    assert isinstance(eager, zoo.ZooModel)
    reference = reference_outputs(eager.as_module(), (z,), high, True)
    errors = {v: _relative_l2(m.run(), reference) for v, m in runs.items()}
    bound = bound_for(errors["eager"], z.dtype)
    parts = [f"eager {errors.pop('eager'):.2e} (bound {bound:.2e})"]
    parts += [f"{v} {e:.2e} ({'ok' if e <= bound else 'WRONG'})" for v, e in errors.items()]
    del reference
    wrong = {v for v, e in errors.items() if e > bound}
    return "rel-L2 vs " + str(high).replace("torch.", "") + ": " + ", ".join(parts), wrong


def _slope(xs: list[int], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def format_table(rows: list[Row], device: str, baseline: str = "torch.compile") -> str:
    head = (
        f"device: {device}; torch {torch.__version__}\n\n"
        f"| model | variant | inputs | ms | vs {baseline} | spread | rel-L2 (numerics) "
        "| compile s | graphs | breaks | TFLOP | floor ms | x floor |\n| --- | --- | --- | ---: "
        "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    out = [head]
    for r in rows:
        ratio = f"{r.ratio_vs_compile:.3f}x" if r.ratio_vs_compile is not None else ""
        spread = f"{r.spread:.1%}" if r.spread is not None else ""
        comp = f"{r.compile_s:.1f}" if r.compile_s is not None else ""
        err = r.extra.get("rel_l2_vs_reference")
        numerics = f"{err:.2e} ({r.extra['numerics']})" if err is not None else ""
        out.append(
            f"| {r.model} | {r.variant} | {r.inputs} | {_ms(r.ms)} | {ratio} | {spread} | "
            f"{numerics} | {comp} | {r.graphs if r.graphs is not None else ''} | "
            f"{r.graph_breaks if r.graph_breaks is not None else ''} | {r.flops / 1e12:.2f} | "
            f"{r.floor_ms:.2f} | {_ms(r.floor_distance, 2)} |"
        )
    return "\n".join(out)


def _json_row(row: Row) -> dict[str, Any]:
    """``row`` for the JSON file, a time not measured (NaN) as null."""
    out = asdict(row) | {"floor_distance": row.floor_distance}
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in out.items()}


def _ms(value: float, digits: int = 3) -> str:
    """A table cell: ``value`` to ``digits`` places, empty where it was not timed (NaN)."""
    return "" if math.isnan(value) else f"{value:.{digits}f}"


def _rate(text: str) -> float | str:
    if text == profiling.MEASURE:
        return text
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number > 0 or 'measure'")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--models",
        default=",".join(zoo.names()),
        help=f"comma-separated zoo names (here: {', '.join(zoo.names())})",
    )
    parser.add_argument("--size", default="full", choices=zoo.SIZES)
    parser.add_argument("--dtype", default="bf16", choices=sorted(DTYPES))
    parser.add_argument(
        "--variants",
        default="torch.compile,magi",
        help=f"comma-separated, from {', '.join(VARIANTS)}",
    )
    parser.add_argument(
        "--baseline",
        default="torch.compile",
        help="the variant every other one is timed against (e.g. magi-no-state: one pass's "
        "own share; --wan-frames needs torch.compile)",
    )
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument(
        "--batch", type=int, default=0, help="timm batch (default the zoo's 16; 128 is GPU-bound)"
    )
    parser.add_argument(
        "--peak-tflops",
        type=_rate,
        default=profiling.DEFAULT_PEAK_TFLOPS,
        help="the FLOP floor's throughput (H200/H100 bf16 matmul: ~790), or 'measure'",
    )
    parser.add_argument(
        "--hbm-gbps",
        type=_rate,
        default=profiling.DEFAULT_HBM_GBPS,
        help="the memory floor's bandwidth for --profile (H200: 4800), or 'measure'",
    )
    parser.add_argument(
        "--frames",
        type=int,
        default=0,
        help="latent frames of the Wan decode (default: the size's, 21 at full)",
    )
    parser.add_argument(
        "--wan-frames", default="", help="e.g. 2,3,5: per-frame cost of the Wan decode"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="each variant's time per kernel class and Triton pattern beside its floor",
    )
    parser.add_argument(
        "--profile-rounds", type=int, default=3, help="profiled calls per variant (--profile)"
    )
    parser.add_argument(
        "--profile-top",
        type=int,
        default=15,
        help="patterns shown per class in --profile tables (0: all; the rest folded in a row)",
    )
    parser.add_argument(
        "--recompile-limit",
        type=int,
        default=64,
        help="dynamo's recompile limit for the torch.compile+limit variant",
    )
    parser.add_argument(
        "--no-eager-timing",
        action="store_true",
        help="run eager once, for the numerics' bound, but do not time it (a cold-compile "
        "process: Allegro's eager decode takes 5.6 s a call on an H100); the baseline's time is "
        "then its pair's with the first other variant, none without one",
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    args.variants = [v for v in args.variants.split(",") if v]
    if args.recompile_limit < 1 or args.profile_rounds < 1 or args.profile_top < 0:
        parser.error(
            f"--recompile-limit {args.recompile_limit} and --profile-rounds "
            f"{args.profile_rounds} must be >= 1, --profile-top {args.profile_top} >= 0"
        )
    if args.rounds < MIN_ROUNDS:
        # checked before anything compiles: the timing refuses it only after every variant
        # has compiled (session 23 lost two GPU runs of a cold compile to `--rounds 1`)
        parser.error(
            f"--rounds {args.rounds}: the timing needs at least {MIN_ROUNDS} interleaved rounds "
            f"(one round is never a verdict); pass --rounds {MIN_ROUNDS} or more"
        )
    bad = [v for v in [*args.variants, args.baseline] if v not in VARIANTS]
    if bad:
        parser.error(f"unknown variant(s) {bad}; choose from {list(VARIANTS)}")
    missing = zoo.unavailable()
    models = [m for m in args.models.split(",") if m]
    if not torch.cuda.is_available() and args.size == "full":
        print(
            "no CUDA GPU: full-size zoo timings are GPU numbers; see docs/benchmarks.md, or run "
            "`python benchmarks/cpu_codegen_report.py` for what a CPU can say",
            file=sys.stderr,
        )
        return 2
    device = device_name("cuda" if torch.cuda.is_available() else "cpu")
    print(f"device: {device}; torch {torch.__version__}; python {platform.python_version()}")
    if args.peak_tflops == profiling.MEASURE:
        args.peak_tflops = profiling.measure_peak_tflops()
        print(f"measured bf16 matmul peak: {args.peak_tflops:.0f} TFLOP/s")
    if args.hbm_gbps == profiling.MEASURE:
        args.hbm_gbps = profiling.measure_hbm_gbps()
        print(f"measured device-to-device copy: {args.hbm_gbps:.0f} GB/s")
    rows: list[Row] = []
    for name in models:
        if name in missing:
            print(f"== {name}: skipped: {missing[name]}")
            continue
        # --profile: Triton kernels carry Inductor's own byte counts (no kernel changes)
        counting = profiling.inductor_byte_counts() if args.profile else contextlib.nullcontext()
        with counting:
            rows.extend(bench_model(name, args, lambda s: print(s, flush=True)))
        torch._dynamo.reset()
        torch.cuda.empty_cache() if torch.cuda.is_available() else None
    print()
    print(format_table(rows, device, args.baseline))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "device": device,
                    "torch": torch.__version__,
                    "rows": [_json_row(r) for r in rows],
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
