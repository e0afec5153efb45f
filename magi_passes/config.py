"""`PassConfig`: which magi passes run, and their knobs.

Configuration is kept apart from the passes (the vLLM way): a frozen dataclass that can be hashed
into a pass's `uuid()`, compared, and read from the environment with `PassConfig.from_env()`.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ._validate import close_matches, fail

ENV_PREFIX = "MAGI_PASSES__"

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True)
class PassConfig:
    """What the magi passes do. Every field can be set with `MAGI_PASSES__<FIELD>`.

    - `enable_conv_channels_last`: rewrite conv2d/conv3d to channels-last (`ConvChannelsLastPass`).
    - `enable_nd_tiling`: let `NdTilingPass` turn on Triton ND tiling for dynamic conv-heavy graphs.
    - `enable_dynamic_reshape`: let `DynamicReshapePass` rewrite merging reshapes under dynamic shapes.
    - `conv_heavy_ratio`: a graph is conv-heavy when `len(nodes) < ratio * n_convolutions`
      (Inductor's own layout-optimisation heuristic uses 300).
    - `nd_tiling_with_channels_last`: also tile when the channels-last rewrite already fired on the
      graph. Off by default: measured on the GPU, ND tiling on top of channels-last bought nothing on
      VAEDecoderLike while multiplying compile time ~5x (docs/benchmarks.md).
    - `bucket_dynamic_reductions` (opt-in): let `DynamicReshapePass` guard each reduction over one
      symbolic size (hint <= 1024) into its power-of-two bucket, so Inductor emits persistent
      reductions as for static shapes; sizes outside the bucket recompile (docs/dynamic-shapes.md).
    - `channels_last_conv2d_graphs`: also rewrite graphs whose convolutions are all conv2d. Off by
      default: on such graphs Inductor's own layout optimisation decides, and the rewrite was
      measured slower on real conv2d nets (timm efficientnet_b0, resnet50; docs/benchmarks.md).
    - `channels_last_weights_once` (opt-in): in inference (no grad), convert conv weights to
      channels-last once per weight version outside the compiled graph instead of in the graph on
      every call. Semantics as Inductor's freezing: weights may change by `copy_`/`add_` under
      no_grad, `load_state_dict`, optimiser steps and `.data =` assignment, but not by in-place
      updates through `.data` (its version counter is not the parameter's). Off by default: a default
      must never give stale numbers, and on the Wan 2.2 decode the weights converted in the graph
      cost little once each module instance really has a frame of its own (1.63x over
      torch.compile with them in the graph and the output correct, 1.47x measured earlier with
      this opt-in; docs/benchmarks.md).
    - `work_around_inductor_bugs`: let `PaddingMiscompileWorkaround` keep Inductor's comprehensive
      padding off on the CUDA convolution graphs of torch versions that miscompile it
      (pytorch#194281: the Wan 2.2 decode in bf16 came out 0.878 from fp32 on torch 2.11, eager
      0.014), and `DynamicCatTilingWorkaround` keep the channels-last rewrite and ND tiling off
      dynamic CUDA graphs where a convolution reads a concatenation (Triton 3.6 miscompiled the
      2-D tiled channels-last producer of such an input for some tile shapes on H100 and H200).
      On by default: a default must never give wrong numbers; turn it off only to reproduce the
      bugs.
    - `work_around_sympy_first` (opt-in): with `work_around_inductor_bugs`, compile each graph
      inside the two scopes that cure torch's sympy failures in a pointwise concatenation of a
      clamped input (`magi_passes.workarounds.compile_working_around`) from the first try,
      instead of only after a try that raised one of them. A graph that raises there pays its
      AOT dispatch, post-grad passes and part of its lowering twice; the scopes change the code
      of a graph that would not have raised (a load's eviction hint), so the default keeps
      Inductor's first try and a compile form turns this on where its graph was seen to raise
      (`MagiBackend.retried` counts the graphs that did).
    - `measure_decisions`: where a measured pass (the channels-last rewrite, ND tiling) would
      change a graph on a real CUDA device in inference, compile it with and without them, time
      both and keep the faster, plain Inductor unless magi wins by the margin
      (`magi_passes.decisions`). The decision is cached on disk, so a second compile of the
      same model compiles once. On by default: a static gate was measured 0.72x on a video VAE
      it was not tuned on (docs/benchmarks.md), and "never slower" comes before compile time.
      CPU, fake CUDA and training graphs always use the static rules.
    - `channels_last_conv_state` (opt-in): where the channels-last rewrite fires, graph outputs
      that are a causal convolution's state (the last frames of its input, handed to the next
      call and concatenated in front of its input there) are laid out channels-last too, so the
      state is never transposed on the way out or back in (`ConvChannelsLastPass`). Their
      strides then differ from eager's (values do not). Off by default: on the Wan 2.2 decode
      it measured 1.004x (spread 1.0%) against the option off, within noise (H200, T=3,
      docs/benchmarks.md), and a default that changes strides must earn it.
    - `enable_norm_rsqrt`: let `NormRsqrtPass` turn `a / clamp_min(sqrt(sum(x*x)), eps)` into
      `a * rsqrt(clamp_min(sum(x*x), eps*eps))` where the quotient is rounded to bf16/fp16 (the
      apply half of F.normalize and of video-VAE RMS norms). Measured, like the channels-last
      rewrite: where it would change a graph, the decision times it (docs/benchmarks.md).
    - `enable_group_norm_stats`: where the channels-last rewrite converted a graph's
      convolutions, let `GroupNormStatsPass` reduce GroupNorm's statistics per channel, then per
      group, so the reduction reads channels-last activations contiguously. Measured, like the
      channels-last rewrite (docs/benchmarks.md).
    - `group_norm_kernel_configs`: where `GroupNormStatsPass` rewrote a graph, launch two of the
      kernels it makes (the per-channel statistics' split stage, and the normalise + SiLU apply
      with its operands per channel) with fixed Triton configs instead of Inductor's heuristic
      ones, which were measured slower on an H200 (`magi_passes.kernel_configs`;
      docs/results.md, "Wan 2.2 decode"). Applies with the magi backend; part of the measured
      "magi" variant, so a graph where it loses keeps plain Inductor.
    - `group_norm_chunked_stats` (opt-in): where `GroupNormStatsPass` rewrites a static
      GroupNorm, reduce its positions in chunks instead of per channel: one reduction gives each
      channel's statistics over each chunk of positions (channels adjacent, as the per-channel
      reduction reads them), and one small persistent reduction combines a group's chunks for
      each of its channels (the normalisation's per-channel operands). Two kernels where the
      per-channel form gives three or four (Inductor splits the per-channel reduction over all
      positions into stages of its own); values are the same statistics (the parallel-variance
      identity). Off until measured on a GPU; meant to cut the compile time the rewrite adds
      (HunyuanVideo's decoder: docs/results.md, "Cold compile"). With
      `group_norm_kernel_configs` the chunk reduction launches with one fixed config instead
      of Inductor's six autotuned at the first call (`magi_passes.kernel_configs`),
      unless Inductor makes it persistent (chunks of 64 positions or fewer). Allegro's
      decoder's form turns it on (its graph's compile 46.3 s against 69.5 on an H200,
      docs/results.md, "Cold compile").
    - `enable_conv_input_windows` (opt-in): let `ConvInputWindowPass` read the windows of a conv
      input's producer (a causal conv's cache, `x[:, :, -2:]`) from the conv input itself, so
      that the producer (norm, SiLU, cache frames, pad) writes the conv input in one kernel
      instead of a buffer that a second kernel copies. Measured where it is on. Off by default:
      on the Wan 2.2 decode (H200, torch 2.11, T=3, decisions off) it gained 1.009x (spread
      0.7%) and one graph compiled with it gave a wrong output (a cache, 0.70 from its eager
      graph; the whole decode 8.2e-2 from fp32 against eager's 1.4e-2) that the same graph
      recompiled alone did not repeat (docs/results.md, "Wan 2.2 decode"). It matches the
      concatenation cloned whole, so it acts only with `channels_last_through_cat=False`
      (that option rewrites the same chain; its `PassResult` says so).
    - `enable_conv_pad_fold`: let `ConvPadFoldPass` fold a zero pad in front of a convolution
      into the convolution's own `padding` where it is the same on both sides of a dim (a causal
      conv's spatial pad), so the kernel that produces the conv input writes the unpadded domain.
      Measured, like the channels-last rewrite. On by default: the Wan 2.2 decode gained 1.04x
      (T=3) and 1.05x (T=21) with every output correct (H200, torch 2.11; docs/benchmarks.md,
      docs/results.md, "Wan 2.2 decode".
    - `enable_deconv_interleave` (opt-in): let `DeconvInterleavePass` turn a transposed
      convolution whose kernel equals its stride, one input channel a group (an inverse Haar
      wavelet, a depthwise pixel-shuffle upsampler), into a broadcast multiply and an interleave
      that Inductor fuses, instead of a cuDNN call. Measured where it is on. Off by default
      (it fires on one zoo model), on in Cosmos's form (`magi_passes.forms`): the 28 such
      calls of a Cosmos decode ran cuDNN's legacy engines on an H200 (docs/benchmarks.md,
      docs/results.md, "Upcast matmul on Cosmos"; with the pass the decode took 45.0 ms against torch.compile's 116.7
      (2.56-2.60x, output closer to fp32; docs/results.md, "Upcast matmul on Cosmos".
    - `enable_upcast_matmul` (opt-in): let `UpcastMatmulPass` run a batched matmul whose fp32
      operands are upcasts of bf16 or fp16 tensors on those tensors with an fp32 output
      (`bmm.dtype`: tensor cores), as in the first matmul of PyTorch's math attention (one head
      of 512 channels, as in Cosmos's decoder). The same values, summed in fp32. Measured
      where it is on. Cosmos's decode on an H200: 45.1 ms in its form, 33.6-33.9 ms with it
      (3.44-3.46x torch.compile), the output as close to fp32; not in the form, as it compiled
      2.5 s slower in process and its cold compile is not measured (docs/benchmarks.md,
      docs/results.md, "Upcast matmul on Cosmos".
    - `upcast_matmul_split` (opt-in, with `enable_upcast_matmul`): where only one operand of
      such a matmul is an upcast of bf16, split the other, fp32, into two bf16 parts (its
      rounding and the rounding of what that left) and run two bf16 matmuls with fp32 outputs,
      summed (not for fp16 upcasts: fp16's range would overflow). 16 bits of each value kept
      instead of 24, as against 8 where a fused attention kernel rounds its probabilities.
      Attention's second matmul (the softmax's output times v): on the CPU at Cosmos's shape
      its output 2.5e-6 from an fp64 attention with the split, against 3.9e-7 in fp32 and
      1.7e-3 with the probabilities rounded to bf16
      (`tools/probes/attention_probs_rounding.py`). Not timed on a GPU.
    - `channels_last_through_cat`: in static graphs, where a convolution's input is a
      concatenation along a frame or spatial dim (a causal conv's cache frames in front of the
      new ones), `ConvChannelsLastPass` converts the concatenation's inputs instead of its
      output, so each input is written channels-last into its slice of the conv input: the cache
      is one tiled transpose, and the new frames' producer (norm, SiLU) computes them once for
      both the conv input and the next cache. Without it the concatenation is copied as a whole
      by the channels-last clone (torch 2.13 realises it channels-first first, one more pass).
      On by default: on the Wan 2.2 decode it measured 1.029x at T=21 (1393.7 -> 1354.7 ms) and
      1.017x at T=3, 68.9 -> 66.9 ms per further latent frame, every output 1.08-1.12e-2 from
      fp32 as without it (H100, torch 2.11, measured decisions on; docs/benchmarks.md,
      docs/results.md, "Wan 2.2 decode".
    - `enable_causal_pad_trim`: let `CausalPadTrimPass` drop the taps of a convolution that read
      only zero padding, where a padded dim has one output position (a causal video conv on the
      first frames of a decode: the Wan 2.2 decoder's first chunk multiplies two of its three
      frame taps by zeros). Exact, fewer FLOPs and no padded copy; measured like the other
      rewrites. On by default: on the Wan 2.2 decode it measured 1.073x at T=3 (156.74 ->
      146.12 ms, 7.35 of 88.80 TFLOP removed) and 1.007x at T=21 (1340.39 -> 1330.45 ms: the
      first chunks run once a decode), every output as close to fp32 as without it (H100,
      torch 2.11, decisions off; docs/results.md, "Wan 2.2 decode").
    - `channels_last_norm_inputs` (off; on in the Wan decoder's form, `magi_passes.forms`):
      where the channels-last rewrite fires on a static
      graph, an activation whose square is summed over its channels (an RMS norm's statistics)
      is pinned channels-last, so Inductor never realises it channels-first inside the fused
      reduction (`ConvChannelsLastPass`, `convert_norm_inputs`). Located on the Wan 2.2 decode
      compiled one graph a chunk: one such reduction took 9.03 of a further frame's 70.21 ms at
      10% of HBM; with the option that form decoded 81 frames 1.101x faster (1278 ms, 63.5 ms a
      further frame, output right; H100, torch 2.11, decisions off,
      docs/results.md, "Wan 2.2 decode"). In that form, decisions on, beside torch.compile in one run: 81 frames 1.318x over
      torch.compile with frames isolated (docs/results.md, "Wan 2.2 decode"), so the form sets it. It also
      pins an activation whose fake value is channels-last already (Inductor realised
      one such up-block output channels-first): T=3 1.029x over the old rule (docs/results.md, "Wan 2.2 decode").
      Off elsewhere:
      in the zoo it fires on three more decoders (HunyuanVideo 1.5, Kandinsky 6 SR, and
      LTX-Video, whose RMS norm is taken over permuted channels), not yet timed with
      it on a GPU.
    - `channels_last_pad_through_cat` (opt-in, static graphs, with `channels_last_through_cat`):
      a zero pad along a concatenation's dim between the concatenation and a converted
      convolution goes onto the concatenation's first or last input instead
      (`distribute_pads_into_cat`), so the convolution reads the concatenation, whose inputs
      Inductor writes into their slices of its channels-last input. Otherwise Inductor realises
      a concatenation with a long fused producer (more than `realize_opcount_threshold` ops)
      channels-first and the pad copies it into channels-last again: the Wan 2.2 decode's
      second chunk, whose one-frame caches are padded by a zero frame (19 such copies a decode,
      about 9 GB; fake CUDA, torch 2.13). Values are unchanged. Off by default; on in the Wan
      decoder's form, where with the weights channels-last it measured 1.071x at T=3 and
      1.037x at T=21 (alone 1.032x and 1.004x; H100, torch 2.11,
      docs/results.md, "Wan 2.2 decode").
    - `decided_on` (empty: measure everywhere): device names, comma-separated, each matched as
      a substring of the CUDA device's name (``"H100,H200"``), on which the measured decisions
      of graphs compiled with this config are already known: a side-by-side run there kept
      magi on every graph it measured. Graphs on such a device compile once, by the static
      rules, instead of twice and timed; on any other device `measure_decisions` holds as
      usual. A compile form (`magi_passes.forms`) sets it from the run that is its evidence, so
      a model it applies to compiles cold without the decisions' second compile.
    - `decided_plain_on` (empty: measure everywhere): the same, for devices on which a
      side-by-side run kept plain Inductor (every measured pass off) on every graph it
      measured: there graphs compile once with the measured passes off, as the measurement
      would have ended, instead of twice and timed. A device name may not be in both lists.
      Both hold where no timing could be taken (CUDA graphs on; fake CUDA, whose device is
      named as an H100's), so the code is what the measurement kept; a training graph is
      decided by the static rules, as no recorded forward timing saw its backward.
    - `torch_index_min_max`: on a torch whose Inductor builds SymPy's own ``Min`` / ``Max`` in
      its index propagation (2.11; 2.12 by the fix's date), build torch's for each compile instead, as torch 2.13
      does (pytorch#184589; `magi_passes.index_min_max`): SymPy's compare their arguments pairwise
      each time Inductor substitutes into an index with a clamp (a replicate pad), which took
      a quarter of HunyuanVideo's decoder compile on an H100 under cProfile (docs/benchmarks.md,
      docs/results.md, "Cold compile"; the generated code is the same. Not a measured pass: it changes compile
      time only.
    - `recompute_norm_producers` (opt-in, not yet timed on a GPU): a full-size pointwise chain
      (a norm's apply) that Inductor would store because several cheap ops read it (SiLU reads
      its input twice, a replicate pad of frames three times) is copied for each reader, so the
      chain is computed where the convolution's input is written instead of stored in fp32
      (`ProducerRecomputePass`).
    - `defer_full_collections` (opt-in, not yet timed on a GPU): hold off Python's full garbage
      collections while a graph compiles (`magi_passes.collector`): a compile makes millions of
      objects that live to its end, so each full collection during it walks them all and frees
      little. Young collections go on; the full one held off runs once after the compile. On
      MiniMax-H3's decoder (magi_compile in fake CUDA, CPU, torch 2.13, three rounds a side) the
      collector took 3.2-3.6 s against 4.1-4.4, the held collection 2.1-2.2 s of it, and the
      frame compile 30.3 s (median) against 30.9 (docs/results.md, "Cold compile"). Not a
      measured pass: it changes compile time only.
    - `compile_on_fresh_stack`: each graph's compile runs from a frame that starts a chunk of
      CPython's frame stack with room for the whole compile (`magi_passes.stack_room`), so no
      hot call in Inductor maps and unmaps a chunk each time it crosses a chunk's end
      (cpython#142183, not fixed in 3.11 or 3.12): where those ends fall otherwise depends on how
      deep the compile was entered. On MiniMax-H3's decoder (fake CUDA, CPU, Python 3.11,
      torch 2.13) the frame compile took 26.6-27.2 s with it against 31.1-33.1 s without, its
      AOT dispatch 4.2-4.8 s against 8.0-9.4 (docs/results.md, "Cold compile"). Not a
      measured pass: it changes compile time only.
    - `channels_last_through_slices`: in static graphs, where a convolution reads a window (a
      slice of a frame or spatial dim) of a tensor, `ConvChannelsLastPass` pins that tensor
      channels-last once and the convolution reads the same window of it, a view, wherever the
      window is dense channels-last there (batch 1; 16-byte aligned). Without it each window is
      cloned channels-last by a kernel of its own that computes its frames again. EasyAnimate's
      decoder runs each causal conv over the 3-frame windows of ``cat(cache, x)``: at its full
      size in fake CUDA (torch 2.13) 155 kernels became 130 (torch.compile: 111), the chunks'
      copies gone. On by default, as part of the measured channels-last rewrite.
    """

    enable_conv_channels_last: bool = True
    enable_nd_tiling: bool = True
    enable_dynamic_reshape: bool = True
    conv_heavy_ratio: int = 300
    nd_tiling_with_channels_last: bool = False
    channels_last_weights_once: bool = False
    bucket_dynamic_reductions: bool = False
    channels_last_conv2d_graphs: bool = False
    work_around_inductor_bugs: bool = True
    work_around_sympy_first: bool = False
    measure_decisions: bool = True
    channels_last_conv_state: bool = False
    enable_norm_rsqrt: bool = True
    enable_group_norm_stats: bool = True
    group_norm_kernel_configs: bool = True
    group_norm_chunked_stats: bool = False
    enable_conv_input_windows: bool = False
    enable_conv_pad_fold: bool = True
    enable_deconv_interleave: bool = False
    enable_upcast_matmul: bool = False
    upcast_matmul_split: bool = False
    channels_last_through_cat: bool = True
    enable_causal_pad_trim: bool = True
    channels_last_norm_inputs: bool = False
    channels_last_pad_through_cat: bool = False
    decided_on: str = ""
    decided_plain_on: str = ""
    torch_index_min_max: bool = True
    channels_last_through_slices: bool = True
    recompute_norm_producers: bool = False
    defer_full_collections: bool = False
    compile_on_fresh_stack: bool = True

    def __new__(cls, *args: Any, **kwargs: Any) -> PassConfig:
        # names are checked before the dataclass __init__ sees them, so a misspelt field gets the
        # close matches instead of Python's bare "unexpected keyword argument"
        names = cls.field_names()
        if len(args) > len(names):
            raise TypeError(
                f"PassConfig(...): got {len(args)} positional arguments {args!r}; expected at "
                f"most {len(names)} ({', '.join(names)}); fix: pass fields by name, e.g. "
                f"PassConfig(enable_nd_tiling=False)"
            )
        unknown = sorted(set(kwargs) - set(names))
        if unknown:
            raise TypeError(
                f"PassConfig(...): unknown field {unknown[0]}={kwargs[unknown[0]]!r}; expected "
                f"one of {', '.join(names)}{close_matches(unknown[0], names)}"
            )
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(
                    f"PassConfig.{f.name} must be a bool, got {value!r} ({type(value).__name__}); "
                    f"pass True or False"
                )
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(
                    f"PassConfig.{f.name} must be an int, got {value!r} ({type(value).__name__}); "
                    f"pass a whole number, e.g. {f.name}={f.default!r}"
                )
            if f.type == "str" and not isinstance(value, str):
                raise ValueError(
                    f"PassConfig.{f.name} must be a str, got {value!r} ({type(value).__name__}); "
                    f"pass e.g. {f.name}='H100,H200'"
                )
        for name in ("decided_on", "decided_plain_on"):
            value = getattr(self, name)
            if value and not all(_device_list(value)):
                raise ValueError(
                    f"PassConfig.{name}={value!r} has an empty device name; pass names "
                    f"separated by single commas, e.g. {name}='H100,H200', or '' for none"
                )
        both = sorted(set(self.decided_devices()) & set(_device_list(self.decided_plain_on)))
        if both:
            raise ValueError(
                f"PassConfig: {both[0]!r} is in both decided_on={self.decided_on!r} (kept magi) "
                f"and decided_plain_on={self.decided_plain_on!r} (kept plain); a device's "
                f"measurement kept one of them: name it in one list only"
            )
        if self.conv_heavy_ratio <= 0:
            raise ValueError(
                f"PassConfig.conv_heavy_ratio must be a positive int, got {self.conv_heavy_ratio!r}; "
                f"pass e.g. conv_heavy_ratio=300 (Inductor's own layout heuristic)"
            )

    def decided_devices(self) -> tuple[str, ...]:
        """`decided_on`'s entries, stripped (empty: none)."""
        return _device_list(self.decided_on)

    def decided_for(self, device_name: str) -> str | None:
        """The entry of `decided_on` that ``device_name`` contains (its decisions are known
        there: magi), or None (measure them)."""
        return next((n for n in self.decided_devices() if n in device_name), None)

    def decided_plain_for(self, device_name: str) -> str | None:
        """The entry of `decided_plain_on` that ``device_name`` contains (its decisions are
        known there: plain Inductor), or None."""
        return next((n for n in _device_list(self.decided_plain_on) if n in device_name), None)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> PassConfig:
        """Read `MAGI_PASSES__<FIELD>` variables (case-insensitive field names) over the defaults.

        Booleans accept 1/0, true/false, yes/no, on/off; ints accept decimal integers; strings
        are taken as written, stripped. An unknown `MAGI_PASSES__*` name or a bad value raises
        `ValueError` naming the variable, the value and what is accepted. Keyword `overrides`
        win over the environment.
        """
        if environ is not None and not isinstance(environ, Mapping):
            fail(
                TypeError,
                "PassConfig.from_env",
                "environ",
                environ,
                "a mapping of variable names to str values (like os.environ), or None",
                "PassConfig.from_env({'MAGI_PASSES__ENABLE_ND_TILING': '0'})",
            )
        env = os.environ if environ is None else environ
        by_name = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for var, raw in env.items():
            if not var.startswith(ENV_PREFIX):
                continue
            name = var[len(ENV_PREFIX) :].lower()
            if name not in by_name:
                close = difflib.get_close_matches(name, list(by_name), n=3)
                hint = (
                    f"; did you mean {', '.join(ENV_PREFIX + c.upper() for c in close)}?"
                    if close
                    else ""
                )
                raise ValueError(
                    f"unknown environment variable {var}={raw!r}: PassConfig has no field {name!r}. "
                    f"Known: {', '.join(ENV_PREFIX + n.upper() for n in by_name)}{hint}"
                )
            if not isinstance(raw, str):
                fail(
                    TypeError,
                    "PassConfig.from_env",
                    f"environ[{var!r}]",
                    raw,
                    "a str, as in os.environ",
                    f"{{{var!r}: '1'}}",
                )
            values[name] = _parse_env_value(var, raw, by_name[name].type)
        unknown = sorted(set(overrides) - set(by_name))
        if unknown:
            raise ValueError(
                f"unknown PassConfig field(s) {unknown}; known fields: {', '.join(by_name)}"
                f"{close_matches(unknown[0], by_name)}"
            )
        values.update(overrides)
        return cls(**values)

    def replace(self, **changes: Any) -> PassConfig:
        unknown = sorted(set(changes) - set(self.field_names()))
        if unknown:
            raise ValueError(
                f"unknown PassConfig field(s) {unknown}; known fields: "
                f"{', '.join(self.field_names())}{close_matches(unknown[0], self.field_names())}"
            )
        return dataclasses.replace(self, **changes)

    def key(self) -> str:
        """A stable text form of every field, used in `uuid()`s."""
        return ",".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))


def _parse_env_value(var: str, raw: str, type_name: Any) -> Any:
    text = raw.strip().lower()
    if type_name == "bool":
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise ValueError(
            f"bad value for {var}: {raw!r}; expected a boolean, one of "
            f"{'/'.join(_TRUE)} or {'/'.join(_FALSE)}"
        )
    if type_name == "int":
        try:
            value = int(text, 10)
        except ValueError:
            raise ValueError(f"bad value for {var}: {raw!r}; expected a positive integer") from None
        if value <= 0:
            raise ValueError(f"bad value for {var}: {raw!r}; expected a positive integer")
        return value
    if type_name == "str":
        return raw.strip()
    raise AssertionError(
        f"PassConfig field type {type_name!r} has no env parser"
    )  # pragma: no cover


def _device_list(value: str) -> tuple[str, ...]:
    """A comma-separated list of device-name parts, each stripped (empty: none)."""
    return tuple(n.strip() for n in value.split(",")) if value else ()


def check_pass_config(where: str, value: object, arg: str = "config") -> PassConfig | None:
    """`value` must be a `PassConfig` or None. A dict gets the `PassConfig(...)` it meant."""
    if value is None or isinstance(value, PassConfig):
        return value
    expected = "a magi_passes.PassConfig or None"
    if isinstance(value, Mapping):
        fields = set(PassConfig.field_names())
        if "post_grad_custom_post_pass" in value:
            fix = (
                "that dict looks like inductor_options()'s result, which is for "
                "torch.compile(model, options=...); here pass a PassConfig, e.g. "
                f"{where}({arg}=PassConfig(enable_nd_tiling=False))"
            )
        elif value and all(isinstance(k, str) and k in fields for k in value):
            kwargs = ", ".join(f"{k}={v!r}" for k, v in value.items())
            fix = f"{where}({arg}=PassConfig({kwargs}))"
        else:
            fix = (
                f"build one from its fields ({', '.join(PassConfig.field_names())}), e.g. "
                f"{where}({arg}=PassConfig(enable_nd_tiling=False))"
            )
        fail(TypeError, where, arg, value, expected, fix)
    fail(
        TypeError,
        where,
        arg,
        value,
        expected,
        f"{where}({arg}=PassConfig(...)), or leave it out for the default",
    )
