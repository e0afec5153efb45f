"""A graph's compile run in one chunk of CPython's frame stack, so no hot call crosses a chunk.

CPython 3.11 and later keep Python frames on a stack of memory chunks (16 KiB each, more where
one frame needs more). A call whose frame does not fit in the current chunk gets a new chunk, and
that chunk is freed when the frame at its base returns; before 3.13's fix (cpython#142183, one
chunk kept per thread) every such call maps and unmaps memory. A loop that calls one level below a
chunk's end pays that on every call. Where the boundaries fall depends on how deep the caller
already is, so the same compile is fast at one depth and slow at another: Inductor's pattern
matcher (352,351 calls to ``MatchContext.match`` in MiniMax-H3's decoder) took 0.28 s of own
time called one way and 0.7-1.3 s called from one frame further down, the same calls, in fake
CUDA on Python 3.11 (docs/benchmarks.md, "Session 44").

`call_with_stack_room` calls its argument from a frame that reserves `ROOM_WORDS` slots, so that
frame gets a chunk of its own and Python sizes that chunk so as to leave as much again free
after it; every frame of the compile is then placed in that chunk, one after another, and no
call in it reaches a chunk's end unless the compile is deeper than the room (a MiniMax-H3 compile
reached 12,000 slots). The reserved slots are never written, so the operating system backs them
with no memory. `PassConfig.compile_on_fresh_stack` (on by default) puts the magi backend's
compiles inside it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# slots (8 bytes each) the calling frame reserves: 512 KiB, so CPython makes a 1 MiB chunk (the
# frame plus its 1,000-slot minimum overhead, rounded up to a power of two times 16 KiB) and
# about 512 KiB is left for the compile's own frames
ROOM_WORDS = 1 << 16

# CPython's frames live in data-stack chunks from 3.11 on; before that, and on other
# interpreters, a call is a call
CHUNKED_FRAMES = sys.implementation.name == "cpython" and sys.version_info >= (3, 11)


def _call(call: Callable[[], T]) -> T:
    return call()


def _roomy(words: int) -> Callable[[Callable[[], T]], T]:
    """`_call` with a frame that reserves `words` more slots of value stack."""
    code = _call.__code__
    roomy = type(_call)(
        code.replace(co_stacksize=code.co_stacksize + words), _call.__globals__, "_call_roomy"
    )
    roomy.__qualname__ = "call_with_stack_room.<frame with room>"
    return roomy


_CALL_ROOMY = _roomy(ROOM_WORDS) if CHUNKED_FRAMES else _call


def call_with_stack_room(call: Callable[[], T], enabled: bool = True) -> T:
    """``call()`` from a frame that starts a frame-stack chunk with room for the calls under it
    (``enabled``; otherwise, or where frames are not chunked, a plain call). Returns what
    ``call()`` returns and raises what it raises."""
    if not callable(call):
        raise TypeError(
            f"call_with_stack_room: expected a callable taking no arguments, got {call!r}; "
            f"fix: call_with_stack_room(lambda: compile_fx(gm, inputs))"
        )
    return _CALL_ROOMY(call) if enabled else call()


__all__ = ["CHUNKED_FRAMES", "ROOM_WORDS", "call_with_stack_room"]
