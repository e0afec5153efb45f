# ruff: noqa
# pytest-magi snapshot (torch-2.11): Inductor's generated code, normalised. Update: pytest --snapshot-update
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
# Topologically Sorted Source Nodes: [xf, pow_1, mean], Original ATen: [aten._to_copy, aten.pow, aten.mean]
# Source node to ATen node mapping:
#   mean => mean
#   pow_1 => pow_1
#   xf => convert_element_type
# Graph fragment:
#   %arg0_1 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %convert_element_type : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %mean : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [1], True), kwargs = {})
#   return %buf0
triton_per_fused__to_copy_mean_pow_0 = async_compile.triton('triton_per_fused__to_copy_mean_pow_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 8},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy_mean_pow_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 3456, 'r0_': 0}}
)
@triton.jit
def triton_per_fused__to_copy_mean_pow_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 144
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 144*r0_1), xmask, other=0.0).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tmp1 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp6, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [], Original ATen: []
# Source node to ATen node mapping:
# Graph fragment:
#   %arg2_1 : Tensor "bf16[8, 8, 3, 3, 3][216, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %arg5_1 : Tensor "bf16[8, 8, 3, 3, 3][216, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg5_1]
#   %arg7_1 : Tensor "bf16[8, 8, 3, 3][72, 9, 3, 1]cuda:0" = PlaceHolder[target=arg7_1]
#   %permute_default : Tensor "bf16[8, 3, 3, 3, 8][216, 9, 3, 1, 27]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg2_1, [0, 2, 3, 4, 1]), kwargs = {})
#   %reshape_default : Tensor "bf16[216, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default, [-1, 8]), kwargs = {})
#   %permute_default_1 : Tensor "bf16[8, 3, 3, 3, 8][216, 9, 3, 1, 27]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg5_1, [0, 2, 3, 4, 1]), kwargs = {})
#   %reshape_default_1 : Tensor "bf16[216, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default_1, [-1, 8]), kwargs = {})
#   %permute_default_2 : Tensor "bf16[8, 3, 3, 8][72, 3, 1, 9]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg7_1, [0, 2, 3, 1]), kwargs = {})
#   %reshape_default_2 : Tensor "bf16[72, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default_2, [-1, 8]), kwargs = {})
#   %cat_default : Tensor "bf16[504, 8][8, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.cat.default](args = ([%reshape_default, %reshape_default_1, %reshape_default_2],), kwargs = {})
#   return %cat_default
triton_poi_fused_1 = async_compile.triton('triton_poi_fused_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 512, 'x': 8}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 4608, 'x': 16128}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_1(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 504
    xnumel = 8
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    y0 = yindex
    x1 = xindex
    tmp0 = y0
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 216, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (27*x1 + 216*((((y0) // 27) % 8)) + (((y0) % 27))), tmp4 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1, 1], 432, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tmp6 & tmp8
    tmp10 = tl.load(in_ptr1 + (27*x1 + 216*(((((-216) + y0) // 27) % 8)) + ((((-216) + y0) % 27))), tmp9 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp11 = tmp0 >= tmp7
    tmp12 = tl.full([1, 1], 504, tl.int64)
    tmp13 = tmp0 < tmp12
    tmp14 = tl.load(in_ptr2 + (9*x1 + 72*(((((-432) + y0) // 9) % 8)) + ((((-432) + y0) % 9))), tmp11 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp15 = tl.where(tmp9, tmp10, tmp14)
    tmp16 = tl.where(tmp4, tmp5, tmp15)
    tl.store(out_ptr0 + (x1 + 8*y0), tmp16, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution]
# Source node to ATen node mapping:
#   add => add
#   h => convolution
#   mean => mean
#   mul_1 => mul_1
#   normed => mul
#   pad => constant_pad_nd
#   pow_1 => pow_1
#   rsqrt => rsqrt
#   silu => add_1, clone_default, convert_element_type_3, div, exp, neg
#   view => view
#   xf => convert_element_type
# Graph fragment:
#   %arg0_1 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf0 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0" = PlaceHolder[target=buf0]
#   %arg1_1 : Tensor "bf16[8][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %convert_element_type : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %mean : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [1], True), kwargs = {})
#   %add : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %mul : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, %rsqrt), kwargs = {})
#   %view : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg1_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %view), kwargs = {})
#   %neg : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_1,), kwargs = {})
#   %exp : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_1, %add_1), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %clone_default : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_3,), kwargs = {memory_format: torch.channels_last_3d})
#   %constant_pad_nd : Tensor "bf16[1, 8, 5, 6, 8][1920, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%clone_default, [0, 0, 0, 0, 2, 0], 0.0), kwargs = {})
#   %as_strided_default : Tensor "bf16[8, 8, 3, 3, 3][216, 1, 72, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3, 3], [216, 1, 72, 24, 8], 0), kwargs = {})
#   %convolution : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%constant_pad_nd, %as_strided_default, %arg3_1, [1, 1, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %buf2
triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_2 = async_compile.triton('triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 8, 'x': 256}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*fp32', 'in_ptr2': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 7696, 'x': 2880}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_2(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 8
    xnumel = 240
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex // 48
    x3 = xindex
    y0 = yindex
    tmp0 = (-2) + x2
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.load(in_ptr0 + ((-96) + x3 + 144*y0), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp4 = tmp3.to(tl.float32)
    tmp5 = tl.load(in_ptr1 + (tl.broadcast_to((-96) + x3, [YBLOCK, XBLOCK])), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp6 = tl.full([1, 1], 8.0, tl.float32)
    tmp7 = (tmp5 / tmp6)
    tmp8 = tl.full([1, 1], 1e-06, tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = libdevice.rsqrt(tmp9)
    tmp11 = tmp4 * tmp10
    tmp12 = tl.load(in_ptr2 + (tl.broadcast_to(y0, [YBLOCK, XBLOCK])), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp13 = tmp12.to(tl.float32)
    tmp14 = tmp11 * tmp13
    tmp15 = -tmp14
    tmp16 = libdevice.exp(tmp15)
    tmp17 = tl.full([1, 1], 1.0, tl.float32)
    tmp18 = tmp16 + tmp17
    tmp19 = (tmp14 / tmp18)
    tmp20 = tmp19.to(tl.float32)
    tmp21 = tl.full(tmp20.shape, 0.0, tmp20.dtype)
    tmp22 = tl.where(tmp2, tmp20, tmp21)
    tl.store(out_ptr0 + (y0 + 8*x3), tmp22, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution]
# Source node to ATen node mapping:
#   add => add
#   h => convolution
#   mean => mean
#   mean_1 => mean_1
#   mul_1 => mul_1
#   normed => mul
#   pad => constant_pad_nd
#   pow_1 => pow_1
#   pow_2 => pow_2
#   rsqrt => rsqrt
#   silu => add_1, clone_default, convert_element_type_3, div, exp, neg
#   view => view
#   xf => convert_element_type
#   xf_1 => convert_element_type_4
# Graph fragment:
#   %buf3 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0" = PlaceHolder[target=buf3]
#   %arg3_1 : Tensor "bf16[8][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %convert_element_type : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %mean : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [1], True), kwargs = {})
#   %add : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %mul : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, %rsqrt), kwargs = {})
#   %view : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg1_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %view), kwargs = {})
#   %neg : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_1,), kwargs = {})
#   %exp : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_1, %add_1), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %clone_default : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_3,), kwargs = {memory_format: torch.channels_last_3d})
#   %constant_pad_nd : Tensor "bf16[1, 8, 5, 6, 8][1920, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%clone_default, [0, 0, 0, 0, 2, 0], 0.0), kwargs = {})
#   %as_strided_default : Tensor "bf16[8, 8, 3, 3, 3][216, 1, 72, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3, 3], [216, 1, 72, 24, 8], 0), kwargs = {})
#   %convolution : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%constant_pad_nd, %as_strided_default, %arg3_1, [1, 1, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_4 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %pow_2 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_4, 2), kwargs = {})
#   %mean_1 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [1], True), kwargs = {})
#   return %buf4
triton_per_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_3 = async_compile.triton('triton_per_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 8},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1152, 'r0_': 2320}}
)
@triton.jit
def triton_per_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_3(in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 144
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 8*x0), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp3 * tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp8, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1, add_1, rsqrt_1, normed_1, view_1, mul_3, silu_1, pad_1, h_1], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution]
# Source node to ATen node mapping:
#   add => add
#   add_1 => add_2
#   h => convolution
#   h_1 => convolution_1
#   mean => mean
#   mean_1 => mean_1
#   mul_1 => mul_1
#   mul_3 => mul_3
#   normed => mul
#   normed_1 => mul_2
#   pad => constant_pad_nd
#   pad_1 => constant_pad_nd_1
#   pow_1 => pow_1
#   pow_2 => pow_2
#   rsqrt => rsqrt
#   rsqrt_1 => rsqrt_1
#   silu => add_1, clone_default, convert_element_type_3, div, exp, neg
#   silu_1 => add_3, clone_default_2, convert_element_type_7, div_1, exp_1, neg_1
#   view => view
#   view_1 => view_1
#   xf => convert_element_type
#   xf_1 => convert_element_type_4
# Graph fragment:
#   %buf3 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0" = PlaceHolder[target=buf3]
#   %arg3_1 : Tensor "bf16[8][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %buf4 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0" = PlaceHolder[target=buf4]
#   %arg4_1 : Tensor "bf16[8][1]cuda:0" = PlaceHolder[target=arg4_1]
#   %convert_element_type : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %mean : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [1], True), kwargs = {})
#   %add : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %mul : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, %rsqrt), kwargs = {})
#   %view : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg1_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %view), kwargs = {})
#   %neg : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_1,), kwargs = {})
#   %exp : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_1, %add_1), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %clone_default : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_3,), kwargs = {memory_format: torch.channels_last_3d})
#   %constant_pad_nd : Tensor "bf16[1, 8, 5, 6, 8][1920, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%clone_default, [0, 0, 0, 0, 2, 0], 0.0), kwargs = {})
#   %as_strided_default : Tensor "bf16[8, 8, 3, 3, 3][216, 1, 72, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3, 3], [216, 1, 72, 24, 8], 0), kwargs = {})
#   %as_strided_default_1 : Tensor "bf16[8, 8, 3, 3, 3][216, 1, 72, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3, 3], [216, 1, 72, 24, 8], 1728), kwargs = {})
#   %convolution : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%constant_pad_nd, %as_strided_default, %arg3_1, [1, 1, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_4 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %pow_2 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_4, 2), kwargs = {})
#   %mean_1 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [1], True), kwargs = {})
#   %add_2 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_1, 1e-06), kwargs = {})
#   %rsqrt_1 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_2,), kwargs = {})
#   %mul_2 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_4, %rsqrt_1), kwargs = {})
#   %view_1 : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg4_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_3 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %view_1), kwargs = {})
#   %neg_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_3,), kwargs = {})
#   %exp_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_1,), kwargs = {})
#   %add_3 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_3, %add_3), kwargs = {})
#   %convert_element_type_7 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.bfloat16), kwargs = {})
#   %clone_default_2 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_7,), kwargs = {memory_format: torch.channels_last_3d})
#   %constant_pad_nd_1 : Tensor "bf16[1, 8, 5, 6, 8][1920, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%clone_default_2, [0, 0, 0, 0, 2, 0], 0.0), kwargs = {})
#   %convolution_1 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%constant_pad_nd_1, %as_strided_default_1, %arg6_1, [1, 1, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %buf5
triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_4 = async_compile.triton('triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 256, 'x': 8}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'in_ptr3': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 576, 'x': 10016}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_4(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 240
    xnumel = 8
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    y1 = yindex // 48
    x2 = xindex
    y3 = yindex
    tmp0 = (-2) + y1
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.load(in_ptr0 + ((-768) + x2 + 8*y3), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp4 = tl.load(in_ptr1 + (tl.broadcast_to(x2, [YBLOCK, XBLOCK])), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp5 = tmp3 + tmp4
    tmp6 = tmp5.to(tl.float32)
    tmp7 = tl.load(in_ptr2 + (tl.broadcast_to((-96) + y3, [YBLOCK, XBLOCK])), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp8 = tl.full([1, 1], 8.0, tl.float32)
    tmp9 = (tmp7 / tmp8)
    tmp10 = tl.full([1, 1], 1e-06, tl.float32)
    tmp11 = tmp9 + tmp10
    tmp12 = libdevice.rsqrt(tmp11)
    tmp13 = tmp6 * tmp12
    tmp14 = tl.load(in_ptr3 + (tl.broadcast_to(x2, [YBLOCK, XBLOCK])), tmp2 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp15 = tmp14.to(tl.float32)
    tmp16 = tmp13 * tmp15
    tmp17 = -tmp16
    tmp18 = libdevice.exp(tmp17)
    tmp19 = tl.full([1, 1], 1.0, tl.float32)
    tmp20 = tmp18 + tmp19
    tmp21 = (tmp16 / tmp20)
    tmp22 = tmp21.to(tl.float32)
    tmp23 = tl.full(tmp22.shape, 0.0, tmp22.dtype)
    tmp24 = tl.where(tmp2, tmp22, tmp23)
    tl.store(out_ptr0 + (x2 + 8*y3), tmp24, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1, add_1, rsqrt_1, normed_1, view_1, mul_3, silu_1, pad_1, h_1, input_1, permute, frames, frames_1, frames_2], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution, aten.permute, aten.arange, aten.unsqueeze, aten._unsafe_index, aten.clone]
# Source node to ATen node mapping:
#   add => add
#   add_1 => add_2
#   frames => view_2
#   frames_1 => _unsafe_index, add_5, add_6, add_7, add_8, clone, clone_default_4, convert_element_type_10, convert_element_type_11, convert_element_type_12, convert_element_type_13, convert_element_type_8, convert_element_type_9, iota, iota_1, mul_4, mul_5, mul_6, mul_7, unsqueeze
#   frames_2 => convolution_2
#   h => convolution
#   h_1 => convolution_1
#   input_1 => add_4
#   mean => mean
#   mean_1 => mean_1
#   mul_1 => mul_1
#   mul_3 => mul_3
#   normed => mul
#   normed_1 => mul_2
#   pad => constant_pad_nd
#   pad_1 => constant_pad_nd_1
#   permute => permute
#   pow_1 => pow_1
#   pow_2 => pow_2
#   rsqrt => rsqrt
#   rsqrt_1 => rsqrt_1
#   silu => add_1, clone_default, convert_element_type_3, div, exp, neg
#   silu_1 => add_3, clone_default_2, convert_element_type_7, div_1, exp_1, neg_1
#   view => view
#   view_1 => view_1
#   xf => convert_element_type
#   xf_1 => convert_element_type_4
# Graph fragment:
#   %arg0_1 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf6 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0" = PlaceHolder[target=buf6]
#   %arg6_1 : Tensor "bf16[8][1]cuda:0" = PlaceHolder[target=arg6_1]
#   %convert_element_type : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %mean : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [1], True), kwargs = {})
#   %add : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %mul : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, %rsqrt), kwargs = {})
#   %view : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg1_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %view), kwargs = {})
#   %neg : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_1,), kwargs = {})
#   %exp : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_1, %add_1), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %clone_default : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_3,), kwargs = {memory_format: torch.channels_last_3d})
#   %constant_pad_nd : Tensor "bf16[1, 8, 5, 6, 8][1920, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%clone_default, [0, 0, 0, 0, 2, 0], 0.0), kwargs = {})
#   %as_strided_default : Tensor "bf16[8, 8, 3, 3, 3][216, 1, 72, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3, 3], [216, 1, 72, 24, 8], 0), kwargs = {})
#   %as_strided_default_1 : Tensor "bf16[8, 8, 3, 3, 3][216, 1, 72, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3, 3], [216, 1, 72, 24, 8], 1728), kwargs = {})
#   %as_strided_default_2 : Tensor "bf16[8, 8, 3, 3][72, 1, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3], [72, 1, 24, 8], 3456), kwargs = {})
#   %convolution : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%constant_pad_nd, %as_strided_default, %arg3_1, [1, 1, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_4 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %pow_2 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_4, 2), kwargs = {})
#   %mean_1 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [1], True), kwargs = {})
#   %add_2 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_1, 1e-06), kwargs = {})
#   %rsqrt_1 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_2,), kwargs = {})
#   %mul_2 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_4, %rsqrt_1), kwargs = {})
#   %view_1 : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg4_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_3 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %view_1), kwargs = {})
#   %neg_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_3,), kwargs = {})
#   %exp_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_1,), kwargs = {})
#   %add_3 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_3, %add_3), kwargs = {})
#   %convert_element_type_7 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.bfloat16), kwargs = {})
#   %clone_default_2 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_7,), kwargs = {memory_format: torch.channels_last_3d})
#   %constant_pad_nd_1 : Tensor "bf16[1, 8, 5, 6, 8][1920, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%clone_default_2, [0, 0, 0, 0, 2, 0], 0.0), kwargs = {})
#   %convolution_1 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%constant_pad_nd_1, %as_strided_default_1, %arg6_1, [1, 1, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %add_4 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, %convolution_1), kwargs = {})
#   %permute : Tensor "bf16[1, 3, 8, 6, 8][1152, 48, 144, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%add_4, [0, 2, 1, 3, 4]), kwargs = {})
#   %view_2 : Tensor "bf16[3, 8, 6, 8][48, 144, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute, [3, 8, 6, 8]), kwargs = {})
#   %convert_element_type_8 : Tensor "f32[3, 8, 6, 8][48, 144, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_2, torch.float32), kwargs = {})
#   %iota : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (12,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_4 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota, 1), kwargs = {})
#   %add_5 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_4, 0), kwargs = {})
#   %convert_element_type_9 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_5, torch.float32), kwargs = {})
#   %add_6 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_9, 0.0), kwargs = {})
#   %mul_5 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_6, 0.5), kwargs = {})
#   %convert_element_type_10 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_5, torch.int64), kwargs = {})
#   %unsqueeze : Tensor "i64[12, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_10, -1), kwargs = {})
#   %iota_1 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_6 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota_1, 1), kwargs = {})
#   %add_7 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_6, 0), kwargs = {})
#   %convert_element_type_11 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_7, torch.float32), kwargs = {})
#   %add_8 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_11, 0.0), kwargs = {})
#   %mul_7 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_8, 0.5), kwargs = {})
#   %convert_element_type_12 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_7, torch.int64), kwargs = {})
#   %_unsafe_index : Tensor "f32[3, 8, 12, 16][192, 576, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten._unsafe_index.Tensor](args = (%convert_element_type_8, [None, None, %unsqueeze, %convert_element_type_12]), kwargs = {})
#   %clone : Tensor "f32[3, 8, 12, 16][1536, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%_unsafe_index,), kwargs = {memory_format: torch.contiguous_format})
#   %convert_element_type_13 : Tensor "bf16[3, 8, 12, 16][1536, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%clone, torch.bfloat16), kwargs = {})
#   %clone_default_4 : Tensor "bf16[3, 8, 12, 16][1536, 1, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_13,), kwargs = {memory_format: torch.channels_last})
#   %convolution_2 : Tensor "bf16[3, 8, 12, 16][1536, 1, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_4, %as_strided_default_2, %arg8_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf7
triton_poi_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_5 = async_compile.triton('triton_poi_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8192}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 18448}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_5(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4608
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = ((xindex // 128) % 12)
    x1 = ((xindex // 8) % 16)
    x0 = (xindex % 8)
    x3 = xindex // 1536
    x5 = xindex
    tmp11 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp0 = x2
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp3.to(tl.int32)
    tmp5 = x1
    tmp6 = tmp5.to(tl.float32)
    tmp7 = tmp6 * tmp2
    tmp8 = tmp7.to(tl.int32)
    tmp9 = tl.load(in_ptr0 + (tmp8 + 8*tmp4 + 48*x3 + 144*x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp10 = tl.load(in_ptr1 + (x0 + 8*tmp8 + 64*tmp4 + 384*x3), xmask).to(tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = tmp9 + tmp12
    tmp14 = tmp13.to(tl.float32)
    tmp15 = tmp14.to(tl.float32)
    tl.store(out_ptr0 + (x5), tmp15, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1, add_1, rsqrt_1, normed_1, view_1, mul_3, silu_1, pad_1, h_1, input_1, permute, frames, frames_1, frames_2, reshape_1, h_2, xf_2, pow_3, mean_2, add_3, rsqrt_2, normed_2, view_2, mul_5, silu_2], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution, aten.permute, aten.arange, aten.unsqueeze, aten._unsafe_index, aten.clone]
# Source node to ATen node mapping:
#   add => add
#   add_1 => add_2
#   add_3 => add_9
#   frames => view_2
#   frames_1 => _unsafe_index, add_5, add_6, add_7, add_8, clone, clone_default_4, convert_element_type_10, convert_element_type_11, convert_element_type_12, convert_element_type_13, convert_element_type_8, convert_element_type_9, iota, iota_1, mul_4, mul_5, mul_6, mul_7, unsqueeze
#   frames_2 => convolution_2
#   h => convolution
#   h_1 => convolution_1
#   h_2 => permute_1
#   input_1 => add_4
#   mean => mean
#   mean_1 => mean_1
#   mean_2 => mean_2
#   mul_1 => mul_1
#   mul_3 => mul_3
#   mul_5 => mul_9
#   normed => mul
#   normed_1 => mul_2
#   normed_2 => mul_8
#   pad => constant_pad_nd
#   pad_1 => constant_pad_nd_1
#   permute => permute
#   pow_1 => pow_1
#   pow_2 => pow_2
#   pow_3 => pow_3
#   reshape_1 => view_3
#   rsqrt => rsqrt
#   rsqrt_1 => rsqrt_1
#   rsqrt_2 => rsqrt_2
#   silu => add_1, clone_default, convert_element_type_3, div, exp, neg
#   silu_1 => add_3, clone_default_2, convert_element_type_7, div_1, exp_1, neg_1
#   silu_2 => add_10, convert_element_type_17, div_2, exp_2, neg_2
#   view => view
#   view_1 => view_1
#   view_2 => view_4
#   xf => convert_element_type
#   xf_1 => convert_element_type_4
#   xf_2 => convert_element_type_14
# Graph fragment:
#   %buf8 : Tensor "bf16[3, 8, 12, 16][1536, 1, 128, 8]cuda:0" = PlaceHolder[target=buf8]
#   %arg8_1 : Tensor "bf16[8][1]cuda:0" = PlaceHolder[target=arg8_1]
#   %buf9 : Tensor "f32[1, 1, 3, 12, 16][576, 576, 192, 16, 1]cuda:0" = PlaceHolder[target=buf9]
#   %arg9_1 : Tensor "bf16[8][1]cuda:0" = PlaceHolder[target=arg9_1]
#   %convert_element_type : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %mean : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [1], True), kwargs = {})
#   %add : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %mul : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, %rsqrt), kwargs = {})
#   %view : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg1_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %view), kwargs = {})
#   %neg : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_1,), kwargs = {})
#   %exp : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_1, %add_1), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %clone_default : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_3,), kwargs = {memory_format: torch.channels_last_3d})
#   %constant_pad_nd : Tensor "bf16[1, 8, 5, 6, 8][1920, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%clone_default, [0, 0, 0, 0, 2, 0], 0.0), kwargs = {})
#   %as_strided_default : Tensor "bf16[8, 8, 3, 3, 3][216, 1, 72, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3, 3], [216, 1, 72, 24, 8], 0), kwargs = {})
#   %as_strided_default_1 : Tensor "bf16[8, 8, 3, 3, 3][216, 1, 72, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3, 3], [216, 1, 72, 24, 8], 1728), kwargs = {})
#   %as_strided_default_2 : Tensor "bf16[8, 8, 3, 3][72, 1, 24, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [8, 8, 3, 3], [72, 1, 24, 8], 3456), kwargs = {})
#   %convolution : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%constant_pad_nd, %as_strided_default, %arg3_1, [1, 1, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_4 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %pow_2 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_4, 2), kwargs = {})
#   %mean_1 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [1], True), kwargs = {})
#   %add_2 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_1, 1e-06), kwargs = {})
#   %rsqrt_1 : Tensor "f32[1, 1, 3, 6, 8][144, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_2,), kwargs = {})
#   %mul_2 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_4, %rsqrt_1), kwargs = {})
#   %view_1 : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg4_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_3 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %view_1), kwargs = {})
#   %neg_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_3,), kwargs = {})
#   %exp_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_1,), kwargs = {})
#   %add_3 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_3, %add_3), kwargs = {})
#   %convert_element_type_7 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.bfloat16), kwargs = {})
#   %clone_default_2 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_7,), kwargs = {memory_format: torch.channels_last_3d})
#   %constant_pad_nd_1 : Tensor "bf16[1, 8, 5, 6, 8][1920, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%clone_default_2, [0, 0, 0, 0, 2, 0], 0.0), kwargs = {})
#   %convolution_1 : Tensor "bf16[1, 8, 3, 6, 8][1152, 1, 384, 64, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%constant_pad_nd_1, %as_strided_default_1, %arg6_1, [1, 1, 1], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %add_4 : Tensor "bf16[1, 8, 3, 6, 8][1152, 144, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, %convolution_1), kwargs = {})
#   %permute : Tensor "bf16[1, 3, 8, 6, 8][1152, 48, 144, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%add_4, [0, 2, 1, 3, 4]), kwargs = {})
#   %view_2 : Tensor "bf16[3, 8, 6, 8][48, 144, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute, [3, 8, 6, 8]), kwargs = {})
#   %convert_element_type_8 : Tensor "f32[3, 8, 6, 8][48, 144, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_2, torch.float32), kwargs = {})
#   %iota : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (12,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_4 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota, 1), kwargs = {})
#   %add_5 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_4, 0), kwargs = {})
#   %convert_element_type_9 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_5, torch.float32), kwargs = {})
#   %add_6 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_9, 0.0), kwargs = {})
#   %mul_5 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_6, 0.5), kwargs = {})
#   %convert_element_type_10 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_5, torch.int64), kwargs = {})
#   %unsqueeze : Tensor "i64[12, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_10, -1), kwargs = {})
#   %iota_1 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_6 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota_1, 1), kwargs = {})
#   %add_7 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_6, 0), kwargs = {})
#   %convert_element_type_11 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_7, torch.float32), kwargs = {})
#   %add_8 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_11, 0.0), kwargs = {})
#   %mul_7 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_8, 0.5), kwargs = {})
#   %convert_element_type_12 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_7, torch.int64), kwargs = {})
#   %_unsafe_index : Tensor "f32[3, 8, 12, 16][192, 576, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten._unsafe_index.Tensor](args = (%convert_element_type_8, [None, None, %unsqueeze, %convert_element_type_12]), kwargs = {})
#   %clone : Tensor "f32[3, 8, 12, 16][1536, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%_unsafe_index,), kwargs = {memory_format: torch.contiguous_format})
#   %convert_element_type_13 : Tensor "bf16[3, 8, 12, 16][1536, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%clone, torch.bfloat16), kwargs = {})
#   %clone_default_4 : Tensor "bf16[3, 8, 12, 16][1536, 1, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_13,), kwargs = {memory_format: torch.channels_last})
#   %convolution_2 : Tensor "bf16[3, 8, 12, 16][1536, 1, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_4, %as_strided_default_2, %arg8_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
#   %view_3 : Tensor "bf16[1, 3, 8, 12, 16][4608, 1536, 1, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%convolution_2, [1, 3, 8, 12, 16]), kwargs = {})
#   %permute_1 : Tensor "bf16[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_3, [0, 2, 1, 3, 4]), kwargs = {})
#   %convert_element_type_14 : Tensor "f32[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%permute_1, torch.float32), kwargs = {})
#   %pow_3 : Tensor "f32[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_14, 2), kwargs = {})
#   %mean_2 : Tensor "f32[1, 1, 3, 12, 16][576, 576, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_3, [1], True), kwargs = {})
#   %add_9 : Tensor "f32[1, 1, 3, 12, 16][576, 576, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_2, 1e-06), kwargs = {})
#   %rsqrt_2 : Tensor "f32[1, 1, 3, 12, 16][576, 576, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_9,), kwargs = {})
#   %mul_8 : Tensor "f32[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_14, %rsqrt_2), kwargs = {})
#   %view_4 : Tensor "bf16[1, 8, 1, 1, 1][8, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%arg9_1, [1, -1, 1, 1, 1]), kwargs = {})
#   %mul_9 : Tensor "f32[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_8, %view_4), kwargs = {})
#   %neg_2 : Tensor "f32[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mul_9,), kwargs = {})
#   %exp_2 : Tensor "f32[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_2,), kwargs = {})
#   %add_10 : Tensor "f32[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_2, 1), kwargs = {})
#   %div_2 : Tensor "f32[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_9, %add_10), kwargs = {})
#   %convert_element_type_17 : Tensor "bf16[1, 8, 3, 12, 16][4608, 1, 1536, 128, 8]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_2, torch.bfloat16), kwargs = {})
#   return %buf9,%convert_element_type_17
triton_per_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_6 = async_compile.triton('triton_per_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 1024, 'r0_': 8},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 18432, 'r0_': 9248}}
)
@triton.jit
def triton_per_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_6(in_ptr0, in_ptr1, in_ptr2, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 576
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    x2 = (xindex % 192)
    x3 = xindex // 192
    tmp0 = tl.load(in_ptr0 + (r0_1 + 8*x0), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp15 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp3 * tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp9 = tl.full([1, 1], 8.0, tl.float32)
    tmp10 = (tmp8 / tmp9)
    tmp11 = tl.full([1, 1], 1e-06, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = libdevice.rsqrt(tmp12)
    tmp14 = tmp3 * tmp13
    tmp16 = tmp15.to(tl.float32)
    tmp17 = tmp14 * tmp16
    tmp18 = -tmp17
    tmp19 = libdevice.exp(tmp18)
    tmp20 = tl.full([1, 1], 1.0, tl.float32)
    tmp21 = tmp19 + tmp20
    tmp22 = (tmp17 / tmp21)
    tmp23 = tmp22.to(tl.float32)
    tl.store(out_ptr1 + (x2 + 192*r0_1 + 1536*x3), tmp23, xmask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1 = args
        args.clear()
        assert_size_stride(arg0_1, (1, 8, 3, 6, 8), (1152, 144, 48, 8, 1))
        assert_size_stride(arg1_1, (8, ), (1, ))
        assert_size_stride(arg2_1, (8, 8, 3, 3, 3), (216, 27, 9, 3, 1))
        assert_size_stride(arg3_1, (8, ), (1, ))
        assert_size_stride(arg4_1, (8, ), (1, ))
        assert_size_stride(arg5_1, (8, 8, 3, 3, 3), (216, 27, 9, 3, 1))
        assert_size_stride(arg6_1, (8, ), (1, ))
        assert_size_stride(arg7_1, (8, 8, 3, 3), (72, 9, 3, 1))
        assert_size_stride(arg8_1, (8, ), (1, ))
        assert_size_stride(arg9_1, (8, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1, 1, 3, 6, 8), (144, 144, 48, 8, 1), torch.float32)
            # Topologically Sorted Source Nodes: [xf, pow_1, mean], Original ATen: [aten._to_copy, aten.pow, aten.mean]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_mean_pow_0.run(arg0_1, buf0, 144, 8, stream=stream0)
            buf1 = empty_strided_cuda((504, 8), (8, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [], Original ATen: []
            stream0 = get_raw_stream(0)
            triton_poi_fused_1.run(arg2_1, arg5_1, arg7_1, buf1, 504, 8, stream=stream0)
            del arg2_1
            del arg5_1
            del arg7_1
            buf2 = empty_strided_cuda((1, 8, 5, 6, 8), (1920, 1, 384, 64, 8), torch.bfloat16)
            # Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_2.run(arg0_1, buf0, arg1_1, buf2, 8, 240, stream=stream0)
            del arg1_1
            # Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution]
            buf3 = extern_kernels.convolution(buf2, reinterpret_tensor(buf1, (8, 8, 3, 3, 3), (216, 1, 72, 24, 8), 0), stride=(1, 1, 1), padding=(0, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf3, (1, 8, 3, 6, 8), (1152, 1, 384, 64, 8), 'torch.ops.aten.convolution.default')
            buf4 = buf0; del buf0  # reuse
            # Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_3.run(buf3, arg3_1, buf4, 144, 8, stream=stream0)
            buf5 = buf2; del buf2  # reuse
            # Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1, add_1, rsqrt_1, normed_1, view_1, mul_3, silu_1, pad_1, h_1], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_constant_pad_nd_convolution_mean_mul_pow_rsqrt_silu_view_4.run(buf3, arg3_1, buf4, arg4_1, buf5, 240, 8, stream=stream0)
            del arg3_1
            del arg4_1
            del buf3
            del buf4
            # Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1, add_1, rsqrt_1, normed_1, view_1, mul_3, silu_1, pad_1, h_1], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution]
            buf6 = extern_kernels.convolution(buf5, reinterpret_tensor(buf1, (8, 8, 3, 3, 3), (216, 1, 72, 24, 8), 1728), stride=(1, 1, 1), padding=(0, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf6, (1, 8, 3, 6, 8), (1152, 1, 384, 64, 8), 'torch.ops.aten.convolution.default')
            del buf5
            buf7 = empty_strided_cuda((3, 8, 12, 16), (1536, 1, 128, 8), torch.bfloat16)
            # Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1, add_1, rsqrt_1, normed_1, view_1, mul_3, silu_1, pad_1, h_1, input_1, permute, frames, frames_1, frames_2], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution, aten.permute, aten.arange, aten.unsqueeze, aten._unsafe_index, aten.clone]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_5.run(arg0_1, buf6, arg6_1, buf7, 4608, stream=stream0)
            del arg0_1
            del arg6_1
            del buf6
            # Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1, add_1, rsqrt_1, normed_1, view_1, mul_3, silu_1, pad_1, h_1, input_1, permute, frames, frames_1, frames_2], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution, aten.permute, aten.arange, aten.unsqueeze, aten._unsafe_index, aten.clone]
            buf8 = extern_kernels.convolution(buf7, reinterpret_tensor(buf1, (8, 8, 3, 3), (72, 1, 24, 8), 3456), stride=(1, 1), padding=(1, 1), dilation=(1, 1), transposed=False, output_padding=(0, 0), groups=1, bias=None)
            assert_size_stride(buf8, (3, 8, 12, 16), (1536, 1, 128, 8), 'torch.ops.aten.convolution.default')
            del buf1
            buf10 = reinterpret_tensor(buf7, (1, 8, 3, 12, 16), (4608, 192, 1536, 16, 1), 0); del buf7  # reuse
            # Topologically Sorted Source Nodes: [xf, pow_1, mean, add, rsqrt, normed, view, mul_1, silu, pad, h, xf_1, pow_2, mean_1, add_1, rsqrt_1, normed_1, view_1, mul_3, silu_1, pad_1, h_1, input_1, permute, frames, frames_1, frames_2, reshape_1, h_2, xf_2, pow_3, mean_2, add_3, rsqrt_2, normed_2, view_2, mul_5, silu_2], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.silu, aten.constant_pad_nd, aten.convolution, aten.permute, aten.arange, aten.unsqueeze, aten._unsafe_index, aten.clone]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy__unsafe_index_add_arange_clone_constant_pad_nd_convolution_mean_mul_permute_pow_rsqrt_silu_unsqueeze_view_6.run(buf8, arg8_1, arg9_1, buf10, 576, 8, stream=stream0)
            del arg8_1
            del arg9_1
            del buf8
        return (buf10, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((1, 8, 3, 6, 8), (1152, 144, 48, 8, 1), device='cuda:0', dtype=torch.bfloat16)
    arg1_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg2_1 = rand_strided((8, 8, 3, 3, 3), (216, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg3_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg4_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((8, 8, 3, 3, 3), (216, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((8, 8, 3, 3), (72, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg9_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
