"""Public path of `measure_pair`, `Speedup` and `PerfLock` (`pytest_magi.measure.timing`,
`pytest_magi.measure.perf_lock`); the plugin imports them from here."""

from __future__ import annotations

from .measure.perf_lock import PerfLock as PerfLock
from .measure.timing import Speedup as Speedup
from .measure.timing import measure_pair as measure_pair
