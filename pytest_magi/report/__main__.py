"""`python -m pytest_magi.report compare BEFORE.json AFTER.json [--tolerance T]`."""

from __future__ import annotations

import sys

from .compare import main

if __name__ == "__main__":
    sys.exit(main())
