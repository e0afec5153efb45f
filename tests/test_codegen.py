"""pytest_magi.capture.codegen: kernel counts, parsing, dynamic dims, isolation and restoration."""

from __future__ import annotations

import re
from typing import Any

import pytest
import torch
import torch.nn.functional as F

from pytest_magi.capture.codegen import (
    GeneratedCode,
    KernelCounts,
    RecordingGraphPass,
    inductor_codegen,
    kernel_counts,
)
from pytest_magi.capture.fake_cuda import real_cuda_available
from pytest_magi.capture.kernels import split_fused_ops

TORCH_MINOR = ".".join(torch.__version__.split(".")[:2])


class ConvSiLU(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.silu(self.conv(x))


class GNBlock(torch.nn.Module):
    """GroupNorm + SiLU + Conv3d with a residual: the VAE decoder's building block, tiny."""

    def __init__(self, channels: int = 16) -> None:
        super().__init__()
        self.norm = torch.nn.GroupNorm(4, channels)
        self.conv = torch.nn.Conv3d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.conv(F.silu(self.norm(x)))


class MatmulSoftmax(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(32, 32)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.proj(x) @ x.transpose(-1, -2), dim=-1)


MODELS: dict[str, tuple[type[torch.nn.Module], tuple[int, ...]]] = {
    "conv_silu": (ConvSiLU, (2, 3, 16, 16)),
    "gn_silu_conv3d": (GNBlock, (2, 16, 4, 8, 8)),
    "matmul_softmax": (MatmulSoftmax, (2, 64, 32)),
}

# (model, dynamic_dims, backward) -> (forward kernels, backward kernels, extern calls).
# Measured with torch 2.13 (fake CUDA, H100-like); other torch versions differ
# (docs/reliability.md, "Facts the design rests on").
EXPECTED_2_13: dict[tuple[str, str, bool], tuple[int, int | None, list[str]]] = {
    # static inference conv2d: layout optimisation makes input and weight channels-last
    ("conv_silu", "static", False): (3, None, ["convolution"]),
    ("conv_silu", "{0: [2, 3]}", False): (1, None, ["convolution"]),
    ("conv_silu", "static", True): (1, 1, ["convolution", "convolution_backward"]),
    ("conv_silu", "{0: [2, 3]}", True): (1, 1, ["convolution", "convolution_backward"]),
    ("gn_silu_conv3d", "static", False): (2, None, ["convolution"]),
    ("gn_silu_conv3d", "{0: [3, 4]}", False): (2, None, ["convolution"]),
    ("gn_silu_conv3d", "static", True): (4, 2, ["convolution", "convolution_backward"]),
    ("gn_silu_conv3d", "{0: 0}", True): (4, 2, ["convolution", "convolution_backward"]),
    ("matmul_softmax", "static", False): (1, None, ["addmm", "bmm"]),
    ("matmul_softmax", "{0: 1}", False): (1, None, ["addmm", "bmm"]),
    ("matmul_softmax", "static", True): (1, 2, ["addmm", "bmm", "bmm", "mm"]),
    ("matmul_softmax", "{0: 1}", True): (1, 2, ["addmm", "bmm", "bmm", "mm"]),
}


def _build(name: str) -> tuple[torch.nn.Module, torch.Tensor]:
    cls, shape = MODELS[name]
    torch.manual_seed(0)
    return cls(), torch.randn(shape)


@pytest.fixture(scope="module")
def gn_dynamic_code() -> GeneratedCode:
    model, x = _build("gn_silu_conv3d")
    return inductor_codegen(model, x, dynamic_dims={0: [3, 4]})


@pytest.fixture(scope="module")
def conv_static_code() -> GeneratedCode:
    model, x = _build("conv_silu")
    return inductor_codegen(model, x)


@pytest.mark.parametrize(
    ("name", "dynamic_dims", "backward"),
    [
        ("conv_silu", None, False),
        ("conv_silu", {0: [2, 3]}, False),
        ("conv_silu", None, True),
        ("conv_silu", {0: [2, 3]}, True),
        ("gn_silu_conv3d", None, False),
        ("gn_silu_conv3d", {0: [3, 4]}, False),
        ("gn_silu_conv3d", None, True),
        # spatial dims of a conv input cannot stay dynamic in backward (see below): batch
        ("gn_silu_conv3d", {0: 0}, True),
        ("matmul_softmax", None, False),
        ("matmul_softmax", {0: 1}, False),
        ("matmul_softmax", None, True),
        ("matmul_softmax", {0: 1}, True),
    ],
    ids=lambda v: "dyn" if isinstance(v, dict) else str(v),
)
def test_kernel_counts(name: str, dynamic_dims: dict[int, Any] | None, backward: bool) -> None:
    model, x = _build(name)
    code = inductor_codegen(model, x, dynamic_dims=dynamic_dims, backward=backward)
    counts = KernelCounts(len(code.forward), len(code.backward) if backward else None)
    assert code.graph_kinds == (["forward", "backward"] if backward else ["inference"])
    assert all(k.kind in ("pointwise", "reduction", "persistent_reduction") for k in code.kernels)
    if dynamic_dims is not None:
        assert re.search(r"\bs0\b", code.normalized()), "dynamic dims must appear as symbols"
    else:
        assert not re.search(r"\bs\d+\b", code.normalized()), "static code has no size symbols"
    key = (name, "static" if dynamic_dims is None else str(dynamic_dims), backward)
    if TORCH_MINOR != "2.13":
        assert counts.forward >= 1 and (not backward or (counts.backward or 0) >= 1)
        return
    forward, backward_count, externs = EXPECTED_2_13[key]
    assert (counts.forward, counts.backward) == (forward, backward_count), code.signature()
    assert code.extern_calls == externs
    assert counts.total == forward + (backward_count or 0)


def test_gn_silu_is_one_kernel_on_2_13(gn_dynamic_code: GeneratedCode) -> None:
    """GroupNorm+SiLU is one kernel on torch 2.13 (two on 2.11; docs/reliability.md)."""
    if TORCH_MINOR != "2.13":
        pytest.skip("the fusion is torch-version specific")
    fused = [
        k for k in gn_dynamic_code.kernels if {"native_group_norm", "silu"} <= set(k.fused_ops)
    ]
    assert len(fused) == 1
    assert fused[0].kind in ("reduction", "persistent_reduction")
    assert fused[0].reduction_dims == ("r0",)


def _size_symbols(code: str) -> set[str]:
    """The size symbols (`s0`, `s1`, ...) a piece of generated code uses."""
    return set(re.findall(r"(?<![\w.])s\d+(?!\w)", code))


def test_spatially_dynamic_conv_backward_is_a_clear_error_or_stays_dynamic() -> None:
    """Dynamic dims are never specialised quietly. Where Inductor's convolution_backward
    lowering guards on the input strides (torch 2.13 generating for fake CUDA), that would
    specialise the spatial sizes and mark_dynamic makes it an error, named clearly; where it
    does not (torch 2.11 on a real H200), both sizes stay symbols in the generated code."""
    model, x = _build("gn_silu_conv3d")
    try:
        code = inductor_codegen(model, x, dynamic_dims={0: [3, 4]}, backward=True)
    except ValueError as error:
        message = str(error)
        assert "dynamic_dims={0: [3, 4]} cannot stay dynamic" in message
        assert "Remove that dim from dynamic_dims" in message
        assert "backward=False" in message
    else:
        normalized = code.normalized()
        symbols = _size_symbols(normalized)
        assert {"s0", "s1"} <= symbols, f"H and W were specialised: symbols {sorted(symbols)}"


def test_dynamic_symbols_are_renumbered(gn_dynamic_code: GeneratedCode) -> None:
    normalized = gn_dynamic_code.normalized()
    symbols = _size_symbols(normalized)
    assert symbols == {"s0", "s1"}, "H and W are the only dynamic sizes"
    assign = re.compile(r"^\s+(s\d+) = (arg\d+_1)$", re.MULTILINE)
    raw_assigns = assign.findall(gn_dynamic_code.raw)
    assert len(raw_assigns) == 2 and {name for name, _ in raw_assigns} != {"s0", "s1"}
    # in order of first appearance: H's symbol becomes s0, W's s1, whatever dynamo named them
    assert assign.findall(normalized) == [("s0", raw_assigns[0][1]), ("s1", raw_assigns[1][1])]
    assert "f32[2, 16, 4, s0, s1]" in normalized
    kernel = gn_dynamic_code.kernels[0]
    assert "ks0" in kernel.source and "'ks0': 'i64'" in kernel.source


def test_dynamic_and_static_code_differ() -> None:
    model, x = _build("matmul_softmax")
    static = inductor_codegen(model, x)
    dynamic = inductor_codegen(model, x, dynamic_dims={0: 1})
    assert static.normalized() != dynamic.normalized()
    assert "s0" in dynamic.wrapper and "s0" not in static.wrapper


def test_kernel_info_parsing(conv_static_code: GeneratedCode) -> None:
    first = conv_static_code.kernels[0]
    assert first.name == "triton_poi_fused_convolution_0"
    assert first.kind == "pointwise"
    assert first.graph == "inference"
    assert first.numels == ("ynumel", "xnumel")
    assert first.tile_dims == ("y", "x") and first.nd_tiling and first.num_tile_dims == 2
    assert list(first.size_hints) == ["y", "x"]
    assert all(isinstance(v, int) for v in first.size_hints.values())
    assert (first.num_loads, first.num_stores, first.num_reductions) == (1, 1, 0)
    assert first.grid_type == "Grid2D"
    assert first.fused_ops == ("convolution",)
    assert "backend_hash': '<backend-hash>'" in first.source
    last = conv_static_code.kernels[-1]
    assert last.fused_ops == ("convolution", "silu")
    assert conv_static_code.kernel(last.name) is last
    with pytest.raises(KeyError, match="no kernel 'nope'"):
        conv_static_code.kernel("nope")


def test_reduction_kernel_parsing() -> None:
    model, x = _build("matmul_softmax")
    code = inductor_codegen(model, x)
    (softmax,) = code.kernels
    assert softmax.kind == "persistent_reduction"
    assert softmax.numels == ("xnumel", "r0_numel")
    assert softmax.tile_dims == ("x",) and not softmax.nd_tiling
    assert softmax.reduction_dims == ("r0",)
    assert softmax.num_reductions >= 2
    assert set(softmax.size_hints) == {"x", "r0_"}


def test_generated_code_views(conv_static_code: GeneratedCode) -> None:
    code = conv_static_code
    assert code.kernel_count == len(code.kernels) == len(code.forward)
    if TORCH_MINOR == "2.13":
        assert code.kernel_count == 3
    assert code.backward == []
    expected_device = torch.cuda.get_device_name() if real_cuda_available() else "fake-cuda"
    assert code.device == expected_device
    assert "'''<kernel body>'''" in code.wrapper and "@triton.jit" not in code.wrapper
    assert "@triton.jit" in code.normalized()
    assert "# ===== graph 0: inference =====" in code.normalized()
    assert "torchinductor_" not in code.normalized()
    (graph,) = code.graphs
    assert "torch.ops.aten.convolution.default" in graph
    lines = code.signature().splitlines()
    assert len(lines) == code.kernel_count + len(code.extern_calls)
    assert "inference extern convolution" in lines
    assert lines[-1].startswith("inference pointwise convolution+silu ")
    assert f"{code.kernel_count} kernels" in repr(code)


def test_signature_is_stable_across_calls(gn_dynamic_code: GeneratedCode) -> None:
    model, x = _build("gn_silu_conv3d")
    again = inductor_codegen(model, x, dynamic_dims={0: [3, 4]})
    assert again.signature() == gn_dynamic_code.signature()
    assert again.normalized() == gn_dynamic_code.normalized()
    assert again.graphs == gn_dynamic_code.graphs


def test_backward_views() -> None:
    model, x = _build("matmul_softmax")
    code = inductor_codegen(model, x, backward=True)
    assert [k.graph for k in code.forward] == ["forward"]
    assert {k.graph for k in code.backward} == {"backward"}
    assert len(code.graphs) == 2
    assert "tangents_1" in code.graphs[1]


@pytest.mark.parametrize(
    ("dynamic_dims", "match"),
    [
        ([0, 1], r"dynamic_dims=\[0, 1\]: expected None or a dict .*dynamic_dims=\{0: \[2, 3\]\}"),
        ({"x": 0}, r"key 'x' is not an input index.*0\.\.1"),
        ({True: 0}, r"key True is not an input index"),
        ({5: 0}, r"key 5 is out of range: there are 2 example input\(s\), valid keys are 0\.\.1"),
        ({1: 0}, r"names example input 1, a float, not a tensor"),
        ({0: "2"}, r"dynamic_dims\[0\]='2': expected a dim \(int\) or a sequence of dims"),
        ({0: [1.5]}, r"dynamic_dims\[0\] contains 1\.5, which is not an int dim"),
        ({0: 7}, r"dim 7, out of range for input 0 of shape \(4, 6\) \(valid dims: -2\.\.1\)"),
        ({0: [1, -1]}, r"names dim 1 twice"),
        ({0: []}, r"dynamic_dims\[0\]=\[\] is empty"),
        ({0: True}, r"dynamic_dims\[0\]=True"),
    ],
)
def test_bad_dynamic_dims_are_clear_errors(dynamic_dims: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        inductor_codegen(lambda x, s: x * s, torch.randn(4, 6), 2.0, dynamic_dims=dynamic_dims)


def test_size_one_dim_cannot_be_dynamic() -> None:
    with pytest.raises(ValueError, match=r"its size is 1: Dynamo specialises sizes 0 and 1"):
        inductor_codegen(torch.sin, torch.randn(1, 6), dynamic_dims={0: 0})


def test_backward_without_anything_requiring_grad() -> None:
    with pytest.raises(ValueError, match="backward=True but nothing requires grad"):
        inductor_codegen(torch.sin, torch.randn(4), backward=True)


def test_backward_through_an_input_only() -> None:
    x = torch.randn(8, 16, requires_grad=True)
    counts = kernel_counts(lambda t: (t.sin() * 2).sum(), x, backward=True)
    assert counts.forward >= 1 and counts.backward is not None and counts.backward >= 1


def test_unknown_inductor_config_key() -> None:
    with pytest.raises(
        ValueError, match=r"inductor_config: unknown torch._inductor.config key 'max_tile'"
    ):
        inductor_codegen(torch.sin, torch.randn(4), inductor_config={"max_tile": 2})


def test_inductor_config_is_scoped_and_changes_the_code() -> None:
    """Two calls with different config generate different code: nothing compiled is shared."""

    def transpose_add(x: torch.Tensor) -> torch.Tensor:
        return x.t().contiguous() + 1

    x = torch.randn(64, 128)
    before = torch._inductor.config.save_config_portable()
    tiled = inductor_codegen(transpose_add, x)
    flat = inductor_codegen(transpose_add, x, inductor_config={"triton.max_tiles": 1})
    assert torch._inductor.config.save_config_portable() == before
    assert tiled.kernels[0].tile_dims == ("y", "x")
    assert flat.kernels[0].tile_dims == ("x",)


def test_inductor_config_identical_before_and_after() -> None:
    model, x = _build("matmul_softmax")
    before = torch._inductor.config.get_config_copy()
    inductor_codegen(model, x, backward=True)
    assert torch._inductor.config.get_config_copy() == before


def test_module_is_restored_even_when_fn_fails() -> None:
    model = ConvSiLU()
    params = {n: p for n, p in model.named_parameters()}
    buffers = {n: b for n, b in model.named_buffers()}
    inductor_codegen(model, torch.randn(1, 3, 8, 8), backward=True)

    class Boom(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = model

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.inner(x).view(-1, 7)  # 8*8*8 elements: not divisible by 7

    with pytest.raises(Exception, match="invalid|shape"):
        inductor_codegen(Boom(), torch.randn(1, 3, 8, 8))
    assert dict(model.named_parameters()) == params
    assert dict(model.named_buffers()) == buffers
    for p in model.parameters():
        assert p.device.type == "cpu" and p.requires_grad
        assert type(p) is torch.nn.Parameter
        assert torch.isfinite(p).all()


def test_batchnorm_buffers_are_swapped_and_restored() -> None:
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)).eval()
    running_mean = model[1].running_mean
    code = inductor_codegen(model, torch.randn(2, 3, 8, 8))
    assert code.kernel_count >= 1
    assert model[1].running_mean is running_mean and running_mean.device.type == "cpu"


def test_callers_compiled_code_survives() -> None:
    """No torch._dynamo.reset(): the caller's torch.compile caches stay valid."""
    compiles = []

    def counting_backend(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
        compiles.append(gm)
        return gm.forward

    @torch.compile(backend=counting_backend)
    def user_fn(x: torch.Tensor) -> torch.Tensor:
        return x.cos() + 1

    x = torch.randn(8)
    user_fn(x)
    inductor_codegen(user_fn.__wrapped__, x)  # the very function the caller compiled
    inductor_codegen(torch.cos, x)
    user_fn(x)
    assert len(compiles) == 1


def test_post_grad_pass_of_the_caller_still_runs() -> None:
    calls: list[int] = []

    def user_pass(graph: torch.fx.Graph) -> None:
        calls.append(len(graph.nodes))

    code = inductor_codegen(
        torch.sin, torch.randn(4), inductor_config={"post_grad_custom_post_pass": user_pass}
    )
    assert len(calls) == 1
    assert len(code.graphs) == 1
    assert torch._inductor.config.post_grad_custom_post_pass is None


def test_recording_pass_uuid_is_deterministic() -> None:
    a = RecordingGraphPass(None, lambda text: None)
    b = RecordingGraphPass(None, lambda text: None)
    assert a.uuid() == b.uuid()
    assert len(a.uuid()) == 64

    class Inner:
        def __init__(self, tag: str) -> None:
            self.tag = tag

        def __call__(self, graph: torch.fx.Graph) -> None:
            pass

        def uuid(self) -> str:
            return self.tag

    assert (
        RecordingGraphPass(Inner("x"), print).uuid() == RecordingGraphPass(Inner("x"), print).uuid()
    )
    assert (
        RecordingGraphPass(Inner("x"), print).uuid() != RecordingGraphPass(Inner("y"), print).uuid()
    )
    assert RecordingGraphPass(Inner("x"), print).uuid() != a.uuid()


@pytest.mark.parametrize(
    ("body", "ops"),
    [
        ("fused_native_group_norm_silu", ("native_group_norm", "silu")),
        ("fused__to_copy_add_mul", ("_to_copy", "add", "mul")),
        ("fused_convolution_native_group_norm_silu", ("convolution", "native_group_norm", "silu")),
        ("fused__softmax_prepare_softmax_online", ("_softmax", "prepare_softmax_online")),
        (
            "fused_native_group_norm_native_group_norm_backward_silu_backward",
            ("native_group_norm", "native_group_norm_backward", "silu_backward"),
        ),
        ("fused_mul_sum_view", ("mul", "sum", "view")),
        ("fused_0", ("0",)),
    ],
)
def test_split_fused_ops(body: str, ops: tuple[str, ...]) -> None:
    assert split_fused_ops(body) == ops


def test_kernel_counts_function() -> None:
    model, x = _build("matmul_softmax")
    assert kernel_counts(model, x) == KernelCounts(forward=1, backward=None)
    both = kernel_counts(model, x, backward=True)
    assert both.forward == 1 and both.backward is not None and both.backward >= 1


def test_kernel_counts_repr() -> None:
    assert repr(KernelCounts(3, None)) == "KernelCounts(forward=3)"
    assert repr(KernelCounts(3, 4)) == "KernelCounts(forward=3, backward=4, total=7)"
    assert KernelCounts(3, None).total == 3


def test_magi_passes_config() -> None:
    backend = pytest.importorskip("magi_passes.backend")
    if not hasattr(backend, "inductor_options"):
        pytest.skip("magi_passes.backend.inductor_options is not written yet")
    from magi_passes import PassConfig

    class TwoConvs(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = torch.nn.Conv3d(8, 8, 3, padding=1)
            self.b = torch.nn.Conv3d(8, 8, 3, padding=1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.b(F.silu(self.a(x)))

    torch.manual_seed(0)
    model, x = TwoConvs(), torch.randn(1, 8, 4, 8, 8)
    before = torch._inductor.config.get_config_copy()
    plain = inductor_codegen(model, x)
    magi = inductor_codegen(model, x, config=PassConfig())
    assert torch._inductor.config.get_config_copy() == before
    assert plain.pass_results == []
    names = [r.name for r in magi.pass_results]
    assert "conv_channels_last" in names
    converted = next(r for r in magi.pass_results if r.name == "conv_channels_last")
    assert converted.applied and converted.counts["convs_converted"] == 2
    assert magi.normalized() != plain.normalized()
    # the channels-last pass makes the convolutions' outputs channels-last-3d
    assert "(4096, 1, 1024, 128, 16)" not in plain.wrapper
    assert "(2048, 1, 512, 64, 8)" in magi.wrapper
    # the recorded FX graph is the one *after* the magi passes ran
    assert "channels_last_3d" in magi.graphs[0]
