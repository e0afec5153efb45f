"""Elementwise comparison of two outputs, leaf by leaf: the dtype's tolerances
(`DEFAULT_TOLERANCES`), a relative-L2 bound for bf16/fp16 leaves, and a report naming the first
mismatching element (`compare_outputs`)."""

from __future__ import annotations

import math
from typing import Any

import torch

# (rtol, atol) per dtype, compiled vs eager. torch.testing's defaults, loosened where compiled
# code legitimately reassociates: Inductor splits and reorders reductions (GroupNorm statistics,
# sums) and the candidate may pick another conv algorithm (channels-last), so fp32 gets rtol 1e-4
# (torch.testing: 1.3e-6) and atol 1e-5; fp16/bf16 keep torch.testing's rtol and get an atol of one
# to two ulps near 1 (torch.testing's 1e-5 is below a bf16 ulp for any value above 2e-3).
DEFAULT_TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float64: (1e-7, 1e-7),
    torch.float32: (1e-4, 1e-5),
    torch.float16: (1e-3, 1e-3),
    torch.bfloat16: (1.6e-2, 1e-2),
    torch.complex64: (1e-4, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}
# bf16/fp16 outputs whose elementwise check fails pass when the relative L2 error of the whole
# output is within these bounds (bf16 keeps 8 mantissa bits: ~4e-3 per rounding; a few layers of
# accumulated rounding stay under 1e-2). Explicit rtol/atol turn this off.
LOW_PRECISION_NORM_TOLERANCE: dict[torch.dtype, float] = {torch.bfloat16: 1e-2, torch.float16: 2e-3}
# a candidate in low precision may be this much further from eager than the compiled baseline is
BASELINE_NOISE_FACTOR = 1.5
# CUDA fp32 with TF32 matmul/conv allowed: the precision of the math is ~1e-3
TF32_TOLERANCES: tuple[float, float] = (2e-3, 1e-3)


def default_tolerances(
    dtype: torch.dtype, device: str | torch.device = "cpu"
) -> tuple[float, float]:
    """``(rtol, atol)`` used by ``assert_close`` for outputs of ``dtype`` (see DEFAULT_TOLERANCES)."""
    if dtype == torch.float32 and torch.device(device).type == "cuda":
        if torch.backends.cuda.matmul.allow_tf32 or torch.backends.cudnn.allow_tf32:
            return TF32_TOLERANCES
    if dtype in DEFAULT_TOLERANCES:
        return DEFAULT_TOLERANCES[dtype]
    if dtype.is_floating_point:  # float8 and friends
        return (1.25e-1, 1e-1)
    return (0.0, 0.0)


def _compare_tensors(
    actual: torch.Tensor, expected: torch.Tensor, rtol: float, atol: float
) -> tuple[bool, str]:
    if actual.shape != expected.shape:
        return False, f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    if actual.dtype != expected.dtype:
        return False, f"dtype {actual.dtype} != {expected.dtype}"
    n = expected.numel()
    if n == 0:
        return True, "empty"
    a = actual.detach()
    e = expected.detach().to(a.device)
    if not (e.is_floating_point() or e.is_complex()):
        differs = a != e
        count = int(differs.sum())
        if count == 0:
            return True, "exactly equal"
        first = _unravel(int(differs.flatten().to(torch.uint8).argmax()), e.shape)
        return False, (
            f"{count} of {n} elements differ (exact comparison for {e.dtype}); first at index "
            f"{first}: {a[first].item()!r} vs {e[first].item()!r}"
        )
    wide = torch.complex128 if e.is_complex() else torch.float64
    af, ef = a.to(wide), e.to(wide)
    zeros = torch.zeros(e.shape, dtype=torch.float64, device=af.device)
    diff = (af - ef).abs()
    same = (af == ef) | (af.isnan() & ef.isnan())  # equal (also equal infs) or both NaN
    diff = torch.where(same, zeros, diff)
    diff = torch.where(diff.isnan(), torch.full_like(diff, math.inf), diff)  # one side NaN
    mag = ef.abs()
    rel = torch.where(diff == 0, zeros, diff / mag)
    rel = torch.where(rel.isnan() | diff.isinf(), torch.full_like(rel, math.inf), rel)
    score = torch.where(diff == 0, zeros, diff / (atol + rtol * mag))
    score = torch.where(score.isnan() | diff.isinf(), torch.full_like(score, math.inf), score)
    mismatched = int((score > 1).sum())
    worst = _unravel(int(score.flatten().argmax()), e.shape)
    stats = (
        f"max abs error {float(diff.max()):.3g}, max rel error {float(rel.max()):.3g}; worst "
        f"element at index {worst}: {_fmt(a[worst].item())} vs {_fmt(e[worst].item())}"
    )
    if mismatched == 0:
        return True, f"within rtol={rtol:g}, atol={atol:g} ({stats})"
    return False, (
        f"{mismatched} of {n} elements ({mismatched / n:.2%}) outside rtol={rtol:g}, "
        f"atol={atol:g}; {stats}"
    )


def _fmt(value: Any) -> str:
    return f"{value:.6g}" if isinstance(value, float) else repr(value)


def _unravel(flat: int, shape: torch.Size) -> tuple[int, ...]:
    index: list[int] = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def _relative_l2(actual: torch.Tensor, expected: torch.Tensor) -> float:
    a, e = actual.detach().double(), expected.detach().double().to(actual.device)
    denom = float(torch.linalg.vector_norm(e))
    diff = float(torch.linalg.vector_norm(a - e))
    return diff / denom if denom > 0 else diff


def _max_low_precision_l2(actual: Any, expected: Any) -> float:
    """Largest relative L2 error over the bf16/fp16 tensor leaves (0 when there are none)."""
    from torch.utils._pytree import tree_leaves

    worst = 0.0
    for a, e in zip(tree_leaves(actual), tree_leaves(expected), strict=False):
        if (
            isinstance(a, torch.Tensor)
            and isinstance(e, torch.Tensor)
            and e.dtype in LOW_PRECISION_NORM_TOLERANCE
            and a.shape == e.shape
        ):
            worst = max(worst, _relative_l2(a, e))
    return worst


def compare_outputs(
    actual: Any,
    expected: Any,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    device: str | torch.device = "cpu",
    norm_floor: float = 0.0,
) -> tuple[bool, list[str]]:
    """Compare two (nested) outputs leaf by leaf; ``(ok, one line per leaf)``.

    bf16/fp16 leaves that fail elementwise pass when their relative L2 error is within
    ``max(LOW_PRECISION_NORM_TOLERANCE[dtype], norm_floor)``.
    """
    from torch.utils._pytree import tree_flatten

    a_leaves, a_spec = tree_flatten(actual)
    e_leaves, e_spec = tree_flatten(expected)
    if a_spec != e_spec:
        return False, [f"output structure differs: {a_spec} vs {e_spec}"]
    ok = True
    lines: list[str] = []
    for i, (a, e) in enumerate(zip(a_leaves, e_leaves, strict=True)):
        where = f"output[{i}]: " if len(e_leaves) > 1 else ""
        if isinstance(e, torch.Tensor) and isinstance(a, torch.Tensor):
            d_rtol, d_atol = default_tolerances(e.dtype, device)
            good, text = _compare_tensors(
                a, e, d_rtol if rtol is None else rtol, d_atol if atol is None else atol
            )
            norm_tol = LOW_PRECISION_NORM_TOLERANCE.get(e.dtype)
            if norm_tol is not None:
                norm_tol = max(norm_tol, norm_floor)
            if not good and norm_tol is not None and rtol is None and atol is None:
                # bf16/fp16: a deep network's elementwise worst case is rounding noise; the
                # criterion is the relative L2 error ||a - e|| / ||e||
                rel = _relative_l2(a, e)
                good = rel <= norm_tol
                text += (
                    f"; relative L2 error {rel:.2e} ({'<=' if good else '>'} {norm_tol:.3g} for "
                    f"{e.dtype}{', the baseline noise floor' if norm_tol == norm_floor else ''})"
                )
        else:
            good = a == e if not isinstance(a, torch.Tensor) else False
            text = "equal" if good else f"{a!r} != {e!r}"
        ok = ok and bool(good)
        lines.append(where + text)
    return ok, lines
