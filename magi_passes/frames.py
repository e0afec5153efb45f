"""Public path of `magi_passes.compile.frames` (a frame of its own per module instance)."""

from __future__ import annotations

from .compile.frames import isolate_forward_code as isolate_forward_code
from .compile.frames import restore_forward_code as restore_forward_code
