"""Root conftest of the pytest-magi repository.

The magi plugin itself is loaded through its `pytest11` entry point (installed with
`pip install -e .`), exactly as downstream projects load it; `pytester` tests the plugin.
"""

from __future__ import annotations

pytest_plugins = ["pytester"]
