"""Python's full garbage collections held off while a graph compiles (opt-in).

`PassConfig.defer_full_collections` puts the magi backend's compiles inside
`full_collections_deferred`.

CPython collects its youngest objects often and all of them (a "full" collection, the oldest
generation) after every ``threshold2`` collections of the middle one, when enough objects have
reached the oldest since the last. A compile makes millions of objects that live to its end
(fake tensors, FX nodes, SymPy expressions, IR buffers), so each full collection during it walks
them all and frees little. Held off, the collector's time during a compile drops, but the one
full collection after it, over everything the compile left, takes most of what was saved, and
on the CPU the frame compile's gain was within noise. So it is opt-in until a GPU has timed it.

`full_collections_deferred` raises the oldest generation's threshold for its block and restores
the caller's thresholds after, so the young collections go on (a cycle made and dropped during
the compile is still freed) and the full collection the block held off runs at the first
collection after it, once. Thresholds are process-wide, so nested or concurrent blocks (two
threads compiling) share one count: the first to enter keeps the thresholds, the last to leave
puts them back, and a block leaves them as it found them even where its compile raised. On
Python 3.14's incremental collector the third threshold is not used and the block changes
nothing.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

# the oldest generation's threshold inside the block: middle-generation collections a full one
# waits for, far more than any compile makes (MiniMax-H3's made 342)
HELD_THRESHOLD = 1_000_000

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, ...] | None = None


@contextlib.contextmanager
def full_collections_deferred(enabled: bool = True) -> Iterator[None]:
    """Hold off Python's full garbage collections for the block (``enabled``; otherwise nothing
    changes); the thresholds found are restored when the last such block ends."""
    if not enabled:
        yield
        return
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            if len(_saved) >= 3 and _saved[0] > 0:  # threshold0 0: the collector is off
                gc.set_threshold(_saved[0], _saved[1], max(_saved[2], HELD_THRESHOLD))
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None
