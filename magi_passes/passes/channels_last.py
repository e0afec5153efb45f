"""`ConvChannelsLastPass`: conv2d/conv3d in channels-last by graph rewriting only.

Matches: every `aten.convolution.default` in the post-grad graph whose weight is 4-D (conv2d) or
5-D (conv3d) and which is not transposed, and every such `aten.convolution_backward.default` in
backward graphs (its grad_output, input and weight; the latter two are usually the forward's
channels-last clones, saved for backward, and need nothing).

Emits: `aten.clone(x, memory_format=channels_last | channels_last_3d)` in front of the conv's input
and weight, with the clone's `meta["val"]` made channels-last. In static graphs, the clones of
weight inputs are then converted together, up to 8 in one kernel (`batch_weight_clones`).
Inductor's convolution lowerings (forward and backward) constrain their inputs to the strides
of their FX `meta["val"]` (`constrain_to_fx_strides`, active while `layout_optimization` is
off), so the clone pins its producer's layout: the clone lowers to a
flexible-layout pointwise that is inlined into the producer, and the producer writes channels-last
directly. A clone is a kernel of its own only when its producer cannot take a layout (a graph
input, an extern kernel output of another layout). What that costs: the copy of the graph input,
and one kernel per GroupNorm whose output feeds a conv, because Inductor no longer fuses
GroupNorm's statistics with its channels-last normalise.
Weights get a clone in the graph by default (a tiled transpose per call); with the opt-in
`PassConfig.channels_last_weights_once`, `magi_backend` converts them once per weight version
outside the graph and no weight clone is emitted.

A limit: under dynamic shapes Inductor cannot tile a clone that is fused with a pad, a
concatenation or a normalisation of a contiguous input (its coalescing analysis bails on symbolic
sizes, and ND tiling does not split those indices either), so that kernel runs 1-D with scattered
stores. With static shapes the same fused kernel is tiled 2-D.

- One clone per (tensor, memory format), shared by every conv that reads the tensor.
- Single-user `constant_pad_nd` chains (the causal padding of video VAEs: `F.pad` then
  `conv3d(padding=0)`) are hoisted over: the clone goes in front of the pad and the pads' fake
  values are recomputed, so the pad itself reads and writes channels-last (coalesced) and fuses.
  A pad with more than one user is never hoisted over (other users would see a new layout of a
  value they did not ask for; they would still be correct, but the pad would be computed twice).
- Tensors already channels-last (by `torch._prims_common.suggest_memory_format`) are untouched.
- Concatenations (`PassConfig.channels_last_through_cat`, static graphs, on): where the
  conv input (or the input of its pad chain) is a single-user `cat` along a frame or spatial
  dim, the cat's inputs get the clones instead of its output, and the cat's fake value becomes
  channels-last. Inductor then writes each input into its slice of one channels-last buffer (a
  causal conv's cache: one tiled transpose; its new frames: written by their producer, which
  also writes the next cache), where the clone of the whole would copy every frame again (and
  torch 2.13, whose cat lowering realises such a cat channels-first, twice).
- Pads through a concatenation (`PassConfig.channels_last_pad_through_cat`, opt-in, static
  graphs, with `channels_last_through_cat`): where the conv input is a zero-pad chain over such
  a concatenation and the pads pad only its dim, the padding moves onto its first and last
  inputs (`distribute_pads_into_cat`) and the conv reads the concatenation. A causal conv whose
  cache is shorter than its kernel (one cached frame, one zero frame in front) otherwise has its
  concatenation, whose producer is a long fused norm + SiLU, realised channels-first by Inductor
  (more than `realize_opcount_threshold` ops) and then copied into the channels-last conv input
  by the pad. With the option the new frames' producer writes its slice of the conv input and
  the next cache in one kernel. On in the Wan decoder's form (`magi_passes.compile.forms`).
- Windows (`PassConfig.channels_last_through_slices`, static graphs, on): where a conv input (or
  the input of its pad chain) is a slice of a frame or spatial dim of a tensor, that tensor is
  pinned channels-last (`prims.inductor_force_stride_order`, shared by every window of it) and
  the conv reads the same slice of the pin: Inductor realises the tensor once in channels-last
  and each window is a view of that buffer. A clone would not do: Inductor inlines a clone
  read through several views into each of them, so every window would be a kernel computing
  its frames again. Only where the window is dense channels-last in the pin (batch 1, or the
  whole dim) and starts 16-byte aligned, so the convolution takes it as it is; otherwise the
  window gets its own clone.
- Causal conv state (`PassConfig.channels_last_conv_state`, opt-in): a graph output that is
  a window (slice or select of a frame or spatial dim) of what a converted convolution reads,
  built by data movement alone and used by nothing else in the graph, is laid out channels-last
  too (`convert_state_outputs`): the cache a video VAE hands to its next call, which comes back
  as an input concatenated in front of the conv's input. With eager's strides it goes out
  channels-first and comes back to be concatenated with channels-last frames. Inductor lays
  user-visible outputs out by the strides it recorded before the post-grad passes
  (``original_output_strides``), so those are updated too. Such an output's strides differ from
  eager's; its values do not.
- Channel-reduction inputs (`PassConfig.channels_last_norm_inputs`, static graphs; off, on in
  the Wan decoder's form): a computed activation whose square is summed over its channels (the
  statistics of an RMS norm, `F.normalize`) is pinned channels-last
  (`prims.inductor_force_stride_order`, which Inductor lowers by realising its producer in that
  order; `convert_norm_inputs`). Its fake value is channels-first, so without the pin Inductor
  realises it channels-first: where a residual sum of channels-last convolution outputs feeds
  the norm, the fused reduction then loads along the channels and stores across them. The pin
  is placed where the fake value is channels-last already, too: Inductor realises a computed
  (pointwise or reduction) buffer in its default contiguous order whatever the fake value says
  (it applies a channels-last order to 4-D intermediates only, and only under its own layout
  optimisation, which this pass turns off). A convolution's own output is not pinned: Inductor
  lays it out from the convolution's inputs. The statistic may also be a mean of squares over
  the last dim of a permute that moved the channels last (LTX-Video's RMS norm); then the
  permute's input is pinned. Values are unchanged (the pin is a copy at most); graph outputs
  keep eager's strides.

Why it is safe: `clone` is a value-preserving copy, so numerics are unchanged; the clone is a
fresh tensor (no new aliasing) and its fake value is exactly what eager `clone(memory_format=...)`
returns (`meta["val"]` stays true). Convolution outputs keep their recorded fake values: Inductor
derives the real output layout from the inputs, and graph outputs keep their user-visible strides.

Sets `layout_optimization=False` (declared): Inductor's own layout optimisation would otherwise skip
the stride constraint above and apply its own 2-D-only, static-only heuristic.

Skipped, with the reason in `PassResult`: conv1d (no channels-last format for 3-D tensors),
transposed convolutions (their weight layout is (C_in, C_out/groups, ...) and cuDNN's
channels-last support for them is uneven), graphs without convolutions, and dynamic CUDA graphs
that `DynamicCatTilingWorkaround` marked (a convolution reads a concatenation there; Triton 3.6
miscompiles the 2-D tiled channels-last producer of such an input).

The gate: a graph with a conv3d fires, converting every conv2d/conv3d in it. A graph whose
convolutions are all conv2d stands down and leaves `layout_optimization` as it was, so
Inductor's own conv2d layout optimisation decides: it already puts static conv2d nets in
channels-last, so the rewrite would only add clones and per-call work.
`PassConfig.channels_last_conv2d_graphs=True` forces the rewrite there.

Measured: docs/results.md, "Conv2d networks: the channels-last gate".
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
from collections.abc import Iterator
from typing import ClassVar, cast

import torch
from torch._prims_common import suggest_memory_format

from ..config import PassConfig
from ..fx.layout import (
    CONV,
    CONV_BACKWARD,
    channels_last_format,
    pad_chain,
    refresh_cat_value,
    refresh_pad_value,
    weight_of,
)
from ..fx.layout_rewrites import (
    batch_weight_clones,
    convert_norm_inputs,
    convert_state_outputs,
    distribute_pads_into_cat,
)
from ..fx.marks import CHANNELS_LAST_MARK, dynamic_cat_convs
from ..fx.nodes import clone_node, force_stride_order_op, is_call, pin_node, run_on_fake
from ..fx.predicates import is_dynamic
from .base import MagiPass, PassResult

aten = torch.ops.aten

# the norm-input pin's rule a pass built inside `norm_pin_rule` applies (False: the current rule)
_NORM_PIN_TRUSTS_FAKE_LAYOUT: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "magi_norm_pin_trusts_fake_layout", default=False
)


@contextlib.contextmanager
def norm_pin_rule(*, trust_fake_layout: bool) -> Iterator[None]:
    """Inside, every `ConvChannelsLastPass` made pins norm inputs by the given rule
    (`convert_norm_inputs`): ``trust_fake_layout=True`` is the previous rule, kept to measure
    the change. The pass reads the rule when it is made and its `uuid()` covers it, so graphs
    compiled with either rule never share Inductor's cache entries."""
    token = _NORM_PIN_TRUSTS_FAKE_LAYOUT.set(trust_fake_layout)
    try:
        yield
    finally:
        _NORM_PIN_TRUSTS_FAKE_LAYOUT.reset(token)


# one clone per (tensor, memory format), shared by every conv that reads the tensor
Clones = dict[tuple[torch.fx.Node, torch.memory_format], torch.fx.Node]


def fires_on(config: PassConfig, has_conv3d: bool) -> bool:
    """The measured gate (module docstring), in one place for the pass, the backend's weight
    conversion and codegen: graphs with a conv3d, conv2d-only graphs only when forced."""
    return config.enable_conv_channels_last and (has_conv3d or config.channels_last_conv2d_graphs)


def _weight_dim(conv: torch.fx.Node) -> int:
    weight = weight_of(conv)
    assert isinstance(weight, torch.fx.Node)
    return int(weight.meta["val"].dim())


def _transposed(conv: torch.fx.Node) -> bool:
    return bool(conv.args[7] if conv.target is CONV_BACKWARD else conv.args[6])


class ConvChannelsLastPass(MagiPass):
    name: ClassVar[str] = "conv_channels_last"
    mutates_inductor_config: ClassVar[tuple[str, ...]] = ("layout_optimization",)
    measured_by: ClassVar[str | None] = "enable_conv_channels_last"

    def __init__(self, config: PassConfig | None = None) -> None:
        super().__init__(config)
        #: the norm-input pin's rule (`norm_pin_rule`), read when the pass is made
        self.trust_fake_layout = _NORM_PIN_TRUSTS_FAKE_LAYOUT.get()

    def enabled(self) -> bool:
        return self.config.enable_conv_channels_last

    def uuid(self) -> str:
        if not self.trust_fake_layout:
            return super().uuid()
        return hashlib.sha256(f"{super().uuid()}:trust_fake_layout".encode()).hexdigest()

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        result = PassResult(self.name, applied=False, reason="")
        counts = {
            "convs_converted": 0,
            "conv_backwards_converted": 0,
            "clones_inserted": 0,
            "clones_shared": 0,
            "pads_hoisted": 0,
            "already_channels_last": 0,
            "skipped_conv1d": 0,
            "skipped_transposed": 0,
        }
        result.counts = counts
        convs = [
            n for n in graph.nodes if n.op == "call_function" and n.target in (CONV, CONV_BACKWARD)
        ]
        if not convs:
            result.reason = "no convolutions"
            return result
        gate = self._gate(convs)
        if gate:
            result.reason = gate
            counts["skipped_conv2d_graph"] = sum(1 for c in convs if _weight_dim(c) == 4)
            return result
        stood_down = dynamic_cat_convs(graph)
        if stood_down:
            counts["skipped_dynamic_cat_graph"] = stood_down
            result.reason = (
                f"DynamicCatTilingWorkaround: {stood_down} convolution(s) read a concatenation in "
                "this dynamic CUDA graph; left to Inductor's own layout (its producers stay 1-D)"
            )
            return result
        clones: Clones = {}
        sources: dict[torch.fx.Node, torch.memory_format] = {}  # what the converted convs read
        for conv in convs:
            # convolution(input, weight, bias, stride, padding, dilation, transposed, ...)
            # convolution_backward(grad_output, input, weight, bias_sizes, stride, padding,
            #                      dilation, transposed, ...)
            backward = conv.target is CONV_BACKWARD
            tensors = conv.args[:3] if backward else conv.args[:2]
            transposed = conv.args[7] if backward else conv.args[6]
            weight = tensors[-1]
            assert all(isinstance(t, torch.fx.Node) for t in tensors)
            assert isinstance(weight, torch.fx.Node)
            fmt = channels_last_format(weight.meta["val"].dim())
            if fmt is None:
                counts["skipped_conv1d"] += 1
                continue
            if transposed:
                counts["skipped_transposed"] += 1
                continue
            for arg in tensors:
                assert isinstance(arg, torch.fx.Node)
                windows = arg is not weight  # a weight's window is no frame of an activation
                sources[self._convert(graph, conv, arg, fmt, clones, counts, windows)] = fmt
            counts["conv_backwards_converted" if backward else "convs_converted"] += 1
        converted = counts["convs_converted"] + counts["conv_backwards_converted"]
        if converted == 0:
            skipped = {k: v for k, v in counts.items() if k.startswith("skipped") and v}
            result.reason = f"no conv2d/conv3d to convert ({skipped})"
            return result
        if self.config.channels_last_conv_state:
            counts["state_outputs_channels_last"] = convert_state_outputs(graph, sources)
        if self.config.channels_last_norm_inputs:
            counts["norm_inputs_channels_last"] = (
                0
                if is_dynamic(graph)
                else convert_norm_inputs(graph, trust_fake_layout=self.trust_fake_layout)
            )
        counts["weight_clones_batched"] = (
            0 if is_dynamic(graph) else batch_weight_clones(graph, clones.values())
        )
        self.set_config("layout_optimization", False, result)
        graph.find_nodes(op="output")[0].meta[CHANNELS_LAST_MARK] = converted
        graph.lint()
        result.applied = True
        result.reason = (
            f"{converted} of {len(convs)} convolutions channels-last "
            f"({counts['clones_inserted']} clones)"
        )
        return result

    def _gate(self, convs: list[torch.fx.Node]) -> str:
        """Why the rewrite stands down on this graph ("" if it fires): see the module docstring."""
        if fires_on(self.config, any(_weight_dim(c) == 5 and not _transposed(c) for c in convs)):
            return ""
        return (
            "conv2d-only graph: left to Inductor's own layout optimisation (the rewrite was "
            "measured slower on conv2d nets; PassConfig.channels_last_conv2d_graphs=True forces it)"
        )

    def _convert(
        self,
        graph: torch.fx.Graph,
        conv: torch.fx.Node,
        arg: torch.fx.Node,
        fmt: torch.memory_format,
        clones: Clones,
        counts: dict[str, int],
        windows: bool = True,
    ) -> torch.fx.Node:
        """Make ``conv`` read ``arg`` in ``fmt``; returns the tensor the conversion starts from
        (``arg``, the input of the pad chain in front of it, or the tensor a window of which
        ``arg`` is). ``windows``: whether a window may be read from its tensor's conversion
        (`_window_of_converted`; activations only: the causal pad trim's taps of a weight are
        no frames)."""
        if arg.target is aten.clone.default and arg.kwargs.get("memory_format") == fmt:
            counts["already_channels_last"] += 1  # an earlier conv's clone, or our own
            source = arg.args[0]
            return source if isinstance(source, torch.fx.Node) else arg
        if self.config.channels_last_pad_through_cat:
            arg = self._pads_into_cat(graph, conv, arg, fmt, counts)
        if suggest_memory_format(arg.meta["val"]) == fmt:
            counts["already_channels_last"] += 1
            return arg
        # walk up single-user constant_pad_nd chains: the clone goes in front of the first pad
        pads, source = pad_chain(arg)
        if pads and suggest_memory_format(source.meta["val"]) == fmt:
            pads_only = True  # the pad input is already channels-last: only refresh the pads
        else:
            pads_only = False
        converted_from = source
        if not pads_only:
            user = pads[-1] if pads else conv
            if self._converts_through_cat(graph, source, fmt):
                self._convert_cat_inputs(graph, source, fmt, clones, counts)
            elif (
                windows
                and (window := self._window_of_converted(graph, source, fmt, clones, counts))
                is not None
            ):
                user.replace_input_with(source, window)
                converted_from = cast("torch.fx.Node", source.args[0])
                if not source.users:
                    graph.erase_node(source)
            else:
                user.replace_input_with(source, _shared_clone(graph, source, fmt, clones, counts))
        # refresh the fake values of the hoisted-over pads, innermost first
        for pad in reversed(pads):
            refresh_pad_value(pad)
            counts["pads_hoisted"] += 1
        return converted_from

    def _window_of_converted(
        self,
        graph: torch.fx.Graph,
        node: torch.fx.Node,
        fmt: torch.memory_format,
        clones: Clones,
        counts: dict[str, int],
    ) -> torch.fx.Node | None:
        """`PassConfig.channels_last_through_slices`: where ``node`` is a slice of a frame or
        spatial dim of a tensor in a static graph, the same slice of that tensor pinned in
        ``fmt`` (one pin per tensor and format, kept with the clones), provided the slice is
        dense in ``fmt`` there and starts 16-byte aligned (the convolution then reads it as it
        is); None otherwise."""
        if not (self.config.channels_last_through_slices and is_call(node, aten.slice.Tensor)):
            return None
        base = node.args[0]
        dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
        if not isinstance(base, torch.fx.Node) or not isinstance(dim, int) or is_dynamic(graph):
            return None
        rank = base.meta["val"].dim()
        if dim % rank < 2 or channels_last_format(rank) != fmt:
            return None
        rest = node.args[2:]
        pin = clones.get((base, fmt))
        converted = (
            pin.meta["val"]
            if pin is not None
            else run_on_fake(base.meta["val"], lambda t: t.contiguous(memory_format=fmt))
        )
        # the window of the converted tensor, on fake values: dense in ``fmt``, or no rewrite
        window_val = run_on_fake(
            converted,
            lambda t: aten.slice.Tensor(t, dim, *rest),  # type: ignore[misc]
        )
        offset = window_val.storage_offset() * window_val.element_size()
        if (
            not window_val.is_contiguous(memory_format=fmt)
            or not isinstance(offset, int)
            or offset % 16
        ):
            counts["windows_not_dense"] = counts.get("windows_not_dense", 0) + 1
            return None
        if pin is None:
            # a pin, not a clone: Inductor realises ``base`` itself in ``fmt`` (one buffer that
            # every window is a view of), where a clone's windows would each be computed again
            pin = pin_node(graph, base, converted, force_stride_order_op())
            pin.meta.update({k: v for k, v in base.meta.items() if k != "val"})
            clones[(base, fmt)] = pin
            counts["clones_inserted"] += 1
        else:
            counts["clones_shared"] += 1
        with graph.inserting_after(pin):
            window = graph.call_function(aten.slice.Tensor, (pin, dim, *rest))
        window.meta.update({k: v for k, v in node.meta.items() if k != "val"})
        window.meta["val"] = window_val
        counts["windows_of_converted"] = counts.get("windows_of_converted", 0) + 1
        return window

    def _pads_into_cat(
        self,
        graph: torch.fx.Graph,
        conv: torch.fx.Node,
        arg: torch.fx.Node,
        fmt: torch.memory_format,
        counts: dict[str, int],
    ) -> torch.fx.Node:
        """`PassConfig.channels_last_pad_through_cat`: where ``arg`` is a pad chain over a
        concatenation converted through, the concatenation with the pads moved onto its ends
        (`distribute_pads_into_cat`), now read by ``conv``; else ``arg``. Whether the
        concatenation is already channels-last (weights made channels-last in place) or not."""
        pads, source = pad_chain(arg)
        if not pads or not self._converts_through_cat(graph, source, fmt):
            return arg
        cat = distribute_pads_into_cat(graph, pads, source)
        if cat is None:
            return arg
        conv.replace_input_with(pads[0], cat)
        for pad in pads:  # outermost first: each then has no user left
            graph.erase_node(pad)
        counts["pads_into_cat"] = counts.get("pads_into_cat", 0) + len(pads)
        return cat

    def _converts_through_cat(
        self, graph: torch.fx.Graph, node: torch.fx.Node, fmt: torch.memory_format
    ) -> bool:
        """Whether ``node`` is a concatenation whose inputs are converted instead of it
        (`PassConfig.channels_last_through_cat`): a static graph, the conv path its only user,
        along a frame or spatial dim, every input a tensor of the format's rank."""
        if not self.config.channels_last_through_cat or node.target is not aten.cat.default:
            return False
        inputs = node.args[0]
        rank = node.meta["val"].dim()
        dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
        return (
            len(node.users) == 1
            and isinstance(dim, int)
            and dim % rank >= 2
            and isinstance(inputs, (list, tuple))
            and all(isinstance(t, torch.fx.Node) and t.meta["val"].dim() == rank for t in inputs)
            and channels_last_format(rank) == fmt
            and not is_dynamic(graph)
        )

    def _convert_cat_inputs(
        self,
        graph: torch.fx.Graph,
        cat: torch.fx.Node,
        fmt: torch.memory_format,
        clones: Clones,
        counts: dict[str, int],
    ) -> None:
        """Give each input of ``cat`` that is not in ``fmt`` a (shared) clone in ``fmt``, and
        recompute ``cat``'s fake value: a concatenation of inputs of one format comes out in it
        (ATen's rule, checked below), so Inductor writes every input into its slice of a
        channels-last buffer and no copy of the whole follows."""
        inputs = cat.args[0]
        assert isinstance(inputs, (list, tuple))
        for source in dict.fromkeys(inputs):
            assert isinstance(source, torch.fx.Node)
            if suggest_memory_format(source.meta["val"]) == fmt:
                counts["already_channels_last"] += 1
                continue
            cat.replace_input_with(source, _shared_clone(graph, source, fmt, clones, counts))
        refresh_cat_value(cat)
        assert suggest_memory_format(cat.meta["val"]) == fmt, "cat of one format left it"
        counts["cats_converted_through"] = counts.get("cats_converted_through", 0) + 1


def _shared_clone(
    graph: torch.fx.Graph,
    source: torch.fx.Node,
    fmt: torch.memory_format,
    clones: Clones,
    counts: dict[str, int],
) -> torch.fx.Node:
    """The clone of ``source`` in ``fmt``: one per (tensor, format), made on first use."""
    key = (source, fmt)
    clone = clones.get(key)
    if clone is None:
        with graph.inserting_after(source):
            clone = clone_node(graph, source, fmt)
        clones[key] = clone
        counts["clones_inserted"] += 1
    else:
        counts["clones_shared"] += 1
    return clone
