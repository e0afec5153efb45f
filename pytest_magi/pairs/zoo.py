"""`ZooPair`: two compiled copies of one zoo model, the way users compile it, judged against a
reference run, timed, located and profiled like a `CompiledPair`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import torch

from ..models.zoo import ZooModel
from .protocol import Pair


# ------------------------------------------------------------------------------------ pairs
class ZooPair(Pair):
    """Two compiled copies of one zoo model, the way users compile it: ``baseline`` (plain
    ``torch.compile``) and ``candidate`` (``backend="magi"`` by default).

    The candidate's modules get frames of their own as `magi_compile` gives them
    (``candidate_isolate``, None: as its form says, ``CompileForm.frames``, else per
    instance; or ``"instance"``, ``"class"``, ``"root"``), and a magi candidate is compiled
    in the model's measured form as `magi_compile` compiles it (``candidate_form="auto"``,
    `magi_passes.forms`: the Wan decoder
    one static graph a chunk with contiguous inputs and its dynamo fix, and, where the pair
    builds the ``MagiBackend`` itself (``candidate="magi"``), the form's `PassConfig` fields);
    ``candidate_form=None`` compiles the generic form. ``candidate_dynamo_fixes`` (None: as the
    form says, else off) runs the candidate's calls with `magi_compile`'s dynamo fixes
    (`magi_passes.dynamo_fixes`). The baseline is compiled as users compile it. Timed by
    ``@pytest.mark.min_speedup`` like a ``CompiledPair`` (the ``zoo_pair`` fixture
    registers it), or directly with ``pytest_magi.timing.measure_pair(pair)``.
    ``candidate_backend`` is the ``MagiBackend`` when the candidate is magi: its managers say
    what each pass did to each graph (``pair.fired("conv_channels_last")``).
    A magi candidate compiles with Inductor's FX graph and AOTAutograd caches off (scoped to its
    compiles, as a ``CompiledPair``'s sides compile), so its passes run on every graph and
    ``fired``/``results`` see them whatever an earlier process left in the cache folder.

    Compile health per side, as for a ``CompiledPair``: ``pair.compile_stats[side]`` (graphs,
    frames, graph breaks, recompiles, frames that hit the recompile limit and ran eagerly, dims
    made dynamic automatically), ``pair.expect_compile(...)``, and the report's compile column.
    Each side's backend reports the graphs it compiles; the other counts are read while a call
    made through the pair runs (``pair.run(side)``, ``assert_close``, the first timed call), not
    during calls of ``pair.baseline.run()`` made directly. A string backend given with
    ``mode=``/``options=`` is left to ``torch.compile`` and its graphs are not counted (a note
    in the stats says so).
    """

    def __init__(
        self,
        model: ZooModel,
        *,
        baseline: Any = "inductor",
        candidate: Any = "magi",
        label: str | None = None,
        candidate_isolate: str | None = None,
        candidate_dynamo_fixes: bool | None = None,
        candidate_form: Any = "auto",
        **torch_compile_kwargs: Any,
    ) -> None:
        if not isinstance(model, ZooModel):
            raise TypeError(
                f"ZooPair(model={model!r}): expected a ZooModel from pytest_magi.zoo.load(...)"
            )
        if label is not None and not isinstance(label, str):
            raise TypeError(f"ZooPair(label={label!r}): expected a str or None")
        if candidate_dynamo_fixes is not None and not isinstance(candidate_dynamo_fixes, bool):
            raise TypeError(
                f"ZooPair(candidate_dynamo_fixes={candidate_dynamo_fixes!r}): expected True, "
                f"False or None; None (the default) does as the candidate's form says"
            )
        from magi_passes import MagiBackend
        from magi_passes.compile import forms

        is_magi = candidate == "magi" or isinstance(candidate, MagiBackend)
        # the model's measured form, as magi_compile picks it (a magi candidate only)
        form = forms.resolve("ZooPair", candidate_form, model.module, arg="candidate_form")
        form = form if is_magi else None
        if candidate == "magi":
            candidate = (
                MagiBackend(form.config(), form.backend_options())
                if form is not None
                else MagiBackend()
            )
        from ..capture.compile_stats import CompileStatsCollector

        self.model = model
        self.form = form
        # what each side compiles with, as given (``locate`` compiles a side again from it)
        self.side_backends = {"baseline": baseline, "candidate": candidate}
        settings = forms.options(
            form,
            dynamic=torch_compile_kwargs.get("dynamic"),
            dynamo_fixes=candidate_dynamo_fixes,
            contiguous_inputs=None,
            channels_last_parameters=None,
        )
        # the form's settings over the caller's torch.compile arguments (dynamic left to torch
        # where neither sets it)
        chosen = {k: v for k, v in settings.items() if v is not None}
        self.side_options: dict[str, dict[str, Any]] = {
            "baseline": {"isolate": "class", **torch_compile_kwargs},
            "candidate": {
                # the form's frames where the caller gives none, as magi_compile isolates them
                "isolate": candidate_isolate or (form.frames if form is not None else "instance"),
                **torch_compile_kwargs,
                **chosen,
            },
        }
        self.compile_kwargs = dict(torch_compile_kwargs)
        self.candidate_backend = candidate if hasattr(candidate, "managers") else None
        self._stats = {"baseline": CompileStatsCollector(), "candidate": CompileStatsCollector()}
        self._watched: set[str] = set()
        self.baseline = model.compile(
            backend=_counted(baseline, self._stats["baseline"], torch_compile_kwargs),
            **torch_compile_kwargs,
        )
        self.candidate = model.compile(
            backend=_counted(
                candidate,
                self._stats["candidate"],
                torch_compile_kwargs,
                caches_off=self.candidate_backend is not None,
            ),
            **self.side_options["candidate"],
        )
        self.label = label or f"{model.name}-{model.size}"
        self.device = str(model.device)
        # the last assert_close's outcome in one line (`numerics.numerics_summary`), None
        # before any: the report's numerics column beside the pair's speedup
        self.numerics: str | None = None

    def run(self, side: str) -> Any:
        """One call of ``side`` ("baseline" or "candidate") on the model's inputs, with what
        dynamo reports meanwhile counted in ``compile_stats[side]``."""
        from ..capture.sides import check_side_name

        check_side_name(side)
        with self._stats[side].watch():
            out = getattr(self, side).run()
        self._watched.add(side)
        return out

    def timing_callables(self) -> tuple[Callable[[], Any], Callable[[], Any]]:
        """Each side's call; a side's first call goes through ``run`` (it compiles), the timed
        ones call the compiled model directly (no bookkeeping per call)."""

        def side(name: str) -> Callable[[], Any]:
            model = getattr(self, name)

            def call() -> Any:
                return model.run() if name in self._watched else self.run(name)

            return call

        return side("baseline"), side("candidate")

    @property
    def compile_stats(self) -> dict[str, Any]:
        """``{side: pytest_magi.capture.compile_stats.CompileStats}`` of the calls made through the pair."""
        return {side: c.stats() for side, c in self._stats.items()}

    @property
    def compile_note(self) -> str | None:
        """A note when the candidate compiles more graphs than the baseline, or its magi
        backend compiled a graph again after one of torch's sympy failures."""
        from ..capture.compile_stats import compile_health_note

        backend = self.candidate_backend
        return compile_health_note(self.compile_stats, {"candidate": backend} if backend else {})

    def expect_compile(self, *, side: str = "both", **maximums: int) -> None:
        """Fail naming each count over its maximum, as ``CompiledPair.expect_compile``:
        ``pair.expect_compile(eager_fallbacks=0, automatic_dynamic=0, side="candidate")``."""
        from ..capture.compile_stats import check_maximums
        from ..capture.sides import check_side_name

        check_side_name(side, allow_both=True)
        check_maximums(self.compile_stats, maximums, self.label, owner="ZooPair", side=side)

    @property
    def decisions(self) -> dict[str, list[Any]]:
        """``{"candidate": [Decision, ...]}`` when the candidate is a ``MagiBackend``: how each
        graph's variant was chosen (``magi_passes.decisions``), for the compile-health table."""
        backend = self.candidate_backend
        decisions = getattr(backend, "decisions", None)
        return {"candidate": list(decisions)} if decisions is not None else {}

    def budget(self, profile: Any = "h200") -> Any:
        """Both sides' perf budgets on ``profile`` (`pytest_magi.budget.pairs.PairBudget`), from
        the CUDA code each side generates for the model's whole call, without running it: what
        ``--magi-estimate`` sets beside the measured speedup. The candidate's magi passes run
        with its backend's `PassConfig`, on one trace of the whole call."""
        from ..budget.pairs import zoo_pair_budget

        return zoo_pair_budget(self, profile)

    def fired(self, name: str) -> bool:
        """Whether the candidate's magi pass ``name`` applied to any graph compiled so far."""
        backend = self.candidate_backend
        return backend is not None and backend.fired(name)

    def results(self) -> list[Any]:
        """Every ``PassResult`` of every graph the candidate compiled, in order."""
        backend = self.candidate_backend
        return [r for m in backend.managers for r in m.results] if backend is not None else []

    def assert_close(self, reference: str | None = None, against: str = "eager") -> str:
        """Both sides against a reference run of the same model, by the rule of
        ``pytest_magi.numerics.judge_against_reference`` (docs/testing-a-pass.md).

        ``reference``: ``"eager"`` (the model itself), ``"fp32"`` or ``"fp64"`` (a copy cast
        to that dtype); default ``"fp32"`` for bf16/fp16 models and ``"eager"`` otherwise.
        ``against="eager"`` (default): each compiled side within ``max(2 x eager's distance,
        the dtype's floor)``; a failing candidate raises ``AssertionError``, a failing baseline
        beside a good candidate ``pytest_magi.numerics.BaselineMiscompiled``.
        ``against="baseline"``: the candidate's delta alone (within 2 x the baseline's distance).
        Returns the judgement text; a failure ends with the call that locates it.
        """
        from ..numerics.judgment import (
            REFERENCE_DTYPES,
            REFERENCES,
            assert_judged,
            check_against,
            numerics_summary,
            reference_outputs,
        )

        if reference is None:
            low = self.model.dtype in (torch.bfloat16, torch.float16)
            reference = "fp32" if low else "eager"
        if reference not in REFERENCES:
            raise ValueError(
                f"assert_close(reference={reference!r}): expected one of {list(REFERENCES)}"
            )
        check_against(against, "ZooPair.assert_close")
        base, cand = self.run("baseline"), self.run("candidate")
        dtype = REFERENCE_DTYPES.get(reference, self.model.dtype)
        eager = self.model.run()
        if dtype == self.model.dtype:
            ref, eager = eager, None
        else:  # a copy of the whole call cast to the reference dtype
            ref = reference_outputs(self.model.as_module(), self.model.inputs, dtype, True)
        judgment = assert_judged(
            base,
            cand,
            ref,
            reference,
            eager=eager,
            against=against,
            owner=f"ZooPair {self.label!r}",
            locate=self.locate,
            keep=lambda j: setattr(self, "numerics", numerics_summary(j, reference, against)),
        )
        return f"{self.label}: " + "; ".join(judgment.lines)

    def locate(
        self, side: str = "candidate", reference: str | None = "fp32", **options: Any
    ) -> Any:
        """Where ``side``'s numbers go wrong on this zoo model: a fresh copy compiled with that
        side's backend wrapped in a ``pytest_magi.numerics.locate_backend.LocatingBackend`` runs ``.run()`` once;
        each compiled graph is checked against the same FX graph run eagerly, and the first
        wrong graph is retried without each pass and with each Inductor setting.
        ``reference``: also judge the final output against a run at that precision (None: no).
        ``options``: ``settings``, ``fp32_rerun``, ``tolerance``, ``budget_s`` (docs/locate.md).
        """
        from ..capture.sides import check_side_name
        from ..numerics.locate import check_reference
        from ..numerics.locate_backend import LocatingBackend

        check_side_name(side)
        backend = self.side_backends[side]
        if side == "candidate" and self.candidate_backend is not None:
            from magi_passes import MagiBackend

            # a copy of the candidate's MagiBackend: the pair's own results stay as they are
            magi = self.candidate_backend
            backend = MagiBackend(magi.config, magi.inductor_config_patches)
        options = dict(options)
        patches = self.compile_kwargs.get("options")
        if isinstance(backend, str) and patches:
            options.setdefault("inductor_config", patches)
        locating = LocatingBackend(backend, label=f"{self.label} {side}", **options)
        # the side's own call options and static/dynamic choice; mode/options are the
        # locating backend's to apply
        again = {k: v for k, v in self.side_options[side].items() if k not in ("mode", "options")}
        compiled = self.model.compile(backend=locating, **again)
        out = compiled.run()
        del compiled
        report = locating.report()
        if reference is not None and self.model.dtype in (torch.bfloat16, torch.float16):
            report.reference = check_reference(
                self.model.as_module(), self.model.inputs, out, reference,
                eager_output=self.model.run(),
            )  # fmt: skip
        return report

    def profile(self, side: str = "candidate", **options: Any) -> Any:
        """Where ``side``'s GPU time goes on this zoo model: ``pytest_magi.measure.profiling.profile``
        of ``pair.<side>.run`` (a side not called yet compiles first, through ``run``, so its
        compile is counted). ``flops`` defaults to the model's (``model.flops()``, counted on a
        meta copy); other ``options`` as ``profile``'s (``rounds``, ``warmup``, ``peak_tflops``,
        ``hbm_gbps``, ``divide_by``, ``unit``, ``label``). Returns a ``ProfileReport``; needs a
        CUDA device."""
        from ..capture.sides import check_side_name
        from ..measure.profiling import profile, require_cuda

        check_side_name(side)
        require_cuda("ZooPair.profile()")
        if side not in self._watched:
            self.run(side)
        options.setdefault("label", f"{self.label} {side}")
        if options.get("flops") is None:
            options["flops"] = self.model.flops()
        return profile(getattr(self, side).run, **options)

    def __repr__(self) -> str:
        return f"ZooPair({self.label!r}, device={self.device!r})"


class _CountedBackend:
    """A side's dynamo backend that reports each graph it compiles to the side's collector.

    ``caches_off``: each compile runs with Inductor's FX graph cache and the AOTAutograd cache
    off (scoped to the call), as a ``CompiledPair``'s sides compile, so a magi candidate's passes
    really run: a graph served from those caches runs no pass, and ``pair.fired(name)`` and
    ``pair.results()`` would not see what the passes did to it (a Wan decode compiled by an
    earlier process in the same cache folder read as "conv_channels_last never fired")."""

    def __init__(
        self, backend: Callable[..., Any], collector: Any, name: str, caches_off: bool = False
    ) -> None:
        self.backend = backend
        self.collector = collector
        self.name = name
        self.caches_off = caches_off

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Any, **kwargs: Any) -> Any:
        self.collector.on_compile()
        if not self.caches_off:
            return self.backend(gm, example_inputs, **kwargs)
        from ..capture.core import graph_caches_off

        with graph_caches_off():
            return self.backend(gm, example_inputs, **kwargs)

    def __repr__(self) -> str:
        return self.name


def _counted(
    backend: Any, collector: Any, compile_kwargs: Mapping[str, Any], caches_off: bool = False
) -> Any:
    if isinstance(backend, str):
        if "mode" in compile_kwargs or "options" in compile_kwargs:
            # torch.compile applies mode/options itself only for a backend given by name
            collector.note(f"graphs of backend {backend!r} with mode/options are not counted")
            return backend
        from torch._dynamo import lookup_backend

        return _CountedBackend(lookup_backend(backend), collector, repr(backend), caches_off)
    return _CountedBackend(backend, collector, repr(backend), caches_off)
