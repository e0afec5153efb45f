"""Fake CUDA: make Inductor generate CUDA Triton code on a machine without a GPU.

Inductor's code generation needs a CUDA *device description*, never a CUDA device:
the sizes of the SMs, the compute capability, the Triton target.  :func:`fake_cuda`
answers those questions for one H100-like GPU (sm 9.0, 132 SMs) while the block
runs and restores every patched object afterwards, even when the block raises.
Tensors themselves must be fake (``FakeTensorMode``) ``device="cuda"`` tensors;
the context yields a :class:`FakeCudaEnv` whose ``fake_mode`` makes them::

    with fake_cuda() as env, env.fake_mode:
        x = torch.empty(8, 16, device="cuda")  # a FakeTensor on "cuda:0"

What is patched (the recipe measured in docs/reliability.md, "Facts the design rests on"):

* ``torch.cuda.device_count / current_device / get_device_properties /
  get_device_capability / get_device_name / is_bf16_supported`` and the same
  on ``torch._dynamo.device_interface.CudaInterface`` and its ``Worker``;
  ``CudaInterface.is_available`` answers True (``torch.utils._triton.has_triton``
  asks the device *interface*, and without it Inductor raises ``TritonMissing``).
  ``torch.cuda.is_available`` itself is deliberately left alone: answering True
  there makes Inductor emit (and assert on) CUDA RNG-state code.
* Triton's active driver: an object whose ``get_current_target()`` is
  ``GPUTarget("cuda", 90, 32)``.
* ``torch._inductor.fx_passes.misc_patterns._misc_patterns_init`` traces its
  patterns on cpu (tracing them on cuda would need a real CUDA runtime).
* ``torch._inductor.config.force_disable_caches = True``: nothing generated for a
  fake device is stored in, or read from, Inductor's caches.
* Fake convolution strides follow cuDNN's memory-format rule (see
  :func:`_cudnn_memory_format`). On a CPU-only build ``_select_conv_backend``
  answers a slow native backend for fake cuda tensors (cuDNN is not compiled
  in) whose output is always contiguous, whereas a real GPU returns
  channels-last output for channels-last inputs or weights. Without this patch
  Inductor's conv lowering would ask for copies that a real GPU never makes.
  ``fake_cuda(emulate_cudnn=False)`` turns this off (the raw recipe).
* ``torch.Tensor.contiguous`` for cuda tensors: its Python binding opens a CUDA
  device guard, which a CPU-only build cannot (``x.t().contiguous()`` fails while
  dynamo traces); inside the block it returns ``self`` or ``clone(memory_format=...)``,
  which is what the binding computes.
* ``torch.Tensor.__getitem__`` for cuda tensors: its binding opens a CUDA device guard too
  (``x[:, :, i:i + 1]`` fails while dynamo traces diffusers' Wan VAE); inside the block the
  same aten decomposition (select / slice / unsqueeze / alias / index) is done in Python
  (:func:`pytest_magi._fake_cuda_ops.getitem`, checked op for op against the binding).
* ``torch.Tensor.__setitem__`` for cuda tensors, likewise (``out[:, :, :n] = conv(x)`` failed
  while dynamo traced diffusers' KVAE and Kandinsky-6 decoders): the same view, then the copy,
  fill or ``index_put_`` the binding dispatches (:func:`pytest_magi._fake_cuda_ops.setitem`).
* ``torch.Tensor.copy_`` for cuda tensors (Inductor's reinplacing of a scatter checks its
  shapes with a copy between fake values): ``aten.copy_`` dispatched without the binding.
* ``torch.Tensor.__invert__`` for integer and bool cuda tensors (``~visible`` failed while
  dynamo traced diffusers' HunyuanVideo-1.5 decoder): ``bitwise_not``, which the binding
  dispatches; a float tensor still gets the binding's ``TypeError``.
* ``prims.inductor_force_stride_order``'s fake value (its meta function copies with
  ``Tensor.copy_``, whose binding opens a CUDA device guard): the same strided empty tensor,
  without the copy (``ConvChannelsLastPass``'s channels-last norm inputs emit it).
* Inductor's joint-graph ``constant_fold_uniform_value`` (``UniformValueConstantFolder``)
  learns a uniform constant's value by running ``full([1], v, device=cuda)`` and pointwise ops
  on real tensors; inside the block those run on cpu. Only the value is used (the replacement
  ``full`` node takes its device from the fake value), so the graph is the GPU's.
* ``torch._inductor.fx_passes.pad_mm._should_pad``: padding a matmul is decided
  by timing it on the device; without one, matmuls are padded only when
  ``force_shape_pad`` asks for it. (On a real GPU that decision depends on the
  timing, so it is not reproducible there either.)
* The ``functools`` caches that remember device answers (``has_triton``,
  ``DeviceProperties.create``, ``is_big_gpu`` and friends) and ``FakeTensorMode``'s
  class-wide dispatch cache are cleared on entry and on exit, so neither side sees
  the other's answers.

When a real CUDA GPU is available nothing is patched: the context yields the real
device's name and Inductor sees the real GPU.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import os
import unittest.mock as mock
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import torch

#: The ``device`` string of code generated under fake CUDA.
FAKE_DEVICE_NAME = "fake-cuda"
#: What dynamo warns (``warnings.filterwarnings`` message pattern) when it compiles under
#: ``force_disable_caches=True``, which ``fake_cuda()`` sets: silenced inside the block only.
FORCE_DISABLED_WARNING = r".*force disabled by .*force_disable_caches"


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


@dataclasses.dataclass(frozen=True)
class FakeCudaEnv:
    """What :func:`fake_cuda` yields.

    ``device`` is ``"fake-cuda"`` or the real GPU's name; ``fake`` tells which;
    ``fake_mode`` is a fresh ``FakeTensorMode`` for making ``device="cuda"``
    fake tensors (it works on a real GPU too).
    """

    device: str
    fake: bool
    properties: Any
    fake_mode: Any


class FakeCudaUnavailable(RuntimeError):
    """Fake-CUDA code generation cannot work with this torch/triton.

    The message names the versions, the step that failed and the way out.
    """

    def __init__(self, failed: str) -> None:
        self.failed = failed
        super().__init__(
            f"fake-CUDA code generation is unavailable with torch {torch.__version__} "
            f"and triton {_triton_version()}: {failed}. "
            "Fix: install the triton release that this torch pins "
            "(pip install 'torch==<version>' pulls it in; a CPU-only torch needs "
            "`pip install triton` separately), or run on a machine with a CUDA GPU "
            "(the real GPU is then used instead). If both are installed and this "
            "still fails, the fake-CUDA recipe in pytest_magi/fake_cuda.py needs "
            "updating for this torch version."
        )


def _triton_version() -> str:
    try:
        import triton
    except ImportError:
        return "(not installed)"
    return str(getattr(triton, "__version__", "(unknown)"))


FORCE_FAKE_ENV = "MAGI_FORCE_FAKE_CUDA"


def real_cuda_available() -> bool:
    """True when a real CUDA (not ROCm) GPU can be used and `MAGI_FORCE_FAKE_CUDA=1` is not set.

    The variable makes a GPU machine take the fake-CUDA path too, which is how the fake
    mechanism is checked against the real GPU's code on the same machine and torch version.
    """
    if os.environ.get(FORCE_FAKE_ENV, "") == "1":
        return False
    return bool(torch.cuda.is_available()) and torch.version.hip is None


def _probe() -> None:
    """Raise ``FakeCudaUnavailable`` naming the first missing piece of the recipe."""
    try:
        import triton  # noqa: F401
    except ImportError as exc:
        raise FakeCudaUnavailable(f"triton cannot be imported ({exc})") from exc
    try:
        import triton.backends
        from triton.backends.compiler import GPUTarget  # noqa: F401
        from triton.runtime import driver
    except ImportError as exc:
        raise FakeCudaUnavailable(f"triton lacks an expected module ({exc})") from exc
    if "nvidia" not in triton.backends.backends:
        raise FakeCudaUnavailable(
            "triton was built without its 'nvidia' backend "
            f"(backends: {sorted(triton.backends.backends)})"
        )
    if not hasattr(driver, "_active"):
        raise FakeCudaUnavailable("triton.runtime.driver has no '_active' slot to patch")
    required: list[tuple[str, str]] = [
        ("torch._dynamo.device_interface", "CudaInterface"),
        ("torch._inductor.fx_passes.misc_patterns", "_misc_patterns_init"),
        ("torch._inductor.runtime.hints", "DeviceProperties"),
        ("torch._inductor.utils", "is_big_gpu"),
        ("torch.utils._triton", "has_triton"),
        ("torch._subclasses.fake_tensor", "FakeTensorMode"),
    ]
    for module_name, attr in required:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise FakeCudaUnavailable(f"cannot import {module_name} ({exc})") from exc
        if not hasattr(module, attr):
            raise FakeCudaUnavailable(f"{module_name}.{attr} does not exist")
    from torch._dynamo.device_interface import CudaInterface

    if not hasattr(CudaInterface, "Worker"):
        raise FakeCudaUnavailable("CudaInterface.Worker does not exist")
    if not hasattr(torch._inductor.config, "force_disable_caches"):
        raise FakeCudaUnavailable("torch._inductor.config.force_disable_caches does not exist")


def fake_cuda_status() -> tuple[bool, str]:
    """Can this process generate CUDA Triton code, and how (or why not)?

    Returns ``(True, "real CUDA GPU: <name>")`` on a GPU machine,
    ``(True, "fake CUDA: ...")`` when the fake-CUDA recipe's pieces are all
    present, and ``(False, <FakeCudaUnavailable message>)`` otherwise. Cheap:
    it imports and inspects, it generates nothing (the test suite's canary does).
    """
    if real_cuda_available():
        return True, f"real CUDA GPU: {torch.cuda.get_device_name()}"
    try:
        _probe()
    except FakeCudaUnavailable as exc:
        return False, str(exc)
    return True, (
        f"fake CUDA: torch {torch.__version__}, triton {_triton_version()}, "
        f"generating for {FakeDeviceProperties().name} (sm 9.0)"
    )


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
    from . import _fake_cuda_ops

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


@contextlib.contextmanager
def fake_cuda(
    *, properties: FakeDeviceProperties | None = None, emulate_cudnn: bool = True
) -> Iterator[FakeCudaEnv]:
    """Generate CUDA Triton code without a GPU inside the block (see the module docstring).

    On a machine with a real CUDA GPU this patches nothing and yields the real device.
    Raises :class:`FakeCudaUnavailable` when this torch/triton cannot do it.
    Everything is restored on exit, exceptions included.
    """
    from torch._subclasses.fake_tensor import FakeTensorMode

    if properties is not None and not isinstance(properties, FakeDeviceProperties):
        raise TypeError(
            f"fake_cuda: properties must be a FakeDeviceProperties or None, got {properties!r:.120} "
            f"({type(properties).__name__}); fix: fake_cuda(properties=FakeDeviceProperties("
            f"major=8, minor=0, multi_processor_count=108)) or leave it out for the H100-like default"
        )
    if not isinstance(emulate_cudnn, bool):
        raise TypeError(
            f"fake_cuda: emulate_cudnn must be True or False, got {emulate_cudnn!r} "
            f"({type(emulate_cudnn).__name__}); fix: fake_cuda(emulate_cudnn=True)"
        )
    if real_cuda_available():
        yield FakeCudaEnv(
            device=torch.cuda.get_device_name(),
            fake=False,
            properties=torch.cuda.get_device_properties(torch.cuda.current_device()),
            fake_mode=FakeTensorMode(),
        )
        return
    _probe()
    props = properties if properties is not None else FakeDeviceProperties()
    with contextlib.ExitStack() as stack:
        stack.callback(_clear_device_caches)  # runs last, after every patch is undone
        stack.enter_context(torch._inductor.config.patch(force_disable_caches=True))
        # what that setting makes dynamo say on each compile inside (once per dynamo reset):
        # ours to silence, here, where we set it
        stack.enter_context(warnings.catch_warnings())
        warnings.filterwarnings("ignore", message=FORCE_DISABLED_WARNING)
        try:
            _patch_environment(stack, props)
            if emulate_cudnn:
                stack.enter_context(
                    mock.patch.object(
                        torch._C,
                        "_conv_determine_backend_memory_format",
                        _make_conv_format_patch(torch._C._conv_determine_backend_memory_format),
                    )
                )
        except (AttributeError, ImportError) as exc:
            raise FakeCudaUnavailable(f"patching failed ({type(exc).__name__}: {exc})") from exc
        _clear_device_caches()
        yield FakeCudaEnv(
            device=FAKE_DEVICE_NAME,
            fake=True,
            properties=props,
            fake_mode=FakeTensorMode(allow_non_fake_inputs=False),
        )
