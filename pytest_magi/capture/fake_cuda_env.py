"""What `fake_cuda()` patches: an H100-like device (`FakeDeviceProperties`) answered by
`torch.cuda` and dynamo's `CudaInterface`, a triton driver whose target is sm 90, cuDNN's layout
choice for convolutions, and the device caches cleared on entry and exit."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import unittest.mock as mock
from collections.abc import Callable
from typing import Any

import torch


@dataclasses.dataclass(frozen=True)
class FakeDeviceProperties:
    """What ``torch.cuda.get_device_properties`` answers under :func:`fake_cuda`.

    The defaults describe an NVIDIA H100 SXM (sm 9.0). Every attribute Inductor
    and Triton read from ``torch._C._CudaDeviceProperties`` is present.
    """

    name: str = "NVIDIA H100 80GB HBM3 (fake)"
    major: int = 9
    minor: int = 0
    multi_processor_count: int = 132
    regs_per_multiprocessor: int = 65536
    max_threads_per_multi_processor: int = 2048
    max_threads_per_block: int = 1024
    warp_size: int = 32
    total_memory: int = 85_520_809_984
    L2_cache_size: int = 52_428_800
    shared_memory_per_block: int = 49_152
    shared_memory_per_block_optin: int = 232_448
    shared_memory_per_multiprocessor: int = 233_472
    clock_rate: int = 1_980_000
    memory_clock_rate: int = 2_619_000
    memory_bus_width: int = 5120
    is_integrated: bool = False
    is_multi_gpu_board: bool = False
    gcnArchName: str = "NVIDIA H100 80GB HBM3"  # noqa: N815 (torch's own attribute name)
    uuid: str = "00000000-0000-0000-0000-000000000000"
    pci_bus_id: int = 0
    pci_device_id: int = 0
    pci_domain_id: int = 0

    @property
    def capability(self) -> tuple[int, int]:
        return (self.major, self.minor)


class _FakeTritonUtils:
    """``driver.active.utils`` of the fake driver (read for shared-memory sizes)."""

    def __init__(self, props: FakeDeviceProperties) -> None:
        self._props = props

    def get_device_properties(self, device: int = 0) -> dict[str, int]:
        return {
            "max_shared_mem": self._props.shared_memory_per_block_optin,
            "max_num_regs": self._props.regs_per_multiprocessor,
            "multiprocessor_count": self._props.multi_processor_count,
            "warpSize": self._props.warp_size,
            "sm_clock_rate": self._props.clock_rate,
            "mem_clock_rate": self._props.memory_clock_rate,
            "mem_bus_width": self._props.memory_bus_width,
        }


class _FakeTritonDriver:
    """The active Triton driver under fake CUDA: answers the target, launches nothing."""

    def __init__(self, props: FakeDeviceProperties) -> None:
        from triton.backends.compiler import GPUTarget

        self._target = GPUTarget("cuda", props.major * 10 + props.minor, props.warp_size)
        self.utils = _FakeTritonUtils(props)

    @staticmethod
    def is_active() -> bool:
        return True

    def get_current_target(self) -> Any:
        return self._target

    @staticmethod
    def get_current_device() -> int:
        return 0

    @staticmethod
    def get_current_stream(device: int | None = None) -> int:
        return 0

    @staticmethod
    def get_device_interface() -> Any:
        return torch.cuda

    @staticmethod
    def get_active_torch_device() -> torch.device:
        return torch.device("cuda", 0)


def _device_index(device: Any) -> int:
    if device is None:
        return 0
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, got {device!r}")
        return 0 if device.index is None else int(device.index)
    return int(device)


def _cudnn_memory_format(input_: torch.Tensor, weight: torch.Tensor) -> torch.memory_format:
    """cuDNN's output memory format for a convolution (``cudnn_conv_suggest_memory_format``).

    Channels-last (2-D, weight of rank 4) or channels-last-3d (weight of rank 5)
    when the input or the weight suggests it; contiguous otherwise and for float64.
    """
    from torch._prims_common import suggest_memory_format

    if input_.dtype == torch.float64 or weight.dtype == torch.float64:
        return torch.contiguous_format
    input_fmt = suggest_memory_format(input_)
    weight_fmt = suggest_memory_format(weight)
    if weight.dim() == 4 and torch.channels_last in (input_fmt, weight_fmt):
        return torch.channels_last
    if weight.dim() == 5 and torch.channels_last_3d in (input_fmt, weight_fmt):
        return torch.channels_last_3d
    return torch.contiguous_format


def _make_conv_format_patch(
    original: Callable[..., torch.memory_format],
) -> Callable[..., torch.memory_format]:
    @functools.wraps(original)
    def determine(input_: torch.Tensor, weight: torch.Tensor, backend: Any) -> torch.memory_format:
        empty = torch._C._ConvBackend.Empty  # type: ignore[attr-defined]  # not in the stubs
        if input_.device.type == "cuda" and backend != empty:
            return _cudnn_memory_format(input_, weight)
        return original(input_, weight, backend)

    return determine


def _device_caches() -> list[Any]:
    """The ``functools`` caches that remember answers about the CUDA device."""
    names = {
        "torch.utils._triton": [
            "has_triton",
            "triton_backend",
            "triton_hash_with_backend",
            "_device_supports_tma",
            "has_triton_experimental_host_tma",
            "has_triton_tensor_descriptor_host_tma",
            "has_triton_tma",
            "has_triton_tma_device",
            "has_datacenter_blackwell_tma_device",
        ],
        "torch._inductor.utils": [
            "is_big_gpu",
            "get_max_num_sms",
            "using_b200",
            "get_backend_num_stages",
            "get_device_tflops",
            "get_gpu_type",
        ],
        "torch._inductor.kernel.mm": ["_is_sm7x_or_older_gpu"],
    }
    caches: list[Any] = []
    for module_name, attrs in names.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for attr in attrs:
            fn = getattr(module, attr, None)
            if fn is not None and hasattr(fn, "cache_clear"):
                caches.append(fn)
    from torch._inductor.runtime.hints import DeviceProperties

    caches.append(DeviceProperties.create)
    return caches


def _clear_device_caches() -> None:
    for fn in _device_caches():
        fn.cache_clear()
    # FakeTensorMode's dispatch cache is class-wide: a fake cuda convolution computed
    # outside the block (raw CPU-build answer) must not be reused inside it, and an
    # emulated cuDNN answer must not outlive it.
    from torch._subclasses.fake_tensor import FakeTensorMode

    FakeTensorMode.cache_clear()


def _patch_environment(stack: contextlib.ExitStack, props: FakeDeviceProperties) -> None:
    import torch._dynamo.device_interface as device_interface
    import torch._inductor.fx_passes.misc_patterns as misc_patterns
    from triton.runtime import driver

    def device_count() -> int:
        return 1

    def current_device() -> int:
        return 0

    def get_device_properties(device: Any = None) -> FakeDeviceProperties:
        if _device_index(device) != 0:
            raise AssertionError("Invalid device id")
        return props

    def get_device_capability(device: Any = None) -> tuple[int, int]:
        get_device_properties(device)
        return props.capability

    def get_device_name(device: Any = None) -> str:
        return get_device_properties(device).name

    def is_bf16_supported(including_emulation: bool = True) -> bool:
        return True

    def is_available() -> bool:
        return True

    patch = stack.enter_context
    module_functions: dict[str, Callable[..., Any]] = {
        "device_count": device_count,
        "current_device": current_device,
        "get_device_properties": get_device_properties,
        "get_device_capability": get_device_capability,
        "get_device_name": get_device_name,
        "is_bf16_supported": is_bf16_supported,
    }
    for name, fn in module_functions.items():
        patch(mock.patch.object(torch.cuda, name, fn))
    # The interface's attributes are staticmethods; keep them so (instance access works).
    interface = device_interface.CudaInterface
    for name in ("device_count", "current_device", "get_device_properties", "is_bf16_supported"):
        patch(mock.patch.object(interface, name, staticmethod(module_functions[name])))
    patch(mock.patch.object(interface, "is_available", staticmethod(is_available)))
    patch(mock.patch.object(interface.Worker, "current_device", staticmethod(current_device)))
    patch(
        mock.patch.object(
            interface.Worker, "get_device_properties", staticmethod(get_device_properties)
        )
    )
    for cache_name in ("caching_worker_device_properties", "caching_worker_current_devices"):
        cache = getattr(device_interface, cache_name, None)
        if isinstance(cache, dict):
            patch(mock.patch.dict(cache))
            cache.pop("cuda", None)
    patch(mock.patch.object(driver, "_active", _FakeTritonDriver(props)))

    original_init = misc_patterns._misc_patterns_init

    def misc_patterns_init_on_cpu(input_device: Any = None) -> Any:
        return original_init(torch.device("cpu"))

    patch(mock.patch.object(misc_patterns, "_misc_patterns_init", misc_patterns_init_on_cpu))

    # Tensor.contiguous's Python binding opens a CUDA device guard, which a CPU-only build
    # cannot (dynamo's fake run of ``x.t().contiguous()`` fails). The same result
    # without a guard: self when already contiguous, else a clone in that format.
    original_contiguous = torch.Tensor.contiguous

    @functools.wraps(original_contiguous)
    def contiguous(
        self: torch.Tensor, memory_format: torch.memory_format = torch.contiguous_format
    ) -> torch.Tensor:
        if self.device.type != "cuda":
            return original_contiguous(self, memory_format=memory_format)
        if self.is_contiguous(memory_format=memory_format):
            return self
        return self.clone(memory_format=memory_format)

    patch(mock.patch.object(torch.Tensor, "contiguous", contiguous))

    # Tensor.__getitem__'s binding opens a CUDA device guard too (dynamo's fake run of
    # ``x[:, :, i:i + 1]`` fails): for cuda tensors, the same aten decomposition in Python.
    from . import fake_cuda_ops as _fake_cuda_ops

    original_getitem = torch.Tensor.__getitem__

    def binding_indexes(self: torch.Tensor, index: Any) -> bool:
        """Whether the binding indexes ``self`` as it is: not a cuda tensor, the JIT tracing,
        or an argument with ``__torch_function__`` (get and set alike)."""
        return (
            self.device.type != "cuda"
            or torch._C._get_tracing_state() is not None
            or _fake_cuda_ops.needs_torch_function(self, index)
        )

    @functools.wraps(original_getitem)
    def getitem(self: torch.Tensor, index: Any) -> Any:
        if binding_indexes(self, index):
            return original_getitem(self, index)
        return _fake_cuda_ops.getitem(self, index)

    patch(mock.patch.object(torch.Tensor, "__getitem__", getitem))

    # Tensor.copy_'s binding opens one too: Inductor's reinplacing of a scatter into a
    # ``new_zeros`` buffer checks its shapes with ``view.copy_(src)`` on fake values (a "shape
    # error in scatter op, can not broadcast [...] to [...]" of equal shapes otherwise)
    original_copy = torch.Tensor.copy_

    @functools.wraps(original_copy)
    def copy_(self: torch.Tensor, src: torch.Tensor, non_blocking: bool = False) -> torch.Tensor:
        if self.device.type != "cuda" or _fake_cuda_ops.needs_torch_function(self, (src,)):
            return original_copy(self, src, non_blocking)
        return torch.ops.aten.copy_.default(self, src, non_blocking)

    patch(mock.patch.object(torch.Tensor, "copy_", copy_))

    # Tensor.__invert__'s binding opens one as well (``mask.masked_fill(~visible, ...)``: the
    # HunyuanVideo-1.5 decoder's causal attention mask): ``bitwise_not`` for cuda tensors, after
    # the binding's own dtype check (a float tensor raises its TypeError)
    original_invert = torch.Tensor.__invert__

    @functools.wraps(original_invert)
    def invert(self: torch.Tensor) -> torch.Tensor:
        integral = not (self.dtype.is_floating_point or self.dtype.is_complex)
        if (
            self.device.type != "cuda"
            or not integral
            or _fake_cuda_ops.needs_torch_function(self, ())
        ):
            return original_invert(self)
        return torch.bitwise_not(self)

    patch(mock.patch.object(torch.Tensor, "__invert__", invert))

    # Tensor.__setitem__'s binding opens one as well (``out[:, :, :n] = conv(x)``)
    original_setitem = torch.Tensor.__setitem__

    @functools.wraps(original_setitem)
    def setitem(self: torch.Tensor, index: Any, value: Any) -> None:
        if binding_indexes(self, index) or (
            isinstance(value, torch.Tensor) and _fake_cuda_ops.needs_torch_function(value, ())
        ):
            original_setitem(self, index, value)
            return
        _fake_cuda_ops.setitem(self, index, value)

    patch(mock.patch.object(torch.Tensor, "__setitem__", setitem))

    # Inductor's `prims.inductor_force_stride_order` (a layout pin; magi's channels-last norm
    # inputs emit it) computes its fake value with `clone().as_strided(...).copy_(...)`, and
    # `copy_`'s binding opens a CUDA device guard: the same value without one.
    importlib.import_module("torch._inductor.inductor_prims")  # registers the prim
    force = torch.ops.prims.inductor_force_stride_order.default

    def force_stride_meta(tensor: torch.Tensor, stride: Any) -> torch.Tensor:
        if tuple(tensor.stride()) == tuple(stride):
            return tensor
        return torch.empty_strided(tensor.shape, stride, dtype=tensor.dtype, device=tensor.device)

    patch(mock.patch.object(force, "prim_meta_impl", force_stride_meta))

    # Joint-graph constant folding computes the value of uniform constants with real
    # one-element tensors on the node's device: compute them on cpu (only the value is used).
    try:
        import torch._inductor.fx_passes.joint_graph as joint_graph
    except ImportError:
        joint_graph = None  # type: ignore[assignment]
    folder = getattr(joint_graph, "UniformValueConstantFolder", None)
    for name in ("_deduce_value", "_add_peephole_patterns"):
        if folder is not None and name in vars(folder):
            method = _fake_cuda_ops.cpu_for_cuda_constants(vars(folder)[name])
            patch(mock.patch.object(folder, name, method))

    # pad_mm decides by *timing* the padded and unpadded matmul on the device, which
    # needs real tensors. Without a device: pad only when forced (force_shape_pad).
    try:
        import torch._inductor.fx_passes.pad_mm as pad_mm
    except ImportError:
        return
    if hasattr(pad_mm, "_should_pad"):

        def should_pad_without_benchmark(*args: Any, **kwargs: Any) -> bool:
            return bool(torch._inductor.config.force_shape_pad)

        patch(mock.patch.object(pad_mm, "_should_pad", should_pad_without_benchmark))
