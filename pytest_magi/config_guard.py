"""Public path of the Inductor config patches and the leak guard (`pytest_magi.capture.config_guard`)."""

from __future__ import annotations

from .capture.config_guard import ConfigLeakGuard as ConfigLeakGuard
from .capture.config_guard import ConfigPatch as ConfigPatch
from .capture.config_guard import ConfigPatchStack as ConfigPatchStack
