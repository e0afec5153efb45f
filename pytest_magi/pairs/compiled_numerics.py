"""The numerics of a `CompiledPair`: `assert_close` (each side judged against eager or a
higher-precision reference run, `pytest_magi.numerics.judgment`) and `locate` (where a side's
numbers go wrong, `pytest_magi.numerics.locate`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..capture.core import (
    marked_copies,
)
from ..capture.sides import (
    SideBackend,
    SideCallable,
    check_side_name,
)
from ..numerics.compare import BASELINE_NOISE_FACTOR, _max_low_precision_l2, compare_outputs
from ..numerics.judgment import (
    REFERENCE_DTYPES,
    REFERENCES,
    BaselineMiscompiled,
    NumericsFailed,
    assert_judged,
    check_against,
    default_reference,
    locatable,
    locate_call,
    numerics_summary,
    reference_outputs,
)

if TYPE_CHECKING:
    pass


class PairNumerics:
    """`CompiledPair`'s numerics (a base class of it)."""

    model: Any
    example_inputs: tuple[Any, ...]
    dynamic_dims: dict[int, tuple[int, ...]]
    label: str
    device: str
    inference: bool
    backends: dict[str, SideBackend]
    baseline: SideCallable
    candidate: SideCallable
    eager: SideCallable
    numerics: str | None

    def assert_close(
        self,
        *inputs: Any,
        rtol: float | None = None,
        atol: float | None = None,
        reference: str | None = None,
        against: str = "eager",
    ) -> None:
        """Check both sides' outputs on ``inputs`` (default: the example inputs).

        ``reference="fp64"`` / ``"fp32"`` (the default for bf16/fp16 outputs: fp64 on CPU, fp32
        on CUDA): each run's relative L2 distance from a run of the model at that precision.
        ``against="eager"`` (default): each compiled side fails above
        ``max(REFERENCE_FACTOR * eager_err, REFERENCE_FLOOR[dtype])``: the candidate whatever
        the baseline does (``AssertionError``), the baseline as a finding of its own
        (``pytest_magi.numerics.BaselineMiscompiled``) when the candidate is within the bound.
        ``against="baseline"``: the candidate's delta alone, within
        ``max(REFERENCE_FACTOR * base_err, floor)``. ``reference="eager"`` (the default for
        fp32/fp64 outputs): elementwise with dtype-aware tolerances (``default_tolerances``).
        A failure ends with the call that locates it (``pair.locate(side=...)``).
        """
        if reference is not None and reference not in REFERENCES:
            raise ValueError(
                f"reference={reference!r}: expected one of {', '.join(map(repr, REFERENCES))} "
                f"(None picks by output dtype)"
            )
        check_against(against, "CompiledPair.assert_close")
        args = inputs or self.example_inputs
        outputs = {"baseline": self.baseline(*args), "candidate": self.candidate(*args)}
        if reference is None:
            reference = default_reference(outputs["candidate"], self.device)
        if reference == "eager":
            self._assert_close_to_eager(args, outputs, rtol, atol, against)
            return
        if rtol is not None or atol is not None:
            raise ValueError(
                f"rtol/atol apply to reference='eager' only; reference={reference!r} uses the "
                f"relative L2 rule (REFERENCE_FACTOR, REFERENCE_FLOOR)"
            )
        dtype = REFERENCE_DTYPES[reference]
        ref = reference_outputs(self.model, tuple(args), dtype, self.inference)
        assert_judged(
            outputs["baseline"],
            outputs["candidate"],
            ref,
            reference,
            eager=self.eager(*args),
            against=against,
            owner=f"CompiledPair {self.label!r}",
            locate=self.locate,
            keep=lambda j: setattr(self, "numerics", numerics_summary(j, reference, against)),
        )

    def _assert_close_to_eager(
        self,
        args: Sequence[Any],
        outputs: Mapping[str, Any],
        rtol: float | None,
        atol: float | None,
        against: str,
    ) -> None:
        eager = self.eager(*args)
        checks: list[tuple[str, Any, Any, float]] = [
            ("baseline vs eager", outputs["baseline"], eager, 0.0),
            ("candidate vs eager", outputs["candidate"], eager, 0.0),
        ]
        if against == "baseline":
            # the delta alone: a low-precision candidate may be as far from eager as the
            # compiled baseline is (x1.5), never held tighter than the dtype's fixed bound
            floor = BASELINE_NOISE_FACTOR * _max_low_precision_l2(outputs["baseline"], eager)
            checks = [(name, a, e, floor) for name, a, e, _ in checks]
            checks.append(("candidate vs baseline", outputs["candidate"], outputs["baseline"], 0.0))
        lines: list[str] = []
        failed: dict[str, bool] = {}
        for name, actual, expected, norm_floor in checks:
            ok, details = compare_outputs(
                actual, expected, rtol=rtol, atol=atol, device=self.device, norm_floor=norm_floor
            )
            failed[name] = not ok
            verdict_text = "ok" if ok else "MISMATCH"
            lines.extend(f"  {name}: {verdict_text}: {d}" for d in details)
        body = "\n".join(lines)
        if failed["candidate vs eager"] or failed.get("candidate vs baseline", False):
            wrong: str | None = "candidate"
        else:
            wrong = "baseline" if failed["baseline vs eager"] else None
        scale = "" if against == "eager" else " (against the baseline)"
        self.numerics = f"eager elementwise{scale}: " + (f"{wrong} MISMATCH" if wrong else "ok")
        with locatable(self.locate):
            self._raise_eager_verdict(wrong, body, against)

    def _raise_eager_verdict(self, wrong: str | None, body: str, against: str) -> None:
        """Raise for the side found wrong against eager (the candidate first), if any."""
        if wrong == "candidate":
            raise NumericsFailed(
                f"CompiledPair {self.label!r}: outputs differ\n{body}\n"
                f"locate it: {locate_call('candidate')}"
            )
        if wrong == "baseline" and against == "eager":
            raise BaselineMiscompiled(
                f"CompiledPair {self.label!r}: the baseline differs from eager while the "
                f"candidate matches: the baseline compiler miscompiles this model\n{body}\n"
                f"locate it: {locate_call('baseline')}; to judge the candidate's delta alone, "
                f"assert_close(against='baseline')"
            )
        if wrong == "baseline":
            raise NumericsFailed(f"CompiledPair {self.label!r}: outputs differ\n{body}", "baseline")

    def locate(self, side: str = "candidate", **options: Any) -> Any:
        """Where ``side``'s numbers go wrong: ``pytest_magi.locate`` on this pair's model and
        example inputs with that side's compiler (a fresh copy of it: the pair's own results
        stay as they are). ``options``: ``reference``, ``settings``, ``fp32_rerun``,
        ``tolerance``, ``budget_s`` (see ``docs/locate.md``). Returns a ``LocateReport``."""
        from ..numerics.locate import locate

        check_side_name(side)
        return locate(
            self.model,
            *marked_copies(self.example_inputs, self.dynamic_dims),
            backend=self.backends[side].spec,
            label=f"{self.label} {side}",
            **options,
        )
