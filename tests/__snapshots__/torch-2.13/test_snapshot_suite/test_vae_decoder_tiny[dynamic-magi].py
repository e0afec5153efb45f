# ruff: noqa
# pytest-magi snapshot (torch-2.13): Inductor's generated code, normalised. Update: pytest --snapshot-update
# ===== graph 0: inference =====
# AOT ID: ['N_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
from torch._C._dynamo.guards import copy_if_misaligned
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   h => convolution
# Graph fragment:
#   %arg4_1 : Tensor "bf16[1, 4, 2, s0, s1][8*s1*s0, 2*s1*s0, s1*s0, s1, 1]cuda:0" = PlaceHolder[target=arg4_1]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, s0, s1][8*s1*s0, 1, 4*s1*s0, 4*s1, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg4_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %buf0
triton_poi_fused_convolution_0 = async_compile.triton('triton_poi_fused_convolution_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4, 'x': 128}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ks0': 'i64', 'ks1': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_convolution_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 768, 'x': 768}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_0(in_ptr0, out_ptr0, ks0, ks1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 4
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 2*ks0*ks1*y0), xmask & ymask).to(tl.float32)
    tl.store(out_ptr0 + (y0 + 4*x1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   h => convolution
# Graph fragment:
#   %arg0_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, s0, s1][8*s1*s0, 1, 4*s1*s0, 4*s1, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg4_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %buf1
triton_poi_fused_convolution_1 = async_compile.triton('triton_poi_fused_convolution_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 64, 'x': 32}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_convolution_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 6912, 'x': 3456}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 64
    xnumel = 27
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 4)
    y1 = yindex // 4
    tmp0 = tl.load(in_ptr0 + (x2 + 27*y3), xmask & ymask).to(tl.float32)
    tl.store(out_ptr0 + (y0 + 4*x2 + 108*y1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm => convert_element_type, view
#   h => convolution
# Graph fragment:
#   %buf2 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, s0, s1][8*s1*s0, 1, 4*s1*s0, 4*s1, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg4_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 4, 4, 2*s1*s0][32*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 4, 4, %mul_7]), kwargs = {})
#   %var_mean_correction : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [3]), kwargs = {correction: 0, keepdim: True})
#   return %getitem_11,%buf4
triton_red_fused_convolution_native_group_norm_2 = async_compile.triton('triton_red_fused_convolution_native_group_norm_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused_convolution_native_group_norm_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 3360, 'r0_': 0}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused_convolution_native_group_norm_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp5_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp5_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp5_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 16*r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp2.to(tl.float32)
        tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
        tmp5_mean_next, tmp5_m2_next, tmp5_weight_next = triton_helpers.welford_reduce(
            tmp4, tmp5_mean, tmp5_m2, tmp5_weight, roffset == 0
        )
        tmp5_mean = tl.where(r0_mask & xmask, tmp5_mean_next, tmp5_mean)
        tmp5_m2 = tl.where(r0_mask & xmask, tmp5_m2_next, tmp5_m2)
        tmp5_weight = tl.where(r0_mask & xmask, tmp5_weight_next, tmp5_weight)
    tmp6, tmp7, tmp8 = triton_helpers.welford(tmp5_mean, tmp5_m2, tmp5_weight, 1)
    tmp5 = tmp6[:, None]
    tmp9 = tmp7[:, None]
    tmp10 = tmp8[:, None]
    tl.store(out_ptr0 + (x0), tmp5, xmask)
    tl.store(out_ptr1 + (x0), tmp9, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm => convert_element_type, view
#   h => convolution
# Graph fragment:
#   %buf4 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=buf4]
#   %getitem_11 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=getitem_11]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, s0, s1][8*s1*s0, 1, 4*s1*s0, 4*s1, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg4_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 4, 4, 2*s1*s0][32*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 4, 4, %mul_7]), kwargs = {})
#   %var_mean_correction : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [3]), kwargs = {correction: 0, keepdim: True})
#   %mean_dim : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mean.dim](args = (%getitem_11, [2], True), kwargs = {})
#   %sub_tensor : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%getitem_11, %mean_dim), kwargs = {})
#   %mul_tensor_4 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_tensor, %sub_tensor), kwargs = {})
#   %add_tensor : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_10, %mul_tensor_4), kwargs = {})
#   %mean_dim_1 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%add_tensor, [2], True), kwargs = {})
#   return %mean_dim_1
triton_poi_fused_convolution_native_group_norm_3 = async_compile.triton('triton_poi_fused_convolution_native_group_norm_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 16}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_3(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (4*x0), xmask, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr1 + (4*x0), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr1 + (1 + 4*x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr1 + (2 + 4*x0), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr1 + (3 + 4*x0), xmask, eviction_policy='evict_last')
    tmp16 = tl.load(in_ptr0 + (1 + 4*x0), xmask, eviction_policy='evict_last')
    tmp22 = tl.load(in_ptr0 + (2 + 4*x0), xmask, eviction_policy='evict_last')
    tmp28 = tl.load(in_ptr0 + (3 + 4*x0), xmask, eviction_policy='evict_last')
    tmp1 = (2*ks0*ks1).to(tl.float32)
    tmp2 = (tmp1).to(tl.float32)
    tmp3 = (tmp0 / tmp2)
    tmp6 = tmp4 + tmp5
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp11 = tl.full([1], 4.0, tl.float32)
    tmp12 = (tmp10 / tmp11)
    tmp13 = tmp4 - tmp12
    tmp14 = tmp13 * tmp13
    tmp15 = tmp3 + tmp14
    tmp17 = (tmp16 / tmp2)
    tmp18 = tmp5 - tmp12
    tmp19 = tmp18 * tmp18
    tmp20 = tmp17 + tmp19
    tmp21 = tmp15 + tmp20
    tmp23 = (tmp22 / tmp2)
    tmp24 = tmp7 - tmp12
    tmp25 = tmp24 * tmp24
    tmp26 = tmp23 + tmp25
    tmp27 = tmp21 + tmp26
    tmp29 = (tmp28 / tmp2)
    tmp30 = tmp9 - tmp12
    tmp31 = tmp30 * tmp30
    tmp32 = tmp29 + tmp31
    tmp33 = tmp27 + tmp32
    tmp34 = (tmp33 / tmp11)
    tl.store(out_ptr0 + (x0), tmp34, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h, group_norm, silu, h_1], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu]
# Source node to ATen node mapping:
#   group_norm => add_5, add_6, convert_element_type, convert_element_type_1, mul_26, mul_27, rsqrt, sub_2, unsqueeze, unsqueeze_1, unsqueeze_2, unsqueeze_3, unsqueeze_4, unsqueeze_5, unsqueeze_6, unsqueeze_7, view, view_1
#   h => convolution
#   h_1 => convolution_1
#   silu => add_12, clone_default_2, convert_element_type_4, convert_element_type_5, div, exp, neg
# Graph fragment:
#   %buf2 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %getitem_11 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=getitem_11]
#   %mean_dim_1 : Tensor "f32[1, 4, 1, 1][4, 1, 4, 4]cuda:0" = PlaceHolder[target=mean_dim_1]
#   %arg5_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg5_1]
#   %arg6_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg6_1]
#   %add_6 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0" = PlaceHolder[target=add_6]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, s0, s1][8*s1*s0, 1, 4*s1*s0, 4*s1, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg4_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default_3 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg7_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 4, 4, 2*s1*s0][32*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 4, 4, %mul_7]), kwargs = {})
#   %mean_dim : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mean.dim](args = (%getitem_11, [2], True), kwargs = {})
#   %sub_2 : Tensor "f32[1, 4, 4, 2*s1*s0][32*s1*s0, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view, %mean_dim), kwargs = {})
#   %add_5 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_dim_1, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_5,), kwargs = {})
#   %mul_26 : Tensor "f32[1, 4, 4, 2*s1*s0][32*s1*s0, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt), kwargs = {})
#   %view_1 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_26, [1, 16, 2, %arg2_1, %arg3_1]), kwargs = {})
#   %unsqueeze : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg5_1, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, 2), kwargs = {})
#   %unsqueeze_2 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 3), kwargs = {})
#   %unsqueeze_3 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 4), kwargs = {})
#   %mul_27 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_1, %unsqueeze_3), kwargs = {})
#   %unsqueeze_4 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg6_1, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 2), kwargs = {})
#   %unsqueeze_6 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %unsqueeze_7 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_6, 4), kwargs = {})
#   %add_6 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_27, %unsqueeze_7), kwargs = {})
#   %convert_element_type_1 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_6, torch.bfloat16), kwargs = {})
#   %convert_element_type_4 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_1, torch.float32), kwargs = {})
#   %neg : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_4,), kwargs = {})
#   %exp : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_12 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_4, %add_12), kwargs = {})
#   %convert_element_type_5 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %clone_default_2 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_5,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_1 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_2, %clone_default_3, %arg8_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %add_6,%buf8
triton_poi_fused_convolution_native_group_norm_silu_4 = async_compile.triton('triton_poi_fused_convolution_native_group_norm_silu_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_silu_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 9584}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_silu_4(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % 16)
    tmp0 = tl.load(in_ptr0 + (x2), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp4 = tl.load(in_ptr2 + (4*(x0 // 4)), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr2 + (1 + 4*(x0 // 4)), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (2 + 4*(x0 // 4)), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr2 + (3 + 4*(x0 // 4)), xmask, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr3 + (x0 // 4), xmask, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp22 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp6 = tmp4 + tmp5
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp11 = tl.full([1], 4.0, tl.float32)
    tmp12 = (tmp10 / tmp11)
    tmp13 = tmp3 - tmp12
    tmp15 = tl.full([1], 1e-05, tl.float32)
    tmp16 = tmp14 + tmp15
    tmp17 = libdevice.rsqrt(tmp16)
    tmp18 = tmp13 * tmp17
    tmp20 = tmp19.to(tl.float32)
    tmp21 = tmp18 * tmp20
    tmp23 = tmp22.to(tl.float32)
    tmp24 = tmp21 + tmp23
    tmp25 = tmp24.to(tl.float32)
    tmp26 = tmp25.to(tl.float32)
    tmp27 = -tmp26
    tmp28 = libdevice.exp(tmp27)
    tmp29 = tl.full([1], 1.0, tl.float32)
    tmp30 = tmp28 + tmp29
    tmp31 = (tmp26 / tmp30)
    tmp32 = tmp31.to(tl.float32)
    tl.store(out_ptr1 + (x2), tmp32, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [group_norm, silu, h_1], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
# Source node to ATen node mapping:
#   group_norm => convert_element_type_1
#   h_1 => convolution_1
#   silu => add_12, clone_default_2, convert_element_type_4, convert_element_type_5, div, exp, neg
# Graph fragment:
#   %arg7_1 : Tensor "bf16[16, 16, 3, 3, 3][432, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg7_1]
#   %clone_default_3 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg7_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convert_element_type_1 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_6, torch.bfloat16), kwargs = {})
#   %convert_element_type_4 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_1, torch.float32), kwargs = {})
#   %neg : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_4,), kwargs = {})
#   %exp : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_12 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_4, %add_12), kwargs = {})
#   %convert_element_type_5 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %clone_default_2 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_5,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_1 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_2, %clone_default_3, %arg8_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %buf9
triton_poi_fused_convolution_native_group_norm_silu_5 = async_compile.triton('triton_poi_fused_convolution_native_group_norm_silu_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 256, 'x': 32}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_silu_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 27648, 'x': 13824}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_silu_5(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 256
    xnumel = 27
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 16)
    y1 = yindex // 16
    tmp0 = tl.load(in_ptr0 + (x2 + 27*y3), xmask & ymask).to(tl.float32)
    tl.store(out_ptr0 + (y0 + 16*x2 + 432*y1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h, group_norm_1, silu_1, h_2, input_1, interpolate, input_2], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu, aten.add, aten._to_copy, aten.arange, aten.mul, aten.unsqueeze, aten._unsafe_index]
# Source node to ATen node mapping:
#   group_norm_1 => convert_element_type_7
#   h => convolution
#   h_2 => convolution_2
#   input_1 => add_41
#   input_2 => convolution_3
#   interpolate => _unsafe_index, add_52, add_53, add_55, add_58, add_69, add_72, clone_default_6, convert_element_type_12, convert_element_type_13, convert_element_type_14, convert_element_type_15, convert_element_type_16, convert_element_type_17, convert_element_type_18, convert_element_type_19, iota, iota_1, iota_2, mul_86, mul_87, mul_89, mul_97, unsqueeze_16, unsqueeze_17, unsqueeze_18
#   silu_1 => add_30, clone_default_4, convert_element_type_10, convert_element_type_11, div_1, exp_1, neg_1
# Graph fragment:
#   %buf2 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %buf18 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0" = PlaceHolder[target=buf18]
#   %arg12_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg12_1]
#   %_unsafe_index : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0" = PlaceHolder[target=_unsafe_index]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, s0, s1][8*s1*s0, 1, 4*s1*s0, 4*s1, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg4_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default_5 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg11_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default_7 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg13_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_7 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_24, torch.bfloat16), kwargs = {})
#   %convert_element_type_10 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_7, torch.float32), kwargs = {})
#   %neg_1 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_10,), kwargs = {})
#   %exp_1 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_1,), kwargs = {})
#   %add_30 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_10, %add_30), kwargs = {})
#   %convert_element_type_11 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.bfloat16), kwargs = {})
#   %clone_default_4 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_11,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_2 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_4, %clone_default_5, %arg12_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %add_41 : Tensor "bf16[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convolution, %convolution_2), kwargs = {})
#   %convert_element_type_12 : Tensor "f32[1, 16, 2, s0, s1][32*s1*s0, 1, 16*s1*s0, 16*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_41, torch.float32), kwargs = {})
#   %iota : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (2,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_86 : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota, 1), kwargs = {})
#   %add_52 : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_86, 0), kwargs = {})
#   %convert_element_type_13 : Tensor "f32[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_52, torch.float32), kwargs = {})
#   %add_53 : Tensor "f32[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_13, 0.0), kwargs = {})
#   %mul_87 : Tensor "f32[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_53, 1.0), kwargs = {})
#   %convert_element_type_14 : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_87, torch.int64), kwargs = {})
#   %unsqueeze_16 : Tensor "i64[2, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_14, -1), kwargs = {})
#   %unsqueeze_17 : Tensor "i64[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_16, -1), kwargs = {})
#   %iota_1 : Tensor "i64[2*s0][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%mul_6,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_89 : Tensor "i64[2*s0][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota_1, 1), kwargs = {})
#   %add_55 : Tensor "i64[2*s0][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_89, 0), kwargs = {})
#   %convert_element_type_15 : Tensor "f32[2*s0][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_55, torch.float32), kwargs = {})
#   %add_58 : Tensor "f32[2*s0][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_15, 0.0), kwargs = {})
#   %full_default : Tensor "f64[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 2.0), kwargs = {dtype: torch.float64, layout: torch.strided, device: cpu, pin_memory: False})
#   %scalar_tensor_default : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.scalar_tensor.default](args = (%arg2_1,), kwargs = {})
#   %convert_element_type_default : Tensor "f64[][]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%scalar_tensor_default, torch.float64), kwargs = {})
#   %mul_tensor : Tensor "f64[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%full_default, %convert_element_type_default), kwargs = {})
#   %true_divide_tensor : Tensor "f64[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.true_divide.Tensor](args = (%convert_element_type_default, %mul_tensor), kwargs = {})
#   %convert_element_type_default_1 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%true_divide_tensor, torch.float32), kwargs = {})
#   %mul_tensor_1 : Tensor "f32[2*s0][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_58, %convert_element_type_default_1), kwargs = {})
#   %convert_element_type_16 : Tensor "i64[2*s0][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_tensor_1, torch.int64), kwargs = {})
#   %unsqueeze_18 : Tensor "i64[2*s0, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_16, -1), kwargs = {})
#   %iota_2 : Tensor "i64[2*s1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (%mul_81,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_97 : Tensor "i64[2*s1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota_2, 1), kwargs = {})
#   %add_69 : Tensor "i64[2*s1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_97, 0), kwargs = {})
#   %convert_element_type_17 : Tensor "f32[2*s1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_69, torch.float32), kwargs = {})
#   %add_72 : Tensor "f32[2*s1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_17, 0.0), kwargs = {})
#   %full_default_1 : Tensor "f64[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 2.0), kwargs = {dtype: torch.float64, layout: torch.strided, device: cpu, pin_memory: False})
#   %scalar_tensor_default_2 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.scalar_tensor.default](args = (%arg3_1,), kwargs = {})
#   %convert_element_type_default_2 : Tensor "f64[][]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%scalar_tensor_default_2, torch.float64), kwargs = {})
#   %mul_tensor_2 : Tensor "f64[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%full_default_1, %convert_element_type_default_2), kwargs = {})
#   %true_divide_tensor_1 : Tensor "f64[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.true_divide.Tensor](args = (%convert_element_type_default_2, %mul_tensor_2), kwargs = {})
#   %convert_element_type_default_3 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%true_divide_tensor_1, torch.float32), kwargs = {})
#   %mul_tensor_3 : Tensor "f32[2*s1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_72, %convert_element_type_default_3), kwargs = {})
#   %convert_element_type_18 : Tensor "i64[2*s1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_tensor_3, torch.int64), kwargs = {})
#   %_unsafe_index : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten._unsafe_index.Tensor](args = (%convert_element_type_12, [None, None, %unsqueeze_17, %unsqueeze_18, %convert_element_type_18]), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %clone_default_7, %arg14_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %_unsafe_index,%buf20
triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_native_group_norm_silu_unsqueeze_6 = async_compile.triton('triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_native_group_norm_silu_unsqueeze_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 16, 'x': 512}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr1': '*bf16', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'ks3': 'i64', 'ks4': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_native_group_norm_silu_unsqueeze_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 24576, 'x': 64}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_native_group_norm_silu_unsqueeze_6(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, ks0, ks1, ks2, ks3, ks4, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 16
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x3 = xindex // ks0
    x2 = ((xindex // ks2) % ks3)
    x1 = (xindex % ks2)
    y0 = yindex
    x4 = xindex
    tmp28 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp31 = tl.load(in_ptr3 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp0 = (x3).to(tl.float32)
    tmp1 = tl.full([1, 1], 1.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp2.to(tl.int64)
    tmp4 = tl.full([1, 1], 2.0, tl.float64)
    tmp5 = (ks1).to(tl.float64)
    tmp6 = tmp4 * tmp5
    tmp7 = (tmp5 / tmp6)
    tmp8 = tmp7.to(tl.float32)
    tmp9 = (x2).to(tl.float32)
    tmp10 = tmp9 * tmp8
    tmp11 = tmp10.to(tl.int64)
    tmp12 = (ks1).to(tl.int32)
    tmp13 = tmp11 + tmp12
    tmp14 = tmp11 < 0
    tmp15 = tl.where(tmp14, tmp13, tmp11)
    tmp16 = (ks4).to(tl.float64)
    tmp17 = tmp4 * tmp16
    tmp18 = (tmp16 / tmp17)
    tmp19 = tmp18.to(tl.float32)
    tmp20 = (x1).to(tl.float32)
    tmp21 = tmp20 * tmp19
    tmp22 = tmp21.to(tl.int64)
    tmp23 = (ks4).to(tl.int32)
    tmp24 = tmp22 + tmp23
    tmp25 = tmp22 < 0
    tmp26 = tl.where(tmp25, tmp24, tmp22)
    tmp27 = tl.load(in_ptr0 + (y0 + 16*tmp26 + 16*ks4*tmp15 + 16*ks1*ks4*tmp3), xmask & ymask).to(tl.float32)
    tmp29 = tmp27 + tmp28
    tmp30 = tl.load(in_ptr2 + (y0 + 16*tmp26 + 16*ks4*tmp15 + 16*ks1*ks4*tmp3), xmask & ymask).to(tl.float32)
    tmp32 = tmp30 + tmp31
    tmp33 = tmp29 + tmp32
    tmp34 = tmp33.to(tl.float32)
    tmp35 = tmp34.to(tl.float32)
    tl.store(out_ptr1 + (y0 + 16*x4), tmp35, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm_2 => convert_element_type_20, view_4
#   input_2 => convolution_3
#   interpolate => clone_default_6, convert_element_type_19
# Graph fragment:
#   %buf22 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0" = PlaceHolder[target=buf22]
#   %arg14_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg14_1]
#   %clone_default_7 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg13_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %clone_default_7, %arg14_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_3, torch.float32), kwargs = {})
#   %view_4 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_20, [1, 4, 4, %mul_127]), kwargs = {})
#   %var_mean_correction_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view_4, [3]), kwargs = {correction: 0, keepdim: True})
#   return %buf23,%buf24,%buf25
triton_red_fused__to_copy_convolution_native_group_norm_7 = async_compile.triton('triton_red_fused__to_copy_convolution_native_group_norm_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 64, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__to_copy_convolution_native_group_norm_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 3, 'num_reduction': 3, 'autotune_hints': set(), 'tiling_scores': {'x': 13472, 'r0_': 0}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__to_copy_convolution_native_group_norm_7(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, ks0, ks1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 48
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x1 = xindex // 16
    x0 = (xindex % 16)
    tmp18_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp18_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp18_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = (r0_2 + x1*((2 + 8*ks0*ks1) // 3)).to(tl.int32)
        tmp1 = (8*ks0*ks1).to(tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (x0 + 16*(((r0_2 + x1*((2 + 8*ks0*ks1) // 3)) % (8*ks0*ks1)))), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp4 = tl.load(in_ptr1 + (tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp5 = tmp3 + tmp4
        tmp6 = tmp5.to(tl.float32)
        tmp7 = tl.full(tmp6.shape, 0, tmp6.dtype)
        tmp8 = tl.where(tmp2, tmp6, tmp7)
        tmp9 = tl.full([1, 1], 0.0, tl.float32)
        tmp10 = tl.full(tmp9.shape, 0, tmp9.dtype)
        tmp11 = tl.where(tmp2, tmp9, tmp10)
        tmp12 = tl.full([1, 1], 1.0, tl.float32)
        tmp13 = tl.full(tmp12.shape, 0, tmp12.dtype)
        tmp14 = tl.where(tmp2, tmp12, tmp13)
        tmp15 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp16 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
        tmp17 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp18_mean_next, tmp18_m2_next, tmp18_weight_next = triton_helpers.welford_combine(
            tmp18_mean, tmp18_m2, tmp18_weight,
            tmp15, tmp16, tmp17
        )
        tmp18_mean = tl.where(r0_mask & xmask, tmp18_mean_next, tmp18_mean)
        tmp18_m2 = tl.where(r0_mask & xmask, tmp18_m2_next, tmp18_m2)
        tmp18_weight = tl.where(r0_mask & xmask, tmp18_weight_next, tmp18_weight)
    tmp19, tmp20, tmp21 = triton_helpers.welford(tmp18_mean, tmp18_m2, tmp18_weight, 1)
    tmp18 = tmp19[:, None]
    tmp22 = tmp20[:, None]
    tmp23 = tmp21[:, None]
    tl.store(out_ptr0 + (x3), tmp18, xmask)
    tl.store(out_ptr1 + (x3), tmp22, xmask)
    tl.store(out_ptr2 + (x3), tmp23, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm_2 => convert_element_type_20, view_4
#   input_2 => convolution_3
#   interpolate => clone_default_6, convert_element_type_19
# Graph fragment:
#   %buf23 : Tensor "f32[1, 4, 4, 1, 3][48, 4, 1, 48, 16]cuda:0" = PlaceHolder[target=buf23]
#   %buf24 : Tensor "f32[1, 4, 4, 1, 3][48, 4, 1, 48, 16]cuda:0" = PlaceHolder[target=buf24]
#   %buf25 : Tensor "f32[1, 4, 4, 1, 3][48, 4, 1, 48, 16]cuda:0" = PlaceHolder[target=buf25]
#   %clone_default_7 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg13_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %clone_default_7, %arg14_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_3, torch.float32), kwargs = {})
#   %view_4 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_20, [1, 4, 4, %mul_127]), kwargs = {})
#   %var_mean_correction_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view_4, [3]), kwargs = {correction: 0, keepdim: True})
#   return %getitem_15,%buf27
triton_per_fused__to_copy_convolution_native_group_norm_8 = async_compile.triton('triton_per_fused__to_copy_convolution_native_group_norm_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16, 'r0_': 4},
    reduction_hint=ReductionHint.OUTER_TINY,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused__to_copy_convolution_native_group_norm_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 2, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 832, 'r0_': 0}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused__to_copy_convolution_native_group_norm_8(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 3
    R0_BLOCK: tl.constexpr = 4
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16*r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr1 + (x0 + 16*r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp2 = tl.load(in_ptr2 + (x0 + 16*r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(r0_mask & xmask, tmp3, 0)
    tmp8 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp9 = tl.where(r0_mask & xmask, tmp5, 0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
    tmp13 = tmp10[:, None]
    tmp14 = tmp11[:, None]
    tmp15 = tmp12[:, None]
    tl.store(out_ptr0 + (x0), tmp13, xmask)
    tl.store(out_ptr1 + (x0), tmp14, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm_2 => convert_element_type_20, view_4
#   input_2 => convolution_3
#   interpolate => clone_default_6, convert_element_type_19
# Graph fragment:
#   %buf27 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=buf27]
#   %getitem_15 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=getitem_15]
#   %clone_default_7 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg13_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %clone_default_7, %arg14_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_3, torch.float32), kwargs = {})
#   %view_4 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_20, [1, 4, 4, %mul_127]), kwargs = {})
#   %var_mean_correction_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view_4, [3]), kwargs = {correction: 0, keepdim: True})
#   %mean_dim_4 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mean.dim](args = (%getitem_15, [2], True), kwargs = {})
#   %sub_tensor_2 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%getitem_15, %mean_dim_4), kwargs = {})
#   %mul_tensor_6 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_tensor_2, %sub_tensor_2), kwargs = {})
#   %add_tensor_2 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_14, %mul_tensor_6), kwargs = {})
#   %mean_dim_5 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%add_tensor_2, [2], True), kwargs = {})
#   return %mean_dim_5
triton_poi_fused__to_copy_convolution_native_group_norm_9 = async_compile.triton('triton_poi_fused__to_copy_convolution_native_group_norm_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 4}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__to_copy_convolution_native_group_norm_9', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 16}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_convolution_native_group_norm_9(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (4*x0), xmask, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr1 + (4*x0), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr1 + (1 + 4*x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr1 + (2 + 4*x0), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr1 + (3 + 4*x0), xmask, eviction_policy='evict_last')
    tmp16 = tl.load(in_ptr0 + (1 + 4*x0), xmask, eviction_policy='evict_last')
    tmp22 = tl.load(in_ptr0 + (2 + 4*x0), xmask, eviction_policy='evict_last')
    tmp28 = tl.load(in_ptr0 + (3 + 4*x0), xmask, eviction_policy='evict_last')
    tmp1 = (8*ks0*ks1).to(tl.float32)
    tmp2 = (tmp1).to(tl.float32)
    tmp3 = (tmp0 / tmp2)
    tmp6 = tmp4 + tmp5
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp11 = tl.full([1], 4.0, tl.float32)
    tmp12 = (tmp10 / tmp11)
    tmp13 = tmp4 - tmp12
    tmp14 = tmp13 * tmp13
    tmp15 = tmp3 + tmp14
    tmp17 = (tmp16 / tmp2)
    tmp18 = tmp5 - tmp12
    tmp19 = tmp18 * tmp18
    tmp20 = tmp17 + tmp19
    tmp21 = tmp15 + tmp20
    tmp23 = (tmp22 / tmp2)
    tmp24 = tmp7 - tmp12
    tmp25 = tmp24 * tmp24
    tmp26 = tmp23 + tmp25
    tmp27 = tmp21 + tmp26
    tmp29 = (tmp28 / tmp2)
    tmp30 = tmp9 - tmp12
    tmp31 = tmp30 * tmp30
    tmp32 = tmp29 + tmp31
    tmp33 = tmp27 + tmp32
    tmp34 = (tmp33 / tmp11)
    tl.store(out_ptr0 + (x0), tmp34, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2, silu_2, h_3], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu]
# Source node to ATen node mapping:
#   group_norm_2 => add_94, add_95, convert_element_type_20, convert_element_type_21, mul_146, mul_147, rsqrt_2, sub_39, unsqueeze_19, unsqueeze_20, unsqueeze_21, unsqueeze_22, unsqueeze_23, unsqueeze_24, unsqueeze_25, unsqueeze_26, view_4, view_5
#   h_3 => convolution_4
#   input_2 => convolution_3
#   interpolate => clone_default_6, convert_element_type_19
#   silu_2 => add_101, clone_default_8, convert_element_type_24, convert_element_type_25, div_2, exp_2, neg_2
# Graph fragment:
#   %buf22 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0" = PlaceHolder[target=buf22]
#   %arg14_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg14_1]
#   %getitem_15 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=getitem_15]
#   %mean_dim_5 : Tensor "f32[1, 4, 1, 1][4, 1, 4, 4]cuda:0" = PlaceHolder[target=mean_dim_5]
#   %arg15_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg15_1]
#   %arg16_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg16_1]
#   %add_95 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0" = PlaceHolder[target=add_95]
#   %clone_default_7 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg13_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default_9 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg17_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %clone_default_7, %arg14_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_3, torch.float32), kwargs = {})
#   %view_4 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_20, [1, 4, 4, %mul_127]), kwargs = {})
#   %mean_dim_4 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mean.dim](args = (%getitem_15, [2], True), kwargs = {})
#   %sub_39 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view_4, %mean_dim_4), kwargs = {})
#   %add_94 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_dim_5, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_94,), kwargs = {})
#   %mul_146 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_39, %rsqrt_2), kwargs = {})
#   %view_5 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_146, [1, 16, 2, %mul_6, %mul_81]), kwargs = {})
#   %unsqueeze_19 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg15_1, 0), kwargs = {})
#   %unsqueeze_20 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_19, 2), kwargs = {})
#   %unsqueeze_21 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_20, 3), kwargs = {})
#   %unsqueeze_22 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_21, 4), kwargs = {})
#   %mul_147 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_5, %unsqueeze_22), kwargs = {})
#   %unsqueeze_23 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg16_1, 0), kwargs = {})
#   %unsqueeze_24 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_23, 2), kwargs = {})
#   %unsqueeze_25 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_24, 3), kwargs = {})
#   %unsqueeze_26 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_25, 4), kwargs = {})
#   %add_95 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_147, %unsqueeze_26), kwargs = {})
#   %convert_element_type_21 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_95, torch.bfloat16), kwargs = {})
#   %convert_element_type_24 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_21, torch.float32), kwargs = {})
#   %neg_2 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_24,), kwargs = {})
#   %exp_2 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_2,), kwargs = {})
#   %add_101 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_2, 1), kwargs = {})
#   %div_2 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_24, %add_101), kwargs = {})
#   %convert_element_type_25 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_2, torch.bfloat16), kwargs = {})
#   %clone_default_8 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_25,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_4 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_8, %clone_default_9, %arg18_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %add_95,%buf31
triton_poi_fused__to_copy_convolution_native_group_norm_silu_10 = async_compile.triton('triton_poi_fused__to_copy_convolution_native_group_norm_silu_10', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8192}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__to_copy_convolution_native_group_norm_silu_10', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 37232}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_convolution_native_group_norm_silu_10(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % 16)
    tmp0 = tl.load(in_ptr0 + (x2), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp4 = tl.load(in_ptr2 + (4*(x0 // 4)), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr2 + (1 + 4*(x0 // 4)), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (2 + 4*(x0 // 4)), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr2 + (3 + 4*(x0 // 4)), xmask, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr3 + (x0 // 4), xmask, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp22 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp6 = tmp4 + tmp5
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp11 = tl.full([1], 4.0, tl.float32)
    tmp12 = (tmp10 / tmp11)
    tmp13 = tmp3 - tmp12
    tmp15 = tl.full([1], 1e-05, tl.float32)
    tmp16 = tmp14 + tmp15
    tmp17 = libdevice.rsqrt(tmp16)
    tmp18 = tmp13 * tmp17
    tmp20 = tmp19.to(tl.float32)
    tmp21 = tmp18 * tmp20
    tmp23 = tmp22.to(tl.float32)
    tmp24 = tmp21 + tmp23
    tmp25 = tmp24.to(tl.float32)
    tmp26 = tmp25.to(tl.float32)
    tmp27 = -tmp26
    tmp28 = libdevice.exp(tmp27)
    tmp29 = tl.full([1], 1.0, tl.float32)
    tmp30 = tmp28 + tmp29
    tmp31 = (tmp26 / tmp30)
    tmp32 = tmp31.to(tl.float32)
    tl.store(out_ptr1 + (x2), tmp32, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_3, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu, aten.add]
# Source node to ATen node mapping:
#   group_norm_3 => convert_element_type_27
#   group_norm_4 => convert_element_type_32, view_8
#   h_4 => convolution_5
#   input_2 => convolution_3
#   input_3 => add_130
#   interpolate => clone_default_6, convert_element_type_19
#   silu_3 => add_119, clone_default_10, convert_element_type_30, convert_element_type_31, div_3, exp_3, neg_3
# Graph fragment:
#   %buf22 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0" = PlaceHolder[target=buf22]
#   %arg14_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg14_1]
#   %buf44 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0" = PlaceHolder[target=buf44]
#   %arg22_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg22_1]
#   %clone_default_7 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg13_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default_11 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg21_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %clone_default_7, %arg14_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_27 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_113, torch.bfloat16), kwargs = {})
#   %convert_element_type_30 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_27, torch.float32), kwargs = {})
#   %neg_3 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_30,), kwargs = {})
#   %exp_3 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_3,), kwargs = {})
#   %add_119 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_3, 1), kwargs = {})
#   %div_3 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_30, %add_119), kwargs = {})
#   %convert_element_type_31 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_3, torch.bfloat16), kwargs = {})
#   %clone_default_10 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_31,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_5 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_10, %clone_default_11, %arg22_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %add_130 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convolution_3, %convolution_5), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_130, torch.float32), kwargs = {})
#   %view_8 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_32, [1, 4, 4, %mul_127]), kwargs = {})
#   %var_mean_correction_4 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view_8, [3]), kwargs = {correction: 0, keepdim: True})
#   return %buf45,%buf46,%buf47
triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11 = async_compile.triton('triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 64, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 3, 'num_reduction': 3, 'autotune_hints': set(), 'tiling_scores': {'x': 25792, 'r0_': 0}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, out_ptr2, ks0, ks1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 48
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x1 = xindex // 16
    x0 = (xindex % 16)
    tmp22_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp22_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp22_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = (r0_2 + x1*((2 + 8*ks0*ks1) // 3)).to(tl.int32)
        tmp1 = (8*ks0*ks1).to(tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (x0 + 16*(((r0_2 + x1*((2 + 8*ks0*ks1) // 3)) % (8*ks0*ks1)))), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp4 = tl.load(in_ptr1 + (tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp5 = tmp3 + tmp4
        tmp6 = tl.load(in_ptr2 + (x0 + 16*(((r0_2 + x1*((2 + 8*ks0*ks1) // 3)) % (8*ks0*ks1)))), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp7 = tl.load(in_ptr3 + (tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp8 = tmp6 + tmp7
        tmp9 = tmp5 + tmp8
        tmp10 = tmp9.to(tl.float32)
        tmp11 = tl.full(tmp10.shape, 0, tmp10.dtype)
        tmp12 = tl.where(tmp2, tmp10, tmp11)
        tmp13 = tl.full([1, 1], 0.0, tl.float32)
        tmp14 = tl.full(tmp13.shape, 0, tmp13.dtype)
        tmp15 = tl.where(tmp2, tmp13, tmp14)
        tmp16 = tl.full([1, 1], 1.0, tl.float32)
        tmp17 = tl.full(tmp16.shape, 0, tmp16.dtype)
        tmp18 = tl.where(tmp2, tmp16, tmp17)
        tmp19 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
        tmp20 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
        tmp21 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
        tmp22_mean_next, tmp22_m2_next, tmp22_weight_next = triton_helpers.welford_combine(
            tmp22_mean, tmp22_m2, tmp22_weight,
            tmp19, tmp20, tmp21
        )
        tmp22_mean = tl.where(r0_mask & xmask, tmp22_mean_next, tmp22_mean)
        tmp22_m2 = tl.where(r0_mask & xmask, tmp22_m2_next, tmp22_m2)
        tmp22_weight = tl.where(r0_mask & xmask, tmp22_weight_next, tmp22_weight)
    tmp23, tmp24, tmp25 = triton_helpers.welford(tmp22_mean, tmp22_m2, tmp22_weight, 1)
    tmp22 = tmp23[:, None]
    tmp26 = tmp24[:, None]
    tmp27 = tmp25[:, None]
    tl.store(out_ptr0 + (x3), tmp22, xmask)
    tl.store(out_ptr1 + (x3), tmp26, xmask)
    tl.store(out_ptr2 + (x3), tmp27, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_3, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu, aten.add]
# Source node to ATen node mapping:
#   group_norm_3 => convert_element_type_27
#   group_norm_4 => add_136, convert_element_type_32, mul_222, rsqrt_4, sub_55, view_8
#   h_4 => convolution_5
#   input_2 => convolution_3
#   input_3 => add_130
#   interpolate => clone_default_6, convert_element_type_19
#   silu_3 => add_119, clone_default_10, convert_element_type_30, convert_element_type_31, div_3, exp_3, neg_3
# Graph fragment:
#   %buf22 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0" = PlaceHolder[target=buf22]
#   %arg14_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg14_1]
#   %buf44 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0" = PlaceHolder[target=buf44]
#   %arg22_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg22_1]
#   %getitem_19 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=getitem_19]
#   %mean_dim_9 : Tensor "f32[1, 4, 1, 1][4, 1, 4, 4]cuda:0" = PlaceHolder[target=mean_dim_9]
#   %clone_default_7 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg13_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default_11 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg21_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %clone_default_7, %arg14_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_27 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_113, torch.bfloat16), kwargs = {})
#   %convert_element_type_30 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_27, torch.float32), kwargs = {})
#   %neg_3 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_30,), kwargs = {})
#   %exp_3 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_3,), kwargs = {})
#   %add_119 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_3, 1), kwargs = {})
#   %div_3 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_30, %add_119), kwargs = {})
#   %convert_element_type_31 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_3, torch.bfloat16), kwargs = {})
#   %clone_default_10 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_31,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_5 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_10, %clone_default_11, %arg22_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %add_130 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convolution_3, %convolution_5), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_130, torch.float32), kwargs = {})
#   %view_8 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_32, [1, 4, 4, %mul_127]), kwargs = {})
#   %mean_dim_8 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mean.dim](args = (%getitem_19, [2], True), kwargs = {})
#   %sub_55 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view_8, %mean_dim_8), kwargs = {})
#   %add_136 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_dim_9, 1e-05), kwargs = {})
#   %rsqrt_4 : Tensor "f32[1, 4, 1, 1][4, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_136,), kwargs = {})
#   %mul_222 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_55, %rsqrt_4), kwargs = {})
#   return %mul_222
triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12 = async_compile.triton('triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 512, 'x': 16}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'kernel_name': 'triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 49152, 'x': 24656}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr0, ks0, ks1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    xnumel = 16
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x3 = xindex
    y0 = yindex
    x2 = xindex // 4
    tmp0 = tl.load(in_ptr0 + (x3 + 16*y0), xmask & ymask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x3), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp3 = tl.load(in_ptr2 + (x3 + 16*y0), xmask & ymask).to(tl.float32)
    tmp4 = tl.load(in_ptr3 + (x3), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp8 = tl.load(in_ptr4 + (4*x2), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr4 + (1 + 4*x2), xmask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr4 + (2 + 4*x2), xmask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr4 + (3 + 4*x2), xmask, eviction_policy='evict_last')
    tmp18 = tl.load(in_ptr5 + (x2), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp5 = tmp3 + tmp4
    tmp6 = tmp2 + tmp5
    tmp7 = tmp6.to(tl.float32)
    tmp10 = tmp8 + tmp9
    tmp12 = tmp10 + tmp11
    tmp14 = tmp12 + tmp13
    tmp15 = tl.full([1, 1], 4.0, tl.float32)
    tmp16 = (tmp14 / tmp15)
    tmp17 = tmp7 - tmp16
    tmp19 = tl.full([1, 1], 1e-05, tl.float32)
    tmp20 = tmp18 + tmp19
    tmp21 = libdevice.rsqrt(tmp20)
    tmp22 = tmp17 * tmp21
    tl.store(out_ptr0 + (y0 + 8*ks0*ks1*x3), tmp22, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [group_norm_4, silu_4, conv3d_6], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
# Source node to ATen node mapping:
#   conv3d_6 => convolution_6
#   group_norm_4 => add_137, convert_element_type_33, mul_223, unsqueeze_35, unsqueeze_36, unsqueeze_37, unsqueeze_38, unsqueeze_39, unsqueeze_40, unsqueeze_41, unsqueeze_42, view_9
#   silu_4 => add_143, clone_default_12, convert_element_type_36, convert_element_type_37, div_4, exp_4, neg_4
# Graph fragment:
#   %mul_222 : Tensor "f32[1, 4, 4, 8*s1*s0][128*s1*s0, 32*s1*s0, 8*s1*s0, 1]cuda:0" = PlaceHolder[target=mul_222]
#   %arg23_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg23_1]
#   %arg24_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg24_1]
#   %clone_default_13 : Tensor "bf16[3, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg25_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %view_9 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_222, [1, 16, 2, %mul_6, %mul_81]), kwargs = {})
#   %unsqueeze_35 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg23_1, 0), kwargs = {})
#   %unsqueeze_36 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_35, 2), kwargs = {})
#   %unsqueeze_37 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_36, 3), kwargs = {})
#   %unsqueeze_38 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_37, 4), kwargs = {})
#   %mul_223 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_9, %unsqueeze_38), kwargs = {})
#   %unsqueeze_39 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg24_1, 0), kwargs = {})
#   %unsqueeze_40 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_39, 2), kwargs = {})
#   %unsqueeze_41 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_40, 3), kwargs = {})
#   %unsqueeze_42 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_41, 4), kwargs = {})
#   %add_137 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_223, %unsqueeze_42), kwargs = {})
#   %convert_element_type_33 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_137, torch.bfloat16), kwargs = {})
#   %convert_element_type_36 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_33, torch.float32), kwargs = {})
#   %neg_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_36,), kwargs = {})
#   %exp_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_4,), kwargs = {})
#   %add_143 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_4, 1), kwargs = {})
#   %div_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_36, %add_143), kwargs = {})
#   %convert_element_type_37 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_4, torch.bfloat16), kwargs = {})
#   %clone_default_12 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_37,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_6 : Tensor "bf16[1, 3, 2, 2*s0, 2*s1][24*s1*s0, 1, 12*s1*s0, 6*s1, 3]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_12, %clone_default_13, %arg26_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %buf53
triton_poi_fused_convolution_native_group_norm_silu_13 = async_compile.triton('triton_poi_fused_convolution_native_group_norm_silu_13', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 16, 'x': 512}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr0': '*bf16', 'ks0': 'i64', 'ks1': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_silu_13', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 24576, 'x': 24640}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_silu_13(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ks0, ks1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 16
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 8*ks0*ks1*y0), xmask & ymask)
    tmp1 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp4 = tl.load(in_ptr2 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp1.to(tl.float32)
    tmp3 = tmp0 * tmp2
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tmp3 + tmp5
    tmp7 = tmp6.to(tl.float32)
    tmp8 = tmp7.to(tl.float32)
    tmp9 = -tmp8
    tmp10 = libdevice.exp(tmp9)
    tmp11 = tl.full([1, 1], 1.0, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = (tmp8 / tmp12)
    tmp14 = tmp13.to(tl.float32)
    tl.store(out_ptr0 + (y0 + 16*x1), tmp14, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [group_norm_4, silu_4, conv3d_6], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
# Source node to ATen node mapping:
#   conv3d_6 => convolution_6
#   group_norm_4 => add_137, convert_element_type_33, mul_223, unsqueeze_35, unsqueeze_36, unsqueeze_37, unsqueeze_38, unsqueeze_39, unsqueeze_40, unsqueeze_41, unsqueeze_42, view_9
#   silu_4 => add_143, clone_default_12, convert_element_type_36, convert_element_type_37, div_4, exp_4, neg_4
# Graph fragment:
#   %arg25_1 : Tensor "bf16[3, 16, 3, 3, 3][432, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg25_1]
#   %clone_default_13 : Tensor "bf16[3, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg25_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %view_9 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_222, [1, 16, 2, %mul_6, %mul_81]), kwargs = {})
#   %unsqueeze_35 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg23_1, 0), kwargs = {})
#   %unsqueeze_36 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_35, 2), kwargs = {})
#   %unsqueeze_37 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_36, 3), kwargs = {})
#   %unsqueeze_38 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_37, 4), kwargs = {})
#   %mul_223 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_9, %unsqueeze_38), kwargs = {})
#   %unsqueeze_39 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg24_1, 0), kwargs = {})
#   %unsqueeze_40 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_39, 2), kwargs = {})
#   %unsqueeze_41 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_40, 3), kwargs = {})
#   %unsqueeze_42 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_41, 4), kwargs = {})
#   %add_137 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_223, %unsqueeze_42), kwargs = {})
#   %convert_element_type_33 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_137, torch.bfloat16), kwargs = {})
#   %convert_element_type_36 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_33, torch.float32), kwargs = {})
#   %neg_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_36,), kwargs = {})
#   %exp_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_4,), kwargs = {})
#   %add_143 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_4, 1), kwargs = {})
#   %div_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_36, %add_143), kwargs = {})
#   %convert_element_type_37 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_4, torch.bfloat16), kwargs = {})
#   %clone_default_12 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_37,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_6 : Tensor "bf16[1, 3, 2, 2*s0, 2*s1][24*s1*s0, 1, 12*s1*s0, 6*s1, 3]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_12, %clone_default_13, %arg26_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %buf54
triton_poi_fused_convolution_native_group_norm_silu_14 = async_compile.triton('triton_poi_fused_convolution_native_group_norm_silu_14', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 64, 'x': 32}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_silu_14', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 5184, 'x': 2592}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_silu_14(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 48
    xnumel = 27
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 16)
    y1 = yindex // 16
    tmp0 = tl.load(in_ptr0 + (x2 + 27*y3), xmask & ymask).to(tl.float32)
    tl.store(out_ptr0 + (y0 + 16*x2 + 432*y1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [group_norm_4, silu_4, conv3d_6], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
# Source node to ATen node mapping:
#   conv3d_6 => convolution_6
#   group_norm_4 => add_137, convert_element_type_33, mul_223, unsqueeze_35, unsqueeze_36, unsqueeze_37, unsqueeze_38, unsqueeze_39, unsqueeze_40, unsqueeze_41, unsqueeze_42, view_9
#   silu_4 => add_143, clone_default_12, convert_element_type_36, convert_element_type_37, div_4, exp_4, neg_4
# Graph fragment:
#   %buf55 : Tensor "bf16[1, 3, 2, 2*s0, 2*s1][24*s1*s0, 1, 12*s1*s0, 6*s1, 3]cuda:0" = PlaceHolder[target=buf55]
#   %arg26_1 : Tensor "bf16[3][1]cuda:0" = PlaceHolder[target=arg26_1]
#   %clone_default_13 : Tensor "bf16[3, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg25_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %view_9 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_222, [1, 16, 2, %mul_6, %mul_81]), kwargs = {})
#   %unsqueeze_35 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg23_1, 0), kwargs = {})
#   %unsqueeze_36 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_35, 2), kwargs = {})
#   %unsqueeze_37 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_36, 3), kwargs = {})
#   %unsqueeze_38 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_37, 4), kwargs = {})
#   %mul_223 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_9, %unsqueeze_38), kwargs = {})
#   %unsqueeze_39 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg24_1, 0), kwargs = {})
#   %unsqueeze_40 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_39, 2), kwargs = {})
#   %unsqueeze_41 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_40, 3), kwargs = {})
#   %unsqueeze_42 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_41, 4), kwargs = {})
#   %add_137 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_223, %unsqueeze_42), kwargs = {})
#   %convert_element_type_33 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_137, torch.bfloat16), kwargs = {})
#   %convert_element_type_36 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_33, torch.float32), kwargs = {})
#   %neg_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_36,), kwargs = {})
#   %exp_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_4,), kwargs = {})
#   %add_143 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_4, 1), kwargs = {})
#   %div_4 : Tensor "f32[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_36, %add_143), kwargs = {})
#   %convert_element_type_37 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_4, torch.bfloat16), kwargs = {})
#   %clone_default_12 : Tensor "bf16[1, 16, 2, 2*s0, 2*s1][128*s1*s0, 1, 64*s1*s0, 32*s1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_37,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_6 : Tensor "bf16[1, 3, 2, 2*s0, 2*s1][24*s1*s0, 1, 12*s1*s0, 6*s1, 3]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_12, %clone_default_13, %arg26_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %convolution_6
triton_poi_fused_convolution_native_group_norm_silu_15 = async_compile.triton('triton_poi_fused_convolution_native_group_norm_silu_15', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4, 'x': 512}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*bf16', 'ks0': 'i64', 'ks1': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_silu_15', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 864, 'x': 4614}, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_silu_15(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 3
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + 3*x1), xmask & ymask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x1 + 8*ks0*ks1*y0), tmp2, xmask & ymask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1 = args
        args.clear()
        s0 = arg2_1
        s1 = arg3_1
        assert_size_stride(arg4_1, (1, 4, 2, s0, s1), (8*s1*s0, 2*s1*s0, s1*s0, s1, 1), 'input')
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            arg4_1 = copy_if_misaligned(arg4_1)
            buf0 = empty_strided_cuda((1, 4, 2, s0, s1), (8*s1*s0, 1, 4*s1*s0, 4*s1, 4), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
            triton_poi_fused_convolution_0_xnumel = 2*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_0.run(arg4_1, buf0, s1, s0, 4, triton_poi_fused_convolution_0_xnumel, stream=raw_stream0)
            del arg4_1
            assert_size_stride(arg0_1, (16, 4, 3, 3, 3), (108, 27, 9, 3, 1), 'input')
            buf1 = empty_strided_cuda((16, 4, 3, 3, 3), (108, 1, 36, 12, 4), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_1.run(arg0_1, buf1, 64, 27, stream=raw_stream0)
            del arg0_1
            # Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
            buf2 = extern_kernels.convolution(buf0, buf1, stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf2, (1, 16, 2, s0, s1), (32*s1*s0, 1, 16*s1*s0, 16*s1, 16), 'torch.ops.aten.convolution.default')
            del buf0
            del buf1
            assert_size_stride(arg1_1, (16, ), (1, ), 'input')
            buf3 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 16), torch.float32)
            buf4 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 16), torch.float32)
            # Topologically Sorted Source Nodes: [h, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
            triton_red_fused_convolution_native_group_norm_2_r0_numel = 2*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_red_fused_convolution_native_group_norm_2.run(buf2, arg1_1, buf3, buf4, 16, triton_red_fused_convolution_native_group_norm_2_r0_numel, stream=raw_stream0)
            buf6 = empty_strided_cuda((1, 4, 1, 1), (4, 1, 4, 4), torch.float32)
            # Topologically Sorted Source Nodes: [h, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_3.run(buf4, buf3, buf6, s1, s0, 4, stream=raw_stream0)
            assert_size_stride(arg5_1, (16, ), (1, ), 'input')
            assert_size_stride(arg6_1, (16, ), (1, ), 'input')
            buf8 = empty_strided_cuda((1, 16, 2, s0, s1), (32*s1*s0, 1, 16*s1*s0, 16*s1, 16), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h, group_norm, silu, h_1], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu]
            triton_poi_fused_convolution_native_group_norm_silu_4_xnumel = 32*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_4.run(buf2, arg1_1, buf3, buf6, arg5_1, arg6_1, buf8, triton_poi_fused_convolution_native_group_norm_silu_4_xnumel, stream=raw_stream0)
            del arg5_1
            del arg6_1
            assert_size_stride(arg7_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1), 'input')
            buf9 = empty_strided_cuda((16, 16, 3, 3, 3), (432, 1, 144, 48, 16), torch.bfloat16)
            # Topologically Sorted Source Nodes: [group_norm, silu, h_1], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_5.run(arg7_1, buf9, 256, 27, stream=raw_stream0)
            del arg7_1
            # Topologically Sorted Source Nodes: [group_norm, silu, h_1], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            buf10 = extern_kernels.convolution(buf8, buf9, stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf10, (1, 16, 2, s0, s1), (32*s1*s0, 1, 16*s1*s0, 16*s1, 16), 'torch.ops.aten.convolution.default')
            assert_size_stride(arg8_1, (16, ), (1, ), 'input')
            buf11 = buf3; del buf3  # reuse
            buf12 = buf4; del buf4  # reuse
            # Topologically Sorted Source Nodes: [group_norm, silu, h_1, group_norm_1], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            triton_red_fused_convolution_native_group_norm_2_r0_numel = 2*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_red_fused_convolution_native_group_norm_2.run(buf10, arg8_1, buf11, buf12, 16, triton_red_fused_convolution_native_group_norm_2_r0_numel, stream=raw_stream0)
            buf14 = buf6; del buf6  # reuse
            # Topologically Sorted Source Nodes: [group_norm, silu, h_1, group_norm_1], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_3.run(buf12, buf11, buf14, s1, s0, 4, stream=raw_stream0)
            assert_size_stride(arg9_1, (16, ), (1, ), 'input')
            assert_size_stride(arg10_1, (16, ), (1, ), 'input')
            buf16 = buf8; del buf8  # reuse
            # Topologically Sorted Source Nodes: [group_norm, silu, h_1, group_norm_1, silu_1, h_2], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            triton_poi_fused_convolution_native_group_norm_silu_4_xnumel = 32*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_4.run(buf10, arg8_1, buf11, buf14, arg9_1, arg10_1, buf16, triton_poi_fused_convolution_native_group_norm_silu_4_xnumel, stream=raw_stream0)
            del arg10_1
            del arg8_1
            del arg9_1
            del buf10
            assert_size_stride(arg11_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1), 'input')
            buf17 = buf9; del buf9  # reuse
            # Topologically Sorted Source Nodes: [group_norm_1, silu_1, h_2], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_5.run(arg11_1, buf17, 256, 27, stream=raw_stream0)
            del arg11_1
            # Topologically Sorted Source Nodes: [group_norm_1, silu_1, h_2], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            buf18 = extern_kernels.convolution(buf16, buf17, stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf18, (1, 16, 2, s0, s1), (32*s1*s0, 1, 16*s1*s0, 16*s1, 16), 'torch.ops.aten.convolution.default')
            del buf16
            assert_size_stride(arg12_1, (16, ), (1, ), 'input')
            ps0 = 4*s1*s0
            ps1 = 2*s1
            ps2 = 2*s0
            buf20 = empty_strided_cuda((1, 16, 2, 2*s0, 2*s1), (128*s1*s0, 1, 64*s1*s0, 32*s1, 16), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h, group_norm_1, silu_1, h_2, input_1, interpolate, input_2], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu, aten.add, aten._to_copy, aten.arange, aten.mul, aten.unsqueeze, aten._unsafe_index]
            triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_native_group_norm_silu_unsqueeze_6_xnumel = 8*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_native_group_norm_silu_unsqueeze_6.run(buf2, arg1_1, buf18, arg12_1, buf20, ps0, s0, ps1, ps2, s1, 16, triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_native_group_norm_silu_unsqueeze_6_xnumel, stream=raw_stream0)
            del arg12_1
            del arg1_1
            del buf18
            del buf2
            assert_size_stride(arg13_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1), 'input')
            buf21 = buf17; del buf17  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2], Original ATen: [aten._to_copy, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_5.run(arg13_1, buf21, 256, 27, stream=raw_stream0)
            del arg13_1
            # Topologically Sorted Source Nodes: [interpolate, input_2], Original ATen: [aten._to_copy, aten.convolution]
            buf22 = extern_kernels.convolution(buf20, buf21, stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf22, (1, 16, 2, 2*s0, 2*s1), (128*s1*s0, 1, 64*s1*s0, 32*s1, 16), 'torch.ops.aten.convolution.default')
            del buf21
            assert_size_stride(arg14_1, (16, ), (1, ), 'input')
            buf23 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            buf24 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            buf25 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
            triton_red_fused__to_copy_convolution_native_group_norm_7_r0_numel = (2 + 8*s1*s0) // 3
            raw_stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_convolution_native_group_norm_7.run(buf22, arg14_1, buf23, buf24, buf25, s1, s0, 48, triton_red_fused__to_copy_convolution_native_group_norm_7_r0_numel, stream=raw_stream0)
            buf26 = buf11; del buf11  # reuse
            buf27 = buf12; del buf12  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
            raw_stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_convolution_native_group_norm_8.run(buf23, buf24, buf25, buf26, buf27, 16, 3, stream=raw_stream0)
            buf29 = buf14; del buf14  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_9.run(buf27, buf26, buf29, s1, s0, 4, stream=raw_stream0)
            assert_size_stride(arg15_1, (16, ), (1, ), 'input')
            assert_size_stride(arg16_1, (16, ), (1, ), 'input')
            buf31 = buf20; del buf20  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2, silu_2, h_3], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu]
            triton_poi_fused__to_copy_convolution_native_group_norm_silu_10_xnumel = 128*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_silu_10.run(buf22, arg14_1, buf26, buf29, arg15_1, arg16_1, buf31, triton_poi_fused__to_copy_convolution_native_group_norm_silu_10_xnumel, stream=raw_stream0)
            del arg15_1
            del arg16_1
            assert_size_stride(arg17_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1), 'input')
            buf32 = empty_strided_cuda((16, 16, 3, 3, 3), (432, 1, 144, 48, 16), torch.bfloat16)
            # Topologically Sorted Source Nodes: [group_norm_2, silu_2, h_3], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_5.run(arg17_1, buf32, 256, 27, stream=raw_stream0)
            del arg17_1
            # Topologically Sorted Source Nodes: [group_norm_2, silu_2, h_3], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            buf33 = extern_kernels.convolution(buf31, buf32, stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf33, (1, 16, 2, 2*s0, 2*s1), (128*s1*s0, 1, 64*s1*s0, 32*s1, 16), 'torch.ops.aten.convolution.default')
            del buf32
            assert_size_stride(arg18_1, (16, ), (1, ), 'input')
            buf34 = buf25; del buf25  # reuse
            buf35 = buf24; del buf24  # reuse
            buf36 = buf23; del buf23  # reuse
            # Topologically Sorted Source Nodes: [group_norm_2, silu_2, h_3, group_norm_3], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            triton_red_fused__to_copy_convolution_native_group_norm_7_r0_numel = (2 + 8*s1*s0) // 3
            raw_stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_convolution_native_group_norm_7.run(buf33, arg18_1, buf34, buf35, buf36, s1, s0, 48, triton_red_fused__to_copy_convolution_native_group_norm_7_r0_numel, stream=raw_stream0)
            buf37 = buf26; del buf26  # reuse
            buf38 = buf27; del buf27  # reuse
            # Topologically Sorted Source Nodes: [group_norm_2, silu_2, h_3, group_norm_3], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_convolution_native_group_norm_8.run(buf34, buf35, buf36, buf37, buf38, 16, 3, stream=raw_stream0)
            del buf34
            del buf35
            del buf36
            buf40 = buf29; del buf29  # reuse
            # Topologically Sorted Source Nodes: [group_norm_2, silu_2, h_3, group_norm_3], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_9.run(buf38, buf37, buf40, s1, s0, 4, stream=raw_stream0)
            del buf38
            assert_size_stride(arg19_1, (16, ), (1, ), 'input')
            assert_size_stride(arg20_1, (16, ), (1, ), 'input')
            buf42 = buf31; del buf31  # reuse
            # Topologically Sorted Source Nodes: [group_norm_2, silu_2, h_3, group_norm_3, silu_3, h_4], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            triton_poi_fused__to_copy_convolution_native_group_norm_silu_10_xnumel = 128*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_silu_10.run(buf33, arg18_1, buf37, buf40, arg19_1, arg20_1, buf42, triton_poi_fused__to_copy_convolution_native_group_norm_silu_10_xnumel, stream=raw_stream0)
            del arg18_1
            del arg19_1
            del arg20_1
            del buf33
            assert_size_stride(arg21_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1), 'input')
            buf43 = empty_strided_cuda((16, 16, 3, 3, 3), (432, 1, 144, 48, 16), torch.bfloat16)
            # Topologically Sorted Source Nodes: [group_norm_3, silu_3, h_4], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_5.run(arg21_1, buf43, 256, 27, stream=raw_stream0)
            del arg21_1
            # Topologically Sorted Source Nodes: [group_norm_3, silu_3, h_4], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            buf44 = extern_kernels.convolution(buf42, buf43, stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf44, (1, 16, 2, 2*s0, 2*s1), (128*s1*s0, 1, 64*s1*s0, 32*s1, 16), 'torch.ops.aten.convolution.default')
            del buf42
            del buf43
            assert_size_stride(arg22_1, (16, ), (1, ), 'input')
            buf45 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            buf46 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            buf47 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_3, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu, aten.add]
            triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11_r0_numel = (2 + 8*s1*s0) // 3
            raw_stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11.run(buf22, arg14_1, buf44, arg22_1, buf45, buf46, buf47, s1, s0, 48, triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11_r0_numel, stream=raw_stream0)
            buf48 = buf37; del buf37  # reuse
            buf49 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 16), torch.float32)
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_3, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu, aten.add]
            raw_stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_convolution_native_group_norm_8.run(buf45, buf46, buf47, buf48, buf49, 16, 3, stream=raw_stream0)
            del buf45
            del buf46
            del buf47
            buf51 = buf40; del buf40  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_3, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu, aten.add]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_9.run(buf49, buf48, buf51, s1, s0, 4, stream=raw_stream0)
            del buf49
            buf52 = empty_strided_cuda((1, 4, 4, 8*s1*s0), (128*s1*s0, 32*s1*s0, 8*s1*s0, 1), torch.float32)
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_3, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu, aten.add]
            triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12_ynumel = 8*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12.run(buf22, arg14_1, buf44, arg22_1, buf48, buf51, buf52, s1, s0, triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12_ynumel, 16, stream=raw_stream0)
            del arg14_1
            del arg22_1
            del buf22
            del buf48
            del buf51
            assert_size_stride(arg23_1, (16, ), (1, ), 'input')
            assert_size_stride(arg24_1, (16, ), (1, ), 'input')
            buf53 = buf44; del buf44  # reuse
            # Topologically Sorted Source Nodes: [group_norm_4, silu_4, conv3d_6], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            triton_poi_fused_convolution_native_group_norm_silu_13_xnumel = 8*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_13.run(buf52, arg23_1, arg24_1, buf53, s1, s0, 16, triton_poi_fused_convolution_native_group_norm_silu_13_xnumel, stream=raw_stream0)
            del arg23_1
            del arg24_1
            del buf52
            assert_size_stride(arg25_1, (3, 16, 3, 3, 3), (432, 27, 9, 3, 1), 'input')
            buf54 = empty_strided_cuda((3, 16, 3, 3, 3), (432, 1, 144, 48, 16), torch.bfloat16)
            # Topologically Sorted Source Nodes: [group_norm_4, silu_4, conv3d_6], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_14.run(arg25_1, buf54, 48, 27, stream=raw_stream0)
            del arg25_1
            # Topologically Sorted Source Nodes: [group_norm_4, silu_4, conv3d_6], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            buf55 = extern_kernels.convolution(buf53, buf54, stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf55, (1, 3, 2, 2*s0, 2*s1), (24*s1*s0, 1, 12*s1*s0, 6*s1, 3), 'torch.ops.aten.convolution.default')
            del buf53
            del buf54
            assert_size_stride(arg26_1, (3, ), (1, ), 'input')
            buf56 = empty_strided_cuda((1, 3, 2, 2*s0, 2*s1), (24*s1*s0, 8*s1*s0, 4*s1*s0, 2*s1, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [group_norm_4, silu_4, conv3d_6], Original ATen: [aten.native_group_norm, aten.silu, aten.convolution]
            triton_poi_fused_convolution_native_group_norm_silu_15_xnumel = 8*s1*s0
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_15.run(buf55, arg26_1, buf56, s1, s0, 3, triton_poi_fused_convolution_native_group_norm_silu_15_xnumel, stream=raw_stream0)
            del arg26_1
            del buf55
        return (buf56, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((16, 4, 3, 3, 3), (108, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg1_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg2_1 = 6
    arg3_1 = 8
    arg4_1 = rand_strided((1, 4, 2, 6, 8), (384, 96, 48, 8, 1), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg9_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg10_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg11_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg12_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg13_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg14_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg15_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg16_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg17_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg18_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg19_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg20_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg21_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg22_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg23_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg24_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg25_1 = rand_strided((3, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg26_1 = rand_strided((3, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat, device='cuda')


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
