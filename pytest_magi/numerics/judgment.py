"""Numerics of a compiled pair: tolerances, leaf-by-leaf comparison, and the judgment against a
higher-precision reference.

Two ways to judge a pair (``CompiledPair.assert_close(reference=...)``):

* ``"eager"`` (the default for fp32/fp64 outputs): baseline vs eager and candidate vs eager,
  elementwise with the dtype's tolerances (:data:`DEFAULT_TOLERANCES`); bf16/fp16 leaves fall back
  to a relative-L2 bound. A baseline that mismatches while the candidate matches raises
  :class:`BaselineMiscompiled`. ``against="baseline"`` adds candidate vs baseline and lets a
  low-precision candidate be as far from eager as the baseline is (x ``BASELINE_NOISE_FACTOR``).
* ``"fp64"`` / ``"fp32"`` (the default for bf16/fp16 outputs: fp64 on CPU, fp32 on CUDA): a deep
  copy of the model cast to that dtype runs eagerly on the inputs cast too, and each run's
  distance from it is measured as relative L2 error ``||run - ref|| / ||ref||``: eager's (the
  model at its own dtype), the baseline's and the candidate's. **The rule** (``against="eager"``,
  the default): each compiled side fails when its distance exceeds
  ``max(REFERENCE_FACTOR * eager_err, REFERENCE_FLOOR[dtype])``; the candidate fails whatever the
  baseline does, and a baseline above the bound while the candidate is within it raises
  :class:`BaselineMiscompiled` (an ``AssertionError`` of its own: a finding about the baseline
  compiler, catchable and xfail-able as such). ``against="baseline"`` is the rule for
  testing a pass's delta alone: the candidate within ``max(REFERENCE_FACTOR * base_err, floor)``.

Why eager: comparing two low-precision runs with each other cannot tell a miscompile from
rounding; measured against a run of higher precision, a correct compiled run carries rounding
error of eager's size and a wrong result stands out (torch's own accuracy checker,
``torch._dynamo.utils.same`` with an fp64 reference, works the same way). Why not the baseline:
the baseline compiler can be wrong itself. On the full Wan 2.2 VAE decode in bf16 (H200, torch
2.11, T=3) eager is 0.014 from fp32 while torch.compile's output is 0.878 from it (an Inductor
miscompile, pytorch#194281): judged against the baseline, a candidate just as corrupted passed.
docs/testing-a-pass.md states the rule with those numbers.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from .compare import LOW_PRECISION_NORM_TOLERANCE, _relative_l2

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
# the higher-precision references by name (``"eager"`` is the model at its own dtype)
REFERENCE_DTYPES: dict[str, torch.dtype] = {"fp32": torch.float32, "fp64": torch.float64}


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
    """``against="baseline"`` only: the baseline is clearly further from the higher-precision
    reference than eager is, and that judgment does not hold it to account (see
    :class:`BaselineMiscompiled` for the default judgment, which does)."""


class NumericsFailed(AssertionError):
    """A compiled side's output is wrong: ``side`` names it ("candidate" or "baseline");
    ``locate``, set by the pair that raised it, is ``pair.locate`` bound to that side (what
    ``pytest --magi-locate`` runs on a failing test)."""

    def __init__(self, message: str, side: str = "candidate") -> None:
        super().__init__(message)
        self.side = side
        self.locate: Callable[..., Any] | None = None


class BaselineMiscompiled(NumericsFailed):
    """The baseline compiler (plain ``torch.compile``) is clearly further from the
    higher-precision reference than eager is, while the candidate is within the bound: a
    finding about the baseline, distinct from a failing candidate and catchable as such
    (``pytest.raises(BaselineMiscompiled)``, ``xfail(raises=BaselineMiscompiled)``).

    ``distances``: one ``LeafDistances`` per floating output leaf.
    """

    def __init__(self, message: str, distances: Sequence[LeafDistances] = ()) -> None:
        super().__init__(message, side="baseline")
        self.distances = tuple(distances)


# what a compiled side is judged against: eager's own distance (the default), or the baseline's
# (a pass's delta alone, which passes a candidate as wrong as its baseline)
AGAINST = ("eager", "baseline")


@dataclass(frozen=True)
class LeafDistances:
    """One output leaf: each run's relative L2 distance from the reference, and the bound.

    ``eager`` is None where eager is the reference itself (its distance is then 0).
    """

    index: int
    dtype: str
    eager: float | None
    baseline: float
    candidate: float
    bound: float
    baseline_ok: bool
    candidate_ok: bool
    baseline_non_finite: int = 0  # NaN/inf elements
    candidate_non_finite: int = 0


@dataclass(frozen=True)
class Judgment:
    """What :func:`judge_against_reference` found: the candidate's verdict, the baseline's
    (always True under ``against="baseline"``), one line per leaf, and the distances."""

    candidate_ok: bool
    baseline_ok: bool
    lines: tuple[str, ...]
    distances: tuple[LeafDistances, ...] = ()


def bound_for(scale_err: float, dtype: torch.dtype) -> float:
    """``max(REFERENCE_FACTOR * scale_err, REFERENCE_FLOOR[dtype])``: how far from the reference a
    compiled run may be, given eager's distance (or the baseline's, for a pass's delta); inf
    where ``scale_err`` is not finite (then only finiteness is judged)."""
    if not math.isfinite(scale_err):
        return math.inf
    return max(REFERENCE_FACTOR * scale_err, REFERENCE_FLOOR.get(dtype, 1e-2))


@contextlib.contextmanager
def locatable(locate: Callable[..., Any]) -> Iterator[None]:
    """A :class:`NumericsFailed` raised inside carries ``locate`` bound to its failing side
    (``exc.locate``, what ``pytest --magi-locate`` runs)."""
    try:
        yield
    except NumericsFailed as exc:
        exc.locate = functools.partial(locate, exc.side)
        raise


def check_against(against: Any, owner: str) -> str:
    """``against`` if it is one of :data:`AGAINST`, else a ValueError naming it."""
    if against not in AGAINST:
        raise ValueError(
            f"{owner}(against={against!r}): expected 'eager' (each compiled side within "
            f"max({REFERENCE_FACTOR:g} x eager's distance, floor), the default) or 'baseline' "
            f"(the candidate within max({REFERENCE_FACTOR:g} x the baseline's distance, floor): "
            f"a pass's delta alone)"
        )
    return str(against)


def judge_against_reference(
    baseline: Any,
    candidate: Any,
    reference: Any,
    reference_name: str,
    eager: Any = None,
    against: str = "eager",
) -> Judgment:
    """Each floating leaf: each side's relative L2 distance from the reference, judged.

    ``against="eager"`` (default): the bound is ``max(REFERENCE_FACTOR * eager_err,
    REFERENCE_FLOOR[dtype])``; the candidate fails above it whatever the baseline does, and a
    baseline above it is not ok either (``Judgment.baseline_ok``). ``eager``: the model's own
    outputs at its dtype; None means the reference *is* eager (``eager_err`` 0).
    ``against="baseline"``: the bound is ``max(REFERENCE_FACTOR * base_err, floor)`` for the
    candidate only; a baseline clearly further than eager raises a
    :class:`BaselineNumericsWarning` instead of a verdict.
    NaN/inf: a side with any non-finite element fails (where eager's output is finite).
    """
    from torch.utils._pytree import tree_flatten

    check_against(against, "judge_against_reference")
    b_leaves, b_spec = tree_flatten(baseline)
    c_leaves, c_spec = tree_flatten(candidate)
    r_leaves, r_spec = tree_flatten(reference)
    if not (b_spec == c_spec == r_spec):
        text = f"output structure differs: {b_spec} / {c_spec} / reference {r_spec}"
        return Judgment(False, True, (text,))
    e_leaves: list[Any] = [None] * len(r_leaves)
    if eager is not None:
        flat, e_spec = tree_flatten(eager)
        if e_spec == r_spec:
            e_leaves = flat
    cand_ok = base_ok = True
    lines: list[str] = []
    found: list[LeafDistances] = []
    for i, (b, c, r, e) in enumerate(zip(b_leaves, c_leaves, r_leaves, e_leaves, strict=True)):
        where = f"output[{i}]: " if len(r_leaves) > 1 else ""
        leaf = _judge_leaf(i, b, c, r, e, reference_name, against)
        if isinstance(leaf, LeafDistances):
            found.append(leaf)
            good_c, good_b = leaf.candidate_ok, leaf.baseline_ok
            text = _leaf_text(leaf, b, c, reference_name, against)
            if against == "baseline":
                _warn_baseline(where, leaf, b, reference_name)
        else:
            good_c, text = leaf
            good_b = True
        cand_ok, base_ok = cand_ok and good_c, base_ok and good_b
        lines.append(where + text)
    return Judgment(cand_ok, base_ok, tuple(lines), tuple(found))


def _warn_baseline(where: str, leaf: LeafDistances, b: torch.Tensor, reference_name: str) -> None:
    """``against="baseline"``: warn when the baseline is clearly further than eager."""
    if leaf.eager is None:
        return
    bound = bound_for(leaf.eager, b.dtype)
    if leaf.baseline > bound:
        warnings.warn(
            BaselineNumericsWarning(
                f"{where}the baseline is {leaf.baseline:.3g} from the {reference_name} "
                f"reference, eager {leaf.eager:.3g} (bound {bound:.3g}): the baseline "
                f"compiler's own numerics are off on this model; against='baseline' judges "
                f"the candidate's delta only, so this is no verdict on its passes"
            ),
            stacklevel=4,
        )


def _non_finite(t: torch.Tensor) -> int:
    return int((~torch.isfinite(t.detach())).sum())


def _judge_leaf(
    index: int, b: Any, c: Any, r: Any, e: Any, reference_name: str, against: str
) -> LeafDistances | tuple[bool, str]:
    """A floating leaf's distances and verdicts, or ``(verdict, text)`` for any other leaf."""
    if not isinstance(c, torch.Tensor) or not c.is_floating_point():
        good = bool(c == b) if not isinstance(c, torch.Tensor) else bool(torch.equal(c, b))
        return good, "equal" if good else f"{c!r} != baseline {b!r}"
    if c.shape != b.shape or c.shape != r.shape:
        return False, f"shapes differ: candidate {tuple(c.shape)}, baseline {tuple(b.shape)}"
    has_eager = isinstance(e, torch.Tensor) and e.is_floating_point() and e.shape == r.shape
    eager_err = _relative_l2(e, r) if has_eager else None
    base_err, cand_err = _relative_l2(b, r), _relative_l2(c, r)
    bound = bound_for((eager_err or 0.0) if against == "eager" else base_err, c.dtype)
    eager_finite = not has_eager or _non_finite(e) == 0
    bad_b, bad_c = _non_finite(b), _non_finite(c)
    cand_ok = bad_c == 0 and cand_err <= bound
    base_ok = True
    if against == "eager":
        base_ok = (bad_b == 0 or not eager_finite) and base_err <= bound
    return LeafDistances(
        index, str(c.dtype).removeprefix("torch."), eager_err, base_err, cand_err, bound,
        base_ok, cand_ok, bad_b, bad_c,
    )  # fmt: skip


def _leaf_text(
    leaf: LeafDistances, b: torch.Tensor, c: torch.Tensor, reference_name: str, against: str
) -> str:
    floor = REFERENCE_FLOOR.get(c.dtype, 1e-2)
    eager = "eager (the reference itself) 0" if leaf.eager is None else f"eager {leaf.eager:.3g}"
    scale = "eager" if against == "eager" else "baseline"
    text = (
        f"relative L2 distance from the {reference_name} reference: {eager}, baseline "
        f"{leaf.baseline:.3g}, candidate {leaf.candidate:.3g} ({leaf.dtype}); bound "
        f"max({REFERENCE_FACTOR:g} x {scale}, floor {floor:g}) = {leaf.bound:.3g}: candidate "
        f"{'ok' if leaf.candidate_ok else 'OVER'}"
    )
    if against == "eager":
        text += f", baseline {'ok' if leaf.baseline_ok else 'OVER'}"
    bad_c, bad_b = leaf.candidate_non_finite, leaf.baseline_non_finite
    if bad_c or bad_b:
        text += (
            f"; non-finite elements (NaN/inf): candidate {bad_c}, baseline {bad_b} of "
            f"{c.numel()} (a side with any fails)"
        )
    return text


# True while the plugin runs a test under ``--magi-locate``: it locates a failing pair itself
_PLUGIN_LOCATES: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "pytest_magi_plugin_locates", default=False
)


@contextlib.contextmanager
def plugin_locates(active: bool = True) -> Iterator[None]:
    """While the block runs (the plugin's call of a test under ``pytest --magi-locate``), a
    numerics failure's message does not suggest ``--magi-locate``: the plugin runs the locate
    itself and shows its report with the failure (section "magi locate")."""
    token = _PLUGIN_LOCATES.set(bool(active))
    try:
        yield
    finally:
        _PLUGIN_LOCATES.reset(token)


def locate_call(side: str) -> str:
    """How a failing side is located, as a numerics failure's message ends."""
    if _PLUGIN_LOCATES.get():
        return f"pair.locate(side={side!r}); its report follows (section 'magi locate')"
    return f"pair.locate(side={side!r}), or run pytest with --magi-locate"


def assert_judged(
    baseline: Any,
    candidate: Any,
    reference: Any,
    reference_name: str,
    *,
    eager: Any,
    against: str,
    owner: str,
    locate: Callable[..., Any],
    keep: Callable[[Judgment], None] | None = None,
) -> Judgment:
    """:func:`judge_against_reference`, then :func:`verdict`: what a pair's ``assert_close``
    does with its three runs. A failure carries ``locate`` (:func:`locatable`). ``keep`` is
    given the judgment before the verdict, so a pair keeps it whether or not it raises."""
    judgment = judge_against_reference(
        baseline, candidate, reference, reference_name, eager=eager, against=against
    )
    if keep is not None:
        keep(judgment)
    with locatable(locate):
        verdict(judgment, owner=owner, reference_name=reference_name, against=against)
    return judgment


def numerics_summary(judgment: Judgment, reference_name: str, against: str) -> str:
    """One line for a pair's report row: the leaf furthest from the ``reference_name`` run,
    each side's relative L2 distance from it, the bound and the verdict, e.g.
    ``fp32 rel-L2: candidate 9.68e-03, baseline 1.21e-02, eager 1.40e-02; bound 2.80e-02; ok``.
    """
    if not judgment.distances:
        return f"{reference_name}: {'ok' if judgment.candidate_ok else 'FAILED'}"
    leaf = max(judgment.distances, key=lambda d: (not d.candidate_ok, d.candidate))
    eager = "" if leaf.eager is None else f", eager {leaf.eager:.2e}"
    if not judgment.candidate_ok:
        outcome = "candidate OVER"
    elif not judgment.baseline_ok:
        outcome = "baseline OVER (miscompiled)"
    else:
        outcome = "ok"
    scale = "" if against == "eager" else " (against the baseline)"
    return (
        f"{reference_name} rel-L2: candidate {leaf.candidate:.2e}, baseline {leaf.baseline:.2e}"
        f"{eager}; bound {leaf.bound:.2e}{scale}; {outcome}"
    )


def verdict(
    judgment: Judgment,
    *,
    owner: str,
    reference_name: str,
    against: str,
    locate: Callable[[str], str] = locate_call,
) -> None:
    """Raise for a :class:`Judgment`: ``AssertionError`` when the candidate fails (the verdict
    on the candidate comes first), :class:`BaselineMiscompiled` when only the baseline does.
    Each message ends with the call that locates the failing side's wrong graph and output,
    spelled by ``locate(side)`` (default :func:`locate_call`).
    """
    body = "\n".join(f"  {x}" for x in judgment.lines)
    scale = "eager" if against == "eager" else "the baseline"
    if not judgment.candidate_ok:
        also = "" if judgment.baseline_ok else " (and so is the baseline)"
        raise NumericsFailed(
            f"{owner}: the candidate is clearly further from the {reference_name} reference "
            f"than {scale}{also}\n{body}\nlocate it: {locate('candidate')}"
        )
    if not judgment.baseline_ok:
        raise BaselineMiscompiled(
            f"{owner}: the baseline (its compiler without the candidate's passes) is clearly "
            f"further from the {reference_name} reference than eager, while the candidate is "
            f"within the bound: the baseline compiler miscompiles this model\n{body}\n"
            f"locate it: {locate('baseline')}; to judge the candidate's delta alone, "
            f"assert_close(against='baseline')",
            judgment.distances,
        )
