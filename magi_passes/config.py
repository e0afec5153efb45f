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

    docs/configuration.md has the same fields as a table. "Measured" below means that where the
    rewrite would change a graph on a real CUDA device in inference, `measure_decisions` times it
    against plain Inductor and keeps the faster.

    - `enable_conv_channels_last` (on): rewrite conv2d/conv3d to channels-last
      (`ConvChannelsLastPass`). Measured. Off to compare against Inductor's own layout.
    - `enable_nd_tiling` (on): let `NdTilingPass` turn on Triton ND tiling for dynamic,
      conv-heavy graphs. Measured. Off where compile time matters more: ND tiling compiles
      about 5x longer.
      Measured: docs/results.md, "VAEDecoderLike: where the time goes".
    - `enable_dynamic_reshape` (on): let `DynamicReshapePass` give merging reshapes under
      dynamic shapes the product of the merged dims (pytorch#181108). Off only to reproduce the
      extra copy kernel.
      Measured: docs/results.md, "GQA projection".
    - `conv_heavy_ratio` (300, Inductor's own layout-optimisation heuristic): a graph is
      conv-heavy when `len(nodes) < ratio * n_convolutions`. Lower it to make fewer graphs
      conv-heavy.
    - `nd_tiling_with_channels_last` (off): also tile where the channels-last rewrite already
      fired on the graph. Leave off: the combination was slower and compiled about 8x longer.
      Measured: docs/results.md, "VAEDecoderLike: where the time goes".
    - `bucket_dynamic_reductions` (off): let `DynamicReshapePass` guard each reduction over one
      symbolic size (hint <= 1024) into its power-of-two bucket, so Inductor emits persistent
      reductions as for static shapes; sizes outside the bucket recompile. On when a dynamic size
      varies within a bucket (docs/dynamic-shapes.md).
      Measured: docs/results.md, "GQA projection".
    - `channels_last_conv2d_graphs` (off): also rewrite graphs whose convolutions are all conv2d;
      otherwise Inductor's own layout optimisation decides on such graphs. Leave off: the
      rewrite was slower on real conv2d nets.
      Measured: docs/results.md, "Conv2d networks: the channels-last gate".
    - `channels_last_weights_once` (off): in inference (no grad), convert conv weights to
      channels-last once per weight version outside the compiled graph instead of in the graph
      on every call. Semantics as Inductor's freezing: weights may change by `copy_`/`add_` under
      no_grad, `load_state_dict`, optimiser steps and `.data =` assignment, but not by in-place
      updates through `.data` (its version counter is not the parameter's), so it stays off by
      default: a default must never give stale numbers. On only where weights are never changed
      in place through `.data`.
    - `work_around_inductor_bugs` (on): let `PaddingMiscompileWorkaround` keep Inductor's
      comprehensive padding off on the CUDA convolution graphs of torch versions that miscompile
      it (pytorch#194281), and `DynamicCatTilingWorkaround` keep the channels-last rewrite and ND
      tiling off dynamic CUDA graphs where a convolution reads a concatenation (Triton 3.6
      miscompiles the 2-D tiled channels-last producer of such an input for some tile shapes).
      A default must never give wrong numbers; off only to reproduce the bugs (docs/reliability.md).
      Measured: docs/results.md, "Wan 2.2 decode".
    - `work_around_sympy_first` (off; on in KVAE-3D's form): with `work_around_inductor_bugs`,
      compile each graph inside the two scopes that cure torch's sympy failures in a pointwise
      concatenation of a clamped input (`magi_passes.compile.sympy_retry`) from the first try,
      instead of only after a try that raised one of them. A graph that raises pays its AOT
      dispatch, post-grad passes and part of its lowering twice; the scopes change the code of a
      graph that would not have raised (a load's eviction hint), so the default keeps Inductor's
      first try. On where `MagiBackend.retried` counts graphs.
    - `measure_decisions` (on): where a measured pass would change a graph on a real CUDA device
      in inference, compile it with and without the measured passes, time both and keep plain
      Inductor unless magi wins by the margin (`magi_passes.compile.decisions`). The decision is
      cached on disk, so a second compile of the same model compiles once. "Never slower" comes
      before compile time: off only for one compile per graph by the static rules, which CPU,
      fake CUDA and training graphs always use.
      Measured: docs/results.md, "Never slower: the zoo".
    - `share_decisions_across_shapes` (off): with `measure_decisions`, a graph of the same
      structure as one already timed at other shapes (`decisions.decision_family`: integer
      literals and input sizes left out) takes that decision without being compiled twice and
      timed, where the timed gap was 10% or more either way; a closer call is timed again (by
      any backend of the process with the same decision cache folder). Off until it is
      measured against full measurement on the zoo.
    - `conv_prior` (off): with `measure_decisions`, a graph the channels-last rewrite changes is
      first decided by its convolutions timed alone (`gates.time_convolutions`): where they run
      25% longer channels-first than channels-last with the layout copies the rewrite adds
      (each weight, the graph's activation inputs and outputs), magi is kept without compiling
      and timing the plain variant; otherwise both are timed. The other measured passes of such
      a graph follow their static rules. Off until it is measured against full measurement.
    - `compile_plain_in_background` (off): with `measure_decisions`, a graph a measured pass
      may change has its plain variant compiled in a process of its own (one per backend,
      `workers.BackgroundWorker`, started with it) while the magi variant
      compiles here, sharing Inductor's and Triton's caches, so the plain compile here that the
      timing needs finds them warm. What runs is compiled here either way. Off: it made the
      cold compile slower on a GPU (docs/results.md, "Cold compile").
    - `channels_last_conv_state` (off): where the channels-last rewrite fires, graph outputs
      that are a causal convolution's state (the last frames of its input, handed to the next
      call and concatenated in front of its input there) are laid out channels-last too, so the
      state is never transposed on the way out or back in (`ConvChannelsLastPass`). Their
      strides then differ from eager's (values do not), and on the Wan 2.2 decode it was within
      noise, so a default that changes strides has not earned it.
      Measured: docs/results.md, "Wan 2.2 decode".
    - `enable_norm_rsqrt` (on): let `NormRsqrtPass` turn `a / clamp_min(sqrt(sum(x*x)), eps)`
      into `a * rsqrt(clamp_min(sum(x*x), eps*eps))` where the quotient is rounded to bf16/fp16
      (the apply half of F.normalize and of video-VAE RMS norms). Measured. Off to compare
      bitwise with Inductor in 16-bit graphs.
    - `enable_group_norm_stats` (on): where the channels-last rewrite converted a graph's
      convolutions, let `GroupNormStatsPass` reduce GroupNorm's statistics per channel, then per
      group, so the reduction reads channels-last activations contiguously. Measured. Off to
      bisect.
      Measured: docs/results.md, "GPU suite".
    - `group_norm_kernel_configs` (on): where `GroupNormStatsPass` rewrote a graph, launch two
      of the kernels it makes (the per-channel statistics' split stage, and the normalise + SiLU
      apply with its operands per channel) with fixed Triton configs instead of Inductor's
      heuristic ones (`magi_passes.compile.kernel_configs`). Applies with the magi backend; part
      of the measured "magi" variant, so a graph where it loses keeps plain Inductor. Off on a
      GPU very unlike an H200, after timing.
      Measured: docs/results.md, "Wan 2.2 decode".
    - `group_norm_chunked_stats` (off; on in Allegro's form): where `GroupNormStatsPass`
      rewrites a static GroupNorm, reduce its positions in chunks instead of per channel: one
      reduction gives each channel's statistics over each chunk of positions, and one small
      persistent reduction combines a group's chunks for each of its channels. Two kernels where
      the per-channel form gives three or four; the same statistics (the parallel-variance
      identity). With `group_norm_kernel_configs` the chunk reduction launches with one fixed
      config instead of Inductor's six autotuned at the first call, unless Inductor makes it
      persistent (chunks of 64 positions or fewer). On to cut the compile time the rewrite adds
      on GroupNorm-heavy decoders.
      Measured: docs/results.md, "Cold compile".
    - `enable_conv_input_windows` (off): let `ConvInputWindowPass` read the windows of a conv
      input's producer (a causal conv's cache, `x[:, :, -2:]`) from the conv input itself, so
      the producer (norm, SiLU, cache frames, pad) writes the conv input in one kernel instead of
      a buffer that a second kernel copies. Measured where it is on. It matches the
      concatenation cloned whole, so it acts only with `channels_last_through_cat=False` (its
      `PassResult` says so). Leave off: its gain was within noise and one dynamic graph compiled
      with it came out wrong.
      Measured: docs/results.md, "Wan 2.2 decode".
    - `enable_conv_pad_fold` (on): let `ConvPadFoldPass` fold a zero pad in front of a
      convolution into the convolution's own `padding` where it is the same on both sides of a
      dim (a causal conv's spatial pad), so the kernel that produces the conv input writes the
      unpadded domain. Measured. Off to bisect.
      Measured: docs/results.md, "GPU suite".
    - `enable_deconv_interleave` (off; on in Cosmos's form): let `DeconvInterleavePass` turn a
      transposed convolution whose kernel equals its stride, one input channel a group (an
      inverse Haar wavelet, a depthwise pixel-shuffle upsampler), into a broadcast multiply and
      an interleave that Inductor fuses, instead of a cuDNN call. Measured where it is on. Off by
      default as it fires on one zoo model; on for inverse-wavelet and pixel-shuffle decoders.
      Measured: docs/results.md, "Never slower: the zoo".
    - `enable_upcast_matmul` (off): let `UpcastMatmulPass` run a batched matmul whose fp32
      operands are upcasts of bf16 or fp16 tensors on those tensors with an fp32 output
      (`bmm.dtype`: tensor cores), as in the first matmul of PyTorch's math attention. The same
      values, summed in fp32. Measured where it is on. On for math attention with large heads,
      if a compile about 2.5 s longer is acceptable (so it is not in Cosmos's form).
      Measured: docs/results.md, "Upcast matmul on Cosmos".
    - `upcast_matmul_split` (off, with `enable_upcast_matmul`): where only one operand of such a
      matmul is an upcast of bf16, split the other, fp32, into two bf16 parts (its rounding and
      the rounding of what that left) and run two bf16 matmuls with fp32 outputs, summed (not
      for fp16 upcasts: fp16's range would overflow). 16 bits of each value kept instead of 24,
      as against 8 where a fused attention kernel rounds its probabilities
      (`tests/test_upcast_matmul.py` bounds the error on the CPU). Experimental: not yet timed
      on a GPU.
    - `channels_last_through_cat` (on): in static graphs, where a convolution's input is a
      concatenation along a frame or spatial dim (a causal conv's cache frames in front of the
      new ones), `ConvChannelsLastPass` converts the concatenation's inputs instead of its
      output, so each input is written channels-last into its slice of the conv input: the cache
      is one tiled transpose, and the new frames' producer (norm, SiLU) computes them once for
      both the conv input and the next cache. Without it the channels-last clone copies the
      concatenation as a whole. Off only to bisect a layout problem.
      Measured: docs/results.md, "Wan 2.2 decode".
    - `enable_causal_pad_trim` (on): let `CausalPadTrimPass` drop the taps of a convolution that
      read only zero padding, where a padded dim has one output position (a causal video conv
      on the first frames of a decode). Exact, fewer FLOPs and no padded copy. Measured. Off to
      bisect.
      Measured: docs/results.md, "Wan 2.2 decode".
    - `channels_last_norm_inputs` (off; on in the Wan decoder's form): where the channels-last
      rewrite fires on a static graph, an activation whose square is summed over its channels
      (an RMS norm's statistics) is pinned channels-last, so Inductor never realises it
      channels-first inside the fused reduction (`ConvChannelsLastPass`, `convert_norm_inputs`);
      an activation whose fake value is channels-last already is pinned too. On for video
      decoders with RMS norms, after timing them: in the zoo it also fires on HunyuanVideo 1.5,
      Kandinsky 6 SR and LTX-Video, not yet timed with it.
      Measured: docs/results.md, "Wan 2.2 decode".
    - `channels_last_pad_through_cat` (off; on in the Wan decoder's form; static graphs, with
      `channels_last_through_cat`): a zero pad along a concatenation's dim between the
      concatenation and a converted convolution goes onto the concatenation's first or last
      input instead (`distribute_pads_into_cat`), so the convolution reads the concatenation,
      whose inputs Inductor writes into their slices of its channels-last input. Otherwise
      Inductor realises a concatenation with a long fused producer (more than
      `realize_opcount_threshold` ops) channels-first and the pad copies it into channels-last
      again. Values are unchanged. On where a padded concatenation feeds a converted conv; time
      it.
      Measured: docs/results.md, "Wan 2.2 decode".
    - `decided_on` (empty: measure everywhere): device names, comma-separated, each matched as
      a substring of the CUDA device's name (``"H100,H200"``), on which the measured decisions
      of graphs compiled with this config are already known: a side-by-side run there kept
      magi on every graph it measured. Graphs on such a device compile once, by the static
      rules, instead of twice and timed; on any other device `measure_decisions` holds as
      usual. A compile form (`magi_passes.compile.forms`) sets it from the run that is its
      evidence, so a model it applies to compiles cold without the decisions' second compile.
    - `decided_plain_on` (empty: measure everywhere): the same, for devices on which a
      side-by-side run kept plain Inductor (every measured pass off) on every graph it
      measured: there graphs compile once with the measured passes off, as the measurement
      would have ended, instead of twice and timed. A device name may not be in both lists.
      Both hold where no timing could be taken (CUDA graphs on; fake CUDA, whose device is
      named as an H100's), so the code is what the measurement kept; a training graph is
      decided by the static rules, as no recorded forward timing saw its backward.
    - `torch_index_min_max` (on): on a torch whose Inductor builds SymPy's own ``Min`` /
      ``Max`` in its index propagation (2.11, 2.12), build torch's for each compile instead, as
      torch 2.13 does (pytorch#184589; `magi_passes.compile.index_min_max`). SymPy's compare
      their arguments pairwise each time Inductor substitutes into an index with a clamp (a
      replicate pad). Compile time only, the generated code is the same; off only to compare
      compile times.
      Measured: docs/results.md, "Cold compile".
    - `recompute_norm_producers` (off): a full-size pointwise chain (a norm's apply) that
      Inductor would store because several cheap ops read it (SiLU reads its input twice, a
      replicate pad of frames three times) is copied for each reader, so the chain is computed
      where the convolution's input is written instead of stored in fp32
      (`ProducerRecomputePass`). Try on decoders whose norm output is padded or read by SiLU;
      not yet timed on a GPU.
    - `defer_full_collections` (off): hold off Python's full garbage collections while a graph
      compiles (`magi_passes.compile.collector`): a compile makes millions of objects that live
      to its end, so each full collection during it walks them all and frees little. Young
      collections go on; the full one held off runs once after the compile. Compile time only;
      try on very large graphs, not yet timed on a GPU.
    - `compile_on_fresh_stack` (on): each graph's compile runs from a frame that starts a chunk
      of CPython's frame stack with room for the whole compile (`magi_passes.compile.stack_room`),
      so no hot call in Inductor maps and unmaps a chunk each time it crosses a chunk's end
      (cpython#142183): where those ends fall otherwise depends on how deep the compile was
      entered. Compile time only; off only to compare.
    - `channels_last_through_slices` (on, part of the measured channels-last rewrite): in static
      graphs, where a convolution reads a window (a slice of a frame or spatial dim) of a tensor,
      `ConvChannelsLastPass` pins that tensor channels-last once and the convolution reads the
      same window of it, a view, wherever the window is dense channels-last there (batch 1;
      16-byte aligned). Without it each window is cloned channels-last by a kernel of its own
      that computes its frames again (`python benchmarks/zoo.py codegen` counts the kernels).
      Off only to bisect.
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
    share_decisions_across_shapes: bool = False
    conv_prior: bool = False
    compile_plain_in_background: bool = False
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
