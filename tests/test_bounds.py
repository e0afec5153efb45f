"""`pytest_magi.capture.bounds`: accesses past a buffer's storage in generated code, found statically;
and the miscompile it found on torch 2.13 (the Wan decode's padded read), worked around."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch

from magi_passes import PassConfig
from pytest_magi import zoo
from pytest_magi.capture.bounds import OutOfBounds, accesses_checked, out_of_bounds

KERNEL = """
@triton.jit
def triton_poi_fused_add_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 240
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 60)
    x1 = xindex // 60
    tmp0 = tl.load(in_ptr0 + (x0 + 64*x1), xmask)
    tmp1 = tl.load(in_ptr1 + (x0 + 60*x1), xmask)
    tmp5 = x0 < 30
    tmp6 = tl.load(in_ptr1 + (x0 + 9999*x1), tmp5 & xmask, other=0.0)
    tl.store(out_ptr0 + (x0 + 60*(x1 // 2)), tmp0 + tmp1 + tmp6, xmask)
"""
WRAPPER = """
        buf0 = empty_strided_cuda((4, 60), (60, 1), torch.bfloat16)
        buf1 = reinterpret_tensor(buf0, (4, 60), (60, 1), 0)
        assert_size_stride(arg0_1, (4, 60), (60, 1), 'input')
        buf2 = empty_strided_cuda((4, 60), (60, 1), torch.bfloat16)
        triton_poi_fused_add_0.run(buf1, arg0_1, buf2, 240, stream=raw_stream0)
"""


@dataclass
class Kernel:
    name: str
    source: str


@dataclass
class Graph:
    wrapper: str
    kernels: tuple[Kernel, ...]


def test_a_load_past_its_buffer_is_found_and_masked_or_in_bounds_ones_are_not() -> None:
    found = out_of_bounds(Graph(WRAPPER, (Kernel("triton_poi_fused_add_0", KERNEL),)))
    # buf1 (a view of buf0, 240 elements) read with a row stride of 64: element 251 at x = 239
    assert found == [
        OutOfBounds("triton_poi_fused_add_0", "load", "in_ptr0", "buf1", "x0 + 64*x1", 251, 240)
    ]
    assert "reaches element 251 at its last index; the storage holds 240" in str(found[0])
    # arg0_1 read right, and the store within buf2: checked and fine; the pad-masked load (tmp5)
    # is skipped
    assert accesses_checked(Graph(WRAPPER, (Kernel("triton_poi_fused_add_0", KERNEL),))) == 3


def test_a_view_at_an_offset_has_the_rest_of_its_storage() -> None:
    wrapper = WRAPPER.replace(
        "buf1 = reinterpret_tensor(buf0, (4, 60), (60, 1), 0)",
        "buf1 = reinterpret_tensor(buf0, (3, 60), (60, 1), 60)",
    ).replace("64*x1", "60*x1")
    source = KERNEL.replace("64*x1", "60*x1")
    (found,) = out_of_bounds(Graph(wrapper, (Kernel("triton_poi_fused_add_0", source),)))
    assert (found.buffer, found.offset, found.extent) == ("buf1", 239, 180)


def test_a_combo_kernel_with_ranges_of_its_own_per_block_is_skipped() -> None:
    """A foreach kernel sets `xnumel` once per block; one last index does not describe it, so it
    is not checked (the first version read its second block's range for the first: a false
    report on the CogVideoX decode)."""
    combo = KERNEL.replace("    xnumel = 240\n", "    xnumel = 240\n    xnumel = 9999\n")
    graph = Graph(WRAPPER, (Kernel("triton_poi_fused_add_0", combo),))
    assert out_of_bounds(graph) == [] and accesses_checked(graph) == 0


def _wan_chunk(config: PassConfig | None, inductor_codegen) -> object:
    """The Wan 2.2 decoder (tiny channels, the 540p latent's 34 x 60) decoding one latent frame,
    CUDA code generated without a GPU."""
    model = zoo.load("wan2.2-vae", "tiny", dtype=torch.bfloat16, frames=1, height=34, width=60)
    with torch.no_grad():
        code = inductor_codegen(model.as_module(), *model.inputs, config=config)
    (graph,) = [g for g in code.captured if len(g.extern_calls) > 10]
    return graph


@pytest.mark.slow
def test_plain_inductor_reads_the_wan_up_blocks_output_past_its_storage_and_magi_does_not(
    inductor_codegen,
) -> None:
    """Plain Inductor with comprehensive padding (its default on CUDA) reads the decoder's
    channels-last up-block output with padded channels-first strides: past the end of its
    storage (docs/reliability.md). Seen on torch 2.13, whose fix of pytorch#194281 does not
    cover this read; magi keeps padding off on every torch (workarounds.FIXED_IN is None)."""
    plain = out_of_bounds(_wan_chunk(None, inductor_codegen))
    assert plain, "the premise: plain Inductor reads past a buffer here"
    assert all(f.access == "load" and "expand" in f.kernel for f in plain), [str(f) for f in plain]
    magi = out_of_bounds(_wan_chunk(PassConfig(measure_decisions=False), inductor_codegen))
    assert magi == [], [str(f) for f in magi]
