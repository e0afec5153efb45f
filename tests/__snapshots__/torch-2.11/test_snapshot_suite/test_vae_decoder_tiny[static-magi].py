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
# Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   h => convolution
# Graph fragment:
#   %arg2_1 : Tensor "bf16[1, 4, 2, 6, 8][384, 96, 48, 8, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, 6, 8][384, 1, 192, 32, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg2_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %buf0
triton_poi_fused_convolution_0 = async_compile.triton('triton_poi_fused_convolution_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4, 'x': 128}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 768, 'x': 768}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 4
    xnumel = 96
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 96*y0), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (y0 + 4*x1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   h => convolution
# Graph fragment:
#   %arg0_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, 6, 8][384, 1, 192, 32, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg2_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
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
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 6912, 'x': 3456}},
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
    tmp0 = tl.load(in_ptr0 + (x2 + 27*y3), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (y0 + 4*x2 + 108*y1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm => convert_element_type, view
#   h => convolution
# Graph fragment:
#   %buf2 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, 6, 8][384, 1, 192, 32, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg2_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 4, 4, 96][1536, 384, 96, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 4, 4, 96]), kwargs = {})
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
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_convolution_native_group_norm_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 3360, 'r0_': 0}}
)
@triton.jit
def triton_red_fused_convolution_native_group_norm_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 96
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
#   %getitem_11 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0" = PlaceHolder[target=getitem_11]
#   %buf4 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=buf4]
#   %mean_dim_3 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=mean_dim_3]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, 6, 8][384, 1, 192, 32, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg2_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 4, 4, 96][1536, 384, 96, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 4, 4, 96]), kwargs = {})
#   %var_mean_correction : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [3]), kwargs = {correction: 0, keepdim: True})
#   %reshape_default_6 : Tensor "f32[1, 4, 1, 4][16, 4, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_11, [1, 4, 1, 4]), kwargs = {})
#   %expand_default : Tensor "f32[1, 4, 4, 4][16, 4, 0, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%reshape_default_6, [1, 4, 4, 4]), kwargs = {})
#   %reshape_default_7 : Tensor "f32[1, 4, 1, 4][16, 4, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_10, [1, 4, 1, 4]), kwargs = {})
#   %expand_default_1 : Tensor "f32[1, 4, 4, 4][16, 4, 0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%reshape_default_7, [1, 4, 4, 4]), kwargs = {})
#   %mean_dim_2 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mean.dim](args = (%expand_default, [3], True), kwargs = {})
#   %clone_default_15 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%mean_dim_2,), kwargs = {})
#   %sub_tensor_1 : Tensor "f32[1, 4, 4, 4][64, 16, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%expand_default, %mean_dim_2), kwargs = {})
#   %mul_tensor_1 : Tensor "f32[1, 4, 4, 4][64, 16, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_tensor_1, %sub_tensor_1), kwargs = {})
#   %add_tensor_1 : Tensor "f32[1, 4, 4, 4][64, 16, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%expand_default_1, %mul_tensor_1), kwargs = {})
#   %mean_dim_3 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%add_tensor_1, [3], True), kwargs = {})
#   %add_tensor_2 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_dim_3, 1e-05), kwargs = {})
#   %rsqrt_default : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_tensor_2,), kwargs = {})
#   %clone_default_14 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%rsqrt_default,), kwargs = {})
#   return %clone_default_15,%mean_dim_3,%clone_default_14
triton_poi_fused_convolution_native_group_norm_3 = async_compile.triton('triton_poi_fused_convolution_native_group_norm_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 256}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_3(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 4
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (4*x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (1 + 4*x1), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr0 + (2 + 4*x1), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr0 + (3 + 4*x1), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr1 + (4*x1), xmask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr1 + (1 + 4*x1), xmask, eviction_policy='evict_last')
    tmp21 = tl.load(in_ptr1 + (2 + 4*x1), xmask, eviction_policy='evict_last')
    tmp27 = tl.load(in_ptr1 + (3 + 4*x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 + tmp5
    tmp7 = tl.full([1], 4.0, tl.float32)
    tmp8 = (tmp6 / tmp7)
    tmp10 = tl.full([1], 96.0, tl.float32)
    tmp11 = (tmp9 / tmp10)
    tmp12 = tmp0 - tmp8
    tmp13 = tmp12 * tmp12
    tmp14 = tmp11 + tmp13
    tmp16 = (tmp15 / tmp10)
    tmp17 = tmp1 - tmp8
    tmp18 = tmp17 * tmp17
    tmp19 = tmp16 + tmp18
    tmp20 = tmp14 + tmp19
    tmp22 = (tmp21 / tmp10)
    tmp23 = tmp3 - tmp8
    tmp24 = tmp23 * tmp23
    tmp25 = tmp22 + tmp24
    tmp26 = tmp20 + tmp25
    tmp28 = (tmp27 / tmp10)
    tmp29 = tmp5 - tmp8
    tmp30 = tmp29 * tmp29
    tmp31 = tmp28 + tmp30
    tmp32 = tmp26 + tmp31
    tmp33 = (tmp32 / tmp7)
    tmp34 = tl.full([1], 1e-05, tl.float32)
    tmp35 = tmp33 + tmp34
    tmp36 = libdevice.rsqrt(tmp35)
    tl.store(out_ptr0 + (x2), tmp8, xmask)
    tl.store(in_out_ptr0 + (x2), tmp36, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h, group_norm, silu, h_1], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu]
# Source node to ATen node mapping:
#   group_norm => add_1, convert_element_type, mul, mul_1, sub, unsqueeze, unsqueeze_1, unsqueeze_2, unsqueeze_3, unsqueeze_4, unsqueeze_5, unsqueeze_6, unsqueeze_7, view, view_1
#   h => convolution
#   h_1 => convolution_1
#   silu => add_2, clone_default_2, convert_element_type_5, div, exp, neg
# Graph fragment:
#   %buf2 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %clone_default_15 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0" = PlaceHolder[target=clone_default_15]
#   %clone_default_14 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0" = PlaceHolder[target=clone_default_14]
#   %arg3_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %arg4_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg4_1]
#   %add_1 : Tensor "f32[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0" = PlaceHolder[target=add_1]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, 6, 8][384, 1, 192, 32, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg2_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 4, 4, 96][1536, 384, 96, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 4, 4, 96]), kwargs = {})
#   %as_strided_default_7 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%clone_default_15, [1, 4, 4, 1], [16, 4, 1, 1]), kwargs = {})
#   %as_strided_default_6 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%clone_default_14, [1, 4, 4, 1], [16, 4, 1, 1]), kwargs = {})
#   %sub : Tensor "f32[1, 4, 4, 96][1536, 384, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view, %as_strided_default_7), kwargs = {})
#   %mul : Tensor "f32[1, 4, 4, 96][1536, 384, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %as_strided_default_6), kwargs = {})
#   %view_1 : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul, [1, 16, 2, 6, 8]), kwargs = {})
#   %unsqueeze : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg3_1, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, 2), kwargs = {})
#   %unsqueeze_2 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 3), kwargs = {})
#   %unsqueeze_3 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 4), kwargs = {})
#   %mul_1 : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_1, %unsqueeze_3), kwargs = {})
#   %unsqueeze_4 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg4_1, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 2), kwargs = {})
#   %unsqueeze_6 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %unsqueeze_7 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_6, 4), kwargs = {})
#   %add_1 : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %unsqueeze_7), kwargs = {})
#   %neg : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_1,), kwargs = {})
#   %exp : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_2 : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_1, %add_2), kwargs = {})
#   %convert_element_type_5 : Tensor "bf16[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %clone_default_2 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_5,), kwargs = {memory_format: torch.channels_last_3d})
#   %as_strided_default : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 0), kwargs = {})
#   %convolution_1 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_2, %as_strided_default, %arg6_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %add_1,%buf11
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_silu_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 9440}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_native_group_norm_silu_4(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1536
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x3 = xindex
    x0 = (xindex % 16)
    tmp0 = tl.load(in_ptr0 + (x3), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp4 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp11 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp5 = tmp3 - tmp4
    tmp7 = tmp5 * tmp6
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tmp7 * tmp9
    tmp12 = tmp11.to(tl.float32)
    tmp13 = tmp10 + tmp12
    tmp14 = -tmp13
    tmp15 = libdevice.exp(tmp14)
    tmp16 = tl.full([1], 1.0, tl.float32)
    tmp17 = tmp15 + tmp16
    tmp18 = (tmp13 / tmp17)
    tmp19 = tmp18.to(tl.float32)
    tl.store(out_ptr1 + (x3), tmp19, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [], Original ATen: []
# Source node to ATen node mapping:
# Graph fragment:
#   %arg5_1 : Tensor "bf16[16, 16, 3, 3, 3][432, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg5_1]
#   %arg9_1 : Tensor "bf16[16, 16, 3, 3, 3][432, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg9_1]
#   %arg11_1 : Tensor "bf16[16, 16, 3, 3, 3][432, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg11_1]
#   %arg15_1 : Tensor "bf16[16, 16, 3, 3, 3][432, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg15_1]
#   %arg19_1 : Tensor "bf16[16, 16, 3, 3, 3][432, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg19_1]
#   %arg23_1 : Tensor "bf16[3, 16, 3, 3, 3][432, 27, 9, 3, 1]cuda:0" = PlaceHolder[target=arg23_1]
#   %permute_default : Tensor "bf16[16, 3, 3, 3, 16][432, 9, 3, 1, 27]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg5_1, [0, 2, 3, 4, 1]), kwargs = {})
#   %reshape_default : Tensor "bf16[432, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default, [-1, 16]), kwargs = {})
#   %permute_default_1 : Tensor "bf16[16, 3, 3, 3, 16][432, 9, 3, 1, 27]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg9_1, [0, 2, 3, 4, 1]), kwargs = {})
#   %reshape_default_1 : Tensor "bf16[432, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default_1, [-1, 16]), kwargs = {})
#   %permute_default_2 : Tensor "bf16[16, 3, 3, 3, 16][432, 9, 3, 1, 27]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg11_1, [0, 2, 3, 4, 1]), kwargs = {})
#   %reshape_default_2 : Tensor "bf16[432, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default_2, [-1, 16]), kwargs = {})
#   %permute_default_3 : Tensor "bf16[16, 3, 3, 3, 16][432, 9, 3, 1, 27]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg15_1, [0, 2, 3, 4, 1]), kwargs = {})
#   %reshape_default_3 : Tensor "bf16[432, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default_3, [-1, 16]), kwargs = {})
#   %permute_default_4 : Tensor "bf16[16, 3, 3, 3, 16][432, 9, 3, 1, 27]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg19_1, [0, 2, 3, 4, 1]), kwargs = {})
#   %reshape_default_4 : Tensor "bf16[432, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default_4, [-1, 16]), kwargs = {})
#   %permute_default_5 : Tensor "bf16[3, 3, 3, 3, 16][432, 9, 3, 1, 27]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%arg23_1, [0, 2, 3, 4, 1]), kwargs = {})
#   %reshape_default_5 : Tensor "bf16[81, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_default_5, [-1, 16]), kwargs = {})
#   %cat_default : Tensor "bf16[2241, 16][16, 1]cuda:0"[num_users=6] = call_function[target=torch.ops.aten.cat.default](args = ([%reshape_default, %reshape_default_1, %reshape_default_2, %reshape_default_3, %reshape_default_4, %reshape_default_5],), kwargs = {})
#   return %cat_default
triton_poi_fused_5 = async_compile.triton('triton_poi_fused_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4096, 'x': 16}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 16416, 'x': 143424}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 2241
    xnumel = 16
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
    tmp3 = tl.full([1, 1], 432, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (27*x1 + 432*((((y0) // 27) % 16)) + (((y0) % 27))), tmp4 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1, 1], 864, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tmp6 & tmp8
    tmp10 = tl.load(in_ptr1 + (27*x1 + 432*(((((-432) + y0) // 27) % 16)) + ((((-432) + y0) % 27))), tmp9 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp11 = tmp0 >= tmp7
    tmp12 = tl.full([1, 1], 1296, tl.int64)
    tmp13 = tmp0 < tmp12
    tmp14 = tmp11 & tmp13
    tmp15 = tl.load(in_ptr2 + (27*x1 + 432*(((((-864) + y0) // 27) % 16)) + ((((-864) + y0) % 27))), tmp14 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp16 = tmp0 >= tmp12
    tmp17 = tl.full([1, 1], 1728, tl.int64)
    tmp18 = tmp0 < tmp17
    tmp19 = tmp16 & tmp18
    tmp20 = tl.load(in_ptr3 + (27*x1 + 432*(((((-1296) + y0) // 27) % 16)) + ((((-1296) + y0) % 27))), tmp19 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp21 = tmp0 >= tmp17
    tmp22 = tl.full([1, 1], 2160, tl.int64)
    tmp23 = tmp0 < tmp22
    tmp24 = tmp21 & tmp23
    tmp25 = tl.load(in_ptr4 + (27*x1 + 432*(((((-1728) + y0) // 27) % 16)) + ((((-1728) + y0) % 27))), tmp24 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp26 = tmp0 >= tmp22
    tmp27 = tl.full([1, 1], 2241, tl.int64)
    tmp28 = tmp0 < tmp27
    tmp29 = tl.load(in_ptr5 + (27*x1 + 432*(((((-2160) + y0) // 27) % 3)) + ((((-2160) + y0) % 27))), tmp26 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp30 = tl.where(tmp24, tmp25, tmp29)
    tmp31 = tl.where(tmp19, tmp20, tmp30)
    tmp32 = tl.where(tmp14, tmp15, tmp31)
    tmp33 = tl.where(tmp9, tmp10, tmp32)
    tmp34 = tl.where(tmp4, tmp5, tmp33)
    tl.store(out_ptr0 + (x1 + 16*y0), tmp34, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [h, silu_1, h_2, input_1, interpolate, input_2], Original ATen: [aten.convolution, aten.silu, aten.add, aten._to_copy, aten.arange, aten.mul, aten.unsqueeze, aten._unsafe_index]
# Source node to ATen node mapping:
#   h => convolution
#   h_2 => convolution_2
#   input_1 => add_6
#   input_2 => convolution_3
#   interpolate => _unsafe_index, add_10, add_11, add_12, add_7, add_8, add_9, clone_default_6, convert_element_type_12, convert_element_type_13, convert_element_type_14, convert_element_type_15, convert_element_type_16, convert_element_type_17, convert_element_type_18, convert_element_type_19, iota, iota_1, iota_2, mul_4, mul_5, mul_6, mul_7, mul_8, mul_9, unsqueeze_16, unsqueeze_17, unsqueeze_18
#   silu_1 => add_5, clone_default_4, convert_element_type_11, div_1, exp_1, neg_1
# Graph fragment:
#   %buf2 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %buf21 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0" = PlaceHolder[target=buf21]
#   %arg10_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg10_1]
#   %_unsafe_index : Tensor "f32[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0" = PlaceHolder[target=_unsafe_index]
#   %clone_default_1 : Tensor "bf16[16, 4, 3, 3, 3][108, 1, 36, 12, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg0_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %clone_default : Tensor "bf16[1, 4, 2, 6, 8][384, 1, 192, 32, 4]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%arg2_1,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution : Tensor "bf16[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default, %clone_default_1, %arg1_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %as_strided_default_1 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 6912), kwargs = {})
#   %as_strided_default_2 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 13824), kwargs = {})
#   %neg_1 : Tensor "f32[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_4,), kwargs = {})
#   %exp_1 : Tensor "f32[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_1,), kwargs = {})
#   %add_5 : Tensor "f32[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_4, %add_5), kwargs = {})
#   %convert_element_type_11 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.bfloat16), kwargs = {})
#   %clone_default_4 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_11,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_2 : Tensor "bf16[1, 16, 2, 6, 8][1536, 1, 768, 128, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_4, %as_strided_default_1, %arg10_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %add_6 : Tensor "bf16[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convolution, %convolution_2), kwargs = {})
#   %convert_element_type_12 : Tensor "f32[1, 16, 2, 6, 8][1536, 96, 48, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_6, torch.float32), kwargs = {})
#   %iota : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (2,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_4 : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota, 1), kwargs = {})
#   %add_7 : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_4, 0), kwargs = {})
#   %convert_element_type_13 : Tensor "f32[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_7, torch.float32), kwargs = {})
#   %add_8 : Tensor "f32[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_13, 0.0), kwargs = {})
#   %mul_5 : Tensor "f32[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_8, 1.0), kwargs = {})
#   %convert_element_type_14 : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_5, torch.int64), kwargs = {})
#   %unsqueeze_16 : Tensor "i64[2, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_14, -1), kwargs = {})
#   %unsqueeze_17 : Tensor "i64[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_16, -1), kwargs = {})
#   %iota_1 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (12,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_6 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota_1, 1), kwargs = {})
#   %add_9 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_6, 0), kwargs = {})
#   %convert_element_type_15 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_9, torch.float32), kwargs = {})
#   %add_10 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_15, 0.0), kwargs = {})
#   %mul_7 : Tensor "f32[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_10, 0.5), kwargs = {})
#   %convert_element_type_16 : Tensor "i64[12][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_7, torch.int64), kwargs = {})
#   %unsqueeze_18 : Tensor "i64[12, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_16, -1), kwargs = {})
#   %iota_2 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (16,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %mul_8 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%iota_2, 1), kwargs = {})
#   %add_11 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_8, 0), kwargs = {})
#   %convert_element_type_17 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_11, torch.float32), kwargs = {})
#   %add_12 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_17, 0.0), kwargs = {})
#   %mul_9 : Tensor "f32[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_12, 0.5), kwargs = {})
#   %convert_element_type_18 : Tensor "i64[16][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_9, torch.int64), kwargs = {})
#   %_unsafe_index : Tensor "f32[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten._unsafe_index.Tensor](args = (%convert_element_type_12, [None, None, %unsqueeze_17, %unsqueeze_18, %convert_element_type_18]), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %as_strided_default_2, %arg12_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %_unsafe_index,%buf23
triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_silu_unsqueeze_6 = async_compile.triton('triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_silu_unsqueeze_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 16, 'x': 512}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr1': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_silu_unsqueeze_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 24640, 'x': 0}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_silu_unsqueeze_6(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 16
    xnumel = 384
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x3 = xindex // 192
    x2 = ((xindex // 16) % 12)
    x1 = (xindex % 16)
    y0 = yindex
    x4 = xindex
    tmp15 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp18 = tl.load(in_ptr3 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp0 = x3
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1, 1], 1.0, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp3.to(tl.int32)
    tmp5 = x2
    tmp6 = tmp5.to(tl.float32)
    tmp7 = tl.full([1, 1], 0.5, tl.float32)
    tmp8 = tmp6 * tmp7
    tmp9 = tmp8.to(tl.int32)
    tmp10 = x1
    tmp11 = tmp10.to(tl.float32)
    tmp12 = tmp11 * tmp7
    tmp13 = tmp12.to(tl.int32)
    tmp14 = tl.load(in_ptr0 + (y0 + 16*tmp13 + 128*tmp9 + 768*tmp4), xmask & ymask).to(tl.float32)
    tmp16 = tmp14 + tmp15
    tmp17 = tl.load(in_ptr2 + (y0 + 16*tmp13 + 128*tmp9 + 768*tmp4), xmask & ymask).to(tl.float32)
    tmp19 = tmp17 + tmp18
    tmp20 = tmp16 + tmp19
    tmp21 = tmp20.to(tl.float32)
    tmp22 = tmp21.to(tl.float32)
    tl.store(out_ptr1 + (y0 + 16*x4), tmp22, xmask & ymask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm_2 => convert_element_type_20, view_4
#   input_2 => convolution_3
#   interpolate => clone_default_6, convert_element_type_19
# Graph fragment:
#   %buf24 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0" = PlaceHolder[target=buf24]
#   %arg12_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg12_1]
#   %as_strided_default_2 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 13824), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %as_strided_default_2, %arg12_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_3, torch.float32), kwargs = {})
#   %view_4 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_20, [1, 4, 4, 384]), kwargs = {})
#   %var_mean_correction_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view_4, [3]), kwargs = {correction: 0, keepdim: True})
#   return %buf25,%buf26,%buf27
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
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__to_copy_convolution_native_group_norm_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 13472, 'r0_': 0}}
)
@triton.jit
def triton_red_fused__to_copy_convolution_native_group_norm_7(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 48
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 16)
    x1 = xindex // 16
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp5_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp5_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp5_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 16*r0_2 + 2048*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
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
    tl.store(out_ptr0 + (x3), tmp5, xmask)
    tl.store(out_ptr1 + (x3), tmp9, xmask)
    tl.store(out_ptr2 + (x3), tmp10, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm_2 => convert_element_type_20, view_4
#   input_2 => convolution_3
#   interpolate => clone_default_6, convert_element_type_19
# Graph fragment:
#   %buf25 : Tensor "f32[1, 4, 4, 1, 3][48, 4, 1, 48, 16]cuda:0" = PlaceHolder[target=buf25]
#   %buf26 : Tensor "f32[1, 4, 4, 1, 3][48, 4, 1, 48, 16]cuda:0" = PlaceHolder[target=buf26]
#   %buf27 : Tensor "f32[1, 4, 4, 1, 3][48, 4, 1, 48, 16]cuda:0" = PlaceHolder[target=buf27]
#   %as_strided_default_2 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 13824), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %as_strided_default_2, %arg12_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_3, torch.float32), kwargs = {})
#   %view_4 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_20, [1, 4, 4, 384]), kwargs = {})
#   %var_mean_correction_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view_4, [3]), kwargs = {correction: 0, keepdim: True})
#   return %getitem_15,%buf29
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy_convolution_native_group_norm_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 832, 'r0_': 0}}
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
    tmp0 = tl.load(in_ptr0 + (x0 + 16*r0_1), r0_mask & xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (x0 + 16*r0_1), r0_mask & xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (x0 + 16*r0_1), r0_mask & xmask, other=0.0)
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
#   %getitem_15 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0" = PlaceHolder[target=getitem_15]
#   %buf29 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=buf29]
#   %mean_dim_11 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 16]cuda:0" = PlaceHolder[target=mean_dim_11]
#   %as_strided_default_2 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 13824), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %as_strided_default_2, %arg12_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_3, torch.float32), kwargs = {})
#   %view_4 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_20, [1, 4, 4, 384]), kwargs = {})
#   %var_mean_correction_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view_4, [3]), kwargs = {correction: 0, keepdim: True})
#   %reshape_default_10 : Tensor "f32[1, 4, 1, 4][16, 4, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_15, [1, 4, 1, 4]), kwargs = {})
#   %expand_default_4 : Tensor "f32[1, 4, 4, 4][16, 4, 0, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%reshape_default_10, [1, 4, 4, 4]), kwargs = {})
#   %reshape_default_11 : Tensor "f32[1, 4, 1, 4][16, 4, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_14, [1, 4, 1, 4]), kwargs = {})
#   %expand_default_5 : Tensor "f32[1, 4, 4, 4][16, 4, 0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%reshape_default_11, [1, 4, 4, 4]), kwargs = {})
#   %mean_dim_10 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mean.dim](args = (%expand_default_4, [3], True), kwargs = {})
#   %clone_default_19 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%mean_dim_10,), kwargs = {})
#   %sub_tensor_5 : Tensor "f32[1, 4, 4, 4][64, 16, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%expand_default_4, %mean_dim_10), kwargs = {})
#   %mul_tensor_5 : Tensor "f32[1, 4, 4, 4][64, 16, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_tensor_5, %sub_tensor_5), kwargs = {})
#   %add_tensor_7 : Tensor "f32[1, 4, 4, 4][64, 16, 4, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%expand_default_5, %mul_tensor_5), kwargs = {})
#   %mean_dim_11 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%add_tensor_7, [3], True), kwargs = {})
#   %add_tensor_8 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_dim_11, 1e-05), kwargs = {})
#   %rsqrt_default_2 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_tensor_8,), kwargs = {})
#   %clone_default_18 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%rsqrt_default_2,), kwargs = {})
#   return %clone_default_19,%mean_dim_11,%clone_default_18
triton_poi_fused__to_copy_convolution_native_group_norm_9 = async_compile.triton('triton_poi_fused__to_copy_convolution_native_group_norm_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_convolution_native_group_norm_9', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 256}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_convolution_native_group_norm_9(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 4
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (4*x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (1 + 4*x1), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr0 + (2 + 4*x1), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr0 + (3 + 4*x1), xmask, eviction_policy='evict_last')
    tmp9 = tl.load(in_ptr1 + (4*x1), xmask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr1 + (1 + 4*x1), xmask, eviction_policy='evict_last')
    tmp21 = tl.load(in_ptr1 + (2 + 4*x1), xmask, eviction_policy='evict_last')
    tmp27 = tl.load(in_ptr1 + (3 + 4*x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 + tmp5
    tmp7 = tl.full([1], 4.0, tl.float32)
    tmp8 = (tmp6 / tmp7)
    tmp10 = tl.full([1], 384.0, tl.float32)
    tmp11 = (tmp9 / tmp10)
    tmp12 = tmp0 - tmp8
    tmp13 = tmp12 * tmp12
    tmp14 = tmp11 + tmp13
    tmp16 = (tmp15 / tmp10)
    tmp17 = tmp1 - tmp8
    tmp18 = tmp17 * tmp17
    tmp19 = tmp16 + tmp18
    tmp20 = tmp14 + tmp19
    tmp22 = (tmp21 / tmp10)
    tmp23 = tmp3 - tmp8
    tmp24 = tmp23 * tmp23
    tmp25 = tmp22 + tmp24
    tmp26 = tmp20 + tmp25
    tmp28 = (tmp27 / tmp10)
    tmp29 = tmp5 - tmp8
    tmp30 = tmp29 * tmp29
    tmp31 = tmp28 + tmp30
    tmp32 = tmp26 + tmp31
    tmp33 = (tmp32 / tmp7)
    tmp34 = tl.full([1], 1e-05, tl.float32)
    tmp35 = tmp33 + tmp34
    tmp36 = libdevice.rsqrt(tmp35)
    tl.store(out_ptr0 + (x2), tmp8, xmask)
    tl.store(in_out_ptr0 + (x2), tmp36, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2, silu_2, h_3], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu]
# Source node to ATen node mapping:
#   group_norm_2 => add_14, convert_element_type_20, mul_10, mul_11, sub_2, unsqueeze_19, unsqueeze_20, unsqueeze_21, unsqueeze_22, unsqueeze_23, unsqueeze_24, unsqueeze_25, unsqueeze_26, view_4, view_5
#   h_3 => convolution_4
#   input_2 => convolution_3
#   interpolate => clone_default_6, convert_element_type_19
#   silu_2 => add_15, clone_default_8, convert_element_type_25, div_2, exp_2, neg_2
# Graph fragment:
#   %buf24 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0" = PlaceHolder[target=buf24]
#   %arg12_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg12_1]
#   %clone_default_19 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0" = PlaceHolder[target=clone_default_19]
#   %clone_default_18 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0" = PlaceHolder[target=clone_default_18]
#   %arg13_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg13_1]
#   %arg14_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg14_1]
#   %add_14 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0" = PlaceHolder[target=add_14]
#   %as_strided_default_2 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 13824), kwargs = {})
#   %as_strided_default_3 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 20736), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %as_strided_default_2, %arg12_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convolution_3, torch.float32), kwargs = {})
#   %view_4 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_20, [1, 4, 4, 384]), kwargs = {})
#   %as_strided_default_11 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%clone_default_19, [1, 4, 4, 1], [16, 4, 1, 1]), kwargs = {})
#   %as_strided_default_10 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%clone_default_18, [1, 4, 4, 1], [16, 4, 1, 1]), kwargs = {})
#   %sub_2 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view_4, %as_strided_default_11), kwargs = {})
#   %mul_10 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %as_strided_default_10), kwargs = {})
#   %view_5 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_10, [1, 16, 2, 12, 16]), kwargs = {})
#   %unsqueeze_19 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg13_1, 0), kwargs = {})
#   %unsqueeze_20 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_19, 2), kwargs = {})
#   %unsqueeze_21 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_20, 3), kwargs = {})
#   %unsqueeze_22 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_21, 4), kwargs = {})
#   %mul_11 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_5, %unsqueeze_22), kwargs = {})
#   %unsqueeze_23 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg14_1, 0), kwargs = {})
#   %unsqueeze_24 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_23, 2), kwargs = {})
#   %unsqueeze_25 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_24, 3), kwargs = {})
#   %unsqueeze_26 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_25, 4), kwargs = {})
#   %add_14 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_11, %unsqueeze_26), kwargs = {})
#   %neg_2 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_14,), kwargs = {})
#   %exp_2 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_2,), kwargs = {})
#   %add_15 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_2, 1), kwargs = {})
#   %div_2 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_14, %add_15), kwargs = {})
#   %convert_element_type_25 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_2, torch.bfloat16), kwargs = {})
#   %clone_default_8 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_25,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_4 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_8, %as_strided_default_3, %arg16_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %add_14,%buf35
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_convolution_native_group_norm_silu_10', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 37088}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_convolution_native_group_norm_silu_10(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 6144
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x3 = xindex
    x0 = (xindex % 16)
    tmp0 = tl.load(in_ptr0 + (x3), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp4 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp11 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp5 = tmp3 - tmp4
    tmp7 = tmp5 * tmp6
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tmp7 * tmp9
    tmp12 = tmp11.to(tl.float32)
    tmp13 = tmp10 + tmp12
    tmp14 = -tmp13
    tmp15 = libdevice.exp(tmp14)
    tmp16 = tl.full([1], 1.0, tl.float32)
    tmp17 = tmp15 + tmp16
    tmp18 = (tmp13 / tmp17)
    tmp19 = tmp18.to(tl.float32)
    tl.store(out_ptr1 + (x3), tmp19, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.silu, aten.add, aten.native_group_norm]
# Source node to ATen node mapping:
#   group_norm_4 => convert_element_type_32, view_8
#   h_4 => convolution_5
#   input_2 => convolution_3
#   input_3 => add_19
#   interpolate => clone_default_6, convert_element_type_19
#   silu_3 => add_18, clone_default_10, convert_element_type_31, div_3, exp_3, neg_3
# Graph fragment:
#   %buf24 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0" = PlaceHolder[target=buf24]
#   %arg12_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg12_1]
#   %buf48 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0" = PlaceHolder[target=buf48]
#   %arg20_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg20_1]
#   %as_strided_default_2 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 13824), kwargs = {})
#   %as_strided_default_4 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 27648), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %as_strided_default_2, %arg12_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %neg_3 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_17,), kwargs = {})
#   %exp_3 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_3,), kwargs = {})
#   %add_18 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_3, 1), kwargs = {})
#   %div_3 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_17, %add_18), kwargs = {})
#   %convert_element_type_31 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_3, torch.bfloat16), kwargs = {})
#   %clone_default_10 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_31,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_5 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_10, %as_strided_default_4, %arg20_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %add_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convolution_3, %convolution_5), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_19, torch.float32), kwargs = {})
#   %view_8 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_32, [1, 4, 4, 384]), kwargs = {})
#   %var_mean_correction_4 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view_8, [3]), kwargs = {correction: 0, keepdim: True})
#   return %buf49,%buf50,%buf51
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
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 25792, 'r0_': 0}}
)
@triton.jit
def triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 48
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 16)
    x1 = xindex // 16
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp4 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp9_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp9_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp9_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 16*r0_2 + 2048*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp3 = tl.load(in_ptr2 + (x0 + 16*r0_2 + 2048*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp2 = tmp0 + tmp1
        tmp5 = tmp3 + tmp4
        tmp6 = tmp2 + tmp5
        tmp7 = tmp6.to(tl.float32)
        tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
        tmp9_mean_next, tmp9_m2_next, tmp9_weight_next = triton_helpers.welford_reduce(
            tmp8, tmp9_mean, tmp9_m2, tmp9_weight, roffset == 0
        )
        tmp9_mean = tl.where(r0_mask & xmask, tmp9_mean_next, tmp9_mean)
        tmp9_m2 = tl.where(r0_mask & xmask, tmp9_m2_next, tmp9_m2)
        tmp9_weight = tl.where(r0_mask & xmask, tmp9_weight_next, tmp9_weight)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp9_mean, tmp9_m2, tmp9_weight, 1)
    tmp9 = tmp10[:, None]
    tmp13 = tmp11[:, None]
    tmp14 = tmp12[:, None]
    tl.store(out_ptr0 + (x3), tmp9, xmask)
    tl.store(out_ptr1 + (x3), tmp13, xmask)
    tl.store(out_ptr2 + (x3), tmp14, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [interpolate, input_2, silu_3, h_4, input_3, group_norm_4, silu_4, conv3d_6], Original ATen: [aten._to_copy, aten.convolution, aten.silu, aten.add, aten.native_group_norm]
# Source node to ATen node mapping:
#   conv3d_6 => convolution_6
#   group_norm_4 => add_21, convert_element_type_32, mul_14, mul_15, sub_4, unsqueeze_35, unsqueeze_36, unsqueeze_37, unsqueeze_38, unsqueeze_39, unsqueeze_40, unsqueeze_41, unsqueeze_42, view_8, view_9
#   h_4 => convolution_5
#   input_2 => convolution_3
#   input_3 => add_19
#   interpolate => clone_default_6, convert_element_type_19
#   silu_3 => add_18, clone_default_10, convert_element_type_31, div_3, exp_3, neg_3
#   silu_4 => add_22, clone_default_12, convert_element_type_37, div_4, exp_4, neg_4
# Graph fragment:
#   %buf24 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0" = PlaceHolder[target=buf24]
#   %arg12_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg12_1]
#   %buf48 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0" = PlaceHolder[target=buf48]
#   %arg20_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg20_1]
#   %clone_default_23 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0" = PlaceHolder[target=clone_default_23]
#   %clone_default_22 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0" = PlaceHolder[target=clone_default_22]
#   %arg21_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg21_1]
#   %arg22_1 : Tensor "bf16[16][1]cuda:0" = PlaceHolder[target=arg22_1]
#   %add_21 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0" = PlaceHolder[target=add_21]
#   %as_strided_default_2 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 13824), kwargs = {})
#   %as_strided_default_4 : Tensor "bf16[16, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [16, 16, 3, 3, 3], [432, 1, 144, 48, 16], 27648), kwargs = {})
#   %as_strided_default_5 : Tensor "bf16[3, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [3, 16, 3, 3, 3], [432, 1, 144, 48, 16], 34560), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 384, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%_unsafe_index, torch.bfloat16), kwargs = {})
#   %clone_default_6 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_19,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_3 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_6, %as_strided_default_2, %arg12_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %neg_3 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_17,), kwargs = {})
#   %exp_3 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_3,), kwargs = {})
#   %add_18 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_3, 1), kwargs = {})
#   %div_3 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_17, %add_18), kwargs = {})
#   %convert_element_type_31 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_3, torch.bfloat16), kwargs = {})
#   %clone_default_10 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_31,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_5 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_10, %as_strided_default_4, %arg20_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   %add_19 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convolution_3, %convolution_5), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_19, torch.float32), kwargs = {})
#   %view_8 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_32, [1, 4, 4, 384]), kwargs = {})
#   %as_strided_default_15 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%clone_default_23, [1, 4, 4, 1], [16, 4, 1, 1]), kwargs = {})
#   %as_strided_default_14 : Tensor "f32[1, 4, 4, 1][16, 4, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%clone_default_22, [1, 4, 4, 1], [16, 4, 1, 1]), kwargs = {})
#   %sub_4 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view_8, %as_strided_default_15), kwargs = {})
#   %mul_14 : Tensor "f32[1, 4, 4, 384][6144, 4, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_4, %as_strided_default_14), kwargs = {})
#   %view_9 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_14, [1, 16, 2, 12, 16]), kwargs = {})
#   %unsqueeze_35 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg21_1, 0), kwargs = {})
#   %unsqueeze_36 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_35, 2), kwargs = {})
#   %unsqueeze_37 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_36, 3), kwargs = {})
#   %unsqueeze_38 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_37, 4), kwargs = {})
#   %mul_15 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_9, %unsqueeze_38), kwargs = {})
#   %unsqueeze_39 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg22_1, 0), kwargs = {})
#   %unsqueeze_40 : Tensor "bf16[1, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_39, 2), kwargs = {})
#   %unsqueeze_41 : Tensor "bf16[1, 16, 1, 1][16, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_40, 3), kwargs = {})
#   %unsqueeze_42 : Tensor "bf16[1, 16, 1, 1, 1][16, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_41, 4), kwargs = {})
#   %add_21 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_15, %unsqueeze_42), kwargs = {})
#   %neg_4 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_21,), kwargs = {})
#   %exp_4 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_4,), kwargs = {})
#   %add_22 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_4, 1), kwargs = {})
#   %div_4 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_21, %add_22), kwargs = {})
#   %convert_element_type_37 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_4, torch.bfloat16), kwargs = {})
#   %clone_default_12 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_37,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_6 : Tensor "bf16[1, 3, 2, 12, 16][1152, 1, 576, 48, 3]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_12, %as_strided_default_5, %arg24_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %add_21,%buf59
triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12 = async_compile.triton('triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8192}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*bf16', 'in_ptr7': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 49408}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 6144
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x3 = xindex
    x0 = (xindex % 16)
    tmp0 = tl.load(in_ptr0 + (x3), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp3 = tl.load(in_ptr2 + (x3), xmask).to(tl.float32)
    tmp4 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp8 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr6 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp15 = tl.load(in_ptr7 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp5 = tmp3 + tmp4
    tmp6 = tmp2 + tmp5
    tmp7 = tmp6.to(tl.float32)
    tmp9 = tmp7 - tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp12.to(tl.float32)
    tmp14 = tmp11 * tmp13
    tmp16 = tmp15.to(tl.float32)
    tmp17 = tmp14 + tmp16
    tmp18 = -tmp17
    tmp19 = libdevice.exp(tmp18)
    tmp20 = tl.full([1], 1.0, tl.float32)
    tmp21 = tmp19 + tmp20
    tmp22 = (tmp17 / tmp21)
    tmp23 = tmp22.to(tl.float32)
    tl.store(out_ptr1 + (x3), tmp23, xmask)
''', device_str='cuda')


# kernel path: <kernel-path>
# Topologically Sorted Source Nodes: [silu_4, conv3d_6], Original ATen: [aten.silu, aten.convolution]
# Source node to ATen node mapping:
#   conv3d_6 => convolution_6
#   silu_4 => add_22, clone_default_12, convert_element_type_37, div_4, exp_4, neg_4
# Graph fragment:
#   %buf60 : Tensor "bf16[1, 3, 2, 12, 16][1152, 1, 576, 48, 3]cuda:0" = PlaceHolder[target=buf60]
#   %arg24_1 : Tensor "bf16[3][1]cuda:0" = PlaceHolder[target=arg24_1]
#   %as_strided_default_5 : Tensor "bf16[3, 16, 3, 3, 3][432, 1, 144, 48, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%cat_default, [3, 16, 3, 3, 3], [432, 1, 144, 48, 16], 34560), kwargs = {})
#   %neg_4 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_21,), kwargs = {})
#   %exp_4 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_4,), kwargs = {})
#   %add_22 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_4, 1), kwargs = {})
#   %div_4 : Tensor "f32[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_21, %add_22), kwargs = {})
#   %convert_element_type_37 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_4, torch.bfloat16), kwargs = {})
#   %clone_default_12 : Tensor "bf16[1, 16, 2, 12, 16][6144, 1, 3072, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%convert_element_type_37,), kwargs = {memory_format: torch.channels_last_3d})
#   %convolution_6 : Tensor "bf16[1, 3, 2, 12, 16][1152, 1, 576, 48, 3]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%clone_default_12, %as_strided_default_5, %arg24_1, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
#   return %convolution_6
triton_poi_fused_convolution_silu_13 = async_compile.triton('triton_poi_fused_convolution_silu_13', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4, 'x': 512}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_silu_13', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 866, 'x': 4608}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_silu_13(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 3
    xnumel = 384
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + 3*x1), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (y0), ymask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x1 + 384*y0), tmp2, xmask & ymask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1 = args
        args.clear()
        assert_size_stride(arg0_1, (16, 4, 3, 3, 3), (108, 27, 9, 3, 1))
        assert_size_stride(arg1_1, (16, ), (1, ))
        assert_size_stride(arg2_1, (1, 4, 2, 6, 8), (384, 96, 48, 8, 1))
        assert_size_stride(arg3_1, (16, ), (1, ))
        assert_size_stride(arg4_1, (16, ), (1, ))
        assert_size_stride(arg5_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1))
        assert_size_stride(arg6_1, (16, ), (1, ))
        assert_size_stride(arg7_1, (16, ), (1, ))
        assert_size_stride(arg8_1, (16, ), (1, ))
        assert_size_stride(arg9_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1))
        assert_size_stride(arg10_1, (16, ), (1, ))
        assert_size_stride(arg11_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1))
        assert_size_stride(arg12_1, (16, ), (1, ))
        assert_size_stride(arg13_1, (16, ), (1, ))
        assert_size_stride(arg14_1, (16, ), (1, ))
        assert_size_stride(arg15_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1))
        assert_size_stride(arg16_1, (16, ), (1, ))
        assert_size_stride(arg17_1, (16, ), (1, ))
        assert_size_stride(arg18_1, (16, ), (1, ))
        assert_size_stride(arg19_1, (16, 16, 3, 3, 3), (432, 27, 9, 3, 1))
        assert_size_stride(arg20_1, (16, ), (1, ))
        assert_size_stride(arg21_1, (16, ), (1, ))
        assert_size_stride(arg22_1, (16, ), (1, ))
        assert_size_stride(arg23_1, (3, 16, 3, 3, 3), (432, 27, 9, 3, 1))
        assert_size_stride(arg24_1, (3, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1, 4, 2, 6, 8), (384, 1, 192, 32, 4), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_0.run(arg2_1, buf0, 4, 96, stream=stream0)
            del arg2_1
            buf1 = empty_strided_cuda((16, 4, 3, 3, 3), (108, 1, 36, 12, 4), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_1.run(arg0_1, buf1, 64, 27, stream=stream0)
            del arg0_1
            # Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
            buf2 = extern_kernels.convolution(buf0, buf1, stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf2, (1, 16, 2, 6, 8), (1536, 1, 768, 128, 16), 'torch.ops.aten.convolution.default')
            del buf0
            del buf1
            buf3 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 1), torch.float32)
            buf4 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 16), torch.float32)
            # Topologically Sorted Source Nodes: [h, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused_convolution_native_group_norm_2.run(buf2, arg1_1, buf3, buf4, 16, 96, stream=stream0)
            buf6 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 1), torch.float32)
            buf7 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 16), torch.float32)
            buf8 = reinterpret_tensor(buf7, (1, 4, 4, 1), (16, 4, 1, 1), 0); del buf7  # reuse
            # Topologically Sorted Source Nodes: [h, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_3.run(buf8, buf3, buf4, buf6, 16, stream=stream0)
            buf11 = empty_strided_cuda((1, 16, 2, 6, 8), (1536, 1, 768, 128, 16), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h, group_norm, silu, h_1], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_4.run(buf2, arg1_1, buf6, buf8, arg3_1, arg4_1, buf11, 1536, stream=stream0)
            del arg3_1
            del arg4_1
            buf10 = empty_strided_cuda((2241, 16), (16, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [], Original ATen: []
            stream0 = get_raw_stream(0)
            triton_poi_fused_5.run(arg5_1, arg9_1, arg11_1, arg15_1, arg19_1, arg23_1, buf10, 2241, 16, stream=stream0)
            del arg11_1
            del arg15_1
            del arg19_1
            del arg23_1
            del arg5_1
            del arg9_1
            # Topologically Sorted Source Nodes: [silu, h_1], Original ATen: [aten.silu, aten.convolution]
            buf12 = extern_kernels.convolution(buf11, reinterpret_tensor(buf10, (16, 16, 3, 3, 3), (432, 1, 144, 48, 16), 0), stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf12, (1, 16, 2, 6, 8), (1536, 1, 768, 128, 16), 'torch.ops.aten.convolution.default')
            buf13 = buf8; del buf8  # reuse
            buf14 = reinterpret_tensor(buf6, (1, 4, 4, 1), (16, 4, 1, 16), 0); del buf6  # reuse
            # Topologically Sorted Source Nodes: [silu, h_1, group_norm_1], Original ATen: [aten.silu, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused_convolution_native_group_norm_2.run(buf12, arg6_1, buf13, buf14, 16, 96, stream=stream0)
            buf16 = reinterpret_tensor(buf4, (1, 4, 4, 1), (16, 4, 1, 1), 0); del buf4  # reuse
            buf17 = reinterpret_tensor(buf3, (1, 4, 4, 1), (16, 4, 1, 16), 0); del buf3  # reuse
            buf18 = reinterpret_tensor(buf17, (1, 4, 4, 1), (16, 4, 1, 1), 0); del buf17  # reuse
            # Topologically Sorted Source Nodes: [silu, h_1, group_norm_1], Original ATen: [aten.silu, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_3.run(buf18, buf13, buf14, buf16, 16, stream=stream0)
            buf20 = buf11; del buf11  # reuse
            # Topologically Sorted Source Nodes: [silu, h_1, group_norm_1, silu_1, h_2], Original ATen: [aten.silu, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_native_group_norm_silu_4.run(buf12, arg6_1, buf16, buf18, arg7_1, arg8_1, buf20, 1536, stream=stream0)
            del arg6_1
            del arg7_1
            del arg8_1
            del buf12
            # Topologically Sorted Source Nodes: [silu_1, h_2], Original ATen: [aten.silu, aten.convolution]
            buf21 = extern_kernels.convolution(buf20, reinterpret_tensor(buf10, (16, 16, 3, 3, 3), (432, 1, 144, 48, 16), 6912), stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf21, (1, 16, 2, 6, 8), (1536, 1, 768, 128, 16), 'torch.ops.aten.convolution.default')
            del buf20
            buf23 = empty_strided_cuda((1, 16, 2, 12, 16), (6144, 1, 3072, 256, 16), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h, silu_1, h_2, input_1, interpolate, input_2], Original ATen: [aten.convolution, aten.silu, aten.add, aten._to_copy, aten.arange, aten.mul, aten.unsqueeze, aten._unsafe_index]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy__unsafe_index_add_arange_convolution_mul_silu_unsqueeze_6.run(buf2, arg1_1, buf21, arg10_1, buf23, 16, 384, stream=stream0)
            del arg10_1
            del arg1_1
            del buf2
            del buf21
            # Topologically Sorted Source Nodes: [interpolate, input_2], Original ATen: [aten._to_copy, aten.convolution]
            buf24 = extern_kernels.convolution(buf23, reinterpret_tensor(buf10, (16, 16, 3, 3, 3), (432, 1, 144, 48, 16), 13824), stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf24, (1, 16, 2, 12, 16), (6144, 1, 3072, 256, 16), 'torch.ops.aten.convolution.default')
            buf25 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            buf26 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            buf27 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_convolution_native_group_norm_7.run(buf24, arg12_1, buf25, buf26, buf27, 48, 128, stream=stream0)
            buf28 = buf18; del buf18  # reuse
            buf29 = reinterpret_tensor(buf16, (1, 4, 4, 1), (16, 4, 1, 16), 0); del buf16  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_convolution_native_group_norm_8.run(buf25, buf26, buf27, buf28, buf29, 16, 3, stream=stream0)
            buf31 = reinterpret_tensor(buf14, (1, 4, 4, 1), (16, 4, 1, 1), 0); del buf14  # reuse
            buf32 = reinterpret_tensor(buf13, (1, 4, 4, 1), (16, 4, 1, 16), 0); del buf13  # reuse
            buf33 = reinterpret_tensor(buf32, (1, 4, 4, 1), (16, 4, 1, 1), 0); del buf32  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_9.run(buf33, buf28, buf29, buf31, 16, stream=stream0)
            buf35 = buf23; del buf23  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, group_norm_2, silu_2, h_3], Original ATen: [aten._to_copy, aten.convolution, aten.native_group_norm, aten.silu]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_silu_10.run(buf24, arg12_1, buf31, buf33, arg13_1, arg14_1, buf35, 6144, stream=stream0)
            del arg13_1
            del arg14_1
            # Topologically Sorted Source Nodes: [silu_2, h_3], Original ATen: [aten.silu, aten.convolution]
            buf36 = extern_kernels.convolution(buf35, reinterpret_tensor(buf10, (16, 16, 3, 3, 3), (432, 1, 144, 48, 16), 20736), stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf36, (1, 16, 2, 12, 16), (6144, 1, 3072, 256, 16), 'torch.ops.aten.convolution.default')
            buf37 = buf27; del buf27  # reuse
            buf38 = buf26; del buf26  # reuse
            buf39 = buf25; del buf25  # reuse
            # Topologically Sorted Source Nodes: [silu_2, h_3, group_norm_3], Original ATen: [aten.silu, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_convolution_native_group_norm_7.run(buf36, arg16_1, buf37, buf38, buf39, 48, 128, stream=stream0)
            buf40 = buf33; del buf33  # reuse
            buf41 = reinterpret_tensor(buf31, (1, 4, 4, 1), (16, 4, 1, 16), 0); del buf31  # reuse
            # Topologically Sorted Source Nodes: [silu_2, h_3, group_norm_3], Original ATen: [aten.silu, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_convolution_native_group_norm_8.run(buf37, buf38, buf39, buf40, buf41, 16, 3, stream=stream0)
            del buf37
            del buf38
            del buf39
            buf43 = reinterpret_tensor(buf29, (1, 4, 4, 1), (16, 4, 1, 1), 0); del buf29  # reuse
            buf44 = reinterpret_tensor(buf28, (1, 4, 4, 1), (16, 4, 1, 16), 0); del buf28  # reuse
            buf45 = reinterpret_tensor(buf44, (1, 4, 4, 1), (16, 4, 1, 1), 0); del buf44  # reuse
            # Topologically Sorted Source Nodes: [silu_2, h_3, group_norm_3], Original ATen: [aten.silu, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_9.run(buf45, buf40, buf41, buf43, 16, stream=stream0)
            del buf40
            del buf41
            buf47 = buf35; del buf35  # reuse
            # Topologically Sorted Source Nodes: [silu_2, h_3, group_norm_3, silu_3, h_4], Original ATen: [aten.silu, aten.convolution, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_silu_10.run(buf36, arg16_1, buf43, buf45, arg17_1, arg18_1, buf47, 6144, stream=stream0)
            del arg16_1
            del arg17_1
            del arg18_1
            del buf36
            # Topologically Sorted Source Nodes: [silu_3, h_4], Original ATen: [aten.silu, aten.convolution]
            buf48 = extern_kernels.convolution(buf47, reinterpret_tensor(buf10, (16, 16, 3, 3, 3), (432, 1, 144, 48, 16), 27648), stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf48, (1, 16, 2, 12, 16), (6144, 1, 3072, 256, 16), 'torch.ops.aten.convolution.default')
            buf49 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            buf50 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            buf51 = empty_strided_cuda((1, 4, 4, 1, 3), (48, 4, 1, 48, 16), torch.float32)
            # Topologically Sorted Source Nodes: [interpolate, input_2, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.silu, aten.add, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_add_convolution_native_group_norm_silu_11.run(buf24, arg12_1, buf48, arg20_1, buf49, buf50, buf51, 48, 128, stream=stream0)
            buf52 = buf45; del buf45  # reuse
            buf53 = reinterpret_tensor(buf43, (1, 4, 4, 1), (16, 4, 1, 16), 0); del buf43  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.silu, aten.add, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_convolution_native_group_norm_8.run(buf49, buf50, buf51, buf52, buf53, 16, 3, stream=stream0)
            del buf49
            del buf50
            del buf51
            buf55 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 1), torch.float32)
            buf56 = empty_strided_cuda((1, 4, 4, 1), (16, 4, 1, 16), torch.float32)
            buf57 = reinterpret_tensor(buf56, (1, 4, 4, 1), (16, 4, 1, 1), 0); del buf56  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, silu_3, h_4, input_3, group_norm_4], Original ATen: [aten._to_copy, aten.convolution, aten.silu, aten.add, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_convolution_native_group_norm_9.run(buf57, buf52, buf53, buf55, 16, stream=stream0)
            del buf52
            del buf53
            buf59 = buf47; del buf47  # reuse
            # Topologically Sorted Source Nodes: [interpolate, input_2, silu_3, h_4, input_3, group_norm_4, silu_4, conv3d_6], Original ATen: [aten._to_copy, aten.convolution, aten.silu, aten.add, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_convolution_native_group_norm_silu_12.run(buf24, arg12_1, buf48, arg20_1, buf55, buf57, arg21_1, arg22_1, buf59, 6144, stream=stream0)
            del arg12_1
            del arg20_1
            del arg21_1
            del arg22_1
            del buf24
            del buf48
            del buf55
            del buf57
            # Topologically Sorted Source Nodes: [silu_4, conv3d_6], Original ATen: [aten.silu, aten.convolution]
            buf60 = extern_kernels.convolution(buf59, reinterpret_tensor(buf10, (3, 16, 3, 3, 3), (432, 1, 144, 48, 16), 34560), stride=(1, 1, 1), padding=(1, 1, 1), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0), groups=1, bias=None)
            assert_size_stride(buf60, (1, 3, 2, 12, 16), (1152, 1, 576, 48, 3), 'torch.ops.aten.convolution.default')
            del buf10
            del buf59
            buf61 = empty_strided_cuda((1, 3, 2, 12, 16), (1152, 384, 192, 16, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [silu_4, conv3d_6], Original ATen: [aten.silu, aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_silu_13.run(buf60, arg24_1, buf61, 3, 384, stream=stream0)
            del arg24_1
            del buf60
        return (buf61, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((16, 4, 3, 3, 3), (108, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg1_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg2_1 = rand_strided((1, 4, 2, 6, 8), (384, 96, 48, 8, 1), device='cuda:0', dtype=torch.bfloat16)
    arg3_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg4_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg9_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg10_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg11_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg12_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg13_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg14_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg15_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg16_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg17_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg18_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg19_1 = rand_strided((16, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg20_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg21_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg22_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg23_1 = rand_strided((3, 16, 3, 3, 3), (432, 27, 9, 3, 1), device='cuda:0', dtype=torch.bfloat16)
    arg24_1 = rand_strided((3, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
