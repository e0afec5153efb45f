"""The zoo benchmark's never-slower mode on CPU: the compile time limit and how a torch.compile
baseline that does not compile is reported."""

from __future__ import annotations

import argparse
import signal
import time

import pytest

from pytest_magi.bench import never_slower


def test_a_first_call_over_the_limit_is_stopped() -> None:
    before = signal.getsignal(signal.SIGALRM)
    start = time.perf_counter()
    with pytest.raises(never_slower.CompileTimeout, match=r"did not finish in 0 s"):
        never_slower._timed_first_call(lambda: time.sleep(5), limit=0.2)
    assert time.perf_counter() - start < 2
    # the timer is off and the handler is the one before: nothing fires later
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before
    # not an Exception: no `except Exception` in dynamo or Inductor swallows it
    assert not issubclass(never_slower.CompileTimeout, Exception)


def test_no_limit_and_a_call_within_it_return_the_output() -> None:
    seconds, out = never_slower._timed_first_call(lambda: 7)
    assert out == 7 and seconds >= 0
    seconds, out = never_slower._timed_first_call(lambda: 8, limit=30)
    assert out == 8 and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_baseline_that_did_not_compile_is_named_in_the_table() -> None:
    row = never_slower.Row(
        "hunyuanvideo1.5-vae",
        "full",
        baseline_ms=273.75,
        magi_ms=189.43,
        ratio=1.445,
        baseline_failure="CompileTimeout: the first call (compile) did not finish in 150 s",
        compile_kwargs="dynamic=False",
    )
    args = argparse.Namespace(dtype="bf16", size="full")
    table = never_slower.format_table([row], "cpu", args)
    assert "torch.compile failed: CompileTimeout" in table and "dynamic=False" in table
    assert "**1.445x**" in table


def test_the_table_says_where_each_compile_went() -> None:
    row = never_slower.Row(
        "cogvideox-vae",
        "full",
        ratio=1.3,
        compile_baseline_s=40.0,
        compile_magi_cold_s=52.0,
        compile_magi_warm_s=31.0,
        compile_baseline_warm_s=29.0,
        phases={
            "torch.compile cold": {"frame compiles": 39.0, "Inductor": 30.0, "kernel codegen": 9.0},
            "magi cold": {"frame compiles": 51.0, "Inductor": 41.5},
        },
        magi_seconds="compile 30.0 s (12 graphs), decisions 20.0 s",
    )
    table = never_slower.format_table([row], "cpu", argparse.Namespace(dtype="bf16", size="full"))
    assert "| 40 / 52 / 29 / 31 |" in table
    assert "- cogvideox-vae (magi cold: compile 30.0 s (12 graphs), decisions 20.0 s)" in table
    assert (
        "  - torch.compile cold 40.0 s: frame compiles 39.0 s, Inductor 30.0 s "
        "(kernel codegen 9.0 s)" in table
    )
    assert "  - magi cold 52.0 s: frame compiles 51.0 s, Inductor 41.5 s" in table


def test_a_first_call_records_the_phases_it_spent_its_time_in() -> None:
    import torch

    torch._dynamo.reset()
    phases: dict[str, float] = {}
    fn = torch.compile(lambda x: (x * 2).sin(), backend="eager")
    seconds, out = never_slower._timed_first_call(lambda: fn(torch.ones(3)), phases=phases)
    assert seconds > 0 and out.shape == (3,)
    assert phases.get("frame compiles", 0) > 0 and "dynamo tracing" in phases
