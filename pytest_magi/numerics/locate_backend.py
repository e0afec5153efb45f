"""`LocatingBackend`: a dynamo backend that compiles each graph like a side does and checks every
call against the same FX graph run eagerly on the same inputs; on the first wrong output it keeps
the graph and its inputs and, at `report()`, asks `locate_cures` what cures it."""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

import torch

from magi_passes import MagiBackend

from ..capture.core import (
    validate_bool,
    validate_inductor_config,
    validate_label,
    validate_passes,
)
from ..capture.pass_diff import first_divergence, rewritten_nodes
from ..capture.sides import SideBackend, SideSpec, resolve_side
from .locate_cures import CureSearch, _GraphState, _Saved, _symbolic, fresh_spec
from .locate_report import (
    Divergence,
    FirstBad,
    Fp32Rerun,
    GraphRecord,
    LocateReport,
    OutputRecord,
    Retry,
    RewrittenNode,
)
from .locate_tensors import (
    _copy_module,
    _flatten,
    _on_cuda,
    _output_origins,
    _rewritten_record,
    _rng_state,
    _set_rng_state,
    _validate_budget,
    _versions,
    meta_origin,
    output_distance,
    strided_clone,
    validate_settings,
    validate_tolerance,
)


class LocatingBackend(CureSearch):
    """A dynamo backend that compiles each graph like ``spec_or_backend`` and checks every call
    against the same graph run eagerly (see the module docstring).

    ``spec_or_backend``: a :class:`pytest_magi.capture.sides.SideSpec`, or what ``backend=`` of
    :func:`locate` takes (None: plain Inductor; "magi", a ``PassConfig``, a ``MagiBackend``, a
    dict of Inductor patches, a backend name or callable) with ``passes``/``inductor_config``.
    A magi side compiles through a copy of its ``MagiBackend`` (the original's managers stay
    untouched). ``tolerance``, ``settings``, ``fp32_rerun``, ``budget_s``, ``label``: as for
    :func:`locate`; ``cure=False`` reports without retrying.

    ``torch.compile(model, backend=LocatingBackend(...))``, call the model, then
    :meth:`report`.
    """

    def __init__(
        self,
        spec_or_backend: Any = None,
        *,
        passes: Sequence[Any] | None = None,
        inductor_config: Mapping[str, Any] | None = None,
        tolerance: Any = None,
        settings: Sequence[Mapping[str, Any]] | None = None,
        fp32_rerun: bool = False,
        budget_s: float | None = None,
        label: str | None = None,
        cure: bool = True,
    ) -> None:
        self._start = time.perf_counter()
        chain = validate_passes(passes)
        extra = validate_inductor_config("inductor_config", inductor_config)
        if isinstance(spec_or_backend, SideSpec):
            if chain or extra:
                raise ValueError(
                    f"LocatingBackend({spec_or_backend.description}): a SideSpec already says "
                    f"its passes and Inductor config; give passes=/inductor_config= only with "
                    f"a backend spelling (None, 'magi', a PassConfig, a dict, ...)"
                )
            spec = spec_or_backend
        else:
            if spec_or_backend == "magi":
                spec_or_backend = MagiBackend(None, {})
            spec = resolve_side(
                "backend", "inductor" if spec_or_backend is None else spec_or_backend, chain, extra
            )
        self.spec = fresh_spec(spec)
        self.tolerance = validate_tolerance(tolerance)
        self.settings = validate_settings(settings)
        self.fp32_rerun = validate_bool("fp32_rerun", fp32_rerun)
        self.budget_s = _validate_budget(budget_s)
        self.label = validate_label(label) or self.spec.description
        self.cure = validate_bool("cure", cure)
        self.side = SideBackend("located", self.spec)
        self._states: list[_GraphState] = []
        self._first: FirstBad | None = None
        self._saved: _Saved | None = None
        self._cured: tuple[list[Retry], Fp32Rerun | None] | None = None
        self._kernels: list[str] | None = None
        self._launched: list[str] | None = None
        self._configs: list[str] | None = None
        self._notes: list[str] = []
        self._rewritten: list[RewrittenNode] = []
        self._diverged: tuple[Divergence | None, str] | None = None

    # ------------------------------------------------------------------ compile and check
    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Any:
        eager = _copy_module(gm)
        origins = _output_origins(gm)
        symbolic = _symbolic(gm)
        magi = self.spec.backend if self.spec.kind == "magi" else None
        before = len(magi.managers) if magi is not None else 0
        logged, chain = len(self.side.log.after), self.side.chain
        added = len(chain.added) if chain is not None else 0
        compiled = self.side(gm, list(example_inputs))
        managers = list(magi.managers[before:]) if magi is not None else []
        post_grad = None
        if (self.spec.passes or magi is not None) and len(self.side.log.after) > logged:
            made_by = chain.added[-1] if chain is not None and len(chain.added) > added else {}
            post_grad = (self.side.log.before[-1], self.side.log.after[-1], dict(made_by))
        state = _GraphState(
            GraphRecord(len(self._states)), eager, compiled, origins, managers, symbolic, post_grad
        )
        self._states.append(state)

        # dynamo calls what a backend returns with positional args (no _boxed_call here)
        def run(*args: Any) -> Any:
            return self._run(state, args)

        return run

    def _run(self, state: _GraphState, args: tuple[Any, ...]) -> Any:
        record = state.record
        record.calls += 1
        clones = strided_clone(args)
        versions = _versions(clones)
        grad = torch.is_grad_enabled()
        devices = sorted({x.device.index or 0 for x in clones if _on_cuda(x)})
        before = _rng_state(devices)
        out = state.compiled(*args)
        after = _rng_state(devices)
        try:
            _set_rng_state(devices, before)  # random ops draw what the compiled run drew
            with torch.no_grad():
                expected = state.eager(*clones)
        except Exception as error:  # noqa: BLE001 - the model's call must still return
            record.note = f"the eager graph raised {type(error).__name__}: {error}"[:300]
            return out
        finally:
            _set_rng_state(devices, after)  # and the model's stream goes on as compiled left it
        wrong = self._compare(state, _flatten(out), _flatten(expected))
        if wrong and self._first is None:
            self._first = self._first_bad(state, wrong)
            record.first_wrong_call = record.calls
            if versions != _versions(clones):
                self._notes.append(
                    f"graph {record.index} mutates its inputs: its cures ran on the inputs as "
                    f"the eager graph left them (compiled and eager alike)"
                )
            self._saved = _Saved(
                record.index, state.eager, clones, grad, state.managers, devices, before,
                state.compiled, state.symbolic, state.post_grad,
            )  # fmt: skip
            self._rewritten = self._rewritten_upstream(state, self._first.output)
        return out

    def _compare(self, state: _GraphState, actual: list[Any], expected: list[Any]) -> list[int]:
        record = state.record
        if len(actual) != len(expected):
            record.note = (
                f"the compiled graph returned {len(actual)} outputs, the eager graph "
                f"{len(expected)}"
            )
        if not record.outputs:
            record.outputs = [
                OutputRecord(i, **(state.origins[i] if i < len(state.origins) else {}))
                for i in range(len(expected))
            ]
        wrong: list[int] = []
        missing = object()  # an output one side did not return: infinitely far
        actual = actual + [missing] * (len(expected) - len(actual))
        for i, (a, e) in enumerate(zip(actual, expected, strict=False)):
            if i >= len(record.outputs):
                break
            distance, bad, note = output_distance(a, e)
            if a is missing:
                distance, note = math.inf, "the compiled graph did not return it"
            item = record.outputs[i]
            dtype = e.dtype if isinstance(e, torch.Tensor) else None
            if item.shape is None or distance > item.distance:
                item.shape = tuple(e.shape) if isinstance(e, torch.Tensor) else None
                item.dtype = str(dtype).removeprefix("torch.") if dtype is not None else ""
                item.distance, item.non_finite, item.note = distance, bad, note
            if not distance <= self.tolerance_for(dtype):
                item.wrong = True
                wrong.append(i)
        return wrong

    def _first_bad(self, state: _GraphState, wrong: list[int]) -> FirstBad:
        record = state.record
        # the wrong output produced first in the graph: later ones may only inherit its error
        pick = min(
            wrong, key=lambda i: (record.outputs[i].position < 0, record.outputs[i].position)
        )
        o = record.outputs[pick]
        return FirstBad(
            record.index, record.calls, pick, record.n_outputs, o.shape, o.dtype, o.distance,
            o.non_finite, o.node, o.target, o.module, o.module_type, o.file, o.line,
            o.function, o.code,
        )  # fmt: skip

    # ------------------------------------------------------------------ report
    @property
    def graphs(self) -> list[GraphRecord]:
        return [s.record for s in self._states]

    def report(self) -> LocateReport:
        """What the calls so far found; on the first call with a wrong output also where the
        passes' values first go wrong and the cures (run once: later reports reuse them, and
        the saved inputs are freed after)."""
        if self._saved is not None and self._diverged is None:
            self._diverged = self._divergence(self._saved)
        if self._saved is not None and self.cure and self._cured is None:
            self._cured = self._cure(self._saved)
        notes = list(self._notes)  # the cures' own notes included
        self._saved = None  # the inputs kept for the cures: freed once they ran
        retries, fp32 = self._cured or ([], None)
        if not self._states:
            notes.append("dynamo compiled no graph: nothing was checked")
        return LocateReport(
            label=self.label,
            side=self.spec.description,
            graphs=[copy.deepcopy(s.record) for s in self._states],
            first_bad=copy.copy(self._first),
            retries=list(retries),
            fp32=fp32,
            kernels=None if self._kernels is None else list(self._kernels),
            launched=None if self._launched is None else list(self._launched),
            configs=None if self._configs is None else list(self._configs),
            tolerance={str(k).removeprefix("torch."): v for k, v in self.tolerance.items()},
            budget_s=self.budget_s,
            seconds=time.perf_counter() - self._start,
            notes=notes,
            rewritten=copy.deepcopy(self._rewritten),
            diverges=copy.copy(self._diverged[0]) if self._diverged else None,
            diverges_note=self._diverged[1] if self._diverged else "",
        )

    # ------------------------------------------------------------------ the passes' own diff
    @staticmethod
    def _rewritten_upstream(state: _GraphState, output: int) -> list[RewrittenNode]:
        """The post-grad nodes the side's passes added or changed upstream of ``output``."""
        if state.post_grad is None:
            return []
        before, after, made_by = state.post_grad
        outputs = next(iter(after.find_nodes(op="output"))).args[0]
        # AOTAutograd's inference graph returns the graph's outputs as they are; where the
        # counts differ (mutated inputs returned too), every output's ancestry is searched
        index = output if len(_flatten(outputs)) == state.record.n_outputs else None
        try:
            found = rewritten_nodes(before, after, index, made_by)
        except Exception:  # noqa: BLE001 - the report stands without the diff
            return []
        return [_rewritten_record(item) for item in found]

    def _divergence(self, saved: _Saved) -> tuple[Divergence | None, str]:
        """The first post-grad node whose value the passes change beyond tolerance, and a note
        where there is none."""
        if saved.post_grad is None:
            return None, (
                "the side runs no post-grad passes: no graph without them to compare values with"
                if not (self.spec.passes or self.spec.kind == "magi")
                else "no post-grad graph was recorded for this graph"
            )
        before, after, _ = saved.post_grad
        current = _rng_state(saved.devices)

        def prepare() -> list[Any]:
            _set_rng_state(saved.devices, saved.rng)
            return strided_clone(saved.inputs)

        try:
            found = first_divergence(
                before,
                after,
                saved.inputs,
                lambda a, e: output_distance(a, e)[0],
                self.tolerance_for,
                prepare,
            )
        except Exception as error:  # noqa: BLE001 - reported; the cures still run
            return None, f"values not compared: {type(error).__name__}: {error}"[:300]
        finally:
            _set_rng_state(saved.devices, current)
        if found is None:
            return None, (
                "the post-grad graph with the passes computes the same values as without them "
                "(run eagerly): the fault is below the graph (Inductor's lowering or code)"
            )
        meta = found.pop("meta")
        found.update(meta_origin(meta))
        return Divergence(**found), ""

    # ------------------------------------------------------------------ cures
