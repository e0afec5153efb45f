"""The zoo of real models (`pytest_magi.zoo`) at its tiny size on CPU: what it builds, that
`backend="magi"` computes eager's numbers on it, and what each pass did to it.

The full sizes run on the GPU (tests/test_zoo_gpu.py, benchmarks/zoo.py); here their
configuration is checked through FLOP counts on the meta device (no memory, no compute).
"""

from __future__ import annotations

import dataclasses

import pytest
import torch

from magi_passes import MagiBackend, PassConfig
from magi_passes.compile.frames import isolate_forward_code
from pytest_magi import report, zoo
from pytest_magi.models import zoo as zoo_models
from pytest_magi.models.zoo_specs import SPECS

DIFFUSERS = pytest.mark.skipif(
    "wan2.2-vae" not in zoo.names(), reason=zoo.unavailable().get("wan2.2-vae", "")
)


def test_names_and_unavailable_partition_the_zoo() -> None:
    available, missing = zoo.names(), zoo.unavailable()
    assert sorted(available + list(missing)) == sorted(zoo.all_names())
    assert {"wan2.2-vae", "sd-vae", "resnet50", "efficientnet_b0"} <= set(zoo.all_names())
    for name, reason in missing.items():
        library = SPECS[name].library
        assert library in reason and "pip install" in reason


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: zoo.load("wan2.1-vae"),
            "unknown zoo model name 'wan2.1-vae'.*did you mean 'wan2.2-vae'",
        ),
        (
            lambda: zoo.load("sd-vae", "small"),
            r"unknown zoo size 'small'; choose one of \['tiny', 'full'\]",
        ),
        (
            lambda: zoo.load("sd-vae", frames=3),
            "unknown option.*'frames'.*accepts batch, resolution",
        ),
        (lambda: zoo.load("wan2.2-vae", frames=0), "frames=0 must be a positive int"),
        (lambda: zoo.load("sd-vae", dtype=torch.int8), "expected a floating torch.dtype"),
    ],
    ids=["name", "size", "option", "option-value", "dtype"],
)
def test_bad_arguments_name_the_choices(call, message) -> None:
    if "sd-vae" not in zoo.names():
        # the name and size are checked before the library is needed
        pytest.skip(zoo.unavailable()["sd-vae"])
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_missing_library_is_a_clear_error() -> None:
    missing = zoo.unavailable()
    if not missing:
        pytest.skip("every zoo library imports here")
    name = next(iter(missing))
    with pytest.raises(ModuleNotFoundError, match=f"zoo model '{name}' needs"):
        zoo.load(name)


@DIFFUSERS
def test_wan_full_size_flops_are_the_ti2v_5b_decoder() -> None:
    """The full Wan 2.2 TI2V-5B decode, counted on meta: 11.9 TFLOP for the first latent frame
    and 38.4 TFLOP for each further one at 540p (the FLOP floors of docs/results.md)."""
    wan = zoo.load("wan2.2-vae")
    full = zoo.ZooModel(
        "wan2.2-vae", "full", wan.owner, wan.attr, wan.inputs,
        zoo_models._settings(SPECS["wan2.2-vae"], "full", {}), SPECS["wan2.2-vae"],
    )  # fmt: skip
    first = full.flops(frames=1)
    further = full.flops(frames=2) - first
    assert first == pytest.approx(11.91e12, rel=1e-3)
    assert further == pytest.approx(38.44e12, rel=1e-3)
    assert full.flops() == pytest.approx(first + 20 * further, rel=1e-6)


@DIFFUSERS
def test_load_is_deterministic_and_compile_copies() -> None:
    a, b = zoo.load("sd-vae", seed=3), zoo.load("sd-vae", seed=3)
    torch.testing.assert_close(a.run(), b.run(), rtol=0, atol=0)
    compiled = a.compile(backend="eager")
    assert compiled.compiled and not a.compiled
    assert compiled.owner is not a.owner
    assert compiled.module is not a.module
    first = next(compiled.owner.parameters())
    assert first.data_ptr() != next(a.owner.parameters()).data_ptr()
    with pytest.raises(ValueError, match="already compiled"):
        compiled.compile()
    assert "sd-vae" in repr(compiled) and "compiled" in repr(compiled)


@DIFFUSERS
@DIFFUSERS
def test_with_frames_draws_a_latent_of_that_length_and_shares_the_model() -> None:
    wan = zoo.load("wan2.2-vae")
    five = wan.with_frames(5)
    (z,) = wan.inputs
    (z5,) = five.inputs
    assert z5.shape == (*z.shape[:2], 5, *z.shape[3:])
    assert (z5.dtype, z5.device) == (z.dtype, z.device)
    assert five.owner is wan.owner and five.run().shape[2] > wan.run().shape[2]
    meta = zoo.load("wan2.2-vae", "full", device="meta").with_frames(21)
    assert meta.inputs[0].shape == (1, 48, 21, 34, 60) and meta.inputs[0].is_meta
    for bad in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match=r"with_frames\(frames=.*expected a positive"):
            wan.with_frames(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"'sd-vae': with_frames needs a \(batch, channels"):
        zoo.load("sd-vae", device="meta").with_frames(2)  # an image latent: (1, 4, H, W)


@pytest.mark.slow
def test_sd_vae_conv2d_only_graph_is_left_to_inductor(config_patch) -> None:
    """SD's VAE decoder has only conv2d: the channels-last rewrite stands down (the measured gate,
    docs/results.md) and magi's numbers are eager's."""
    config_patch(fx_graph_cache=False)  # a cache hit skips the passes: no PassResult to read
    torch._dynamo.reset()
    model = zoo.load("sd-vae")
    pair = zoo.ZooPair(model)
    assert pair.numerics is None
    text = pair.assert_close()
    assert "relative L2" in text
    # the report's numerics column: the fp32 model is its own reference
    assert pair.numerics is not None and pair.numerics.startswith("eager rel-L2: candidate ")
    assert pair.numerics.endswith("; ok"), pair.numerics
    results = pair.results()
    assert results, "the magi passes never ran"
    cl = [r for r in results if r.name == "conv_channels_last"]
    assert cl and not any(r.applied for r in cl)
    assert all("conv2d-only graph" in r.reason for r in cl)
    assert pair.candidate_backend is not None and pair.candidate_backend.hoisted_weights == [0]
    # compile health per side, counted through the pair's own calls
    stats = pair.compile_stats
    for side in ("baseline", "candidate"):
        assert stats[side].graphs >= 1 and stats[side].frames >= 1, stats[side]
        assert stats[side].eager_fallbacks == 0 and stats[side].recompiles == 0, stats[side]
    pair.expect_compile(eager_fallbacks=0, recompiles=0)
    with pytest.raises(AssertionError, match=r"(?s)ZooPair 'sd-vae-tiny'.*baseline graphs=1 > 0"):
        pair.expect_compile(graphs=0, side="baseline")
    record = report.CompileRecord.from_pair("t", pair)
    assert record is not None and record.candidate["graphs"] == stats["candidate"].graphs
    # a timed call after the first compiles nothing and is not watched
    before = {side: s.graphs for side, s in stats.items()}
    for call in pair.timing_callables():
        call()
    assert {side: s.graphs for side, s in pair.compile_stats.items()} == before


@DIFFUSERS
def test_zoo_pair_compile_stats_without_compiling() -> None:
    """Before any call nothing is counted; a backend given by name with mode/options is left to
    torch.compile (its graphs uncounted, said in a note); sides are checked by name."""
    pair = zoo.ZooPair(zoo.load("sd-vae"), candidate="inductor", mode="default")
    stats = pair.compile_stats
    assert stats["candidate"].graphs == 0 and stats["baseline"].frames == 0
    assert any("not counted" in n for n in stats["baseline"].notes), stats["baseline"].notes
    assert "backend='inductor'" in repr(pair.baseline)
    with pytest.raises(ValueError, match="side='eager'"):
        pair.run("eager")
    with pytest.raises(TypeError, match="at least one maximum"):
        pair.expect_compile()


@pytest.mark.slow
@DIFFUSERS
def test_wan_decode_numerics_and_passes(config_patch) -> None:
    """The Wan 2.2 decode (two latent frames: the first chunk and a cached one): every graph has
    conv3d, so the rewrite fires on each; magi's output is eager's to fp32 rounding."""
    config_patch(fx_graph_cache=False)  # a cache hit skips the passes: no PassResult to read
    torch._dynamo.reset()
    model = zoo.load("wan2.2-vae")
    backend = MagiBackend(PassConfig())
    pair = zoo.ZooPair(model, candidate=backend)
    pair.assert_close(reference="eager")
    out = pair.candidate.run()
    assert out.shape == (1, 3, 5, 32, 48)  # 4 * (T - 1) + 1 frames at 16x the latent size
    managers = backend.managers
    assert len(managers) >= 2  # first chunk and cached chunk compile separately
    for manager in managers:
        cl = next(r for r in manager.results if r.name == "conv_channels_last")
        assert cl.applied, cl.reason
        assert cl.counts["convs_converted"] >= 20
    # every instance compiles in a frame of its own: none falls back to eager
    assert pair.compile_stats["candidate"].eager_fallbacks == 0
    # a pass that changed the compiled module did not touch the eager model
    assert not model.compiled and model.module is model.owner.decoder


@DIFFUSERS
def test_the_dynamo_fixes_switch_is_checked() -> None:
    with pytest.raises(
        TypeError, match=r"candidate_dynamo_fixes='yes'\): expected True, False or None"
    ):
        zoo.ZooPair(zoo.load("sd-vae"), candidate_dynamo_fixes="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"ZooModel.compile\(dynamo_fixes=1\): expected True"):
        zoo.load("sd-vae").compile(dynamo_fixes=1)  # type: ignore[arg-type]


def test_zoo_pair_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="expected a ZooModel"):
        zoo.ZooPair("sd-vae")  # type: ignore[arg-type]


class _Inner(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.sin()
        torch._dynamo.graph_break()  # the inner forward becomes a frame of its own
        return x.cos()


class _Outer(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.inner = _Inner()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inner(x) + 1


@pytest.mark.parametrize("isolate", [False, True], ids=["shared-code", "isolated"])
def test_compiled_copies_do_not_share_dynamo_frames(isolate: bool) -> None:
    """Two compiled copies of one model in one process: without fresh forward code the second
    finds the first's frames at the recompile limit and runs them eagerly (what the Wan decode
    did on the GPU); `isolate_forward_code` gives each copy a budget of its own."""
    import copy

    from torch._dynamo.testing import CompileCounter

    counts = []
    x = torch.randn(4)
    torch._dynamo.reset()
    with torch._dynamo.config.patch(recompile_limit=1):
        for _ in range(2):
            model = copy.deepcopy(_Outer())
            if isolate:
                assert isolate_forward_code(model) == 2
            counter = CompileCounter()
            torch.testing.assert_close(torch.compile(model, backend=counter)(x), x.sin().cos() + 1)
            counts.append(counter.frame_count)
    torch._dynamo.reset()
    if isolate:
        assert counts[0] == counts[1] >= 3
    else:
        assert counts[1] < counts[0]


@pytest.mark.slow
@DIFFUSERS
def test_zoo_pair_locates_a_wrong_baseline_from_its_failure() -> None:
    """A baseline that miscompiles the Wan decode's steady-state chunk (a stand-in backend: the
    first output of every graph after the first comes out 1.5x) fails as BaselineMiscompiled,
    and the failure's own locate names that graph; the candidate side locates clean."""
    from pytest_magi.numerics.judgment import BaselineMiscompiled

    compiled: list[int] = []

    def second_graph_scaled(gm, inputs):
        compiled.append(len(compiled))
        wrong = len(compiled) > 1

        def run(*args):
            out = list(gm(*args))
            if wrong:
                out[0] = out[0] * 1.5
            return out

        return run

    model = zoo.load("wan2.2-vae")
    pair = zoo.ZooPair(model, baseline=second_graph_scaled, candidate="eager")
    with pytest.raises(BaselineMiscompiled) as info:
        pair.assert_close()
    assert info.value.side == "baseline" and callable(info.value.locate)
    assert pair.numerics is not None and pair.numerics.endswith("; baseline OVER (miscompiled)")
    compiled.clear()
    found = info.value.locate(settings=[])
    assert found.first_bad is not None and (found.first_bad.graph, found.first_bad.output) == (1, 0)
    assert found.first_bad.module  # a module path inside the decoder
    assert found.clears == []
    assert pair.locate("candidate", settings=[]).ok


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rounds", "1"], "--rounds 1: the timing needs at least 3 interleaved rounds"),
        (["--variants", "magi,magi-typo"], "unknown variant(s) ['magi-typo']"),
    ],
)
def test_the_zoo_benchmark_refuses_bad_arguments_before_compiling(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checked at parse time, on any machine: a run that would fail only after compiling every
    variant (minutes on a GPU) fails at once instead."""
    from pytest_magi.bench import timing

    with pytest.raises(SystemExit) as exited:
        timing.main(argv)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_the_passes_share_is_never_taken_against_a_wrong_baseline() -> None:
    """A fair baseline whose output the numerics check calls WRONG (torch.compile with the
    dynamo fix miscompiles the Wan decode on torch 2.11) is no baseline: magi is timed against
    the fastest right one, and with none right the benchmark says so."""
    import argparse

    from pytest_magi.bench import timing as bench

    def row(variant: str, ms: float, numerics: str) -> object:
        return bench.Row(
            "m", variant, "x", ms, None, None, None, None, None, None, 0, 0.0,
            extra={"numerics": numerics},
        )  # fmt: skip

    class Run:
        def run(self) -> torch.Tensor:
            return torch.ones(256).sum()

    rows = [
        row("torch.compile+frames", 2.0, "ok"),
        row("torch.compile+fix", 1.0, "WRONG"),
        row("magi", 1.5, "ok"),
    ]
    lines: list[str] = []
    args = argparse.Namespace(rounds=3)
    bench.passes_share(rows, {r.variant: Run() for r in rows}, args, lines.append)
    assert rows[2].extra["passes_share"]["baseline"] == "torch.compile+frames"
    rows[0].extra["numerics"] = "WRONG"
    del rows[2].extra["passes_share"]
    lines.clear()
    bench.passes_share(rows, {r.variant: Run() for r in rows}, args, lines.append)
    assert "passes_share" not in rows[2].extra
    assert lines == [
        "  passes' own share: not measured; every fair baseline's output is wrong "
        "(['torch.compile+frames', 'torch.compile+fix'])"
    ]


@pytest.mark.slow
@DIFFUSERS
def test_a_magi_candidate_runs_its_passes_whatever_the_graph_cache_holds() -> None:
    """Inductor's FX graph cache serves a graph compiled before without running the post-grad
    passes; a ZooPair's magi candidate compiles with it off, so a second pair over the same
    model (same graphs, same cache folder, the cache on) still sees its passes' results."""
    assert torch._inductor.config.fx_graph_cache  # on, as users run
    for _ in range(2):
        torch._dynamo.reset()
        pair = zoo.ZooPair(zoo.load("sd-vae"))
        pair.candidate.run()
        assert pair.results(), "the magi passes never ran: the graph came from the cache"
        assert any(r.name == "conv_channels_last" for r in pair.results())
    assert torch._inductor.config.fx_graph_cache  # and restored
    torch._dynamo.reset()


@DIFFUSERS
def test_the_zoo_benchmark_gives_the_dynamo_fixes_to_exactly_its_fix_variants() -> None:
    """`magi-dynamo-fix*` and `torch.compile+fix` run every call inside the fixes' scope (hooks
    on the compiled module), `magi-dynamo-fix-static` and `magi-dynamo-fix-static-cl-norm` with
    static shapes and contiguous inputs; `magi` and every other variant as magi_compile's
    default: neither. Nothing is compiled (torch.compile is lazy)."""
    from pytest_magi.bench import variants as bench

    model = zoo.load("sd-vae")
    assert set(bench.FIX_VARIANTS) == {
        "magi-dynamo-fix",
        "magi-dynamo-fix-static",
        "magi-dynamo-fix-static-cl-norm",
        "torch.compile+fix",
    }
    for variant in ("magi", "torch.compile+frames", *bench.FIX_VARIANTS):
        compiled, _ = bench.build_variant(model, variant, 64)
        fixed = bool(compiled.module._forward_hooks)  # the fixes' always-called exit hook
        assert fixed is (variant in bench.FIX_VARIANTS), variant
        assert compiled.compile_kwargs["dynamo_fixes"] is fixed
        contiguous = variant in bench.CONTIGUOUS_VARIANTS
        assert compiled.compile_kwargs["contiguous_inputs"] is contiguous
        assert len(compiled.module._forward_pre_hooks) == fixed + contiguous, variant
        static = "-static" in variant
        assert static is (variant in bench.STATIC_VARIANTS), variant
        assert ("dynamic" in compiled.compile_kwargs) is static, variant


@DIFFUSERS
def test_the_zoo_benchmark_pins_norm_inputs_in_exactly_its_cl_norm_variants() -> None:
    """`magi-cl-norm` and `magi-dynamo-fix-static-cl-norm` compile with
    `PassConfig(channels_last_norm_inputs=True)`, the second also as `magi-dynamo-fix-static`
    (static shapes, the fixes, contiguous inputs); the other magi variants leave it off."""
    from pytest_magi.bench import variants as bench

    model = zoo.load("sd-vae")
    for variant in (
        "magi",
        "magi-dynamo-fix-static",
        "magi-cl-norm",
        "magi-dynamo-fix-static-cl-norm",
    ):
        _, backend = bench.build_variant(model, variant, 64)
        assert backend is not None
        assert backend.config.channels_last_norm_inputs is variant.endswith("-cl-norm"), variant
    pinned, _ = bench.build_variant(model, "magi-dynamo-fix-static-cl-norm", 64)
    plain, _ = bench.build_variant(model, "magi-dynamo-fix-static", 64)
    assert pinned.compile_kwargs == plain.compile_kwargs


@DIFFUSERS
def test_the_zoo_benchmark_times_cosmos_with_and_without_its_interleave() -> None:
    """Cosmos's decoder in its form and the variants that time it without that:
    `magi` (its conv weights channels-last in place) and `magi-form-deconv-interleave` (not)
    turn its transposed convolutions into products (`PassConfig.enable_deconv_interleave`),
    `magi-form-passes` and `magi-form-passes-cl-params` leave them to cuDNN, the second with the
    weights in place; `magi-form-upcast-matmul` is the form with its
    attention's first matmul on the bf16 operands (`PassConfig.enable_upcast_matmul`), and
    `magi-form-upcast-matmul-bf16x2` also its second (`PassConfig.upcast_matmul_split`); each with
    the decisions recorded as kept magi on H100s and H200s. Nothing is compiled (torch.compile
    is lazy)."""
    from pytest_magi.bench import variants as bench

    model = zoo.load("cosmos-vae")
    expected = {
        "magi": (True, True, False),
        "magi-form-deconv-interleave": (True, False, False),
        "magi-form-passes": (False, False, False),
        "magi-form-passes-cl-params": (False, True, False),
        "magi-form-upcast-matmul": (True, True, True),
        "magi-form-upcast-matmul-bf16x2": (True, True, True),
    }
    for variant, (interleave, weights_in_place, upcast) in expected.items():
        compiled, backend = bench.build_variant(model, variant, 64)
        assert backend is not None
        config = backend.config
        assert config.enable_deconv_interleave is interleave, variant
        assert config.enable_upcast_matmul is upcast, variant
        assert config.upcast_matmul_split is variant.endswith("-bf16x2"), variant
        assert (config.decided_on, config.decided_plain_on) == ("H100,H200", ""), variant
        assert compiled.compile_kwargs["channels_last_parameters"] is weights_in_place, variant
        assert compiled.compile_kwargs["isolate"] == "root", variant
        changes = bench.variant_changes(variant)
        assert ("enable_upcast_matmul" in changes) is upcast, variant
        overrides_interleave = variant not in ("magi",) and not variant.startswith(
            "magi-form-upcast-matmul"
        )
        assert ("enable_deconv_interleave" in changes) is overrides_interleave, variant


@pytest.mark.slow
@DIFFUSERS
def test_the_static_wan_form_reuses_its_chunk_graphs_at_every_length() -> None:
    """The tiny Wan decode with the dynamo fix (needed on torch 2.11; torch 2.13 traces the
    upsamplers' comparison itself), static shapes and contiguous inputs: one graph a chunk kind
    (first, second, steady), reused at every later length, each decode eager's to fp32 rounding
    (without contiguous inputs each new length compiles its chunk graphs again: the synthetic
    case is tests/test_dynamo_fixes.py)."""
    model = zoo.load("wan2.2-vae", frames=3)
    torch._dynamo.reset()
    backend = MagiBackend()
    compiled = model.compile(
        backend, isolate="instance", dynamo_fixes=True, contiguous_inputs=True, dynamic=False
    )
    seen = []
    for frames in (3, 5, 2):
        eager = model.with_frames(frames)
        out = compiled.with_inputs(*eager.inputs).run()
        torch.testing.assert_close(out, eager.run(), rtol=1e-4, atol=1e-4)
        seen.append(len(backend.managers))
    torch._dynamo.reset()
    assert seen == [3, 3, 3]


def test_a_zoo_model_compiled_block_by_block_shares_its_blocks_frames_only_per_class():
    """`compile(regional=True)`: each repeated block compiled in its place on the copy (the eager
    model untouched, the output the same); with ``isolate="class"`` the instances share dynamo's
    frames and so fewer graphs, with ``"instance"`` each block instance compiles its own."""
    from torch._dynamo.eval_frame import OptimizedModule

    model = zoo.load("sd-vae", "tiny", dtype=torch.float32)
    blocks = zoo_models.regional_blocks(model.module)
    assert len(blocks) > 2 and len({type(b) for _, _, b in blocks}) == 1
    graphs = {}
    for isolate in ("class", "instance"):
        torch._dynamo.reset()
        seen = []

        def count(gm, inputs, seen=seen):
            seen.append(gm)
            return gm.forward

        compiled = model.compile(backend=count, isolate=isolate, regional=True)
        torch.testing.assert_close(compiled.run(), model.run())
        compiled_blocks = [m for m in compiled.owner.modules() if isinstance(m, OptimizedModule)]
        assert len(compiled_blocks) == len(blocks) and compiled.compile_kwargs["regional"]
        graphs[isolate] = len(seen)
    assert not any(isinstance(m, OptimizedModule) for m in model.owner.modules())
    assert graphs["class"] < graphs["instance"] == len(blocks), graphs
    flat = dataclasses.replace(model, name="one-conv", owner=torch.nn.Conv2d(4, 4, 3), attr=None)
    with pytest.raises(ValueError, match="'one-conv' repeats no block .* fix: compile it whole"):
        flat.compile(backend=count, regional=True)
    with pytest.raises(ValueError, match="dynamo_fixes and contiguous_inputs .* fix: drop them"):
        model.compile(backend=count, regional=True, dynamo_fixes=True)
