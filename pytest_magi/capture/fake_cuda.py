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
  (:func:`pytest_magi.capture.fake_cuda_ops.getitem`, checked op for op against the binding).
* ``torch.Tensor.__setitem__`` for cuda tensors, likewise (``out[:, :, :n] = conv(x)`` failed
  while dynamo traced diffusers' KVAE and Kandinsky-6 decoders): the same view, then the copy,
  fill or ``index_put_`` the binding dispatches (:func:`pytest_magi.capture.fake_cuda_ops.setitem`).
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
import importlib
import os
import unittest.mock as mock
import warnings
from collections.abc import Iterator
from typing import Any

import torch

from .fake_cuda_env import (
    FakeDeviceProperties,
    _clear_device_caches,
    _make_conv_format_patch,
    _patch_environment,
)

#: The ``device`` string of code generated under fake CUDA.
FAKE_DEVICE_NAME = "fake-cuda"
#: What dynamo warns (``warnings.filterwarnings`` message pattern) when it compiles under
#: ``force_disable_caches=True``, which ``fake_cuda()`` sets: silenced inside the block only.
FORCE_DISABLED_WARNING = r".*force disabled by .*force_disable_caches"


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
