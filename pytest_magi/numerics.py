"""Numerics of a compiled pair: tolerances, leaf-by-leaf comparison, and the judgment against a
higher-precision reference.

Two ways to judge a pair (``CompiledPair.assert_close(reference=...)``):

* ``"eager"`` (the default for fp32/fp64 outputs): baseline vs eager, candidate vs eager and
  candidate vs baseline, elementwise with the dtype's tolerances (:data:`DEFAULT_TOLERANCES`);
  bf16/fp16 leaves fall back to a relative-L2 bound.
* ``"fp64"`` / ``"fp32"`` (the default for bf16/fp16 outputs: fp64 on CPU, fp32 on CUDA): a deep
  copy of the model cast to that dtype runs eagerly on the inputs cast too, and each side's
  distance from it is measured as relative L2 error ``||side - ref|| / ||ref||``. The candidate
  fails only when it is clearly further from the reference than the baseline:
  ``cand_err > max(REFERENCE_FACTOR * base_err, REFERENCE_FLOOR[dtype])``.

Why: comparing two low-precision runs with each other cannot tell a miscompile from rounding.
Measured against a run of higher precision, both sides carry rounding error of the same size and
a wrong result stands out (torch's own accuracy checker, ``torch._dynamo.utils.same`` with an
fp64 reference, works the same way). The candidate is judged against the baseline, not against
eager, because the baseline compiler may itself be far from the reference: on the full Wan 2.2
VAE decode in bf16 (H200, torch 2.11, T=3), eager is 0.014 from fp32 while torch.compile's
output is 0.878 from it, and dynamo's ``eager`` and ``aot_eager`` backends match eager exactly
(docs/testing-a-pass.md). When ``eager`` outputs are given, each line also says eager's distance,
and a baseline clearly further than eager raises a :class:`BaselineNumericsWarning`: a finding
about the baseline compiler, not a verdict on the candidate's passes.
"""

from __future__ import annotations

import copy
import math
import warnings
from collections.abc import Callable
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


# reference judgment: the candidate may be this many times further from the reference than the
# baseline, and never needs to be closer than the floor of its dtype (a few roundings)
REFERENCE_FACTOR = 2.0
REFERENCE_FLOOR: dict[torch.dtype, float] = {
    torch.bfloat16: 1e-2,
    torch.float16: 2e-3,
    torch.float32: 1e-5,
    torch.float64: 1e-12,
}
REFERENCES = ("eager", "fp32", "fp64")


def default_reference(outputs: Any, device: str) -> str:
    """``"fp64"`` (CPU) / ``"fp32"`` (CUDA) when an output is bf16/fp16, else ``"eager"``."""
    from torch.utils._pytree import tree_leaves

    low = any(
        isinstance(t, torch.Tensor) and t.dtype in LOW_PRECISION_NORM_TOLERANCE
        for t in tree_leaves(outputs)
    )
    if not low:
        return "eager"
    return "fp32" if torch.device(device).type == "cuda" else "fp64"


def _cast(value: Any, dtype: torch.dtype) -> Any:
    from torch.utils._pytree import tree_map

    def cast(x: Any) -> Any:
        if isinstance(x, torch.Tensor) and x.is_floating_point():
            return x.detach().to(dtype)
        return x

    return tree_map(cast, value)


def reference_outputs(
    model: Callable[..., Any], inputs: tuple[Any, ...], dtype: torch.dtype, inference: bool
) -> Any:
    """Run a deep copy of ``model`` cast to ``dtype`` eagerly on ``inputs`` cast to ``dtype``."""
    reference = copy.deepcopy(model)
    if isinstance(reference, torch.nn.Module):
        reference = reference.to(dtype)
    args = _cast(inputs, dtype)
    with torch.no_grad() if inference else torch.enable_grad():
        return reference(*args)


class BaselineNumericsWarning(UserWarning):
    """The baseline is clearly further from the higher-precision reference than eager is: the
    baseline compiler's own numerics are off on this model (no verdict on the candidate)."""


def judge_against_reference(
    baseline: Any,
    candidate: Any,
    reference: Any,
    reference_name: str,
    eager: Any = None,
) -> tuple[bool, list[str]]:
    """Each floating leaf: both sides' relative L2 distance from the reference; the candidate
    fails when ``cand_err > max(REFERENCE_FACTOR * base_err, REFERENCE_FLOOR[dtype])``.

    ``eager``: the model's own outputs at its dtype, optional. Given, each line says eager's
    distance too, and a baseline with ``base_err > max(REFERENCE_FACTOR * eager_err, floor)``
    raises a :class:`BaselineNumericsWarning` (the judgment itself is unchanged).
    """
    from torch.utils._pytree import tree_flatten

    b_leaves, b_spec = tree_flatten(baseline)
    c_leaves, c_spec = tree_flatten(candidate)
    r_leaves, r_spec = tree_flatten(reference)
    if not (b_spec == c_spec == r_spec):
        return False, [f"output structure differs: {b_spec} / {c_spec} / reference {r_spec}"]
    e_leaves: list[Any] = [None] * len(r_leaves)
    if eager is not None:
        flat, e_spec = tree_flatten(eager)
        if e_spec == r_spec:
            e_leaves = flat
    ok = True
    lines: list[str] = []
    for i, (b, c, r, e) in enumerate(zip(b_leaves, c_leaves, r_leaves, e_leaves, strict=True)):
        where = f"output[{i}]: " if len(r_leaves) > 1 else ""
        good, text, base_err = _judge_leaf(b, c, r, reference_name)
        if base_err is not None:
            text += _eager_note(where, base_err, b, r, e, reference_name)
        ok = ok and good
        lines.append(where + text)
    return ok, lines


def _eager_note(
    where: str, base_err: float, b: torch.Tensor, r: torch.Tensor, e: Any, reference_name: str
) -> str:
    """``"; eager <dist>"`` for a floating leaf whose baseline is ``base_err`` from the
    reference, warning when the baseline is clearly further than eager."""
    if not (isinstance(e, torch.Tensor) and e.is_floating_point() and e.shape == r.shape):
        return ""
    eager_err = _relative_l2(e, r)
    bound = max(REFERENCE_FACTOR * eager_err, REFERENCE_FLOOR.get(b.dtype, 1e-2))
    if base_err > bound:
        warnings.warn(
            BaselineNumericsWarning(
                f"{where}the baseline is {base_err:.3g} from the {reference_name} reference, "
                f"eager {eager_err:.3g} (bound {bound:.3g}): the baseline compiler's own "
                f"numerics are off on this model; the candidate is judged against the "
                f"baseline, so this is no verdict on its passes"
            ),
            stacklevel=4,
        )
    return f"; eager {eager_err:.3g}"


def _non_finite(t: torch.Tensor) -> int:
    return int((~torch.isfinite(t.detach())).sum())


def _judge_leaf(b: Any, c: Any, r: Any, reference_name: str) -> tuple[bool, str, float | None]:
    """(verdict, text, the baseline's distance from the reference: None where none is taken)."""
    if not isinstance(c, torch.Tensor) or not c.is_floating_point():
        good = bool(c == b) if not isinstance(c, torch.Tensor) else bool(torch.equal(c, b))
        return good, "equal" if good else f"{c!r} != baseline {b!r}", None
    if c.shape != b.shape or c.shape != r.shape:
        text = f"shapes differ: candidate {tuple(c.shape)}, baseline {tuple(b.shape)}"
        return False, text, None
    base_err, cand_err = _relative_l2(b, r), _relative_l2(c, r)
    base_bad, cand_bad = _non_finite(b), _non_finite(c)
    if cand_bad or base_bad:  # a distance with NaN/inf in it compares as nothing
        text = (
            f"non-finite elements (NaN/inf): candidate {cand_bad}, baseline {base_bad} of "
            f"{c.numel()} ({c.dtype}); a candidate with any fails, a finite candidate beside a "
            f"non-finite baseline passes; relative L2 distance from the {reference_name} "
            f"reference: candidate {cand_err:.3g}, baseline {base_err:.3g}"
        )
        return cand_bad == 0, text, base_err
    floor = REFERENCE_FLOOR.get(c.dtype, 1e-2)
    bound = max(REFERENCE_FACTOR * base_err, floor)
    good = cand_err <= bound
    text = (
        f"relative L2 distance from the {reference_name} reference: candidate {cand_err:.3g}, "
        f"baseline {base_err:.3g} ({c.dtype}); candidate {'<=' if good else '>'} "
        f"max({REFERENCE_FACTOR:g} x baseline, floor {floor:g}) = {bound:.3g}"
    )
    return good, text, base_err
