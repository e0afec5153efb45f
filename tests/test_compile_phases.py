"""`pytest_magi.measure.compile_phases`: where a compile's seconds went, read from dynamo's phase timers
around a block, so that two compiles in one process are told apart (benchmarks/zoo.py prints it
for every variant)."""

from __future__ import annotations

import gc

import pytest
import torch

from pytest_magi.measure.compile_phases import (
    FRAMES_KEY,
    GC_KEY,
    PHASES,
    TUNED_KEY,
    compile_phases,
    outside,
    shown,
    summary,
)


def _compile_and_call(scale: float) -> None:
    fn = torch.compile(lambda x: torch.sin(x) * scale + 1, backend="inductor")
    with torch._inductor.config.patch(force_disable_caches=True):
        fn(torch.randn(16))


def test_a_block_holds_its_own_compiles_phases_and_not_an_earlier_ones() -> None:
    torch._dynamo.reset()
    _compile_and_call(2.0)  # compiled before the block: not counted in it
    with compile_phases() as idle:
        torch.randn(4).sum()
    assert set(idle) <= {GC_KEY}  # no phase (the collector may have run)
    with compile_phases() as spent:
        _compile_and_call(3.0)
    phases = shown(spent)
    # one frame compiled by Inductor, its phases inside the frame's time
    assert phases["frame compiles"] > 0
    assert 0 < phases["Inductor"] <= phases["frame compiles"]
    assert 0 < phases["kernel codegen"] <= phases["Inductor"]
    # AOT dispatch is shown without the Inductor compile nested in it
    assert phases["AOT dispatch"] < spent["create_aot_dispatcher_function"]
    assert set(phases) <= {label.strip() for label, _ in PHASES} | {FRAMES_KEY, TUNED_KEY}
    assert phases[FRAMES_KEY] == 1  # the one frame the block compiled
    text = summary(spent)
    assert text.startswith("frame compiles ") and " (1 frame), " in text and ", Inductor " in text
    assert "(" in text.split(", Inductor ")[1]  # its parts that took time, inside it
    torch._dynamo.reset()


def test_a_reset_inside_the_block_counts_from_the_clear() -> None:
    torch._dynamo.reset()
    _compile_and_call(2.0)
    with compile_phases() as spent:
        torch._dynamo.reset()  # clears dynamo's record; what follows is the block's
        _compile_and_call(4.0)
    # the record dynamo started after the clear is the block's, all of it (its new list has as
    # many entries as the cleared one had: a slice from the old length would find none)
    after = torch._dynamo.utils.compilation_time_metrics["compile_fx_inner"]
    assert len(after) == 1 and spent["compile_fx_inner"] == pytest.approx(sum(after))
    torch._dynamo.reset()


def test_the_summary_shows_the_phases_that_took_time_with_inductors_parts_inside_it() -> None:
    spent = {
        "_compile.compile_inner": 40.0,
        "bytecode_tracing": 2.5,
        "create_aot_dispatcher_function": 33.0,
        "compile_fx_inner": 30.0,
        "Scheduler.codegen": 12.0,
        "async_compile.wait": 0.01,  # under the threshold: left out
        "CachingAutotuner.benchmark_all_configs": 1.5,
        "some_other_phase": 9.0,  # not one of PHASES
    }
    assert summary(spent) == (
        "frame compiles 40.0 s, dynamo tracing 2.5 s, AOT dispatch 3.0 s, Inductor 30.0 s "
        "(kernel codegen 12.0 s), autotuning at first call 1.5 s, rest of the frame compiles 4.5 s"
    )
    assert summary({"Scheduler.codegen": 1.0}) == "Inductor's parts (kernel codegen 1.0 s)"
    # Triton kernels compiled in the process while the module loads (no worker answered yet)
    assert summary(
        {"PyCodeCache.load_by_key_path": 4.7, "async_compile.precompile": 3.6,
         "async_compile.wait": 1.0}
    ) == (
        "Inductor's parts (module load 4.7 s, kernels compiled in the process 3.6 s, "
        "kernel compile wait 1.0 s)"
    )  # fmt: skip
    assert summary({}) == "no compile phase recorded"
    assert shown(spent)["AOT dispatch"] == 3.0 and "some_other_phase" not in shown(spent)


def test_the_collectors_pauses_are_timed_inside_the_block_and_its_callback_leaves_with_it() -> None:
    before = list(gc.callbacks)
    with compile_phases() as spent:
        assert len(gc.callbacks) == len(before) + 1
        gc.collect()
        gc.collect()
    assert gc.callbacks == before
    assert spent[GC_KEY] > 0
    assert shown(spent)["garbage collection"] == round(spent[GC_KEY], 3)
    # a block that raises removes its callback too
    with pytest.raises(ValueError), compile_phases():
        raise ValueError("inside the block")
    assert gc.callbacks == before
    assert summary({GC_KEY: 1.5, "compile_fx_inner": 9.0}) == (
        "Inductor 9.0 s, garbage collection 1.5 s"
    )


def test_the_rest_of_the_frame_compiles_is_what_tracing_aot_dispatch_and_guards_leave() -> None:
    spent = {
        "_compile.compile_inner": 40.0,
        "bytecode_tracing": 2.5,
        "create_aot_dispatcher_function": 33.0,  # Inductor's 30 s inside it
        "compile_fx_inner": 30.0,
        "build_guards": 0.5,
    }
    assert outside(spent) == 4.0
    assert shown(spent)["rest of the frame compiles"] == 4.0
    assert outside({"compile_fx_inner": 3.0}) is None  # no frame compile recorded
    assert "rest of the frame compiles" not in shown({"compile_fx_inner": 3.0})
    # never negative where the nested timers' rounding exceeds the frame's
    assert outside({"_compile.compile_inner": 1.0, "create_aot_dispatcher_function": 1.01}) == 0.0


def test_the_autotuning_says_how_many_kernels_the_block_tuned() -> None:
    from torch._dynamo.utils import compilation_time_metrics

    key = "CachingAutotuner.benchmark_all_configs"
    had = key in compilation_time_metrics
    records = compilation_time_metrics.setdefault(key, [])
    records.append(0.5)  # a kernel tuned before the block: not the block's
    try:
        with compile_phases() as spent:
            records.extend([0.1, 0.1, 0.3])  # three kernels tuned at their first call
        assert spent[key] == pytest.approx(0.5) and spent[TUNED_KEY] == 3
        phases = shown(spent)
        assert phases[TUNED_KEY] == 3 and phases["autotuning at first call"] == 0.5
        assert summary(spent) == "autotuning at first call 0.5 s (3 kernels)"
    finally:
        del records[-4:]
        if not had:
            del compilation_time_metrics[key]
    assert summary({key: 0.2, TUNED_KEY: 1.0}) == "autotuning at first call 0.2 s (1 kernel)"
    # a block that tuned nothing has no count, in the record or the summary
    with compile_phases() as idle:
        torch.randn(4).sum()
    assert TUNED_KEY not in idle and TUNED_KEY not in shown(idle)
