"""The `"magi"` dynamo backend, `inductor_options()` and `magi_compile()`.

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
`PassConfig.from_env()`.

Weights converted once (opt-in, `PassConfig.channels_last_weights_once`): in inference (grad
disabled while dynamo traced, or weights that do not require grad) conv weights that reach a graph
the channels-last rewrite fires on are converted outside the compiled graph, once per weight
version (`tensor._version`, storage pointer), and the compiled graph receives the converted copy,
so no per-call weight re-layout kernel exists. The cost is one extra copy of those weights in
memory, and `.data` in-place updates are not seen (see `PassConfig`). By default the weights'
clones stay in the graph: a copy per call, bandwidth-bound and tiled (the Wan 2.2 decode runs
1.63x over torch.compile with them, its output correct; docs/benchmarks.md).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import re
import time
import warnings
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import torch
from torch._inductor import config as inductor_config

from . import _validate
from .base import PassResult, get_inductor_config_value
from .channels_last import channels_last_format, fires_on
from .collector import full_collections_deferred
from .config import PassConfig
from .decisions import Decider, Decision, decision_key, mutates_inputs
from .index_min_max import torch_index_min_max
from .kernel_configs import group_norm_kernel_configs
from .manager import PASS_ORDER, PassManager
from .predicates import is_dynamic
from .stack_room import call_with_stack_room
from .workarounds import compile_working_around, truncating_to_now

SECONDS_KEYS = ("compile", "compile_discarded", "measure", "compile_failed_tries")

_CONV_FUNCTIONS = {
    torch.conv2d: 1,
    torch.conv3d: 1,
    torch.nn.functional.conv2d: 1,
    torch.nn.functional.conv3d: 1,
}


def _split_options(
    options: dict[str, Any] | None, config: PassConfig | None
) -> tuple[PassConfig, dict[str, Any]]:
    options = dict(options or {})
    base = options.pop("pass_config", None)
    if base is not None and not isinstance(base, PassConfig):
        raise TypeError(
            f"magi backend option 'pass_config' must be a magi_passes.PassConfig, got {base!r}"
        )
    if base is not None and config is not None:
        raise ValueError("give the PassConfig once: either config=... or options['pass_config']")
    base = base or config or PassConfig.from_env()
    field_names = set(PassConfig.field_names())
    pass_fields = {k: options.pop(k) for k in list(options) if k in field_names}
    known = inductor_config.get_config_copy()
    for key in options:
        if key.replace("-", "_") not in known:
            import difflib

            close = difflib.get_close_matches(key, list(known) + sorted(field_names), n=3)
            raise ValueError(
                f"unknown magi backend option {key!r}: neither a PassConfig field "
                f"({', '.join(sorted(field_names))}) nor a torch._inductor.config key"
                + (f"; did you mean {', '.join(close)}?" if close else "")
            )
    return (base.replace(**pass_fields) if pass_fields else base), options


def config_snapshot(manager: PassManager) -> dict[str, Any]:
    """Current values of every key the manager's passes may change, for `config.patch`."""
    return {key: get_inductor_config_value(key) for key in manager.mutates_inductor_config}


@contextlib.contextmanager
def compile_scope(manager: PassManager | None) -> Iterator[None]:
    """What each graph's compile with `manager`'s passes runs inside, in the magi backend and in
    `pytest_magi.inductor_codegen(config=...)`: the fixed Triton configs of the GroupNorm
    rewrite's kernels (`magi_passes.kernel_configs`) and torch's Min / Max in Inductor's index
    propagation (`magi_passes.index_min_max`, `PassConfig.torch_index_min_max`), and Python's
    full garbage collections held off (`magi_passes.collector`,
    `PassConfig.defer_full_collections`). ``None``: a plain compile, nothing changed."""
    config = getattr(manager, "config", None)
    min_max = config is not None and config.torch_index_min_max
    defer = config is not None and config.defer_full_collections
    with (
        group_norm_kernel_configs(manager),
        torch_index_min_max(min_max),
        full_collections_deferred(defer),
    ):
        yield


def inductor_options(config: PassConfig | None = None, **inductor_patches: Any) -> dict[str, Any]:
    """Options for users who keep `backend="inductor"`: `torch.compile(m, options=inductor_options())`.

    The dict installs a fresh `PassManager` (chaining an already-installed user pass) and pins the
    passes' declared config keys to their current values, so Inductor restores them after each
    compilation. The values are those at the time of this call. Where a GPU is present, the call
    also starts Inductor's compile workers (`warm_compile_workers`), as the magi backend does.
    """
    config = _validate.check_pass_config("inductor_options", config)
    _validate.check_inductor_keys("inductor_options", inductor_patches)
    warm_compile_workers(inductor_patches)
    manager = PassManager.chained_with_current(
        config if config is not None else PassConfig.from_env()
    )
    return {
        **config_snapshot(manager),
        **inductor_patches,
        "post_grad_custom_post_pass": manager,
    }


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
        config = _validate.check_pass_config("MagiBackend", config)
        patches = _validate.check_optional_mapping(
            "MagiBackend",
            "inductor_config_patches",
            inductor_config_patches,
            "{'enable_nd_tiling': False, 'triton.max_tiles': 2}",
        )
        _split_options(patches, config)  # names, types; a PassConfig given twice
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
        # torch's sympy failures and were compiled again (`compile_working_around`)
        self.seconds: dict[str, float] = dict.fromkeys(SECONDS_KEYS, 0.0)
        # the bug (`workarounds.sympy_failure`) of each graph compiled again after a failed try
        self.retried: list[str] = []
        # Inductor's compile workers, started now where CUDA is in use, else at the first graph
        self.workers_started = warm_compile_workers(self.inductor_config_patches)

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
        21 decided" (decided: measured or cached; the rest kept magi)."""
        sources = [d.source for d in self.decisions]
        measured, cached = sources.count("measured"), sources.count("cached")
        plain = sum(1 for d in self.decisions if d.source != "static" and d.choice == "plain")
        decisions = self.seconds["compile_discarded"] + self.seconds["measure"]
        return (
            f"compile {self.seconds['compile']:.1f} s ({len(self.managers)} graphs), decisions "
            f"{decisions:.1f} s: discarded variants {self.seconds['compile_discarded']:.1f} s "
            f"({len(self.discarded)}), timing {self.seconds['measure']:.1f} s ({measured} "
            f"measured, {cached} cached); kept plain {plain} of {measured + cached} decided"
            + (f"; {self.retried_text()}" if self.retried else "")
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

    def __call__(
        self,
        gm: torch.fx.GraphModule,
        example_inputs: Sequence[Any],
        *,
        options: dict[str, Any] | None = None,
        mode: str | None = None,
    ) -> Callable[..., Any]:
        if mode not in (None, "default"):
            raise ValueError(
                f"the magi backend takes no mode (got mode={mode!r}); pass Inductor settings "
                f"through options={{...}} instead"
            )
        _check_one_device(example_inputs)
        pass_config, extra = _split_options(
            {**self.inductor_config_patches, **(options or {})}, self.config
        )
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
        cached = decider.cache.load(key) if decider.cache is not None else None
        if cached is not None:
            config = pass_config if cached.choice == "magi" else plain_config
            variant = self._compile(gm, inputs, config, extra)
            return self._chosen(variant, dataclasses.replace(cached, source="cached"))
        magi = self._compile(_graph_copy(gm), inputs, pass_config, extra)
        changed = _measured_passes_applied(magi.manager)
        if magi.manager.history and not changed:
            return self._keep(magi, "no measured pass changed this graph")
        # (no history: Inductor's FX graph cache served the graph without running the passes,
        # so whether one changes it is unknown; measure)
        plain = self._compile(gm, inputs, plain_config, extra)
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
        kept, dropped = (magi, plain) if decision.choice == "magi" else (plain, magi)
        self._discard(dropped)
        return self._chosen(kept, decision)

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


def warm_compile_workers(inductor_patches: Mapping[str, Any] | None = None) -> bool:
    """Start Inductor's Triton compile workers now, where CUDA is in use; True if asked.

    torch's own registered ``"inductor"`` backend starts them when dynamo looks it up, but
    ``torch.compile(model)`` with its default backend, and a backend that calls ``compile_fx``
    itself, start them only when Inductor is entered, after dynamo has traced. Until the workers
    answer, Inductor compiles each Triton kernel in the process, one after another, while the
    generated module loads: a short compile reaches its kernels first (ResNet-50 cold on an
    H200: module load 2.2-4.7 s on the side whose workers came up late, against 0.7-1.2 s,
    docs/benchmarks.md "Session 41").
    A `MagiBackend` starts them when it is made, so `magi_compile` has them up while dynamo
    traces (or, where CUDA was not in use yet then, at its first graph), and so does
    `inductor_options()` for ``backend="inductor"``. Nothing is started where this process has
    not initialised CUDA (the model not on a GPU yet: CUDA reads ``CUDA_VISIBLE_DEVICES`` once,
    when it initialises, and pytest-magi pins each xdist worker to its GPU so, so this never
    initialises it), with ``compile_threads`` 1 (in Inductor's config or in ``inductor_patches``,
    the backend's options), or with ``TORCH_WARM_POOL=0``, torch's own switch; the pool is
    torch's, one per process, and outlives the backend as it does there.
    """
    threads = (inductor_patches or {}).get("compile_threads")
    if isinstance(threads, int) and threads <= 1:
        return False
    if not _cuda_in_use():
        return False
    from torch._inductor.async_compile import maybe_warm_pool

    maybe_warm_pool()  # honours TORCH_WARM_POOL and Inductor's compile_threads
    return True


def _cuda_in_use() -> bool:
    """Whether this process has initialised CUDA; asks nothing that would initialise it.

    Its own name so that a test can say "in use" to `warm_compile_workers` alone: saying it to
    ``torch.cuda.is_initialized`` would also make Inductor's lowering ask the driver for its device.
    """
    return torch.cuda.is_initialized()


def magi_backend(
    gm: torch.fx.GraphModule,
    example_inputs: Sequence[Any],
    *,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> Callable[..., Any]:
    """The backend registered as `"magi"` (entry point `torch_dynamo_backends`)."""
    _validate.check_backend_call("magi_backend", gm, example_inputs, options)
    # the options given to the backend, so that its compile workers see their compile_threads
    return MagiBackend(inductor_config_patches=options)(gm, example_inputs, mode=mode)


def magi_compile(
    model: Any,
    *,
    config: PassConfig | None = None,
    dynamic: bool | None = None,
    isolate_frames: bool | str | None = True,
    dynamo_fixes: bool | None = None,
    contiguous_inputs: bool | None = None,
    channels_last_parameters: bool | None = None,
    form: Any = "auto",
    **torch_compile_kwargs: Any,
) -> Any:
    """`torch.compile(model, backend=MagiBackend(config), dynamic=dynamic, **kwargs)`.

    ``form`` (default ``"auto"``): a model whose best way to compile was measured has a
    `magi_passes.forms.CompileForm`, which sets ``dynamic``, ``dynamo_fixes``,
    ``contiguous_inputs`` and ``channels_last_parameters`` where they are left at None, and
    `PassConfig` fields where ``config`` is left at None (a ``MAGI_PASSES__<FIELD>`` variable
    still wins), and Inductor options under the caller's ``options``. The Wan VAE's decoder
    (diffusers ``WanDecoder3d``) is compiled so: each chunk one static graph, reused at every
    length, its RMS norms' inputs and its conv weights channels-last, its decisions recorded for
    H100s and H200s (docs/benchmarks.md "Session 26", "Session 27", "Session 31": right
    output, faster than torch.compile with frames isolated, compiled cold faster than
    torch.compile). ``form=None``:
    the generic form for any model; `magi_passes.forms.form_for`
    says which form ``"auto"`` picks. The form used is ``compiled.magi_form`` (None: generic).

    ``isolate_frames`` (default on; an ``nn.Module`` only): every submodule instance gets a
    ``forward`` on a code object of its own first (`magi_passes.frames.isolate_forward_code`),
    so graph breaks inside repeated blocks never make instances share dynamo's frames, exhaust
    its recompile limit and fall back to eager (measured on the Wan 2.2 VAE decode:
    docs/benchmarks.md). The module computes the same; `restore_forward_code` undoes it.
    ``True`` (or None) isolates as the model's form says (``CompileForm.frames``: per
    instance, or, for a decoder measured to compile to one graph, its own frame only,
    ``"root"``); ``"instance"`` or ``"root"`` asks for that level whatever the form says;
    ``False`` gives no frames.

    ``dynamo_fixes`` (off in the generic form): every call of the compiled model runs inside
    `magi_passes.dynamo_fixes.tensor_constant_compare`, so dynamo traces a tensor compared with
    a string as Python evaluates it instead of breaking the graph (torch 2.11 breaks there). On
    its own, with dynamic shapes, it made the Wan 2.2 decode's steady chunk one dynamic graph, a
    further latent frame 81.1 ms against 65.9 without it (H100, docs/benchmarks.md "Session
    24"); the Wan form uses it with static shapes and contiguous inputs.

    ``contiguous_inputs`` (off in the generic form; an ``nn.Module`` only): each call's
    positional tensor arguments are made contiguous before dynamo sees them, and the tensors in
    its list arguments (a cache list) get one stride for their size-1 dims
    (`magi_passes.dynamo_fixes.attach_contiguous_inputs`), so a decoder fed slices of a longer
    latent reuses its static graphs at every length instead of compiling them again.

    ``channels_last_parameters`` (off in the generic form, on in the Wan decoder's; an
    ``nn.Module`` only): the model's conv weights are laid out channels-last in place before
    compiling (`magi_passes.channels_last.convert_conv_parameters`): no weight is re-laid out per
    call and eager's activations come out channels-last. Values are unchanged; the module's
    weights keep their new strides (diffusers' ``save_pretrained`` saves them contiguous itself;
    call ``.contiguous()`` before a direct ``safetensors`` save). On the Wan decode it measured
    1.043x at T=3 and 1.034x at T=21 (H100, torch 2.11, docs/benchmarks.md "Session 27").

    The returned object carries the backend as `.magi_backend` (its managers, results).
    """
    from . import forms

    _validate.check_compile_target("magi_compile", model)
    config = _validate.check_pass_config("magi_compile", config)
    _validate.check_optional_bool("magi_compile", "dynamic", dynamic)
    if "backend" in torch_compile_kwargs:
        raise TypeError(
            "magi_compile() chooses the backend itself; call torch.compile(..., backend=...) "
            "directly to use another one"
        )
    if not (
        isolate_frames is None
        or isinstance(isolate_frames, bool)
        or (isinstance(isolate_frames, str) and isolate_frames in forms.FORM_FRAMES)
    ):
        _validate.fail(
            TypeError, "magi_compile", "isolate_frames", isolate_frames,
            f"True or None (as the model's form says), False, or one of {forms.FORM_FRAMES}",
            "magi_compile(model, isolate_frames='instance')",
        )  # fmt: skip
    _validate.check_optional_bool("magi_compile", "dynamo_fixes", dynamo_fixes)
    _validate.check_optional_bool("magi_compile", "contiguous_inputs", contiguous_inputs)
    _validate.check_optional_bool(
        "magi_compile", "channels_last_parameters", channels_last_parameters
    )
    chosen = forms.resolve("magi_compile", form, model)
    settings = forms.options(
        chosen,
        dynamic=dynamic,
        dynamo_fixes=dynamo_fixes,
        contiguous_inputs=contiguous_inputs,
        channels_last_parameters=channels_last_parameters,
    )
    if config is None and chosen is not None:
        config = chosen.config()
    if settings["contiguous_inputs"] and not isinstance(model, torch.nn.Module):
        raise TypeError(
            f"magi_compile(contiguous_inputs=True) needs an nn.Module, got {model!r}; fix: call "
            f".contiguous() on a function's inputs yourself"
        )
    if settings["channels_last_parameters"]:
        if not isinstance(model, torch.nn.Module):
            raise TypeError(
                f"magi_compile(channels_last_parameters=True) needs an nn.Module, got {model!r}; "
                f"fix: call magi_passes.channels_last.convert_conv_parameters on the module "
                f"that owns the weights"
            )
        from .channels_last import convert_conv_parameters

        convert_conv_parameters(model)
    options = torch_compile_kwargs.pop("options", None)
    if chosen is not None and (options is None or isinstance(options, Mapping)):
        options = chosen.backend_options(options)  # the caller's keys over the form's
    backend = MagiBackend(config, options)
    if isolate_frames is not False and isinstance(model, torch.nn.Module):
        from .frames import isolate_forward_code

        if isolate_frames is True or isolate_frames is None:
            isolate_frames = chosen.frames if chosen is not None else "instance"
        isolate_forward_code(model, isolate_frames)
    compiled: Any = torch.compile(
        model, backend=backend, dynamic=settings["dynamic"], **torch_compile_kwargs
    )
    if settings["dynamo_fixes"] or settings["contiguous_inputs"]:
        from .dynamo_fixes import attach_call_options

        compiled = attach_call_options(
            compiled,
            dynamo_fixes=settings["dynamo_fixes"],
            contiguous_inputs=settings["contiguous_inputs"],
        )
    for name, value in (("magi_backend", backend), ("magi_form", chosen)):
        try:
            setattr(compiled, name, value)
        except AttributeError:  # pragma: no cover - objects that refuse attributes
            pass
    return compiled


def _check_one_device(example_inputs: Sequence[Any]) -> None:
    """Graph inputs (the module's parameters among them) on two real devices: say so plainly.

    Eager fails on such inputs too, but inside a compile torch reports internal assertions
    instead (seen on torch 2.11 with a cuda input and cpu weights). Meta and 0-dim tensors are
    left alone: eager accepts them next to any device.
    """
    devices = sorted(
        {
            str(t.device)
            for t in example_inputs
            if isinstance(t, torch.Tensor) and t.dim() > 0 and t.device.type != "meta"
        }
    )
    if len(devices) > 1:
        raise RuntimeError(
            f"magi backend: the graph's inputs and parameters are on different devices "
            f"({', '.join(devices)}); eager would fail on them too. Move the model and its "
            f"inputs to one device, e.g. model.to(x.device)"
        )


def _calls(
    gm: torch.fx.GraphModule, function: Callable[[Any], bool], module_type: type[Any]
) -> bool:
    """Whether dynamo's graph calls a function `function` accepts or a module of `module_type`."""
    for node in gm.graph.nodes:
        if node.op == "call_function" and function(node.target):
            return True
        if node.op == "call_module" and isinstance(gm.get_submodule(node.target), module_type):
            return True
    return False


def _calls_named(gm: torch.fx.GraphModule, name: re.Pattern[str], module_type: type[Any]) -> bool:
    """Whether dynamo's graph calls a function whose name `name` finds (`re.search`) or a
    module of `module_type`."""
    return _calls(
        gm, lambda target: bool(name.search(getattr(target, "__name__", ""))), module_type
    )


def _has_conv3d(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph has a conv3d: the channels-last rewrite's gate (conv2d-only graphs
    are left to Inductor's layout optimisation, so their weights must stay as they are)."""
    conv3d = (torch.conv3d, torch.nn.functional.conv3d)
    return _calls(gm, lambda target: target in conv3d, torch.nn.Conv3d)


_CONV_NAME = re.compile(r"(^|_)conv(?!ert)", re.IGNORECASE)  # conv3d, _convolution; not convert


def _has_convolution(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph has a convolution of any kind. Conservative: any function whose
    name says convolution counts, so an unfamiliar spelling is measured, not skipped."""
    return _calls_named(gm, _CONV_NAME, torch.nn.modules.conv._ConvNd)


_NORM_NAME = re.compile(r"^(normalize|vector_norm|norm)$")


def _has_vector_norm(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph takes a vector norm (`F.normalize`, `torch.linalg.vector_norm`,
    `torch.norm`, `Tensor.norm`): what `NormRsqrtPass` may rewrite. Conservative, as
    `_has_convolution` is."""
    for node in gm.graph.nodes:
        if node.op == "call_function":
            name = getattr(node.target, "__name__", "")
        elif node.op == "call_method":
            name = str(node.target)
        else:
            continue
        if _NORM_NAME.match(name):
            return True
    return False


_PAD_NAME = re.compile(r"^(pad|constant_pad_nd)$")


def _has_pad(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph pads a tensor (`F.pad`, `constant_pad_nd`, a `ConstantPad`
    module): what `ConvPadFoldPass` may fold into a convolution. Conservative, as
    `_has_convolution` is."""
    return _calls_named(gm, _PAD_NAME, torch.nn.modules.padding._ConstantPadNd)


_TRANSPOSED_NAME = re.compile(r"conv_transpose", re.IGNORECASE)


def _has_transposed_convolution(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph has a transposed convolution (`F.conv_transpose*`, a
    `ConvTranspose*` module): what `DeconvInterleavePass` may rewrite. Conservative, as
    `_has_convolution` is."""
    return _calls_named(gm, _TRANSPOSED_NAME, torch.nn.modules.conv._ConvTransposeNd)


_MATMUL_NAME = re.compile(r"scaled_dot_product_attention|matmul|bmm|einsum")


def _has_batched_matmul(gm: torch.fx.GraphModule) -> bool:
    """Whether dynamo's graph calls a function that may become a batched matmul (attention,
    `matmul`, `bmm`, `einsum`, the `@` operator) or a `MultiheadAttention` module: what
    `UpcastMatmulPass` may rewrite. Conservative, as `_has_convolution` is."""
    return _calls_named(gm, _MATMUL_NAME, torch.nn.MultiheadAttention)


def _measured_passes_cannot_fire(gm: torch.fx.GraphModule, config: PassConfig) -> str | None:
    """Why no measured pass can change `gm` (None: one may), read from dynamo's graph before
    anything is compiled: the channels-last rewrite needs a convolution that its gate admits
    (`fires_on`), ND tiling a dynamic graph with convolutions, the norm rewrite a vector norm.
    Without this, a graph that Inductor's FX graph cache serves (so that no pass history says
    what changed) would be compiled a second time, plain, and timed for nothing."""
    if config.enable_norm_rsqrt and _has_vector_norm(gm):
        return None
    if config.enable_upcast_matmul and _has_batched_matmul(gm):
        return None
    if not _has_convolution(gm):
        return "no measured pass can change this graph (no convolution, no vector norm)"
    channels_last = fires_on(config, _has_conv3d(gm))
    nd_tiling = config.enable_nd_tiling and is_dynamic(gm.graph)
    pad_passes = (config.enable_conv_pad_fold or config.enable_causal_pad_trim) and _has_pad(gm)
    interleave = config.enable_deconv_interleave and _has_transposed_convolution(gm)
    if channels_last or nd_tiling or pad_passes or interleave:
        return None
    return (
        "no measured pass can change this graph (channels-last: no conv3d; ND tiling: "
        "static shapes; no vector norm; no pad to fold or trim; no transposed convolution "
        "to interleave)"
    )


def _hoistable_conv_weights(
    gm: torch.fx.GraphModule, example_inputs: list[Any]
) -> dict[int, torch.memory_format]:
    """Graph inputs used only as conv2d/conv3d weights, in inference, not yet channels-last."""
    placeholders = list(gm.graph.find_nodes(op="placeholder"))
    if len(placeholders) != len(example_inputs):
        return {}
    grad = torch.is_grad_enabled()
    found: dict[int, torch.memory_format] = {}
    for i, (node, value) in enumerate(zip(placeholders, example_inputs, strict=True)):
        if not isinstance(value, torch.Tensor) or not value.is_floating_point():
            continue
        if isinstance(value, torch._subclasses.FakeTensor) or type(value) not in (
            torch.Tensor,
            torch.nn.Parameter,
        ):
            continue
        if grad and value.requires_grad:
            continue
        if value.is_inference():
            # inference tensors carry no version counter: an update could not be detected
            continue
        fmt = channels_last_format(value.dim())
        if fmt is None or value.is_contiguous(memory_format=fmt) or not node.users:
            continue
        if all(
            user.op == "call_function"
            and user.target in _CONV_FUNCTIONS
            and ((len(user.args) > 1 and user.args[1] is node) or user.kwargs.get("weight") is node)
            and user.args[0] is not node
            for user in node.users
        ):
            found[i] = fmt
    return found


def _convert_example_weights(
    gm: torch.fx.GraphModule, inputs: list[Any], hoisted: dict[int, torch.memory_format]
) -> None:
    """Give the compiler channels-last example weights, keeping dynamo's (static) fake values.

    A fresh real tensor would be fakified anew, and under `dynamic=True` its kernel sizes would
    become symbols; converting dynamo's own fake value keeps its static shape and its fake mode.
    """
    placeholders = list(gm.graph.find_nodes(op="placeholder"))
    for i, fmt in hoisted.items():
        node = placeholders[i]
        fake = node.meta.get("example_value")
        if isinstance(fake, torch._subclasses.FakeTensor):
            with fake.fake_mode:
                converted = fake.contiguous(memory_format=fmt)
            node.meta["example_value"] = converted
            inputs[i] = converted
        else:
            inputs[i] = inputs[i].contiguous(memory_format=fmt)


def _eager_output_formats(gm: torch.fx.GraphModule) -> list[torch.memory_format | None]:
    """The memory format of each graph output as dynamo traced it (with the user's weights).

    Converting weights outside the graph changes what the compiler traces: a conv reading a
    channels-last weight returns channels-last, where eager returned contiguous. These formats
    let the wrapper give callers eager's layout back.
    """
    from torch._prims_common import suggest_memory_format

    output = next(iter(gm.graph.find_nodes(op="output")))
    formats: list[torch.memory_format | None] = []
    for arg in torch.fx.node.map_aggregate(output.args[0], lambda a: a) or ():
        val = arg.meta.get("example_value") if isinstance(arg, torch.fx.Node) else None
        fmt = None
        if isinstance(val, torch.Tensor) and val.dim() in (4, 5):
            # only outputs eager returns dense in one format (a permuted output is left as
            # Inductor lays it out, exactly as plain torch.compile does)
            candidate = suggest_memory_format(val)
            try:
                dense = bool(val.is_contiguous(memory_format=candidate))
            except Exception:  # a symbolic stride it cannot decide without a guard
                dense = False
            fmt = candidate if dense else None
        formats.append(fmt)
    return formats


def _with_converted_weights(
    compiled: Callable[..., Any],
    hoisted: dict[int, torch.memory_format],
    output_formats: list[torch.memory_format | None] | None = None,
) -> Callable[..., Any]:
    """Wrap a compiled graph so weight args are replaced by cached channels-last copies, and
    outputs keep the memory format eager gives them."""
    from torch._prims_common import suggest_memory_format

    formats = output_formats or []
    cache: dict[int, tuple[Any, int, int, torch.Tensor]] = {}

    def convert(args: list[Any]) -> None:
        for i, fmt in hoisted.items():
            w = args[i]
            hit = cache.get(i)
            if (
                hit is not None
                and hit[0]() is w
                and hit[1] == w._version
                and hit[2] == w.data_ptr()
            ):
                args[i] = hit[3]
                continue
            with torch.no_grad():
                converted = w.contiguous(memory_format=fmt)
            cache[i] = (weakref.ref(w), w._version, w.data_ptr(), converted)
            args[i] = converted

    # dynamo calls a backend's result with positional args; no functools.wraps here, it would
    # copy a `_boxed_call` marker that aot_module_simplified's wrapper carries without honouring
    def run(*args: Any) -> Any:
        arg_list = list(args)
        convert(arg_list)
        out = compiled(*arg_list)
        if not any(formats) or not isinstance(out, (list, tuple)) or len(out) != len(formats):
            return out
        fixed = [
            o.contiguous(memory_format=fmt)
            if fmt is not None and isinstance(o, torch.Tensor) and suggest_memory_format(o) != fmt
            else o
            for o, fmt in zip(out, formats, strict=True)
        ]
        return type(out)(fixed) if isinstance(out, tuple) else fixed

    return run


# --------------------------------------------------------------------------- measured decisions
class _Compiled(NamedTuple):
    """One compiled variant of a graph: what runs, its passes, how many weights it hoisted."""

    fn: Callable[..., Any]
    manager: PassManager
    hoisted: int
    seconds: float


# name -> PassConfig switch of the passes whose rewrite is measured (`MagiPass.measured_by`)
_MEASURED: dict[str, str] = {
    cls.name: cls.measured_by for cls in PASS_ORDER if cls.measured_by is not None
}


def _plain_config(config: PassConfig) -> PassConfig | None:
    """`config` with every measured pass switched off; None when none of them is on."""
    switches = {field: False for field in _MEASURED.values() if getattr(config, field)}
    return config.replace(**switches) if switches else None


def _measured_passes_applied(manager: PassManager) -> list[str]:
    """Names of the measured passes that changed a graph of `manager`'s compilations."""
    names: list[str] = []
    for results in manager.history:
        for r in results:
            if r.name in _MEASURED and r.applied and r.name not in names:
                names.append(r.name)
    return names


def _annotate(manager: PassManager, decision: Decision) -> None:
    """Put the decision into the measured passes' `PassResult.reason`, in every compilation of
    `manager` so far (a later backward compilation is the same variant)."""
    if not decision.in_play:
        return  # nothing measured and nothing that could have been: the rules' reasons stand
    text = decision.describe()
    for results in manager.history:
        for i, r in enumerate(results):
            if r.name not in _MEASURED:
                continue
            if decision.choice == "plain":
                results[i] = PassResult(r.name, applied=False, reason=text)
            elif r.applied or decision.source != "static":
                r.reason = f"{r.reason}; {text}"


def _graph_copy(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """A GraphModule over a copy of `gm`'s graph (same attributes and meta): compiling one
    variant must not change the graph the other variant compiles (pre-grad passes work in
    place)."""
    new = torch.fx.GraphModule(gm, copy.deepcopy(gm.graph), class_name=type(gm).__name__)
    new.meta = dict(gm.meta)
    for old, node in zip(gm.graph.nodes, new.graph.nodes, strict=True):
        if hasattr(old, "_dynamo_source"):  # AOTAutograd maps dynamo's inputs by it
            node._dynamo_source = old._dynamo_source
    for name in ("_param_name_to_source", "_source_to_user_stacks", "compile_subgraph_reason"):
        if hasattr(gm, name):
            setattr(new, name, getattr(gm, name))
    return new


def _device_name(inputs: Sequence[Any]) -> str:
    """The name of the device the graph runs on (the decision holds for that device only)."""
    for t in inputs:
        if isinstance(t, torch.Tensor) and t.device.type == "cuda":
            try:
                return str(torch.cuda.get_device_name(t.device))
            except Exception:  # a fake or vanished device
                return "cuda"
        if isinstance(t, torch.Tensor) and t.dim() > 0:
            return t.device.type
    return "unknown"
