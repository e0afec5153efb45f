"""`magi_passes.collector`: Python's full garbage collections held off while a graph compiles,
the thresholds put back after, by every block and by the magi backend's compiles."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest
import torch
from torch._inductor import config as inductor_config

from magi_passes import PassConfig
from magi_passes.compile.collector import HELD_THRESHOLD, full_collections_deferred


@pytest.fixture
def thresholds() -> Iterator[tuple[int, ...]]:
    """The process's thresholds, put back after the test whatever it did."""
    found = gc.get_threshold()
    yield found
    gc.set_threshold(*found)


def _survivors(count: int) -> list:
    """``count`` objects kept alive, as a compile's are: a full collection waits for a quarter
    of the objects already in the oldest generation to have reached it since the last one."""
    return [[] for _ in range(count)]


def _generations_collected(work) -> list[int]:
    seen: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(record)
    try:
        work()
    finally:
        gc.callbacks.remove(record)
    return seen


def test_the_block_holds_the_oldest_threshold_and_restores_it(thresholds) -> None:
    gc.set_threshold(700, 10, 10)
    with full_collections_deferred():
        assert gc.get_threshold() == (700, 10, HELD_THRESHOLD)
    assert gc.get_threshold() == (700, 10, 10)
    with full_collections_deferred(False):
        assert gc.get_threshold() == (700, 10, 10)
    with pytest.raises(KeyError), full_collections_deferred():
        raise KeyError("a compile that raised")
    assert gc.get_threshold() == (700, 10, 10)


def test_no_full_collection_runs_inside_the_block_and_young_ones_go_on(thresholds) -> None:
    """With a full collection due after every middle one, keeping as many new objects as the
    process holds runs full collections outside the block and none inside it, while the young
    ones still run; the first collection after the block is the full one it held off."""
    gc.collect()
    gc.set_threshold(100, 1, 1)
    many = len(gc.get_objects()) // 2  # twice what makes a full collection due
    kept = []
    outside = _generations_collected(lambda: kept.append(_survivors(many)))
    assert 2 in outside, sorted(set(outside))
    with full_collections_deferred():
        inside = _generations_collected(lambda: kept.append(_survivors(many)))
    assert 2 not in inside and 0 in inside and 1 in inside, sorted(set(inside))
    after = _generations_collected(lambda: kept.append(_survivors(1000)))
    assert after[:1] == [2], after[:5]


def test_nested_and_concurrent_blocks_restore_the_thresholds_found_first(thresholds) -> None:
    gc.set_threshold(700, 10, 10)
    with full_collections_deferred():
        with full_collections_deferred():
            assert gc.get_threshold()[2] == HELD_THRESHOLD
        assert gc.get_threshold()[2] == HELD_THRESHOLD  # the outer block still holds them
    assert gc.get_threshold() == (700, 10, 10)

    # two threads whose blocks overlap, ending in the other order than they began
    first_in, second_in, first_may_leave = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, tuple[int, ...]] = {}

    def first() -> None:
        with full_collections_deferred():
            first_in.set()
            first_may_leave.wait(10)
        seen["first left"] = gc.get_threshold()
        second_in.wait(10)

    def second() -> None:
        first_in.wait(10)
        with full_collections_deferred():
            second_in.set()
            first_may_leave.set()
            worker.join(10)  # the first block has ended while this one runs
            seen["inside the second"] = gc.get_threshold()

    worker = threading.Thread(target=first)
    other = threading.Thread(target=second)
    worker.start()
    other.start()
    other.join(20)
    assert seen["first left"][2] == HELD_THRESHOLD
    assert seen["inside the second"][2] == HELD_THRESHOLD
    assert gc.get_threshold() == (700, 10, 10)


def test_a_collector_switched_off_by_its_threshold_is_left_alone(thresholds) -> None:
    gc.set_threshold(0, 10, 10)
    with full_collections_deferred():
        assert gc.get_threshold()[:1] == (0,)
    assert gc.get_threshold()[:1] == (0,)


@pytest.mark.parametrize("defer", [True, False])
def test_the_backend_compiles_with_full_collections_held_off(thresholds, defer) -> None:
    """What the collector's thresholds are while the magi backend's graph passes run (a user
    pass chained after the manager reads them), and after the compile: held where
    `PassConfig.defer_full_collections` is on, as found where it is off, as found after."""
    gc.set_threshold(700, 10, 10)
    during: list[tuple[int, ...]] = []

    def user_pass(graph: torch.fx.Graph) -> None:
        during.append(gc.get_threshold())

    config = PassConfig(defer_full_collections=defer, measure_decisions=False)
    torch._dynamo.reset()
    with inductor_config.patch(post_grad_custom_post_pass=user_pass, fx_graph_cache=False):
        fn = torch.compile(
            lambda x: torch.sin(x) * 2, backend="magi", options={"pass_config": config}
        )
        fn(torch.randn(8))
    torch._dynamo.reset()
    assert during == [(700, 10, HELD_THRESHOLD if defer else 10)]
    assert gc.get_threshold() == (700, 10, 10)
