"""A graph's compile run in one chunk of CPython's frame stack, so no hot call crosses a chunk.

CPython 3.11 and later keep Python frames on a stack of memory chunks (16 KiB each, more where
one frame needs more). A call whose frame does not fit in the current chunk gets a new chunk, and
that chunk is freed when the frame at its base returns, so every such call maps and unmaps
memory (cpython#142183; CPython's fix, one spare chunk kept per thread, python/cpython#145789,
is not in 3.11 or 3.12). A loop that calls one level below a chunk's end pays that on every
call, and where the ends fall depends on how deep the compile was entered: a large decoder's
compile can make about a million such map and unmap pairs, and its AOT dispatch then takes
about twice as long as where the compile happened to be entered at a luckier depth.

`call_with_stack_room` calls its argument from a frame that reserves `ROOM_WORDS` slots, so that
frame gets a chunk of its own and Python sizes that chunk so as to leave as much again free
after it; every frame of the call is then placed in that chunk, one after another, and no call
in it reaches a chunk's end unless the call goes deeper than the room. The reserved slots are
never written, so the operating system backs them with no memory.
`PassConfig.compile_on_fresh_stack` (on by default) puts each of the magi backend's compiles, and
`pytest_magi.inductor_codegen`'s, inside it (a training graph's backward, which AOTAutograd
compiles at the first ``.backward()``, runs on the caller's stack). Under it the same compile
makes a small fraction of those map and unmap pairs, and the frame compile is shorter.

Measured: docs/results.md, "Cold compile".
"""

from __future__ import annotations

import sys
import types
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
    roomy = types.FunctionType(
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
