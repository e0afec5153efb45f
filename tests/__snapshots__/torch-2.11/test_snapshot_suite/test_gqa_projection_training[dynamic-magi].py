# ruff: noqa
# pytest-magi snapshot (torch-2.11): Inductor's generated code, normalised. Update: pytest --snapshot-update
# ===== graph 0: forward =====
# AOT ID: ['N_forward']
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
# Topologically Sorted Source Nodes: [view, grouped, pow_1, sum_sq, truediv, add, rsqrt, normed, to], Original ATen: [aten.view, aten._to_copy, aten.pow, aten.sum, aten.div, aten.add, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   add => add_30
#   grouped => convert_element_type
#   normed => mul_27
#   pow_1 => pow_1
#   rsqrt => rsqrt
#   sum_sq => sum_1
#   to => convert_element_type_1
#   truediv => div
#   view => view
# Graph fragment:
#   %primals_3 : Tensor "bf16[2, 16, s0, s1][16*s0*s1, s0*s1, s1, 1]cuda:0" = PlaceHolder[target=primals_3]
#   %sum_1 : Tensor "f32[2, 16, 4, (s0//4), 1][64*((s0//4)), 4*((s0//4)), (s0//4), 1, 128*((s0//4))]cuda:0" = PlaceHolder[target=sum_1]
#   %rsqrt : Tensor "f32[2, 16, 4, (s0//4), 1][64*((s0//4)), 4*((s0//4)), (s0//4), 1, 1]cuda:0" = PlaceHolder[target=rsqrt]
#   %view : Tensor "bf16[2, 16, 4, (s0//4), s1][16*s0*s1, s0*s1, s1*((s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%primals_3, [2, 16, 4, %floordiv, %primals_2]), kwargs = {})
#   %convert_element_type : Tensor "f32[2, 16, 4, (s0//4), s1][16*s0*s1, s0*s1, s1*((s0//4)), s1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %sum_1 : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%pow_1, [-1], True), kwargs = {})
#   %div : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%sum_1, %primals_2), kwargs = {})
#   %add_30 : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%div, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[2, 16, 4, (s0//4), 1][64*((s0//4)), 4*((s0//4)), (s0//4), 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_30,), kwargs = {})
#   %mul_27 : Tensor "f32[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, %rsqrt), kwargs = {})
#   %convert_element_type_1 : Tensor "bf16[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_27, torch.bfloat16), kwargs = {})
#   return %sum_1,%rsqrt,%convert_element_type_1
triton_red_fused__to_copy_add_div_mul_pow_rsqrt_sum_view_0 = async_compile.triton('triton_red_fused__to_copy_add_div_mul_pow_rsqrt_sum_view_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 256, 'r0_': 8},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__to_copy_add_div_mul_pow_rsqrt_sum_view_0', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2048, 'r0_': 12288}}
)
@triton.jit
def triton_red_fused__to_copy_add_div_mul_pow_rsqrt_sum_view_0(in_out_ptr0, in_ptr0, out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tmp1 * tmp1
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp5 = _tmp4 + tmp3
        _tmp4 = tl.where(r0_mask & xmask, tmp5, _tmp4)
    tmp4 = tl.sum(_tmp4, 1)[:, None]
    tmp6 = ks0
    tmp7 = tmp6.to(tl.float32)
    tmp8 = (tmp4 / tmp7)
    tmp9 = tl.full([1, 1], 1e-06, tl.float32)
    tmp10 = tmp8 + tmp9
    tmp11 = libdevice.rsqrt(tmp10)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp11, xmask)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp12 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp13 = tmp12.to(tl.float32)
        tmp14 = tmp13 * tmp11
        tmp15 = tmp14.to(tl.float32)
        tl.store(out_ptr0 + (r0_1 + ks0*x0), tmp15, r0_mask & xmask)
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
        primals_1, primals_2, primals_3 = args
        args.clear()
        s0 = primals_1
        s1 = primals_2
        assert_size_stride(primals_3, (2, 16, s0, s1), (16*s0*s1, s0*s1, s1, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((2, 16, 4, s0 // 4, 1), (64*(s0 // 4), 4*(s0 // 4), s0 // 4, 1, 128*(s0 // 4)), torch.float32)
            buf1 = reinterpret_tensor(buf0, (2, 16, 4, s0 // 4, 1), (64*(s0 // 4), 4*(s0 // 4), s0 // 4, 1, 1), 0); del buf0  # reuse
            buf2 = empty_strided_cuda((2, 16, 4, s0 // 4, s1), (64*s1*(s0 // 4), 4*s1*(s0 // 4), s1*(s0 // 4), s1, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [view, grouped, pow_1, sum_sq, truediv, add, rsqrt, normed, to], Original ATen: [aten.view, aten._to_copy, aten.pow, aten.sum, aten.div, aten.add, aten.rsqrt, aten.mul]
            triton_red_fused__to_copy_add_div_mul_pow_rsqrt_sum_view_0_xnumel = 128*(s0 // 4)
            stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_add_div_mul_pow_rsqrt_sum_view_0.run(buf1, primals_3, buf2, s1, triton_red_fused__to_copy_add_div_mul_pow_rsqrt_sum_view_0_xnumel, s1, stream=stream0)
        return (reinterpret_tensor(buf2, (2, 16, 4*(s0 // 4), s1), (64*s1*(s0 // 4), 4*s1*(s0 // 4), s1, 1), 0), primals_3, buf1, s0, s1, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = 8
    primals_2 = 8
    primals_3 = rand_strided((2, 16, 8, 8), (1024, 64, 8, 1), device='cuda:0', dtype=torch.bfloat16)
    return [primals_1, primals_2, primals_3]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))

# ===== graph 1: backward =====
# AOT ID: ['N_backward']
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
# Topologically Sorted Source Nodes: [view_2, convert_element_type_2, view, grouped, mul_39, mul_40, sum_2, pow_2, mul_41, mul_42, div_1, expand, pow_3, mul_43, mul_44, add_66, convert_element_type_3], Original ATen: [aten.view, aten._to_copy, aten.mul, aten.sum, aten.pow, aten.div, aten.expand, aten.add]
# Source node to ATen node mapping:
#   add_66 => add_66
#   convert_element_type_2 => convert_element_type_2
#   convert_element_type_3 => convert_element_type_3
#   div_1 => div_1
#   expand => expand
#   grouped => convert_element_type
#   mul_39 => mul_39
#   mul_40 => mul_40
#   mul_41 => mul_41
#   mul_42 => mul_42
#   mul_43 => mul_43
#   mul_44 => mul_44
#   pow_2 => pow_2
#   pow_3 => pow_3
#   sum_2 => sum_2
#   view => view
#   view_2 => view_2
# Graph fragment:
#   %tangents_1 : Tensor "bf16[2, 16, 4*((s0//4)), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1, 1]cuda:0" = PlaceHolder[target=tangents_1]
#   %primals_3 : Tensor "bf16[2, 16, s0, s1][16*s0*s1, s0*s1, s1, 1]cuda:0" = PlaceHolder[target=primals_3]
#   %rsqrt : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0" = PlaceHolder[target=rsqrt]
#   %sum_2 : Tensor "f32[2, 16, 4, (s0//4), 1][64*((s0//4)), 4*((s0//4)), (s0//4), 1, 128*((s0//4))]cuda:0" = PlaceHolder[target=sum_2]
#   %view_2 : Tensor "bf16[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*((s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%tangents_1, [2, 16, 4, %floordiv, %primals_2]), kwargs = {})
#   %convert_element_type_2 : Tensor "f32[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*((s0//4)), s1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_2, torch.float32), kwargs = {})
#   %view : Tensor "bf16[2, 16, 4, (s0//4), s1][16*s0*s1, s0*s1, s1*((s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%primals_3, [2, 16, 4, %floordiv, %primals_2]), kwargs = {})
#   %convert_element_type : Tensor "f32[2, 16, 4, (s0//4), s1][16*s0*s1, s0*s1, s1*((s0//4)), s1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view, torch.float32), kwargs = {})
#   %mul_39 : Tensor "f32[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_2, %convert_element_type), kwargs = {})
#   %mul_40 : Tensor "f32[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_2, %rsqrt), kwargs = {})
#   %sum_2 : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_39, [4], True), kwargs = {})
#   %pow_2 : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%rsqrt, 3), kwargs = {})
#   %mul_41 : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%sum_2, -0.5), kwargs = {})
#   %mul_42 : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_41, %pow_2), kwargs = {})
#   %div_1 : Tensor "f32[2, 16, 4, (s0//4), 1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%mul_42, %primals_2), kwargs = {})
#   %expand : Tensor "f32[2, 16, 4, (s0//4), s1][64*Max(1, (s0//4)), 4*Max(1, (s0//4)), Max(1, (s0//4)), 1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%div_1, [2, 16, 4, %floordiv, %primals_2]), kwargs = {})
#   %pow_3 : Tensor "f32[2, 16, 4, (s0//4), s1][16*s0*s1, s0*s1, s1*((s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 1.0), kwargs = {})
#   %mul_43 : Tensor "f32[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_3, 2.0), kwargs = {})
#   %mul_44 : Tensor "f32[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%expand, %mul_43), kwargs = {})
#   %add_66 : Tensor "f32[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_40, %mul_44), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[2, 16, 4, (s0//4), s1][64*s1*Max(1, (s0//4)), 4*s1*Max(1, (s0//4)), s1*Max(1, (s0//4)), s1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_66, torch.bfloat16), kwargs = {})
#   return %sum_2,%convert_element_type_3
triton_red_fused__to_copy_add_div_expand_mul_pow_sum_view_0 = async_compile.triton('triton_red_fused__to_copy_add_div_expand_mul_pow_sum_view_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 256, 'r0_': 8},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'out_ptr1': '*bf16', 'ks0': 'i64', 'ks1': 'i64', 'ks2': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__to_copy_add_div_expand_mul_pow_sum_view_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '<backend-hash>', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1024, 'r0_': 16384}}
)
@triton.jit
def triton_red_fused__to_copy_add_div_expand_mul_pow_sum_view_0(in_ptr0, in_ptr1, in_ptr2, out_ptr1, ks0, ks1, ks2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp6 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr1 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp3 = tmp2.to(tl.float32)
        tmp4 = tmp1 * tmp3
        tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
        tmp7 = _tmp6 + tmp5
        _tmp6 = tl.where(r0_mask & xmask, tmp7, _tmp6)
    tmp6 = tl.sum(_tmp6, 1)[:, None]
    x2 = (xindex % ks1)
    x3 = xindex // ks1
    tmp10 = tl.load(in_ptr2 + (x2 + x3*((1) * ((1) >= (ks2 // 4)) + (ks2 // 4) * ((ks2 // 4) > (1)))), xmask, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr2 + (x2 + x3*((1) * ((1) >= (ks1)) + (ks1) * ((ks1) > (1)))), xmask, eviction_policy='evict_last')
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp8 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp21 = tl.load(in_ptr1 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp9 = tmp8.to(tl.float32)
        tmp11 = tmp9 * tmp10
        tmp12 = tl.full([1, 1], -0.5, tl.float32)
        tmp13 = tmp6 * tmp12
        tmp15 = tmp14 * tmp14
        tmp16 = tmp15 * tmp14
        tmp17 = tmp13 * tmp16
        tmp18 = ks0
        tmp19 = tmp18.to(tl.float32)
        tmp20 = (tmp17 / tmp19)
        tmp22 = tmp21.to(tl.float32)
        tmp23 = tl.full([1, 1], 2.0, tl.float32)
        tmp24 = tmp22 * tmp23
        tmp25 = tmp20 * tmp24
        tmp26 = tmp11 + tmp25
        tmp27 = tmp26.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + ks0*x0), tmp27, r0_mask & xmask)
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
        primals_1, primals_2, primals_3, rsqrt, tangents_1 = args
        args.clear()
        s0 = primals_1
        s1 = primals_2
        assert_size_stride(primals_3, (2, 16, s0, s1), (16*s0*s1, s0*s1, s1, 1))
        assert_size_stride(rsqrt, (2, 16, 4, s0 // 4, 1), (64*max(1, s0 // 4), 4*max(1, s0 // 4), max(1, s0 // 4), 1, 1))
        assert_size_stride(tangents_1, (2, 16, 4*(s0 // 4), s1), (64*s1*max(1, s0 // 4), 4*s1*max(1, s0 // 4), s1, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            ps0 = s0 // 4
            buf1 = empty_strided_cuda((2, 16, 4, s0 // 4, s1), (64*s1*(s0 // 4), 4*s1*(s0 // 4), s1*(s0 // 4), s1, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [view_2, convert_element_type_2, view, grouped, mul_39, mul_40, sum_2, pow_2, mul_41, mul_42, div_1, expand, pow_3, mul_43, mul_44, add_66, convert_element_type_3], Original ATen: [aten.view, aten._to_copy, aten.mul, aten.sum, aten.pow, aten.div, aten.expand, aten.add]
            triton_red_fused__to_copy_add_div_expand_mul_pow_sum_view_0_xnumel = 128*(s0 // 4)
            stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_add_div_expand_mul_pow_sum_view_0.run(tangents_1, primals_3, rsqrt, buf1, s1, ps0, s0, triton_red_fused__to_copy_add_div_expand_mul_pow_sum_view_0_xnumel, s1, stream=stream0)
            del primals_3
            del rsqrt
            del tangents_1
        return (None, None, reinterpret_tensor(buf1, (2, 16, 4*(s0 // 4), s1), (64*s1*(s0 // 4), 4*s1*(s0 // 4), s1, 1), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = 8
    primals_2 = 8
    primals_3 = rand_strided((2, 16, 8, 8), (1024, 64, 8, 1), device='cuda:0', dtype=torch.bfloat16)
    rsqrt = rand_strided((2, 16, 4, 2, 1), (128, 8, 2, 1, 1), device='cuda:0', dtype=torch.float32)
    tangents_1 = rand_strided((2, 16, 8, 8), (1024, 64, 8, 1), device='cuda:0', dtype=torch.bfloat16)
    return [primals_1, primals_2, primals_3, rsqrt, tangents_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
