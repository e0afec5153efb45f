"""Reports: records of measured pairs and kernel counts, and the reports made of them.

Usable without pytest: `PairRecord` / `EstimateRecord` / `KernelCountRecord` are plain frozen dataclasses that turn
into JSON-able dicts (that is also how xdist workers ship them to the controller, through a test
report's `user_properties`); `format_pairs_table`, `format_kernel_counts_table`,
`write_json_report` and `write_png_report` make the terminal summary, `--magi-report` and
`--magi-report-png` (modules `records`, `tables`, `files`, `compare`). The PNG needs matplotlib
(`pip install pytest-magi[plot]`).

Two `--magi-report` files compare pair by pair (`compare_reports`, or on the command line
`python -m pytest_magi.report compare BEFORE.json AFTER.json [--tolerance 0.03]`): each timed
pair's speedup in both, its relative change, and the two runs' wall times. That is how a run
spread over GPUs (`--magi-perf -n N`) is checked against one in a single process, or a run
before a change against one after it.
"""

from __future__ import annotations

from .compare import DEFAULT_COMPARE_TOLERANCE as DEFAULT_COMPARE_TOLERANCE
from .compare import PairChange as PairChange
from .compare import ReportComparison as ReportComparison
from .compare import ReportError as ReportError
from .compare import compare_reports as compare_reports
from .compare import load_report as load_report
from .compare import main as main
from .compare import numerics_outcome as numerics_outcome
from .files import PlotUnavailableError as PlotUnavailableError
from .files import build_report as build_report
from .files import environment as environment
from .files import matplotlib_available as matplotlib_available
from .files import write_json_report as write_json_report
from .files import write_png_report as write_png_report
from .records import COMPILE_PROPERTY as COMPILE_PROPERTY
from .records import ESTIMATE_PROPERTY as ESTIMATE_PROPERTY
from .records import KERNEL_COUNTS_PROPERTY as KERNEL_COUNTS_PROPERTY
from .records import LOCATE_PROPERTY as LOCATE_PROPERTY
from .records import NUMERICS_NOT_CHECKED as NUMERICS_NOT_CHECKED
from .records import PAIR_PROPERTY as PAIR_PROPERTY
from .records import PLOT_INSTALL_HINT as PLOT_INSTALL_HINT
from .records import REPORT_SCHEMA as REPORT_SCHEMA
from .records import VERDICT_FAIL as VERDICT_FAIL
from .records import VERDICT_NOT_MEASURED as VERDICT_NOT_MEASURED
from .records import VERDICT_PASS as VERDICT_PASS
from .records import VERDICT_TEST_FAILED as VERDICT_TEST_FAILED
from .records import CompileRecord as CompileRecord
from .records import EstimateRecord as EstimateRecord
from .records import KernelCountRecord as KernelCountRecord
from .records import PairRecord as PairRecord
from .records import TimedTest as TimedTest
from .records import decision_lines as decision_lines
from .records import sorted_by_test as sorted_by_test
from .tables import format_compile_table as format_compile_table
from .tables import format_estimates_table as format_estimates_table
from .tables import format_kernel_counts_table as format_kernel_counts_table
from .tables import format_pairs_table as format_pairs_table
