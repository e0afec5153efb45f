"""`compile_working_around`: a compilation that raised in sympy on one of two torch 2.13 bugs of
Inductor's index simplification is compiled again with both worked around; every other
compilation is left exactly as Inductor makes it.

The bugs (torch 2.13.0 with sympy 1.14, located on the CPU; docs/reliability.md),
both met where Inductor lowers a concatenation of few, cheap inputs as one pointwise kernel
(`pointwise_cat`, chosen on GPUs; `force_pointwise_cat=True` chooses it on the CPU too), which
wraps each input's index along the concatenated dim in `torch.utils._sympy.functions.Identity`,
and an input's own loader clamps that index (a replicate pad, an index clamped into range):
- the scheduler's loop simplification substitutes zeros into ``Min(2, Max(0, Identity(q - 2)))``;
  torch's `Max` leaves ``Max(0, Identity(-2))`` unevaluated and `Min` then fails comparing it
  (`ValueError` "not comparable", or `RecursionError` in sympy's `evalf`);
- simplifying ``ModularIndexing(Min(4, Max(0, Identity(q1 - 2))) + 1, 1, 2)`` (the clamp under
  a reshape), Inductor asks the shape environment whether ``Identity(q1 - 2) >= 0`` without the
  index variable's range, and its static evaluation raises where it should answer "unknown"
  (`AssertionError` "vr must not be None for symbol q1").
Either way the whole compile raises, in plain torch.compile as in magi: the KVAE-3D decoder (its
causal conv's cached frames concatenated with a replicate-padded clip) cannot be compiled for
CUDA on torch 2.13 (fake CUDA: the first bug at the zoo's tiny size, the second at full size).
torch 2.11 compiled it on the GPU.

How: `identity_numbers` makes the name `pointwise_cat` calls (`torch._inductor.lowering.Identity`)
`NumberIdentity` for a block, a subclass that is its argument once that is an integer: a class of
its own, so sympy's cache of `Identity` is untouched; it prints, simplifies and is interpreted
as `Identity` (same printers, subclass checks, `_torch_handler_name`). `unranged_undecided` makes
the shape environment's static evaluation answer "unknown" (None) for an expression with a
symbol it has no range for, as it does for any expression it cannot decide. Both restore what
they replaced when the block ends. They change generated code (an unwrapped constant can drop
a load's eviction hint), so they are entered only to compile again a graph whose compile raised
one of these errors (`sympy_failure`), never on the first try. The magi backend and
`pytest_magi.inductor_codegen(config=...)` compile each graph through `compile_working_around`
with `PassConfig.work_around_inductor_bugs`; a backward graph that AOTAutograd compiles lazily,
at the first backward call, is not retried.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import sympy
from torch.utils._sympy.functions import Identity


class NumberIdentity(Identity):
    """`Identity` that is its argument once that is an integer (`identity_numbers`)."""

    # torch's sympy interpreter finds a function's handler by its exact class, or by this name
    _torch_handler_name = "identity"

    @classmethod
    def eval(cls, arg: Any) -> Any:
        return arg if isinstance(arg, sympy.Integer) else None


# sympy's printers use a parent function's `_print_<name>` only for a subclass of the same name:
# so Inductor's C++ and Triton printers write it as they write `Identity` (its qualified name,
# which pickling uses, stays NumberIdentity)
NumberIdentity.__name__ = "Identity"


@functools.cache
def has_identity_number_bug() -> bool:
    """Whether this torch fails on a clamp of a constant `Identity` (its sympy functions leave
    ``Max(0, Identity(-2))`` unevaluated and ``Min`` raises on it)."""
    from torch.utils._sympy.functions import Max, Min

    try:
        value = Min(sympy.Integer(2), Max(sympy.Integer(0), Identity(sympy.Integer(-2))))
    except (RecursionError, ValueError, TypeError):
        return True
    return value != 0


@contextlib.contextmanager
def identity_numbers(enabled: bool = True) -> Iterator[bool]:
    """For the block, Inductor's pointwise concatenation uses `NumberIdentity` where this torch
    has the bug (`has_identity_number_bug`) and ``enabled``; yields whether it does."""
    from torch._inductor import lowering

    if not enabled or not has_identity_number_bug() or lowering.Identity is not Identity:
        # off, a torch without the bug, or inside an enclosing block (it restores the name)
        yield enabled and lowering.Identity is NumberIdentity
        return
    lowering.Identity = NumberIdentity  # type: ignore[misc]
    try:
        yield True
    finally:
        lowering.Identity = Identity  # type: ignore[misc]


@contextlib.contextmanager
def unranged_undecided() -> Iterator[None]:
    """For the block, the shape environment's static evaluation answers None ("cannot decide")
    for an expression with a symbol it has no value range for, instead of raising."""
    from torch.fx.experimental import symbolic_shapes
    from torch.utils._sympy.singleton_int import SingletonInt

    worker = symbolic_shapes._maybe_evaluate_static_worker

    def undecided(expr: Any, symbol_info: Any, *args: Any, **kwargs: Any) -> Any:
        if any(s.vr is None and not isinstance(s.val, SingletonInt) for s in symbol_info):
            return None
        return worker(expr, symbol_info, *args, **kwargs)

    # (an lru_cache-wrapped function in torch: a plain function stands in for it meanwhile)
    symbolic_shapes._maybe_evaluate_static_worker = undecided  # type: ignore[assignment]
    try:
        yield
    finally:
        symbolic_shapes._maybe_evaluate_static_worker = worker


# what each of the two bugs raises, as the compile's error (or one it wraps) says it
SYMPY_FAILURES = (
    ("clamp of a constant Identity", re.compile(r"is not comparable|maximum recursion depth")),
    ("index variable without a range", re.compile(r"vr must not be None for symbol")),
)

T = TypeVar("T")


def sympy_failure(error: BaseException) -> str | None:
    """Which of the two bugs `error` (or an exception it wraps) is, or None."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        text = f"{type(current).__name__}: {current}"
        for name, pattern in SYMPY_FAILURES:
            if pattern.search(text):
                return name
        current = current.__cause__ or current.__context__
    return None


def truncating_to_now(*records: list[Any]) -> Callable[[], None]:
    """A `compile_working_around` ``before_retry``: each of ``records`` (lists a compile appends
    to: a manager's history, a graph log) cut back to the length it has now."""
    lengths = [len(record) for record in records]

    def truncate() -> None:
        for record, length in zip(records, lengths, strict=True):
            del record[length:]

    return truncate


def compile_working_around(
    compile_: Callable[[], T],
    enabled: bool,
    *,
    before_retry: Callable[[], None] | None = None,
    on_retry: Callable[[str], None] | None = None,
    first_in_scopes: bool = False,
) -> T:
    """``compile_()``; where it raised one of the two bugs (`sympy_failure`) and ``enabled``,
    ``before_retry()`` (undo what the failed try recorded), ``on_retry(bug)`` (``bug``: which
    of the two the first try raised, as `sympy_failure` names it; e.g. to count the retries)
    and ``compile_()`` again inside `identity_numbers` and `unranged_undecided` (an error there
    is raised with the first as its cause). Any other error, or one with ``enabled`` False, is
    raised as it is. With ``first_in_scopes`` (and ``enabled``) the one try is inside the scopes
    already: for a graph known to raise on its first try, which would cost its AOT dispatch,
    post-grad passes and part of its lowering twice."""
    if enabled and first_in_scopes:
        with identity_numbers(), unranged_undecided():
            return compile_()
    try:
        return compile_()
    except Exception as error:
        bug = sympy_failure(error) if enabled else None
        if bug is None:
            raise
        first = error
    if before_retry is not None:
        before_retry()
    if on_retry is not None:
        on_retry(bug)
    try:
        with identity_numbers(), unranged_undecided():
            return compile_()
    except Exception as again:
        # the retry's own error, with the first try's as its cause
        raise again from first
