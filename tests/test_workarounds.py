"""PaddingMiscompileWorkaround (pytorch#194281): the version gate, the source it rests on, the
graphs it fires on, and the rule in generated CUDA code (fake CUDA, torch version mocked).
DynamicCatTilingWorkaround: the graphs it fires on and its 1-D tiles in fake-CUDA code."""

from __future__ import annotations

import inspect
import re

import pytest
import sympy
import torch
from graphs import GraphBuilder
from torch import nn
from torch._inductor import config as inductor_config

import magi_passes.compile.sympy_retry as workarounds
import magi_passes.passes.padding_workaround as padding_workaround
from magi_passes import PassConfig, PassManager
from magi_passes.compile import forms
from magi_passes.passes.dynamic_cat_workaround import (
    DynamicCatTilingWorkaround,
    reads_concatenation,
)
from magi_passes.passes.padding_workaround import (
    PaddingMiscompileWorkaround,
    has_padding_miscompile,
)

aten = torch.ops.aten
F = nn.functional
PADDED = "49152, 6144, 2048, 60, 1"  # (1, 8, 3, 34, 60) bf16 with 2040-element rows padded to 2048
UNPADDED = "48960, 6120, 2040, 60, 1"


@pytest.mark.parametrize(
    "version",
    ["2.11.0+cu130", "2.11.1", "2.12.0+cpu", "2.13.0", "2.13.0+cpu", "2.14.0.dev20261101", "3.0.0"],
)
def test_no_torch_is_known_fixed_so_every_version_is_worked_around(version: str) -> None:
    assert padding_workaround.FIXED_IN is None
    assert has_padding_miscompile(version)


@pytest.mark.parametrize(
    ("version", "affected"),
    [("2.13.0", True), ("2.13.0+cpu", True), ("2.14.0.dev20261101", False), ("3.0.0", False)],
)
def test_the_gate_moves_with_a_known_fix(
    monkeypatch: pytest.MonkeyPatch, version: str, affected: bool
) -> None:
    monkeypatch.setattr(padding_workaround, "FIXED_IN", (2, 14))
    assert has_padding_miscompile(version) is affected


def test_version_gate_names_a_bad_version() -> None:
    with pytest.raises(ValueError, match=r"torch version 'nightly': expected 'MAJOR.MINOR"):
        has_padding_miscompile("nightly")


def test_the_in_place_pad_of_the_running_torch_is_worked_around() -> None:
    """torch 2.11 and 2.12 pad a flexible layout's strides in place while asking whether it is
    contiguous (pytorch#194281); 2.13 pads a copy, yet still reads a buffer with padded strides
    it does not have (tests/test_bounds.py). Wherever the in-place pad is in the source, the
    workaround is on (CI's torch 2.13 here, the GPU machine's 2.11 there)."""
    from torch._inductor import ir

    source = inspect.getsource(ir.is_contiguous_storage_and_layout)
    if "layout.pad_strides()" in source:
        assert has_padding_miscompile(), (torch.__version__, source)


def conv_graph(dtype: torch.dtype = torch.bfloat16) -> torch.fx.Graph:
    b = GraphBuilder()
    x = b.input((1, 4, 3, 6, 6), dtype=dtype)
    w = b.input((4, 4, 3, 3, 3), dtype=dtype)
    return b.output(b.conv(b.call(aten.silu.default, x), w, padding=1))


def run(graph: torch.fx.Graph, version: str, monkeypatch: pytest.MonkeyPatch, **config: bool):
    monkeypatch.setattr(padding_workaround, "torch_version", lambda: version)
    p = PaddingMiscompileWorkaround(PassConfig(**config))
    with inductor_config.patch(comprehensive_padding=True):
        p(graph)
        after = inductor_config.comprehensive_padding
    return p.last_result, after


def test_skips_cpu_graphs_graphs_without_convolutions_and_fixed_torch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result, after = run(conv_graph(), "2.11.0", monkeypatch)
    assert not result.applied and after is True
    assert "not a CUDA graph" in result.reason
    b = GraphBuilder()
    plain = b.output(b.call(aten.relu.default, b.input((4, 4))))
    result, _ = run(plain, "2.11.0", monkeypatch)
    assert not result.applied and "no convolution" in result.reason
    monkeypatch.setattr(padding_workaround, "FIXED_IN", (2, 14))  # once a torch is shown fixed
    result, _ = run(conv_graph(), "2.14.0", monkeypatch)
    assert not result.applied and "has the fix of pytorch#194281 (>= 2.14)" in result.reason


def test_the_pass_manager_reports_it_disabled_by_config() -> None:
    manager = PassManager(PassConfig(work_around_inductor_bugs=False))
    declared = inductor_config.get_config_copy()
    with inductor_config.patch({k: declared[k] for k in manager.mutates_inductor_config}):
        manager(conv_graph())  # the other passes set their declared keys inside this patch
    result = manager.result("padding_miscompile_workaround")
    assert result is not None and not result.applied
    assert result.reason == "disabled by PassConfig"
    assert "comprehensive_padding" in manager.mutates_inductor_config


class CausalCacheBlock(nn.Module):
    """The Wan decoder's pattern: conv, norm, SiLU, the causal cache's last frames concatenated
    in front, conv. The concatenated buffer has 34x60 = 2040-element rows: padded in bf16."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv3d(8, 8, 3, padding=1)
        self.norm = nn.GroupNorm(2, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = F.silu(self.norm(self.conv(x)))
        return self.conv(torch.cat([z[:, :, -2:], z], 2))


def _buffers(code) -> list[str]:
    return [
        strides
        for _, strides in re.findall(r"empty_strided_cuda\(\(([^)]*)\), \(([^)]*)\)", code.wrapper)
    ]


def _workaround(code):
    return [
        r
        for graph in code.captured
        for r in graph.pass_results
        if r.name == "padding_miscompile_workaround"
    ]


@pytest.mark.parametrize(
    ("version", "fixed_in", "padded"),
    [("2.11.0+cu130", None, False), ("2.13.0", None, False), ("2.14.0", (2, 14), True)],
)
def test_fake_cuda_code_shows_the_rule(
    inductor_codegen,
    monkeypatch: pytest.MonkeyPatch,
    version: str,
    fixed_in: tuple[int, int] | None,
    padded: bool,
) -> None:
    """Plain Inductor pads the cache buffer's rows (2040 -> 2048 elements); magi on an affected
    torch (every torch today) does not, and on a torch known fixed generates what plain
    Inductor does. The channels-last rewrite is off here: it makes this buffer channels-last,
    which Inductor never pads, and the point is the workaround's own effect."""
    model = CausalCacheBlock().to(torch.bfloat16).eval()
    x = torch.randn(1, 8, 3, 34, 60, dtype=torch.bfloat16)
    before = inductor_config.get_config_copy()
    plain = inductor_codegen(model, x)
    assert PADDED in _buffers(plain)  # the premise: Inductor pads this buffer
    monkeypatch.setattr(padding_workaround, "FIXED_IN", fixed_in)
    monkeypatch.setattr(padding_workaround, "torch_version", lambda: version)
    magi = inductor_codegen(model, x, config=PassConfig(enable_conv_channels_last=False))
    assert (PADDED in _buffers(magi)) is padded, _buffers(magi)
    assert (UNPADDED in _buffers(magi)) is not padded, _buffers(magi)
    (result,) = _workaround(magi)
    assert result.applied is not padded, result.reason
    if not padded:
        assert result.config_changes == {"comprehensive_padding": False}
        assert "pytorch#194281" in result.reason and "2 convolutions on CUDA" in result.reason
    assert inductor_config.get_config_copy() == before  # scoped: nothing leaked


def test_fake_cuda_backward_graph_decides_on_its_own(
    inductor_codegen, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(padding_workaround, "torch_version", lambda: "2.11.0+cu130")
    model = nn.Sequential(nn.Conv3d(8, 8, 3, padding=1), nn.SiLU(), nn.Conv3d(8, 8, 3, padding=1))
    model = model.to(torch.bfloat16)
    x = torch.randn(1, 8, 3, 34, 60, dtype=torch.bfloat16, requires_grad=True)
    code = inductor_codegen(model, x, config=PassConfig(), backward=True)
    results = _workaround(code)
    assert len(results) == 2 and all(r.applied for r in results), [str(r) for r in results]
    assert inductor_config.comprehensive_padding is True


# --------------------------------------------------------------------------- DynamicCatTilingWorkaround
class CachedConv(nn.Module):
    """The Wan decoder's `conv_in` as the decode runs it: the cached frames concatenated in front
    of the new latent frame, then a causal 3x3x3 conv (frames padded in front only)."""

    def __init__(self, channels: int = 16) -> None:
        super().__init__()
        self.conv = nn.Conv3d(channels, 32, 3, padding=(0, 1, 1))

    def forward(self, x: torch.Tensor, cache: torch.Tensor) -> torch.Tensor:
        return self.conv(torch.cat([cache, x], 2))


def _tiles(code) -> list[int]:
    return [k.num_tile_dims for k in code.kernels if k.kind == "pointwise"]


def _result(code, name: str = DynamicCatTilingWorkaround.name) -> list:
    """One pass's results over the captured graphs (the workaround's by default)."""
    return [r for g in code.captured for r in g.pass_results if r.name == name]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_fake_cuda_dynamic_concatenation_keeps_inductors_own_code(
    inductor_codegen, dynamic: bool
) -> None:
    """Dynamic: with the workaround off the conv input's producer is 2-D tiled channels-last (the
    premise: the kernel Triton miscompiled); with it on the layout pass and ND tiling stand down,
    every pointwise kernel is 1-D and the graph has no channels-last clone, as plain Inductor's
    (whose decodes were right); the Inductor config is back as it was. Static: the workaround
    leaves the graph to the rewrite and its 2-D tiles."""
    model = CachedConv().to(torch.bfloat16).eval()
    x = torch.randn(1, 16, 1, 34, 60, dtype=torch.bfloat16)
    cache = torch.randn(1, 16, 2, 34, 60, dtype=torch.bfloat16)
    dims = {0: [3, 4], 1: [3, 4]} if dynamic else None
    before = inductor_config.get_config_copy()
    off = inductor_codegen(
        model, x, cache, dynamic_dims=dims, config=PassConfig(work_around_inductor_bugs=False)
    )
    on = inductor_codegen(model, x, cache, dynamic_dims=dims, config=PassConfig())
    plain = inductor_codegen(model, x, cache, dynamic_dims=dims)
    assert 2 in _tiles(off), off.signature()  # the premise: a 2-D tiled channels-last producer
    (result,) = _result(on)
    assert result.counts == {"convolutions_reading_a_cat": 1}
    assert result.config_changes == {}  # it changes no setting: the passes read its mark
    (layout,) = _result(on, "conv_channels_last")
    (tiling,) = _result(on, "nd_tiling")
    if dynamic:
        assert result.applied and "Triton 3.6.0" in result.reason, result.reason
        assert "stand down" in result.reason, result.reason
        assert not layout.applied and layout.reason.startswith("DynamicCatTilingWorkaround")
        assert layout.counts["skipped_dynamic_cat_graph"] == 1 and not layout.config_changes
        assert not tiling.applied and tiling.reason.startswith("DynamicCatTilingWorkaround")
        assert not tiling.config_changes
        assert _tiles(on) and set(_tiles(on)) == {1}, on.signature()
        assert set(_tiles(plain)) == {1}, plain.signature()  # plain Inductor's, the same rule
        assert "channels_last" not in on.graphs[0] and "channels_last" in off.graphs[0]
    else:
        assert not result.applied and result.reason.startswith("static shapes"), result.reason
        assert layout.applied, layout.reason
        assert _tiles(on) == _tiles(off)
    assert inductor_config.get_config_copy() == before  # scoped: nothing leaked


def test_dynamic_concatenation_skips(inductor_codegen) -> None:
    """No concatenation in front of the conv, or the workarounds off: the workaround stands by,
    with its reason. With the channels-last rewrite off it still applies: ND tiling alone also
    2-D tiles the producer of a concatenated conv input in a dynamic graph, and stands down."""
    x = torch.randn(1, 16, 3, 34, 60, dtype=torch.bfloat16)
    conv = nn.Conv3d(16, 32, 3, padding=1).to(torch.bfloat16).eval()
    code = inductor_codegen(conv, x, dynamic_dims={0: [3, 4]}, config=PassConfig())
    (result,) = _result(code)
    assert not result.applied and result.reason == "no convolution reads a concatenation"
    model = CachedConv().to(torch.bfloat16).eval()
    cache = torch.randn(1, 16, 2, 34, 60, dtype=torch.bfloat16)
    args = (x[:, :, :1], cache)
    dims = {0: [3, 4], 1: [3, 4]}
    tiled = inductor_codegen(
        model,
        *args,
        dynamic_dims=dims,
        config=PassConfig(enable_conv_channels_last=False, work_around_inductor_bugs=False),
    )
    assert 2 in _tiles(tiled), tiled.signature()  # ND tiling's 2-D tiles, without the rewrite
    code = inductor_codegen(
        model, *args, dynamic_dims=dims, config=PassConfig(enable_conv_channels_last=False)
    )
    (result,) = _result(code)
    assert result.applied, result.reason
    (tiling,) = _result(code, "nd_tiling")
    assert not tiling.applied and set(_tiles(code)) == {1}, code.signature()
    code = inductor_codegen(
        model, *args, dynamic_dims=dims, config=PassConfig(work_around_inductor_bugs=False)
    )
    (result,) = _result(code)
    assert not result.applied and result.reason == "disabled by PassConfig"


def test_reads_concatenation_through_clones_pads_and_slices() -> None:
    b = GraphBuilder()
    cache = b.input((1, 4, 2, 6, 6))
    x = b.input((1, 4, 1, 6, 6))
    w = b.input((4, 4, 3, 3, 3))
    cat = b.call(aten.cat.default, [cache, x], 2)
    pad = b.call(aten.constant_pad_nd.default, cat, [1, 1, 1, 1, 0, 0])
    clone = b.call(aten.clone.default, pad, memory_format=torch.channels_last_3d)
    through = b.conv(clone, w)
    direct = b.conv(b.call(aten.silu.default, cat), w)
    plain = b.conv(b.call(aten.constant_pad_nd.default, cat, [1, 1, 1, 1, 0, 0]), w)
    b.output(through, direct, plain)
    assert reads_concatenation(through) and reads_concatenation(plain)
    assert not reads_concatenation(direct)  # a SiLU between: the cat is not the conv's input


def _cat_of_a_clamped_frame(x: torch.Tensor) -> torch.Tensor:
    """A causal cache's shape: frames concatenated with a replicate-padded (clamped) clip."""
    return torch.cat([x[:, :, :2], F.pad(x, (0, 0, 0, 0, 1, 1), mode="replicate")], dim=2) * 2


def test_the_pointwise_concatenation_of_a_clamped_input_compiles_on_the_cpu() -> None:
    """`compile_working_around` (torch 2.13 with sympy 1.14): Inductor's pointwise
    concatenation of a replicate-padded input raises in sympy (`force_pointwise_cat` chooses
    that lowering on the CPU, as Inductor does on GPUs); the magi backend compiles it again
    inside `identity_numbers`, right, and the name it swaps is restored afterwards."""
    from torch._inductor import lowering
    from torch.utils._sympy.functions import Identity

    from magi_passes.backend import MagiBackend

    x = torch.randn(1, 4, 3, 4, 6)
    with inductor_config.patch(force_pointwise_cat=True):
        if workarounds.has_identity_number_bug():
            torch._dynamo.reset()
            with pytest.raises(Exception, match="comparable|recursion"):
                torch.compile(_cat_of_a_clamped_frame, backend="inductor")(x)
        for fix in (True, False):
            torch._dynamo.reset()
            backend = MagiBackend(PassConfig(work_around_inductor_bugs=fix))
            compiled = torch.compile(_cat_of_a_clamped_frame, backend=backend)
            if fix or not workarounds.has_identity_number_bug():
                torch.testing.assert_close(compiled(x), _cat_of_a_clamped_frame(x))
            else:
                with pytest.raises(Exception, match="comparable|recursion"):
                    compiled(x)
            assert lowering.Identity is Identity
    torch._dynamo.reset()


def test_the_backend_counts_a_retried_graph_and_compiles_it_once_inside_the_scopes() -> None:
    """`MagiBackend.retried` and `seconds_text` name a graph compiled again after one of the
    sympy failures, with its failed try's seconds; `PassConfig.work_around_sympy_first`
    compiles the same graph inside the scopes from its first try: no failed try, the same
    output, the scopes restored. (The FX graph cache off: a cached graph compiles nothing.)"""
    from torch._inductor import lowering
    from torch.fx.experimental import symbolic_shapes
    from torch.utils._sympy.functions import Identity

    from magi_passes.backend import MagiBackend

    x = torch.randn(1, 4, 3, 4, 6)
    worker = symbolic_shapes._maybe_evaluate_static_worker
    with inductor_config.patch(force_pointwise_cat=True, fx_graph_cache=False):
        for first in (False, True):
            torch._dynamo.reset()
            backend = MagiBackend(PassConfig(work_around_sympy_first=first))
            compiled = torch.compile(_cat_of_a_clamped_frame, backend=backend)
            torch.testing.assert_close(compiled(x), _cat_of_a_clamped_frame(x))
            text = backend.seconds_text()
            if workarounds.has_identity_number_bug() and not first:
                assert backend.retried == ["clamp of a constant Identity"]
                assert 0 < backend.seconds["compile_failed_tries"] < backend.seconds["compile"]
                assert "1 graph compiled again after an Inductor bug (clamp of a constant " in text
                assert "work_around_sympy_first=True" in text
            else:
                assert backend.retried == [] and backend.seconds["compile_failed_tries"] == 0
                assert "compiled again" not in text
            # one pass record a graph: the failed try's were dropped
            assert len(backend.managers) == 1 and len(backend.managers[0].graphs) == 1
            assert lowering.Identity is Identity
            assert symbolic_shapes._maybe_evaluate_static_worker is worker
    torch._dynamo.reset()


def test_a_pairs_compile_health_names_the_graph_compiled_again() -> None:
    """A `CompiledPair` whose magi candidate compiled a graph again after one of the sympy
    failures says so in its compile-health note (the report's compile table), with the bug and
    the failed try's seconds; with `work_around_sympy_first` it has nothing to say."""
    from pytest_magi.pairs.compiled import CompiledPair

    x = torch.randn(1, 4, 3, 4, 6)
    for first in (False, True):
        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False):
            pair = CompiledPair.build(
                _cat_of_a_clamped_frame,
                x,
                baseline="aot_eager",
                candidate=PassConfig(work_around_sympy_first=first),
                inductor_config={"force_pointwise_cat": True},
            )
            pair.assert_close()
        note = pair.compile_note
        if workarounds.has_identity_number_bug() and not first:
            assert note is not None and note.startswith(
                "candidate: 1 graph compiled again after an Inductor bug (clamp of a constant "
                "Identity), its failed try "
            ), note
        else:
            assert note is None
    torch._dynamo.reset()


def test_identity_numbers_is_scoped_and_nests() -> None:
    from torch._inductor import lowering
    from torch.utils._sympy.functions import Identity, Max, Min

    bug = workarounds.has_identity_number_bug()
    with workarounds.identity_numbers() as outer:
        assert outer is bug and (lowering.Identity is workarounds.NumberIdentity) is bug
        with workarounds.identity_numbers() as inner:
            assert inner is bug and (lowering.Identity is workarounds.NumberIdentity) is bug
        assert (lowering.Identity is workarounds.NumberIdentity) is bug
        with workarounds.identity_numbers(False) as off:
            assert off is False
    assert lowering.Identity is Identity
    with pytest.raises(KeyError), workarounds.identity_numbers():
        raise KeyError("restored on an error too")
    assert lowering.Identity is Identity
    # the subclass is its argument once that is a number, and Identity otherwise
    q = sympy.Symbol("q", integer=True, nonnegative=True)
    wrapped = workarounds.NumberIdentity(q - 2)
    assert isinstance(wrapped, Identity) and wrapped.xreplace({q: 0}) == -2
    assert Min(2, Max(0, wrapped.xreplace({q: 0}))) == 0


def test_fake_cuda_kvae_like_concatenation_generates_with_magi(inductor_codegen) -> None:
    """In fake CUDA (Inductor's GPU lowering: the pointwise concatenation) plain Inductor
    raises on torch 2.13; with a magi config the code is generated, one kernel."""
    x = torch.randn(1, 4, 3, 4, 6, dtype=torch.bfloat16)
    if workarounds.has_identity_number_bug():
        with pytest.raises(Exception, match="comparable|recursion"):
            inductor_codegen(_cat_of_a_clamped_frame, x)
    # compiled again after the failed try, or inside the scopes from the first
    for first in (False, True):
        config = PassConfig(work_around_sympy_first=first)
        code = inductor_codegen(_cat_of_a_clamped_frame, x, config=config)
        assert sum(len(g.calls) for g in code.captured) == 1
        # the failed try's graph is not in the log: one graph before and after the passes
        assert len(code.fx_graphs("before")) == len(code.fx_graphs()) == len(code.captured) == 1
        assert "Identity" not in code.raw  # printed as Identity is: its argument, parenthesised
        bug = workarounds.has_identity_number_bug()
        assert code.retried == (("clamp of a constant Identity",) if bug and not first else ())


@pytest.mark.slow
def test_fake_cuda_the_kvae_3d_decoder_generates_with_magi(inductor_codegen) -> None:
    """The real model behind `identity_numbers`: the KVAE-3D decoder (tiny, bf16), which raises
    in plain Inductor's CUDA lowering on a torch with the bug (as the minimal case above does;
    not repeated here, for CI's time), is generated with magi."""
    from pytest_magi import zoo

    if "kvae-3d-vae" not in zoo.names():
        pytest.skip(zoo.unavailable().get("kvae-3d-vae", "kvae-3d-vae"))
    model = zoo.load("kvae-3d-vae", "tiny", dtype=torch.bfloat16)
    code = inductor_codegen(model.as_module(), *model.inputs, config=PassConfig())
    assert code.kernel_count > 0 and "Identity" not in code.raw
    bug = workarounds.has_identity_number_bug()
    assert code.retried == (("clamp of a constant Identity",) if bug else ())
    # KVAE-3D's form compiles inside the scopes from the first try (on torch 2.11
    # its graph raised at the first try on an H200): no failed try, the retry's very code
    form = forms.form_for(model.module)
    assert form is not None and form.config().work_around_sympy_first
    first = inductor_codegen(
        model.as_module(), *model.inputs, config=PassConfig(work_around_sympy_first=True)
    )
    assert first.retried == () and first.normalized() == code.normalized()


def test_unranged_undecided_answers_unknown_and_is_scoped() -> None:
    """The shape environment asked about an index variable it has no range for: it raises on
    torch 2.13, and answers None (cannot decide) inside `unranged_undecided`, which restores
    the evaluator after the block."""
    from torch.fx.experimental import symbolic_shapes
    from torch.utils._sympy.functions import Identity

    env = symbolic_shapes.ShapeEnv()
    q = sympy.Symbol("q1", integer=True, nonnegative=True)
    ask = sympy.Ge(Identity(q - 2), 0)
    worker = symbolic_shapes._maybe_evaluate_static_worker
    try:
        answer = env._maybe_evaluate_static(ask)
    except AssertionError as error:  # torch 2.13
        assert workarounds.sympy_failure(error) == "index variable without a range"
    else:
        assert answer is None  # a torch that answers "cannot decide" itself
    with workarounds.unranged_undecided():
        assert symbolic_shapes._maybe_evaluate_static_worker is not worker
        assert env._maybe_evaluate_static(ask) is None
    assert symbolic_shapes._maybe_evaluate_static_worker is worker


def test_a_compile_is_retried_only_on_the_sympy_failures() -> None:
    """`compile_working_around`: the first try as Inductor makes it; a retry, inside both
    scopes and after `before_retry`, only for the two bugs' errors and only when enabled."""
    from torch._inductor import lowering
    from torch.utils._sympy.functions import Identity

    calls: list[bool] = []
    undone: list[int] = []

    def failing_once(message: str) -> object:
        def compile_() -> str:
            calls.append(lowering.Identity is workarounds.NumberIdentity)
            if len(calls) == 1:
                raise RuntimeError("InductorError") from ValueError(message)
            return "compiled"

        return compile_

    compile_ = failing_once("The argument '((-2)) - 1' is not comparable.")
    assert workarounds.compile_working_around(
        compile_, True, before_retry=lambda: undone.append(1)
    ) == ("compiled")
    assert calls == [False, workarounds.has_identity_number_bug()] and undone == [1]
    assert lowering.Identity is Identity
    for message, enabled in (("some other bug", True), ("is not comparable", False)):
        calls.clear()
        with pytest.raises(RuntimeError):
            workarounds.compile_working_around(failing_once(message), enabled)
        assert calls == [False]
    assert workarounds.sympy_failure(RecursionError("maximum recursion depth exceeded")) == (
        "clamp of a constant Identity"
    )
    assert workarounds.sympy_failure(KeyError("x")) is None

    def always_failing() -> object:
        raise RuntimeError("InductorError") from ValueError("is not comparable")

    with pytest.raises(RuntimeError) as raised:
        workarounds.compile_working_around(always_failing, True)
    assert isinstance(raised.value.__cause__, RuntimeError)  # the first try's error


def test_a_compile_inside_the_scopes_from_its_first_try_is_tried_once() -> None:
    """`compile_working_around(first_in_scopes=True)`: one try, inside both scopes (restored
    after it, on an error too), no retry; only when enabled. `on_retry` gets the first try's
    bug (as `sympy_failure` names it) where a retry happens."""
    from torch._inductor import lowering
    from torch.fx.experimental import symbolic_shapes
    from torch.utils._sympy.functions import Identity

    worker = symbolic_shapes._maybe_evaluate_static_worker
    calls: list[tuple[bool, bool]] = []

    def compile_() -> str:
        in_scopes = symbolic_shapes._maybe_evaluate_static_worker is not worker
        calls.append((lowering.Identity is workarounds.NumberIdentity, in_scopes))
        return "compiled"

    bug = workarounds.has_identity_number_bug()
    assert workarounds.compile_working_around(compile_, True, first_in_scopes=True) == "compiled"
    assert calls == [(bug, True)]
    calls.clear()
    assert workarounds.compile_working_around(compile_, False, first_in_scopes=True) == "compiled"
    assert calls == [(False, False)]

    def failing() -> str:
        compile_()
        raise RuntimeError("InductorError") from AssertionError("vr must not be None for symbol q1")

    calls.clear()
    with pytest.raises(RuntimeError) as raised:
        workarounds.compile_working_around(failing, True, first_in_scopes=True)
    assert calls == [(bug, True)] and raised.value.__cause__ is not None
    assert lowering.Identity is Identity and symbolic_shapes._maybe_evaluate_static_worker is worker

    seen: list[str] = []
    calls.clear()
    with pytest.raises(RuntimeError):
        workarounds.compile_working_around(failing, True, on_retry=seen.append)
    assert seen == ["index variable without a range"] and [c[1] for c in calls] == [False, True]
