"""Memory: many compiled pairs in one process stay bounded once each is released.

A `CompiledPair` that is dropped is *not* freed by itself: Dynamo keeps every backend object in
`torch._dynamo.eval_frame.cached_backends`, and the cache entries on the compiled function's code
object hold the compiled graph, which holds the backend, which holds the code (a cycle through a
C-level slot that gc cannot see). `pytest_magi.capture.lifetime.release_pair` breaks both. These tests
build and drop many pairs of a tiny elementwise function on the CPU and measure resident memory
(`/proc/self/statm`) and live tensors (a gc scan); docs/reliability.md ("Memory") has the figures.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap
import warnings
import weakref
from pathlib import Path

import pytest
import torch

from magi_passes import PassManager
from pytest_magi.capture.lifetime import release_compiled, release_pair
from pytest_magi.pairs.compiled import CompiledPair

PAIRS = 60  # ~0.3 s each on one idle core (TORCHINDUCTOR_VEC_ISA_OK=0)
WARMUP = 10


def _rss_mib() -> float | None:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):  # not Linux
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _live(kind: type) -> int:
    gc.collect()
    with warnings.catch_warnings():  # isinstance on some torch module attributes warns
        warnings.simplefilter("ignore")
        return sum(1 for o in gc.get_objects() if isinstance(o, kind))


def _fn(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) * 2 + 1


def _build_and_drop() -> None:
    pair = CompiledPair.build(_fn, torch.randn(8))
    pair.assert_close()
    release_pair(pair)


def test_a_released_pair_is_freed() -> None:
    pair = CompiledPair.build(_fn, torch.randn(8))
    pair.assert_close()
    refs = [weakref.ref(b) for b in pair.backends.values()]
    refs.append(weakref.ref(pair))
    released = release_pair(pair)
    assert released == {"codes": 2, "backends": 2}
    del pair
    gc.collect()
    assert [r() for r in refs] == [None, None, None], "a released pair is still alive"


def test_release_leaves_other_compiled_functions_alone() -> None:
    keep = torch.compile(_fn, backend="eager")
    x = torch.randn(8)
    torch.testing.assert_close(keep(x), _fn(x))
    _build_and_drop()
    torch.testing.assert_close(keep(x), _fn(x))
    # releasing a function compiles it afresh at its next call, with the same result
    release_compiled([keep])
    torch.testing.assert_close(keep(x), _fn(x))


def test_release_compiled_names_a_bad_argument() -> None:
    with pytest.raises(TypeError, match=r"release_compiled: functions must be callables.*got 3"):
        release_compiled([3])  # type: ignore[list-item]


def _measure_many_pairs() -> dict[str, float | None]:
    """Build and drop PAIRS pairs; what stayed over the last PAIRS - WARMUP of them."""
    for _ in range(WARMUP):
        _build_and_drop()
    tensors0, managers0, rss0 = _live(torch.Tensor), _live(PassManager), _rss_mib()
    for _ in range(PAIRS - WARMUP):
        _build_and_drop()
    tensors1, managers1, rss1 = _live(torch.Tensor), _live(PassManager), _rss_mib()
    return {
        "tensors": tensors1 - tensors0,
        "managers": managers1 - managers0,
        "rss_mib": None if rss0 is None or rss1 is None else rss1 - rss0,
    }


@pytest.mark.slow
def test_many_pairs_level_off() -> None:
    """Measured in a process of its own: no other test's state, and no pytest log capture.
    pytest keeps every log record of a test until the test ends; under pytest on the GPU
    machine (torch 2.11) torch's structured-trace records (graph dumps) reached that capture
    and were most of the growth measured there in-process: 30.9 MiB over 50 pairs."""
    code = "import json, test_memory; print(json.dumps(test_memory._measure_many_pairs()))"
    path = os.pathsep.join(
        p for p in (str(Path(__file__).parent), os.environ.get("PYTHONPATH")) if p
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    grown = json.loads(proc.stdout.strip().splitlines()[-1])
    n = PAIRS - WARMUP
    # What a pair compiles (its PassManagers, graphs, fake tensors) is gone: not one manager
    # stays. Unreleased, each pair kept 16 tensors and 2 managers (measured).
    assert grown["managers"] <= 0, f"{grown['managers']} PassManagers kept by {n} pairs"
    # Torch itself keeps ~2 fake tensors (no storage) per compile: guards registered on the
    # inlined function's code object (docs/reliability.md, "Memory").
    assert grown["tensors"] <= 3 * n, f"{grown['tensors']} tensors kept by {n} pairs"
    if grown["rss_mib"] is not None:
        # measured 0.15-0.25 MiB a pair, all of it torch's own (loaded output-code modules,
        # guard state); unreleased pairs kept ~0.4 MiB each of this tiny function
        rss = grown["rss_mib"]
        assert rss / n < 0.6, f"RSS grew {rss:.1f} MiB over {n} pairs"


def test_the_compiled_pair_fixture_releases_its_pairs(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_pairs=textwrap.dedent(
            """
            import gc
            import weakref

            import torch

            REFS = []


            def fn(x):
                return torch.cos(x) + 1


            def test_build(compiled_pair):
                pair = compiled_pair(fn, torch.randn(4))
                REFS.extend(weakref.ref(b) for b in pair.backends.values())


            def test_freed_after_the_test():
                gc.collect()
                assert REFS and all(r() is None for r in REFS), "pairs outlived their test"
            """
        )
    )
    if "pytest_magi.plugin" not in sys.modules:  # pragma: no cover - plugin not installed
        pytest.skip("the magi plugin is not installed in this environment")
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=2)


def test_inductor_codegen_releases_its_compiled_entry() -> None:
    """`inductor_codegen` drops dynamo's cache of its entry and its backend after generating:
    many generations in one process do not accumulate backends (each held its graphs)."""
    import gc

    from torch._dynamo import eval_frame

    from pytest_magi.capture.codegen import inductor_codegen

    def fn(x: torch.Tensor) -> torch.Tensor:
        return torch.sin(x) * 2

    x = torch.randn(8)
    inductor_codegen(fn, x)
    gc.collect()
    before = len(eval_frame.cached_backends)
    for _ in range(5):
        inductor_codegen(fn, x)
    gc.collect()
    assert len(eval_frame.cached_backends) <= before


@pytest.mark.slow
def test_the_zoo_pair_fixture_releases_its_pairs(pytester: pytest.Pytester) -> None:
    """A zoo pair (two compiled copies of a whole model) is freed when its test ends, with its
    frames' Dynamo caches and its backends (`release_zoo_pair`)."""
    pytester.makepyfile(
        test_zoo_pairs=textwrap.dedent(
            """
            import gc
            import weakref

            from pytest_magi import zoo

            REFS = []


            def test_build(zoo_pair):
                pair = zoo_pair("minimax-h3-vae")
                pair.run("baseline")
                pair.run("candidate")
                REFS.extend(
                    weakref.ref(x)
                    for x in (pair, pair.baseline.module, next(pair.candidate.module.parameters()))
                )


            def test_freed_after_the_test():
                gc.collect()
                assert REFS and all(r() is None for r in REFS), "zoo pairs outlived their test"
            """
        )
    )
    if "pytest_magi.plugin" not in sys.modules:  # pragma: no cover - plugin not installed
        pytest.skip("the magi plugin is not installed in this environment")
    if "minimax-h3-vae" in __import__("pytest_magi.zoo").zoo.unavailable():
        pytest.skip("diffusers' MiniMax-H3 VAE is not installed here")
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=2)


@pytest.mark.slow
def test_release_zoo_pair_resets_every_frame_of_both_sides() -> None:
    pytest.importorskip("diffusers")
    from pytest_magi import zoo
    from pytest_magi.capture.lifetime import release_zoo_pair

    if "minimax-h3-vae" in zoo.unavailable():
        pytest.skip("diffusers' MiniMax-H3 VAE is not installed here")
    pair = zoo.ZooPair(zoo.load("minimax-h3-vae"))
    pair.run("baseline")
    pair.run("candidate")
    modules = sum(1 for _ in pair.candidate.module._orig_mod.modules())  # under the wrapper
    released = release_zoo_pair(pair)
    # each module's forward on both sides; the two backends
    assert released == {"codes": 2 * modules, "backends": 2}
    before = pair.compile_stats["candidate"].graphs
    pair.run("candidate")  # still usable: compiles afresh
    assert pair.compile_stats["candidate"].graphs > before
