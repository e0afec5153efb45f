"""The budgets of the codegen mode: each side's CUDA code is generated once, with Inductor's cost
accounting on, and is both the code the mode reports and the code its budget counts.

`generate_side` generates one side the way `pytest_magi.budget` does (its `ACCOUNTING_CONFIG`
patches and `recorded_extern_calls()` around `inductor_codegen`, then `budget_of`), so a row's
budget equals ``pytest_magi.budget(fn, *inputs, dynamic_dims=..., config=...)`` without
generating the code a second time. The accounting only adds profiling hooks to the wrapper: the
kernels, the fusion and the launches are those of a plain generation (docs/budgets.md).

`budget_cells` gives a row's cells, torch.compile / magi: Triton kernels, launches, MB moved
(Inductor's own byte counts), the estimated ms on the profile, and the estimated speedup
(torch.compile's estimated ms over magi's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pytest_magi.budget import Budget, get_profile
from pytest_magi.budget.accounting import ACCOUNTING_CONFIG, recorded_extern_calls
from pytest_magi.budget.api import budget_of
from pytest_magi.capture.codegen import GeneratedCode, inductor_codegen

#: the profile of the estimates the mode prints (``--profile``)
DEFAULT_PROFILE = "h200"
#: what marks an estimate that has launches without a byte count
UNACCOUNTED_MARK = "*"


def generate_side(
    fn: Callable[..., Any],
    inputs: tuple[Any, ...],
    dynamic_dims: Mapping[int, Any] | None,
    config: Any,
    *,
    profile: str = DEFAULT_PROFILE,
    label: str = "",
) -> tuple[GeneratedCode, Budget | None, str | None]:
    """``(code, budget, why)`` of one side: the code generated with the accounting on, and its
    budget on ``profile``, or None and why it could not be made. A failed generation raises."""
    resolved = get_profile(profile)
    with recorded_extern_calls() as records:
        code = inductor_codegen(
            fn, *inputs, dynamic_dims=dynamic_dims, config=config, inductor_config=ACCOUNTING_CONFIG
        )
    try:
        return code, budget_of(code, records, resolved, label), None
    except Exception as exc:  # the code stands; only its budget is missing
        return code, None, f"no budget: {type(exc).__name__}: {exc}"[:300]


def estimated_speedup(plain: Budget, magi: Budget) -> float:
    """torch.compile's estimated ms over magi's (above 1: magi's code is estimated faster)."""
    return plain.estimated_ms / magi.estimated_ms


def _ms(budget: Budget) -> str:
    mark = UNACCOUNTED_MARK if budget.unaccounted else ""
    return f"{budget.estimated_ms:.4g}{mark}"


def _mb(budget: Budget) -> str:
    return f"{budget.bytes / 1e6:.3g}"


def _launches(budget: Budget) -> str:
    return str(budget.launches)


def budget_cells(plain: Budget | None, magi: Budget | None) -> list[str]:
    """``[launches, MB moved, estimated ms]``, each ``tc / magi`` (``-`` for a side without a
    budget), and the estimated speedup (``-`` unless both sides have one)."""
    cells = [
        " / ".join("-" if b is None else show(b) for b in (plain, magi))
        for show in (_launches, _mb, _ms)
    ]
    if plain is None or magi is None:
        return [*cells, "-"]
    return [*cells, f"{estimated_speedup(plain, magi):.3f}x"]


def budget_header(profile: str) -> list[tuple[str, str]]:
    """The two-line headers of `budget_cells`' columns."""
    return [
        ("launches", "tc / magi"),
        ("MB moved", "tc / magi"),
        (f"est ms {profile}", "tc / magi"),
        ("est", "speedup"),
    ]


def totals(budget: Budget | None) -> dict[str, Any] | None:
    """A side's budget totals for the JSON report."""
    if budget is None:
        return None
    return {
        "profile": budget.profile.name,
        "kernels": budget.kernels,
        "launches": budget.launches,
        "bytes": budget.bytes,
        "flops": budget.flops,
        "estimated_ms": round(budget.estimated_ms, 6),
        "unaccounted": budget.unaccounted,
    }


def budget_note(profile: str, size: str, any_unaccounted: bool) -> str:
    """What the budget columns are, under the table."""
    note = (
        f"launches, MB moved, est ms: the budget of each side's code (pytest_magi.budget, "
        f"profile {profile}, at the {size} sizes generated here, where launches weigh most); "
        "est speedup: tc est ms / magi est ms, an estimate from the code, beside the GPU ratio "
        "a GPU measured at the size its file names"
    )
    if any_unaccounted:
        note += (
            f"\n{UNACCOUNTED_MARK}: launches without a byte count, timed by their launch cost "
            "alone (--json: unaccounted)"
        )
    return note
