"""`magi_passes.stack_room`: a compile run in one chunk of CPython's frame stack.

The thrashing it prevents is measured here the way the operating system sees it: a call that
crosses a chunk's end maps a fresh chunk and unmaps it on return, and the first write to a fresh
mapping is a page fault, so a loop whose calls cross a chunk's end takes about one minor page
fault per call. The loop is run at every depth across a chunk: without room some depth faults on
(nearly) every call, as CPython 3.11 and 3.12 do; from `call_with_stack_room` none does.
"""

from __future__ import annotations

import sys

import pytest
import torch
from torch._inductor import config as inductor_config

from magi_passes import PassConfig
from magi_passes.compile.stack_room import CHUNKED_FRAMES, ROOM_WORDS, call_with_stack_room

resource = pytest.importorskip("resource")  # page-fault counts (POSIX)

CALLS = 200  # calls of the loop at each depth
DEPTHS = range(400)  # more frames than one 16 KiB chunk holds (each is 10-20 slots)


def _leaf() -> None:
    return None


def _loop() -> None:
    for _ in range(CALLS):
        _leaf()


def _down(depth: int) -> None:
    if depth:
        _down(depth - 1)
    else:
        _loop()


def _faults(depth: int) -> int:
    """Minor page faults while `_loop` runs `depth` frames below here (after one warm-up run,
    so the descent's own chunks are not counted)."""
    _down(depth)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    _down(depth)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def _worst_depth() -> tuple[int, int]:
    """(faults, depth) of the depth whose loop faulted most."""
    return max((_faults(d), d) for d in DEPTHS)


@pytest.mark.skipif(not CHUNKED_FRAMES, reason="frames are not in chunks on this interpreter")
def test_a_loop_at_a_chunks_end_faults_on_every_call_but_not_with_room() -> None:
    faults, depth = _worst_depth()
    if faults < CALLS // 2:
        pytest.skip(
            f"no depth thrashes on this interpreter ({sys.version.split()[0]}: most faults "
            f"{faults} over {CALLS} calls): it keeps a spare chunk (cpython#142183)"
        )
    roomy, roomy_depth = call_with_stack_room(_worst_depth)
    assert roomy < CALLS // 10, (
        f"with room, the loop {roomy_depth} frames down still took {roomy} page faults over "
        f"{CALLS} calls (without room, {faults} at {depth} frames down)"
    )


def test_the_call_runs_under_a_frame_that_reserves_the_room() -> None:
    def reserved() -> int:
        return sys._getframe(1).f_code.co_stacksize

    expected = ROOM_WORDS if CHUNKED_FRAMES else 0
    assert call_with_stack_room(reserved) >= expected
    assert call_with_stack_room(reserved, enabled=False) < 1000


def test_the_calls_result_and_errors_pass_through() -> None:
    assert call_with_stack_room(lambda: 42) == 42

    def fails() -> None:
        raise KeyError("inner")

    with pytest.raises(KeyError, match="inner"):
        call_with_stack_room(fails)


def test_a_call_that_is_not_callable_is_named() -> None:
    with pytest.raises(TypeError, match=r"expected a callable taking no arguments, got 3"):
        call_with_stack_room(3)  # type: ignore[arg-type]


def _room_on_the_stack() -> bool:
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code.co_stacksize >= ROOM_WORDS:
            return True
        frame = frame.f_back
    return False


@pytest.mark.skipif(not CHUNKED_FRAMES, reason="frames are not in chunks on this interpreter")
@pytest.mark.parametrize("room", [True, False])
def test_the_backend_compiles_under_the_room(room: bool) -> None:
    """Where the magi backend's graph passes run (a user pass chained after the manager looks
    up the stack): under the frame with room where `PassConfig.compile_on_fresh_stack` is on."""
    seen: list[bool] = []

    def user_pass(graph: torch.fx.Graph) -> None:
        seen.append(_room_on_the_stack())

    config = PassConfig(compile_on_fresh_stack=room, measure_decisions=False)
    torch._dynamo.reset()
    with inductor_config.patch(post_grad_custom_post_pass=user_pass, fx_graph_cache=False):
        fn = torch.compile(
            lambda x: torch.cos(x) + 1, backend="magi", options={"pass_config": config}
        )
        fn(torch.randn(8))
    torch._dynamo.reset()
    assert seen == [room]


@pytest.mark.skipif(not CHUNKED_FRAMES, reason="frames are not in chunks on this interpreter")
@pytest.mark.parametrize(
    ("config", "room"),
    [(None, True), (PassConfig(), True), (PassConfig(compile_on_fresh_stack=False), False)],
    ids=["plain", "magi", "magi-without-room"],
)
def test_inductor_codegen_compiles_under_the_room(config: PassConfig | None, room: bool) -> None:
    """`pytest_magi.inductor_codegen` compiles as the backend does: under the room, with or
    without magi's passes, unless the given `PassConfig` switches it off."""
    from pytest_magi.capture.codegen import inductor_codegen

    seen: list[bool] = []

    def user_pass(graph: torch.fx.Graph) -> None:
        seen.append(_room_on_the_stack())

    inductor_codegen(
        torch.sin,
        torch.randn(4),
        config=config,
        inductor_config={"post_grad_custom_post_pass": user_pass},
    )
    assert seen == [room]
