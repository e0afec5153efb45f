"""pytest_magi.capture.fake_cuda: the canary, what is patched inside, and that everything is restored."""

from __future__ import annotations

import importlib
import sys

import pytest
import torch

from pytest_magi.capture import fake_cuda as fake_cuda_module
from pytest_magi.capture.fake_cuda import (
    FAKE_DEVICE_NAME,
    FakeCudaUnavailable,
    fake_cuda,
    fake_cuda_status,
    real_cuda_available,
)

needs_cpu_only = pytest.mark.skipif(
    real_cuda_available(), reason="fake CUDA patches nothing on a machine with a real GPU"
)


def _versions() -> str:
    try:
        import triton

        triton_version = triton.__version__
    except ImportError:
        triton_version = "(not installed)"
    return f"torch {torch.__version__}, triton {triton_version}"


def test_canary_fake_cuda_codegen_works_on_this_torch() -> None:
    """Fails loudly, naming the versions, when fake-CUDA code generation breaks."""
    ok, why = fake_cuda_status()
    if not ok:
        pytest.fail(f"fake-CUDA codegen is unavailable ({_versions()}): {why}", pytrace=False)
    from pytest_magi.capture.codegen import inductor_codegen

    try:
        code = inductor_codegen(lambda x: torch.sin(x) + 1, torch.randn(64))
    except Exception as exc:  # noqa: BLE001 - the canary reports whatever broke
        pytest.fail(
            f"fake-CUDA code generation broke on {_versions()}: {type(exc).__name__}: {exc}\n"
            "The recipe in pytest_magi/fake_cuda.py (docs/reliability.md, 'Facts') needs updating for "
            "this torch version; every codegen/snapshot test depends on it.",
            pytrace=False,
        )
    assert code.kernel_count == 1
    source = code.kernels[0].source
    assert "@triton.jit" in source and "tl.load(" in source
    assert "device_str='cuda'" in code.normalized()
    if not real_cuda_available():
        assert code.device == FAKE_DEVICE_NAME
        assert "cc=90" in source and "multi_processor_count=132" in source


def test_status_is_ok_here() -> None:
    ok, why = fake_cuda_status()
    assert ok, why
    assert why.startswith(("fake CUDA:", "real CUDA GPU:"))


@needs_cpu_only
def test_unavailable_names_versions_failure_and_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "triton", None)  # "import triton" now raises ImportError
    ok, why = fake_cuda_status()
    assert not ok
    assert torch.__version__ in why
    assert "triton cannot be imported" in why
    assert "Fix:" in why and "pip install" in why
    with pytest.raises(FakeCudaUnavailable, match="triton cannot be imported") as info:
        with fake_cuda():
            pass  # pragma: no cover
    assert isinstance(info.value, RuntimeError)
    assert torch.__version__ in str(info.value)


@needs_cpu_only
def test_missing_recipe_piece_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch._inductor.fx_passes.misc_patterns as misc_patterns

    monkeypatch.delattr(misc_patterns, "_misc_patterns_init")
    ok, why = fake_cuda_status()
    assert not ok
    assert "torch._inductor.fx_passes.misc_patterns._misc_patterns_init does not exist" in why


@needs_cpu_only
def test_device_answers_inside() -> None:
    from torch._dynamo.device_interface import CudaInterface, get_interface_for_device
    from torch._inductor.runtime.hints import DeviceProperties
    from torch._inductor.utils import is_big_gpu
    from torch.utils._triton import has_triton
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver

    with fake_cuda() as env:
        assert env.fake and env.device == FAKE_DEVICE_NAME
        assert torch.cuda.device_count() == 1
        assert torch.cuda.current_device() == 0
        assert torch.cuda.get_device_capability() == (9, 0)
        props = torch.cuda.get_device_properties(0)
        assert (props.major, props.minor) == (9, 0)
        assert props.multi_processor_count == 132
        assert props.regs_per_multiprocessor == 65536
        assert props.max_threads_per_multi_processor == 2048
        assert props.max_threads_per_block == 1024
        assert props.warp_size == 32
        assert props.total_memory > 0 and props.L2_cache_size > 0 and "H100" in props.name
        assert torch.cuda.is_bf16_supported()
        assert torch.cuda.is_available() is False, "torch.cuda.is_available must stay unpatched"
        assert get_interface_for_device("cuda") is CudaInterface
        assert CudaInterface.is_available()
        assert CudaInterface.get_compute_capability() == 90
        assert CudaInterface.is_bf16_supported()
        assert CudaInterface.Worker.get_device_properties().major == 9
        assert CudaInterface.Worker.current_device() == 0
        assert driver.active.get_current_target() == GPUTarget("cuda", 90, 32)
        assert has_triton()
        assert is_big_gpu(0)
        device_props = DeviceProperties.create(torch.device("cuda", 0))
        assert (device_props.cc, device_props.multi_processor_count) == (90, 132)
        with env.fake_mode:
            x = torch.empty(4, 8, device="cuda")
        assert x.device == torch.device("cuda", 0)
        assert type(x).__name__ == "FakeTensor"


def _snapshot() -> dict[str, object]:
    import torch._dynamo.device_interface as device_interface
    import torch._inductor.fx_passes.misc_patterns as misc_patterns
    import torch._inductor.fx_passes.pad_mm as pad_mm
    from triton.runtime import driver

    interface = device_interface.CudaInterface
    snap: dict[str, object] = {
        f"torch.cuda.{name}": getattr(torch.cuda, name)
        for name in (
            "device_count",
            "current_device",
            "get_device_properties",
            "get_device_capability",
            "get_device_name",
            "is_bf16_supported",
            "is_available",
        )
    }
    for name in (
        "device_count",
        "current_device",
        "get_device_properties",
        "is_bf16_supported",
        "is_available",
    ):
        snap[f"CudaInterface.{name}"] = interface.__dict__[name]
    snap["Worker.current_device"] = interface.Worker.__dict__["current_device"]
    snap["Worker.get_device_properties"] = interface.Worker.__dict__["get_device_properties"]
    snap["worker caches"] = (
        dict(device_interface.caching_worker_device_properties),
        dict(device_interface.caching_worker_current_devices),
    )
    snap["driver._active"] = driver._active
    snap["conv format"] = torch._C._conv_determine_backend_memory_format
    snap["misc_patterns"] = misc_patterns._misc_patterns_init
    snap["pad_mm"] = pad_mm._should_pad
    # the Tensor methods whose CPU-build bindings open a CUDA device guard (replaced inside)
    for name in ("contiguous", "__getitem__", "__setitem__", "copy_", "__invert__"):
        snap[f"Tensor.{name}"] = getattr(torch.Tensor, name)
        snap[f"Tensor.{name} patched"] = (name in torch.Tensor.__dict__,)
    importlib.import_module("torch._inductor.inductor_prims")  # registers the prim
    force = torch.ops.prims.inductor_force_stride_order.default
    snap["force_stride_order meta"] = force.prim_meta_impl
    snap["inductor config"] = torch._inductor.config.get_config_copy()
    snap["portable config"] = torch._inductor.config.save_config_portable()
    return snap


def _assert_same(before: dict[str, object], after: dict[str, object]) -> None:
    for key, value in before.items():
        if isinstance(value, (dict, tuple)):
            assert after[key] == value, f"{key} was not restored"
        else:
            assert after[key] is value, f"{key} was not restored"


def _device_caches_empty() -> None:
    from torch._inductor.runtime.hints import DeviceProperties
    from torch._inductor.utils import is_big_gpu
    from torch.utils._triton import has_triton, triton_backend

    for fn in (has_triton, triton_backend, DeviceProperties.create, is_big_gpu):
        assert fn.cache_info().currsize == 0, f"{fn.__qualname__} keeps a fake-CUDA answer"
    from torch._subclasses.fake_tensor import FakeTensorMode

    assert FakeTensorMode.cache_info().size == 0, "fake dispatch cache keeps fake-CUDA answers"


@needs_cpu_only
def test_everything_restored_after_the_block() -> None:
    from torch.utils._triton import has_triton

    answer_before = has_triton()
    before = _snapshot()
    with fake_cuda():
        assert has_triton()
        assert torch.cuda.device_count() == 1
    _assert_same(before, _snapshot())
    _device_caches_empty()
    assert has_triton() == answer_before


@needs_cpu_only
def test_everything_restored_after_an_exception() -> None:
    before = _snapshot()
    with pytest.raises(ZeroDivisionError):
        with fake_cuda():
            assert torch.cuda.device_count() == 1
            _ = 1 / 0
    _assert_same(before, _snapshot())
    _device_caches_empty()


@needs_cpu_only
def test_everything_restored_after_code_generation() -> None:
    from pytest_magi.capture.codegen import inductor_codegen

    before = _snapshot()
    code = inductor_codegen(torch.nn.Conv2d(3, 4, 3), torch.randn(1, 3, 8, 8))
    assert code.kernel_count >= 1
    _assert_same(before, _snapshot())
    _device_caches_empty()


@needs_cpu_only
def test_nested_blocks_restore_in_order() -> None:
    before = _snapshot()
    with fake_cuda():
        inner_props = torch.cuda.get_device_properties
        with fake_cuda():
            assert torch.cuda.device_count() == 1
        assert torch.cuda.get_device_properties is inner_props
        assert torch.cuda.get_device_capability() == (9, 0)
    _assert_same(before, _snapshot())


@needs_cpu_only
def test_contiguous_works_on_fake_cuda_tensors() -> None:
    """The CPU build's Tensor.contiguous opens a CUDA device guard; inside fake_cuda it does not."""
    with fake_cuda() as env, env.fake_mode:
        x = torch.empty(4, 6, device="cuda").t()
        y = x.contiguous()
        z = x.contiguous(memory_format=torch.contiguous_format)
        w = torch.empty(2, 3, 4, 5, device="cuda")
        cl = w.contiguous(memory_format=torch.channels_last)
        assert y is not x and w.contiguous() is w
    assert y.stride() == (4, 1) and z.stride() == (4, 1)
    assert cl.stride() == (60, 1, 15, 3)
    cpu = torch.randn(3, 2).t()
    assert cpu.contiguous().is_contiguous()


@needs_cpu_only
def test_invert_works_on_fake_cuda_tensors() -> None:
    """The CPU build's ``~tensor`` opens a CUDA device guard (the HunyuanVideo-1.5 decoder's
    causal attention mask, ``masked_fill(~visible, ...)``, failed dynamo's fake run); inside
    fake_cuda it is ``bitwise_not``, with the binding's dtype check kept."""
    with fake_cuda() as env, env.fake_mode:
        frame = torch.arange(6, device="cuda") // 2
        visible = frame.unsqueeze(0) <= frame.unsqueeze(1)
        hidden = ~visible
        flipped = ~torch.zeros(3, dtype=torch.int32, device="cuda")
        with pytest.raises(TypeError, match="integer and Boolean"):
            _ = ~torch.zeros(3, device="cuda")
    assert hidden.shape == (6, 6) and hidden.dtype == torch.bool and hidden.device.type == "cuda"
    assert flipped.dtype == torch.int32
    cpu = torch.tensor([True, False])
    assert (~cpu).tolist() == [False, True]


@pytest.mark.slow
@needs_cpu_only
def test_fake_cuda_generates_the_hunyuanvideo15_decoder() -> None:
    """Its causal attention mask inverts a bool tensor (the test above): the whole tiny
    decoder's code is generated in fake CUDA (a fake-tensor error once stopped it)."""
    from pytest_magi import zoo
    from pytest_magi.capture.codegen import inductor_codegen

    name = "hunyuanvideo1.5-vae"
    if name not in zoo.names():
        pytest.skip(zoo.unavailable().get(name, name))
    model = zoo.load(name, "tiny", dtype=torch.bfloat16)
    with torch.no_grad():
        plain = inductor_codegen(model.as_module(), *model.inputs)
    assert plain.kernel_count > 0


@needs_cpu_only
def test_force_stride_order_works_on_fake_cuda_tensors() -> None:
    """Inductor's layout pin computes its fake value with Tensor.copy_, whose CPU-build binding
    opens a CUDA device guard; inside fake_cuda it gets the same strided value without one."""
    importlib.import_module("torch._inductor.inductor_prims")  # registers the prim
    force = torch.ops.prims.inductor_force_stride_order.default
    with fake_cuda() as env, env.fake_mode:
        x = torch.empty(2, 3, 4, 5, device="cuda")
        pinned = force(x, [60, 1, 15, 3])
        same = force(x, list(x.stride()))
    assert pinned.stride() == (60, 1, 15, 3) and pinned.device.type == "cuda"
    assert same is x


# the sample conv's output strides: channels-last-3d (cuDNN's answer for a channels-last-3d
# weight) and channels-first
CL3D_STRIDES = (4096, 1, 1024, 128, 16)
CF_STRIDES = (4096, 256, 64, 8, 1)
# what the raw recipe (no emulation) answers for a channels-last-3d weight: channels-first on a
# CPU build, what a real GPU would not do; as cuDNN on a CUDA build without a GPU (torch
# 2.11.0+cu130)
RAW_CL3D_STRIDES = CL3D_STRIDES if torch.backends.cudnn.is_available() else CF_STRIDES


@needs_cpu_only
def test_fake_conv_answers_do_not_leak_through_the_dispatch_cache() -> None:
    """FakeTensorMode's dispatch cache is class-wide: cleared on entry and exit."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    def raw() -> tuple[int, ...]:
        with FakeTensorMode():
            x = torch.empty(1, 8, 4, 8, 8, device="cuda")
            w = torch.empty(16, 8, 3, 3, 3, device="cuda").to(memory_format=torch.channels_last_3d)
            out = torch.ops.aten.convolution(
                x, w, None, [1] * 3, [1] * 3, [1] * 3, False, [0] * 3, 1
            )
            return tuple(out.stride())

    # (on a CPU build the raw answer is channels-first, so a leaked emulated answer would show;
    # a CUDA build answers as cuDNN already, `RAW_CL3D_STRIDES`)
    outside = raw()
    assert _conv_out_strides(torch.channels_last_3d, emulate=True) == CL3D_STRIDES
    assert raw() == outside == RAW_CL3D_STRIDES


def _conv_out_strides(weight_format: torch.memory_format, emulate: bool) -> tuple[int, ...]:
    with fake_cuda(emulate_cudnn=emulate) as env, env.fake_mode:
        x = torch.empty(1, 8, 4, 8, 8, device="cuda")
        w = torch.empty(16, 8, 3, 3, 3, device="cuda").to(memory_format=weight_format)
        return tuple(
            torch.ops.aten.convolution(
                x, w, None, [1] * 3, [1] * 3, [1] * 3, False, [0] * 3, 1
            ).stride()
        )


@needs_cpu_only
def test_select_conv_backend_runs_on_fake_cuda_tensors() -> None:
    """Measured fact: the CPU build answers a native (non-cuDNN) backend for fake cuda tensors
    (which is why `fake_cuda` emulates cuDNN's layouts); a CUDA build answers cuDNN."""
    with fake_cuda() as env, env.fake_mode:
        x = torch.empty(1, 8, 4, 8, 8, device="cuda")
        w = torch.empty(16, 8, 3, 3, 3, device="cuda")
        backend = torch._C._select_conv_backend(
            x,
            w,
            stride=[1] * 3,
            padding=[1] * 3,
            dilation=[1] * 3,
            transposed=False,
            output_padding=[0] * 3,
            groups=1,
            bias=None,
        )
    assert isinstance(backend, torch._C._ConvBackend)
    if torch.backends.cudnn.is_available():
        # a CUDA build without a GPU (torch 2.11.0+cu130) answers cuDNN itself
        assert backend == torch._C._ConvBackend.Cudnn
    else:
        assert backend not in (torch._C._ConvBackend.Cudnn, torch._C._ConvBackend.CudnnTranspose)


@needs_cpu_only
def test_fake_conv_strides_follow_cudnn() -> None:
    cl3d = torch.channels_last_3d
    # cuDNN: a channels-last-3d weight makes the output channels-last-3d
    assert _conv_out_strides(cl3d, emulate=True) == CL3D_STRIDES
    assert _conv_out_strides(torch.contiguous_format, emulate=True) == CF_STRIDES
    assert _conv_out_strides(cl3d, emulate=False) == RAW_CL3D_STRIDES


def test_channels_last_weight_pins_producer_layout_without_copy() -> None:
    """conv3d(silu(x), w) with a channels-last-3d weight: the pointwise kernel writes
    channels-last directly; no extra copy kernel for the weight or the input.

    Runs on a real GPU too, where real cuDNN decides: the same assertions there are
    what proves the cuDNN emulation of fake CUDA right."""
    from pytest_magi.capture.codegen import inductor_codegen

    class Model(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            w = torch.randn(16, 8, 3, 3, 3).contiguous(memory_format=torch.channels_last_3d)
            self.register_buffer("w", w)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.nn.functional.conv3d(torch.nn.functional.silu(x), self.w, padding=1)

    code = inductor_codegen(Model(), torch.randn(1, 8, 4, 8, 8))
    assert [k.fused_ops for k in code.kernels] == [("silu",)]
    assert code.extern_calls == ["convolution"]
    wrapper = code.wrapper
    assert "empty_strided_cuda((1, 8, 4, 8, 8), (2048, 1, 512, 64, 8), torch.float32)" in wrapper
    assert "(4096, 1, 1024, 128, 16), 'torch.ops.aten.convolution.default')" in wrapper


def test_status_and_context_on_a_real_gpu() -> None:
    if not real_cuda_available():
        pytest.skip("needs a real CUDA GPU")
    ok, why = fake_cuda_status()
    assert ok and why.startswith("real CUDA GPU:")
    original = torch.cuda.get_device_properties
    with fake_cuda() as env:
        assert not env.fake
        assert env.device == torch.cuda.get_device_name()
        assert torch.cuda.get_device_properties is original


def test_probe_is_cheap_and_pure() -> None:
    """fake_cuda_status only inspects: no patch is left behind by calling it."""
    before = torch.cuda.get_device_properties
    fake_cuda_status()
    assert torch.cuda.get_device_properties is before
    assert isinstance(fake_cuda_module.FakeDeviceProperties().capability, tuple)


def test_unavailable_message_shape() -> None:
    exc = FakeCudaUnavailable("step X failed")
    text = str(exc)
    assert "step X failed" in text
    assert torch.__version__ in text and "triton" in text
    assert "Fix:" in text
    assert exc.failed == "step X failed"
