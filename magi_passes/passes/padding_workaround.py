"""Workarounds for Inductor and Triton miscompiles in our supported range.

`PaddingMiscompileWorkaround`: keeps Inductor's comprehensive padding off where torch
miscompiles it (pytorch#194281), so magi's output is right on every supported torch.

The bug: on torch 2.11 and 2.12, `torch._inductor.ir.is_contiguous_storage_and_layout` answers
"is this buffer contiguous?" by padding the strides of a still-flexible buffer *in place*
(`layout.pad_strides()`), so a consumer lowered earlier that read the buffer with its old strides,
and a consumer lowered later that sees the padded ones, disagree about where its elements are. On
the Wan 2.2 VAE decode in bf16 (H200, torch 2.11) a channels-last conv output read by the
upsampler's channel shuffle came out corrupted: the whole decode 0.878 relative L2 from an fp32
decode, eager 0.014; with `comprehensive_padding=False` 0.010, at no cost in speed
(docs/testing-a-pass.md, docs/reliability.md). torch 2.13 computes the padded strides on a copy
and leaves the layout alone (read from its source), but it still miscompiles the same decode on
another path: its generated CUDA code (fake CUDA) reads the up blocks' channels-last
residual output with padded channels-first strides, past the end of its storage (element
16,777,183 of 16,711,680 at 540p; `pytest_magi.bounds` finds it), in plain torch.compile and in
magi alike; with `comprehensive_padding=False` the read matches the buffer. So no torch release
is known to be fixed: `FIXED_IN` is None and the workaround applies on every torch.

Matches: a post-grad graph that has a convolution (forward or backward) on a CUDA device, compiled
by a torch without a known fix (`FIXED_IN`; None: no torch is known fixed). Padding needs a GPU
(Inductor never pads CPU graphs) and static strides above `padding_stride_threshold` that are not 128-byte aligned: bf16
and fp16 rows such as 34x60 are, fp32 rows of the same sizes mostly are not (the fp32 Wan decode
compiled correctly, 7.6e-4). Channels-last buffers, which the channel shuffle misread, come from
convolutions, so graphs without one keep Inductor's padding and its speed.

Emits: no graph change. It sets `comprehensive_padding=False` for the rest of this compilation,
declared in `mutates_inductor_config`, so `magi_backend` / `inductor_options` snapshot the key
into the compile's own `config.patch` and restore it afterwards, for forward and backward graphs
alike (each is decided on its own graph).

Skipped (the reason in its `PassResult`): a torch with the fix, a graph without a convolution, a
graph not on CUDA, `PassConfig(work_around_inductor_bugs=False)`, and a compile where padding is
off already.
"""

from __future__ import annotations

import re
from typing import ClassVar

import torch

from ..fx.predicates import on_cuda
from .base import MagiPass, PassResult, get_inductor_config_value

UPSTREAM_ISSUE = "pytorch#194281"
#: the first torch (major, minor) shown to compile the Wan decode right with padding on; None:
#: none yet (2.13 fixed the in-place pad, yet reads past a buffer on another path)
FIXED_IN: tuple[int, int] | None = None
SETTING = "comprehensive_padding"

_CONVOLUTIONS = ("convolution", "convolution_backward", "cudnn_convolution", "_convolution")


def torch_version() -> str:
    """The running torch's version string (one place for tests to mock another version)."""
    return str(torch.__version__)


def has_padding_miscompile(version: str | None = None) -> bool:
    """Whether torch ``version`` (default: the running one) has pytorch#194281."""
    text = version if version is not None else torch_version()
    found = re.match(r"(\d+)\.(\d+)", text)
    if found is None:
        raise ValueError(f"torch version {text!r}: expected 'MAJOR.MINOR...', e.g. '2.11.0+cu130'")
    return FIXED_IN is None or (int(found.group(1)), int(found.group(2))) < FIXED_IN


def _is_convolution(node: torch.fx.Node) -> bool:
    target = node.target
    packet = getattr(target, "_overloadpacket", target)
    return node.op == "call_function" and getattr(packet, "__name__", "") in _CONVOLUTIONS


class PaddingMiscompileWorkaround(MagiPass):
    """Comprehensive padding off on CUDA convolution graphs of every torch without a known fix
    (pytorch#194281 and its 2.13 sibling)."""

    name: ClassVar[str] = "padding_miscompile_workaround"
    mutates_inductor_config: ClassVar[tuple[str, ...]] = (SETTING,)

    def enabled(self) -> bool:
        return self.config.work_around_inductor_bugs

    def apply(self, graph: torch.fx.Graph) -> PassResult:
        result = PassResult(self.name, applied=False, reason="")
        version = torch_version()
        convs = sum(1 for n in graph.nodes if _is_convolution(n))
        result.counts["convolutions"] = convs
        if not has_padding_miscompile(version):
            fixed = ".".join(map(str, FIXED_IN or ()))
            result.reason = f"torch {version} has the fix of {UPSTREAM_ISSUE} (>= {fixed})"
        elif not convs:
            result.reason = f"no convolution: {UPSTREAM_ISSUE} needs a channels-last buffer"
        elif not on_cuda(graph):
            result.reason = "not a CUDA graph: Inductor pads strides on GPUs only"
        elif not get_inductor_config_value(SETTING):
            result.reason = f"{SETTING} is off already"
        else:
            self.set_config(SETTING, False, result)
            result.applied = True
            result.reason = (
                f"torch {version} miscompiles padded strides ({UPSTREAM_ISSUE}): "
                f"{SETTING}=False for this graph ({convs} convolutions on CUDA)"
            )
        return result
