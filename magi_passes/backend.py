"""Public path of the `"magi"` backend (entry point `torch_dynamo_backends: magi`)."""

from __future__ import annotations

from .compile.api import inductor_options as inductor_options
from .compile.api import magi_backend as magi_backend
from .compile.api import magi_compile as magi_compile
from .compile.backend import MagiBackend as MagiBackend
from .compile.workers import warm_compile_workers as warm_compile_workers
