"""`MagiBackend`: the dynamo backend that compiles each graph with the magi passes.

`torch.compile(model, backend="magi")` runs Inductor with a `PassManager` installed as
`post_grad_custom_post_pass`. Every Inductor config key a pass declares in
`mutates_inductor_config` is snapshotted into the compile's own `config_patches`; `compile_fx`
applies those patches around the forward compilation *and* wraps its inner compiler with them, so
a backward graph that AOTAutograd compiles lazily at the first `.backward()` is patched and
restored the same way. No pass leaks config into the process, and two compiles with different
`PassConfig`s do not influence each other (each gets its own `PassManager`, whose `uuid()` keys
Inductor's FX graph cache).

Options (`torch.compile(m, backend="magi", options={...})`): `PassConfig` field names
(`{"enable_nd_tiling": False}`), `"pass_config": PassConfig(...)`, and any Inductor config key,
which is passed to Inductor as a patch. Without options the config comes from
`PassConfig.from_env()`. Where a measured pass would change a graph on a CUDA device, the
backend compiles and times both variants and keeps the faster (`magi_passes.decisions`).
"""

from __future__ import annotations

import dataclasses
import os
import time
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import torch
from torch._inductor import config as inductor_config

from .. import _validate
from ..config import ENV_PREFIX, PassConfig, check_pass_config
from ..fx.predicates import is_dynamic
from ..passes.channels_last import fires_on
from .decision_files import load_artifacts
from .decisions import (
    Decider,
    Decision,
    carries,
    decision_family,
    decision_key,
    mutates_inputs,
    shared_decision,
)
from .gates import _has_conv3d, _measured_passes_cannot_fire, conv_prior
from .manager import PassManager
from .options import compile_scope, config_snapshot, split_options
from .stack_room import call_with_stack_room
from .sympy_retry import compile_working_around, truncating_to_now
from .variants import (
    _annotate,
    _check_one_device,
    _Compiled,
    _device_name,
    _graph_copy,
    _measured_passes_applied,
    _plain_config,
    same_code,
)
from .weights import (
    _convert_example_weights,
    _eager_output_formats,
    _hoistable_conv_weights,
    _with_converted_weights,
)
from .workers import BACKGROUND_MIN_WAIT_S, BackgroundWorker, input_of, warm_compile_workers

# decision cache folder -> the families' timed evidence (`MagiBackend.families`) of every
# backend of the process that decides into it: ``backend="magi"`` makes a backend per graph,
# and a model compiled block by block makes one per block
_SHARED_EVIDENCE: dict[str, dict[str, Decision]] = {}

SECONDS_KEYS = (
    "compile",
    "compile_discarded",
    "measure",
    "compile_failed_tries",
    "background",
    "calls",
)


def _env_key() -> tuple[tuple[str, str], ...]:
    """The `MAGI_PASSES__*` variables set now: what `PassConfig.from_env()` reads."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith(ENV_PREFIX)))


class MagiBackend:
    """A dynamo backend bound to one `PassConfig`; keeps the `PassManager` of each compiled graph.

    `torch.compile(m, backend=MagiBackend(PassConfig(enable_nd_tiling=False)))`; afterwards
    `backend.managers[-1].results` says what each pass did, and `backend.decisions[i]` how the
    i-th graph's variant was chosen (`magi_passes.decisions`: measured, cached or static).
    `decider` sets how graphs are measured (timer, margin, rounds, cache folder).
    """

    def __init__(
        self,
        config: PassConfig | None = None,
        inductor_config_patches: dict[str, Any] | None = None,
        *,
        decider: Decider | None = None,
    ) -> None:
        config = check_pass_config("MagiBackend", config)
        patches = _validate.check_optional_mapping(
            "MagiBackend",
            "inductor_config_patches",
            inductor_config_patches,
            "{'enable_nd_tiling': False, 'triton.max_tiles': 2}",
        )
        # names, types; a PassConfig given twice: checked once, the split kept for every graph
        # compiled without options of its own (keyed by the MAGI_PASSES__ variables it read)
        self._split = (_env_key(), split_options(patches, config))
        if decider is not None and not isinstance(decider, Decider):
            _validate.fail(
                TypeError,
                "MagiBackend",
                "decider",
                decider,
                "a magi_passes.decisions.Decider or None",
                "MagiBackend(decider=Decider(margin=0.05))",
            )
        self.config = config
        self.inductor_config_patches = dict(inductor_config_patches or {})
        self.decider = decider
        self.managers: list[PassManager] = []
        self.decisions: list[Decision] = []
        # managers of variants compiled for a measurement and not chosen (their code never runs)
        self.discarded: list[PassManager] = []
        self.hoisted_weights: list[int] = []
        # where this backend's compile time went, in seconds (`seconds_text()` reads it):
        # "compile" every variant that runs, "compile_discarded" the variants compiled only to
        # be timed and dropped, "measure" the timing of the two variants, "compile_failed_tries"
        # the part of "compile" and "compile_discarded" spent in first tries that raised one of
        # torch's sympy failures and were compiled again (`compile_working_around`),
        # "background" the wait for plain variants compiled in a process of their own, "calls"
        # the backend's calls as a whole (the rest of them is its own work: `own_seconds`)
        self.seconds: dict[str, float] = dict.fromkeys(SECONDS_KEYS, 0.0)
        # the bug (`workarounds.sympy_failure`) of each graph compiled again after a failed try
        self.retried: list[str] = []
        # family (`decisions.decision_family`) -> the timed decision that decides its other
        # members, under PassConfig.share_decisions_across_shapes; close calls are not kept;
        # a decider with a cache keeps them with its folder's instead (`_SHARED_EVIDENCE`)
        self.families: dict[str, Decision] = {}
        # the devices of the graphs decided by a measurement (timed, cached or shared)
        self.measured_devices: set[str] = set()
        # under PassConfig.compile_plain_in_background: per plain variant compiled in a process
        # of its own, "" where it compiled, else why not (the variant compiled here regardless)
        self.background: list[str] = []
        self.background_worker: BackgroundWorker | None = None
        # Inductor's compile workers, started now where CUDA is in use, else at the first graph
        self.workers_started = warm_compile_workers(self.inductor_config_patches)
        effective = self._split[1][0]  # the MAGI_PASSES__ variables applied
        if effective.compile_plain_in_background and effective.measure_decisions:
            self._worker().start()  # its imports overlap this one's and dynamo's tracing
        # Inductor itself, imported now as torch.compile's own backend is when made (seconds in
        # a fresh process), so that the first graph's call holds its compile and decision only
        import torch._inductor.compile_fx  # noqa: F401

        # a team's compile artifacts ($MAGI_ARTIFACTS_FILE) in torch's caches before any graph:
        # the files this backend loaded (one an earlier backend of the process loaded is not)
        self.artifacts_loaded = load_artifacts()

    @classmethod
    def merged(cls, backends: Sequence[MagiBackend]) -> MagiBackend:
        """A read-only record of several backends together (a model compiled block by block,
        each block with its own): their graphs' managers, decisions, discarded variants and
        seconds, for `seconds_text`, `fired`, `count` and `unseen`. It compiles nothing."""
        view = cls.__new__(cls)
        view.seconds = {k: sum(b.seconds[k] for b in backends) for k in SECONDS_KEYS}
        lists = ("managers", "decisions", "discarded", "hoisted_weights", "retried", "background")
        for name in lists:
            setattr(view, name, [item for b in backends for item in getattr(b, name)])
        return view

    def _worker(self) -> BackgroundWorker:
        if self.background_worker is None:
            self.background_worker = BackgroundWorker()
            # the process ends with the backend (an idle one holds memory, on a GPU a context)
            weakref.finalize(self, self.background_worker.stop)
        return self.background_worker

    @property
    def results(self) -> list[Any]:
        return self.managers[-1].results if self.managers else []

    def fired(self, name: str) -> bool:
        """Whether the pass `name` applied to any graph that runs. A graph Inductor's FX graph
        cache served ran no pass, so it counts as not fired: see `unseen`."""
        return any(m.fired(name) for m in self.managers)

    def count(self, name: str, key: str) -> int:
        """The sum of the pass `name`'s count `key` over every graph that runs
        (``backend.count("conv_channels_last", "pads_into_cat")``); 0 where it has none. Graphs
        the FX graph cache served are not counted (see `unseen`)."""
        return sum(
            int((r.counts or {}).get(key, 0))
            for m in self.managers
            for r in m.results
            if r.name == name
        )

    @property
    def unseen(self) -> int:
        """How many of the graphs that run no pass saw: Inductor's FX graph cache served them
        (compiled by an earlier process with the same passes), so what the passes did to them is
        not known here. ``torch._inductor.config.fx_graph_cache = False`` (scoped) makes every
        pass run; a ``ZooPair``'s magi candidate and a ``CompiledPair`` compile that way."""
        return sum(1 for m in self.managers if not m.history)

    def seconds_text(self) -> str:
        """Where the compile time went, e.g. "compile 61.2 s (40 graphs), decisions 48.0 s:
        discarded variants 39.5 s (12), timing 8.5 s (12 measured, 9 cached); kept plain 1 of
        21 decided; the backend's own work 0.4 s" (decided: measured, cached or shared across
        shapes; the rest kept magi; own work: `own_seconds`)."""
        sources = [d.source for d in self.decisions]
        measured, cached = sources.count("measured"), sources.count("cached")
        shared = sources.count("shared")
        plain = sum(1 for d in self.decisions if d.source != "static" and d.choice == "plain")
        decisions = self.seconds["compile_discarded"] + self.seconds["measure"]
        return (
            f"compile {self.seconds['compile']:.1f} s ({len(self.managers)} graphs), decisions "
            f"{decisions:.1f} s: discarded variants {self.seconds['compile_discarded']:.1f} s "
            f"({len(self.discarded)}), timing {self.seconds['measure']:.1f} s ({measured} "
            f"measured, {cached} cached{f', {shared} shared' if shared else ''}); kept plain "
            f"{plain} of {measured + cached + shared} decided; the backend's own work "
            f"{self.own_seconds():.1f} s"
            + (f"; {self.retried_text()}" if self.retried else "")
            + (f"; {self.background_text()}" if self.background else "")
        )

    def background_text(self) -> str:
        """The plain variants compiled in processes of their own, e.g. "3 plain variants
        compiled in the background, waited 4.1 s" (with the reasons of those that failed)."""
        failed = [why for why in self.background if why]
        done = len(self.background) - len(failed)
        return (
            f"{done} of {len(self.background)} plain variants compiled in the background, "
            f"waited {self.seconds['background']:.1f} s"
            + (f" ({'; '.join(sorted(set(failed)))})" if failed else "")
        )

    def retried_text(self) -> str:
        """The graphs compiled again after a first try that raised one of torch's sympy
        failures, e.g. "1 graph compiled again after an Inductor bug (index variable without a
        range), its failed try 17.2 s (...)"; "" where every graph compiled at its first try."""
        if not self.retried:
            return ""
        graphs = f"{len(self.retried)} graph{'s' if len(self.retried) > 1 else ''}"
        bugs = ", ".join(sorted(set(self.retried)))
        tries = "its failed try" if len(self.retried) == 1 else "their failed tries"
        return (
            f"{graphs} compiled again after an Inductor bug ({bugs}), {tries} "
            f"{self.seconds['compile_failed_tries']:.1f} s "
            f"(PassConfig(work_around_sympy_first=True) compiles without them)"
        )

    def own_seconds(self) -> float:
        """The seconds of the backend's calls outside its variants' compiles, their timing and
        the wait for background compiles: the decision's keys, caches and bookkeeping."""
        parts = ("compile", "compile_discarded", "measure", "background")
        return max(0.0, self.seconds["calls"] - sum(self.seconds[k] for k in parts))

    def __call__(
        self,
        gm: torch.fx.GraphModule,
        example_inputs: Sequence[Any],
        *,
        options: dict[str, Any] | None = None,
        mode: str | None = None,
    ) -> Callable[..., Any]:
        started = time.perf_counter()
        try:
            return self._variant_for(gm, example_inputs, options, mode)
        finally:
            self.seconds["calls"] += time.perf_counter() - started

    def _variant_for(
        self,
        gm: torch.fx.GraphModule,
        example_inputs: Sequence[Any],
        options: dict[str, Any] | None,
        mode: str | None,
    ) -> Callable[..., Any]:
        """`__call__`'s work: the variant that runs ``gm``, measured or decided statically."""
        if mode not in (None, "default"):
            raise ValueError(
                f"the magi backend takes no mode (got mode={mode!r}); pass Inductor settings "
                f"through options={{...}} instead"
            )
        _check_one_device(example_inputs)
        pass_config, extra = self._options(options)
        if not self.workers_started:
            self.workers_started = warm_compile_workers(extra)
        inputs = list(example_inputs)
        plain_config = _plain_config(pass_config)
        if plain_config is None or not pass_config.measure_decisions:
            why = "no measured pass is on" if plain_config is None else "measuring is off"
            return self._keep(self._compile(gm, inputs, pass_config, extra), why)
        decider = self.decider if self.decider is not None else Decider()
        device_name = _device_name(inputs)
        # a decision recorded for this device holds where no timing could be taken (CUDA graphs
        # on, fake CUDA), so the graph is what a measurement there kept; not for training
        # graphs, whose backward no recorded forward timing saw
        if not decider.training(inputs):
            known = pass_config.decided_for(device_name)
            if known is not None:
                why = (
                    f"decided on this device: {device_name} matches {known!r} of PassConfig."
                    f"decided_on={pass_config.decided_on!r}, where a measurement kept magi"
                )
                return self._keep(self._compile(gm, inputs, pass_config, extra), why)
            known_plain = pass_config.decided_plain_for(device_name)
            if known_plain is not None:
                why = (
                    f"decided plain on this device: {device_name} matches {known_plain!r} of "
                    f"PassConfig.decided_plain_on={pass_config.decided_plain_on!r}, where a "
                    f"measurement kept plain Inductor"
                )
                return self._keep(self._compile(gm, inputs, plain_config, extra), why, "plain")
        cudagraphs = extra.get("triton.cudagraphs", inductor_config.triton.cudagraphs)
        blocked = decider.blocked(inputs, {"triton.cudagraphs": cudagraphs})
        if blocked is not None:
            return self._keep(self._compile(gm, inputs, pass_config, extra), blocked)
        inert = _measured_passes_cannot_fire(gm, pass_config)
        if inert is not None:
            return self._keep(self._compile(gm, inputs, pass_config, extra), inert)
        if is_dynamic(gm.graph):
            # measured on the GPU (docs/reliability.md): compiling and timing a second, plain
            # variant of a graph with sizes marked dynamic specialised them (dynamo raised
            # ConstraintViolationError on VAEDecoderLike and the Wan block at 540p), and one
            # size's timing would not decide for every size the graph serves anyway
            why = "dynamic shapes: the static rules decide (one size's timing is not every size's)"
            return self._keep(self._compile(gm, inputs, pass_config, extra), why)
        manager = PassManager.chained_with_current(pass_config)
        key = decision_key(
            gm,
            inputs,
            device_name=device_name,
            torch_version=str(torch.__version__),
            passes_uuid=manager.uuid(),
        )
        family = (
            decision_family(
                gm,
                inputs,
                device_name=device_name,
                torch_version=str(torch.__version__),
                passes_uuid=manager.uuid(),
            )
            if pass_config.share_decisions_across_shapes
            else None
        )
        self.measured_devices.add(device_name)
        cached = decider.cache.load(key) if decider.cache is not None else None
        if cached is not None:
            config = pass_config if cached.choice == "magi" else plain_config
            variant = self._compile(gm, inputs, config, extra)
            self._evidence(decider, family, cached)
            return self._chosen(variant, dataclasses.replace(cached, source="cached"))
        evidence = self._family_evidence(decider, family)
        if evidence is not None:
            config = pass_config if evidence.choice == "magi" else plain_config
            variant = self._compile(gm, inputs, config, extra)
            return self._chosen(variant, shared_decision(evidence, key))
        background = (
            self._worker().submit(gm, inputs, plain_config, extra)
            if pass_config.compile_plain_in_background and _caches_on(extra)
            else None
        )
        try:
            magi = self._compile(_graph_copy(gm), inputs, pass_config, extra)
        except BaseException:
            if background is not None:
                background.cancel()
            raise
        changed = _measured_passes_applied(magi.manager)
        if magi.manager.history and not changed:
            if background is not None:
                background.cancel()
            return self._keep(magi, "no measured pass changed this graph")
        if pass_config.conv_prior and "conv_channels_last" in changed:
            started = time.perf_counter()
            prior = conv_prior(gm, decider.timer, margin=decider.margin, key=key, passes=changed)
            self.seconds["measure"] += time.perf_counter() - started
            if prior is not None:
                if background is not None:
                    background.cancel()
                if decider.cache is not None:
                    decider.cache.store(prior)
                return self._chosen(magi, prior)
        # (no history: Inductor's FX graph cache served the graph without running the passes,
        # so whether one changes it is unknown; measure)
        if background is not None:
            waited = time.perf_counter()
            bound = max(magi.seconds, BACKGROUND_MIN_WAIT_S)  # then compiled here instead
            self.background.append(background.wait(bound))
            self.seconds["background"] += time.perf_counter() - waited
        plain = self._compile(gm, inputs, plain_config, extra)
        if same_code(magi.fn, plain.fn):  # nothing to time: keep the variant without the passes
            self._discard(magi)
            why = "both variants generate the same code: nothing to time"
            return self._chosen(plain, Decision("plain", "static", why, passes=tuple(changed)))
        started = time.perf_counter()
        try:
            magi_ms, plain_ms, rounds = decider.measure(
                magi.fn, plain.fn, inputs, copy=mutates_inputs(gm)
            )
        except Exception as exc:  # a graph that cannot run twice on its inputs, say
            self._discard(plain)
            warnings.warn(
                f"magi backend: timing the graph's two variants failed ({type(exc).__name__}: "
                f"{exc}); the static rules decide for this graph",
                RuntimeWarning,
                stacklevel=2,
            )
            return self._keep(magi, f"timing failed ({type(exc).__name__})")
        finally:
            self.seconds["measure"] += time.perf_counter() - started
        decision = decider.decide(magi_ms, plain_ms, key=key, passes=changed, rounds=rounds)
        if decider.cache is not None:
            decider.cache.store(decision)
        self._evidence(decider, family, decision)
        kept, dropped = (magi, plain) if decision.choice == "magi" else (plain, magi)
        self._discard(dropped)
        return self._chosen(kept, decision)

    def _evidence(self, decider: Decider, family: str | None, decision: Decision) -> None:
        """Keep a timed decision whose gap `carries` for the other graphs of its family."""
        if family is not None and carries(decision):
            self._families(decider).setdefault(family, decision)

    def _family_evidence(self, decider: Decider, family: str | None) -> Decision | None:
        """The timed decision that decides ``family``'s other members (`_evidence`), if any."""
        return self._families(decider).get(family) if family is not None else None

    def _families(self, decider: Decider) -> dict[str, Decision]:
        """Where the evidence of ``decider``'s graphs is kept: with the process's other backends
        of its decision cache folder, or in this backend's `families` where it has no cache."""
        if decider.cache is None:
            return self.families
        return _SHARED_EVIDENCE.setdefault(str(decider.cache.directory), {})

    def _options(self, options: dict[str, Any] | None) -> tuple[PassConfig, dict[str, Any]]:
        """The `PassConfig` and Inductor patches of a graph compiled with ``options``: the split
        made when the backend was, unless the call brings options or the environment changed."""
        if not options:
            key = _env_key()
            if self._split[0] != key:
                self._split = (key, split_options(self.inductor_config_patches, self.config))
            return self._split[1][0], dict(self._split[1][1])
        return split_options({**self.inductor_config_patches, **options}, self.config)

    def _discard(self, variant: _Compiled) -> None:
        """A variant compiled only to be timed: its manager is kept apart, its seconds too."""
        self.discarded.append(variant.manager)
        self.seconds["compile"] -= variant.seconds
        self.seconds["compile_discarded"] += variant.seconds

    def _compile(
        self,
        gm: torch.fx.GraphModule,
        inputs: list[Any],
        pass_config: PassConfig,
        extra: dict[str, Any],
    ) -> _Compiled:
        """Compile one variant: `gm` with the passes of `pass_config`."""
        from torch._inductor.compile_fx import compile_fx

        started = time.perf_counter()
        manager = PassManager.chained_with_current(pass_config)
        patches = {**config_snapshot(manager), **extra, "post_grad_custom_post_pass": manager}
        inputs = list(inputs)
        hoisted: dict[int, torch.memory_format] = {}
        if pass_config.channels_last_weights_once and fires_on(pass_config, _has_conv3d(gm)):
            hoisted = _hoistable_conv_weights(gm, inputs)
            _convert_example_weights(gm, inputs, hoisted)
        with compile_scope(manager):
            compiled: Any = compile_working_around(
                lambda: call_with_stack_room(
                    lambda: compile_fx(gm, inputs, config_patches=patches),
                    pass_config.compile_on_fresh_stack,
                ),
                pass_config.work_around_inductor_bugs,
                # a failed try's pass records are not the graph's
                before_retry=truncating_to_now(manager.history, manager.graphs),
                on_retry=lambda bug: self._failed_try(bug, time.perf_counter() - started),
                first_in_scopes=pass_config.work_around_sympy_first,
            )
        if hoisted:
            compiled = _with_converted_weights(compiled, hoisted, _eager_output_formats(gm))
        seconds = time.perf_counter() - started
        self.seconds["compile"] += seconds
        return _Compiled(compiled, manager, len(hoisted), seconds)

    def _failed_try(self, bug: str, seconds: float) -> None:
        """A graph's first try raised one of torch's sympy failures (``bug``) after ``seconds``."""
        self.retried.append(bug)
        self.seconds["compile_failed_tries"] += seconds

    def _keep(self, variant: _Compiled, why: str, choice: str = "magi") -> Callable[..., Any]:
        """The passes' static rules decided, or a recorded decision (`why`: why nothing was
        measured; `choice`: the variant compiled, "plain" with the measured passes off)."""
        changed = _measured_passes_applied(variant.manager)
        decision = Decision(choice=choice, source="static", reason=why, passes=tuple(changed))
        return self._chosen(variant, decision)

    def _chosen(self, variant: _Compiled, decision: Decision) -> Callable[..., Any]:
        """Record the variant that runs (one entry per graph in managers, decisions and
        hoisted_weights; a variant compiled only to be timed is in `discarded`)."""
        self.managers.append(variant.manager)
        self.decisions.append(decision)
        self.hoisted_weights.append(variant.hoisted)
        _annotate(variant.manager, decision)
        return variant.fn


def _caches_on(extra: dict[str, Any]) -> bool:
    """Whether a variant compiled with ``extra`` reads Inductor's FX graph cache (what a
    background compile warms)."""
    if extra.get("force_disable_caches", inductor_config.force_disable_caches):
        return False
    return bool(extra.get("fx_graph_cache", inductor_config.fx_graph_cache))


def _compile_background_job(path: str) -> None:
    """One job of the process a `workers.BackgroundWorker` runs: compile the job's graph as the
    backend compiles a variant, in a tracing context like dynamo's (static shapes), on fake
    copies of its inputs, with dynamo's placeholder metadata put back (Inductor's FX graph
    cache key reads it), so that the key agrees with the parent's."""
    import pickle
    from pathlib import Path

    from torch._guards import TracingContext, tracing
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    job = pickle.loads(Path(path).read_bytes())
    os.environ.update(job["caches"])  # the sender's Inductor and Triton cache folders
    gm = job["gm"]
    if job["param_name_to_source"] is not None:
        gm._param_name_to_source = job["param_name_to_source"]
        gm.meta["dynamo_compile_id"] = job["compile_id"]
        for node, (source, static) in zip(
            gm.graph.find_nodes(op="placeholder"), job["placeholders"], strict=True
        ):
            node._dynamo_source = source
            if static:
                node.meta["tensor_dict"] = {"_dynamo_static_input_type": static}
    torch.set_grad_enabled(job["grad"])
    fake_mode = FakeTensorMode(shape_env=ShapeEnv(), static_shapes=True)
    with tracing(TracingContext(fake_mode)):
        fakes = []
        for spec in job["inputs"]:
            fake = fake_mode.from_tensor(input_of(spec), static_shapes=True)
            if spec[-1]:  # dynamo's mark on a parameter (an attribute of its own)
                fake._dynamo_static_input_type = spec[-1]  # type: ignore[attr-defined]
            fakes.append(fake)
        # a backend of its own only to compile with (no worker of its own: the job's config
        # still asks for one); the variant's passes are the job's
        backend = MagiBackend(job["pass_config"].replace(compile_plain_in_background=False))
        backend._compile(gm, fakes, job["pass_config"], job["patches"])


def _serve() -> None:
    """`BackgroundWorker`'s process: "ready" on stdout once Inductor is imported, then one job
    path a line on stdin, "ok" or the error a line on stdout; it ends when stdin closes."""
    import sys

    import torch._inductor.compile_fx  # noqa: F401  (the import a first job would wait for)

    # the answers get stdout's descriptor; whatever else writes to stdout goes to stderr
    channel = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    print("ready", file=channel, flush=True)
    for line in sys.stdin:
        try:
            _compile_background_job(line.strip())
        except Exception as exc:
            text = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            print(f"failed ({text})", file=channel, flush=True)
        else:
            print("ok", file=channel, flush=True)


if __name__ == "__main__":
    _serve()
