"""How the locating backend finds a cure for its first wrong graph: the graph retried without each
of the side's passes and with each Inductor setting (within a time budget), replayed as
compiled, its kernels swept over their autotuner configs, and rerun in fp32."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from magi_passes import MagiBackend, PassConfig

from ..capture.core import (
    pass_name,
)
from ..capture.launches import KernelLaunch, kernel_differences, launch_lines, recorded_launches
from ..capture.sides import SideBackend, SideSpec
from .judgment import (
    _cast,
)
from .locate_report import FirstBad, Fp32Rerun, GraphRecord, Retry
from .locate_tensors import (
    _LOW_PRECISION,
    NOT_INDUCTOR,
    OTHER_FLOAT_TOLERANCE,
    _copy_module,
    _describe_patches,
    _flatten,
    _rng_state,
    _set_rng_state,
    output_distance,
    strided_clone,
)


# --------------------------------------------------------------------------- the backend
@dataclass
class _Symbolic:
    """What a dynamic graph was compiled with: dynamo's fake mode (its ShapeEnv) and the
    placeholders' fake values, symbolic sizes included. A retry compiles from these, so it is as
    dynamic as the run's compile was (real inputs would specialise every size)."""

    fake_mode: Any
    examples: list[Any]

    def inputs(self, dtype: torch.dtype | None = None) -> list[Any]:
        """The fake example inputs (floating bf16/fp16 ones cast to ``dtype`` where given)."""
        if dtype is None:
            return list(self.examples)
        return [
            _fake_cast(x, dtype) if isinstance(x, torch.Tensor) and x.dtype in _LOW_PRECISION else x
            for x in self.examples
        ]

    def scope(self) -> contextlib.AbstractContextManager[Any]:
        from torch._guards import TracingContext, tracing

        return tracing(TracingContext(self.fake_mode))


def _fake_cast(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """A fake tensor cast under its own fake mode (its sizes stay symbolic)."""
    mode = getattr(x, "fake_mode", None)
    with mode if mode is not None else contextlib.nullcontext():
        return x.to(dtype)


def _symbolic(gm: torch.fx.GraphModule) -> _Symbolic | None:
    """The graph's symbolic example values while dynamo compiles it (None: a static graph, or
    not called by dynamo)."""
    from torch._guards import TracingContext
    from torch.fx.experimental.symbolic_shapes import free_symbols

    context = TracingContext.try_get()
    if context is None or context.fake_mode is None:
        return None
    examples = [n.meta.get("example_value") for n in gm.graph.find_nodes(op="placeholder")]
    if any(x is None for x in examples) or not any(free_symbols(x) for x in examples):
        return None
    modes = [x.fake_mode for x in examples if getattr(x, "fake_mode", None) is not None]
    return _Symbolic(modes[0] if modes else context.fake_mode, examples)


@dataclass
class _GraphState:
    record: GraphRecord
    eager: torch.fx.GraphModule
    compiled: Callable[..., Any]
    origins: list[dict[str, Any]]
    managers: list[Any]
    symbolic: _Symbolic | None = None
    # the post-grad graph before and after the side's passes, and which pass made which node
    post_grad: tuple[torch.fx.Graph, torch.fx.Graph, dict[str, str]] | None = None


@dataclass
class _Saved:
    graph: int
    eager: torch.fx.GraphModule
    inputs: list[Any]
    grad: bool
    managers: list[Any]
    devices: list[int]  # CUDA devices among the inputs
    rng: tuple[torch.Tensor, list[torch.Tensor]]  # the RNG state the wrong call started from
    compiled: Callable[..., Any]  # the code compiled in the run (the replay reruns it)
    symbolic: _Symbolic | None  # a dynamic graph's symbolic examples (the retries compile them)
    post_grad: tuple[torch.fx.Graph, torch.fx.Graph, dict[str, str]] | None = None


class _PatchedBackend:
    """A callable dynamo backend run under Inductor config patches (a retry of a "backend"
    side: its compiler is not ours, so the patches can only be ambient around its call)."""

    def __init__(self, backend: Callable[..., Any], patches: Mapping[str, Any]) -> None:
        self.backend = backend
        self.patches = dict(patches)

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Any:
        with torch._inductor.config.patch(self.patches):
            return self.backend(gm, list(example_inputs))


def _magi_parts(backend: MagiBackend) -> tuple[PassConfig, dict[str, Any]]:
    """The effective ``PassConfig`` of a ``MagiBackend`` and its Inductor patches."""
    patches = dict(backend.inductor_config_patches)
    base = patches.pop("pass_config", None) or backend.config or PassConfig.from_env()
    fields = {k: patches.pop(k) for k in list(patches) if k in PassConfig.field_names()}
    return base.replace(**fields), patches


def _fresh_magi(
    backend: MagiBackend, config: PassConfig | None = None, patches: Mapping[str, Any] | None = None
) -> MagiBackend:
    """A copy of ``backend`` with no managers of its own yet (its owner's results stay its
    owner's), optionally with another config and Inductor patches."""
    new = copy.copy(backend)
    new.managers = []
    new.hoisted_weights = []
    new.seconds = dict.fromkeys(new.seconds, 0.0)
    new.retried = []
    if config is not None:
        new.config = config
        new.inductor_config_patches = dict(patches or {})
    return new


#: the name of the control retry (the first wrong graph recompiled with nothing changed)
CONTROL = "as compiled (control)"
#: the name of the replay (the code compiled in the run, rerun on the saved inputs)
REPLAY = "the run's code, rerun (replay)"


def _kernel_diff(
    replay: Retry, replayed: list[KernelLaunch], control: Retry, recompiled: list[KernelLaunch]
) -> list[str] | None:
    """How the replayed code's Triton launches differ from the control's (None: one of them
    did not run, or neither launched a Triton kernel)."""
    if replay.status not in ("cleared", "wrong") or control.status not in ("cleared", "wrong"):
        return None
    if not replayed and not recompiled:
        return None
    verdict = {"cleared": "right", "wrong": "wrong"}
    labels = (f"replay, {verdict[replay.status]}", f"control, {verdict[control.status]}")
    return kernel_differences(replayed, recompiled, labels)


def fresh_spec(spec: SideSpec) -> SideSpec:
    """``spec`` with a fresh ``MagiBackend`` copy on a magi side, so compiling through it adds
    nothing to the original backend's managers (a pair's ``results``)."""
    if spec.kind == "magi" and isinstance(spec.backend, MagiBackend):
        return dataclasses.replace(spec, backend=_fresh_magi(spec.backend))
    return spec


def _pass_names_of_field(config: PassConfig, field_name: str) -> list[str]:
    """Names of the magi passes that ``PassConfig.<field_name> = False`` disables."""
    from magi_passes.compile.manager import PASS_ORDER

    off = config.replace(**{field_name: False})
    names: list[str] = []
    for cls in PASS_ORDER:
        try:
            if cls(config).enabled() and not cls(off).enabled():
                names.append(cls.name)
        except Exception:  # noqa: BLE001 - a pass that cannot say: retried, not skipped
            return []
    return names


class CureSearch:
    """The cure search of `LocatingBackend` (its base class): the retries of the first wrong graph,
    within the backend's budget, and what they found."""

    spec: SideSpec
    tolerance: dict[torch.dtype, float]
    settings: list[dict[str, Any]]
    fp32_rerun: bool
    budget_s: float | None
    _start: float
    _states: list[_GraphState]
    _first: FirstBad | None
    _kernels: list[str] | None
    _launched: list[str] | None
    _configs: list[str] | None
    _notes: list[str]

    def tolerance_for(self, dtype: torch.dtype | None) -> float:
        if dtype is None:
            return 0.0
        if dtype in self.tolerance:
            return self.tolerance[dtype]
        return OTHER_FLOAT_TOLERANCE if dtype.is_floating_point else 0.0

    def _variants(self, saved: _Saved) -> list[tuple[str, str, SideSpec, str]]:
        """``(name, kind, spec, skip note)`` of each retry, in order."""
        spec = self.spec
        found: list[tuple[str, str, SideSpec, str]] = []
        magi_parts = _magi_parts(spec.backend) if spec.kind == "magi" else None
        if magi_parts is not None:
            config, patches = magi_parts
            for name in PassConfig.field_names():
                if not (name.startswith("enable_") and getattr(config, name) is True):
                    continue
                off = config.replace(**{name: False})
                variant = dataclasses.replace(spec, backend=_fresh_magi(spec.backend, off, patches))
                passes = _pass_names_of_field(config, name)
                applied = any(m.fired(p) for m in saved.managers for p in passes)
                skip = "" if applied or not passes or not saved.managers else (
                    f"{', '.join(passes)} did not apply to this graph"
                )  # fmt: skip
                found.append((f"magi: {name}=False", "pass", variant, skip))
        names = [pass_name(p) for p in spec.passes]
        for i, name in enumerate(names):
            shown = name if names.count(name) == 1 else f"{name} (#{i + 1})"
            rest = spec.passes[:i] + spec.passes[i + 1 :]
            found.append((f"passes: without {shown}", "pass", self._with(spec, rest, {}), ""))
        ambient = torch._inductor.config.get_config_copy()
        effective = {**ambient, **(spec.patches or {}), **(magi_parts[1] if magi_parts else {})}
        for setting in self.settings:
            same = all(k in effective and effective[k] == v for k, v in setting.items())
            skip = f"the side already has {_describe_patches(setting)}" if same else ""
            if spec.kind == "backend" and spec.description in NOT_INDUCTOR:
                skip = f"backend {spec.description!r} generates no Inductor code"
            found.append(
                (_describe_patches(setting), "setting", self._with(spec, None, setting), skip)
            )
        return found

    def _with(
        self, spec: SideSpec, passes: tuple[Any, ...] | None, setting: Mapping[str, Any]
    ) -> SideSpec:
        """``spec`` with other passes and/or Inductor settings on top of its config."""
        passes = spec.passes if passes is None else passes
        if spec.kind == "inductor":
            return dataclasses.replace(
                spec, patches={**(spec.patches or {}), **setting}, passes=passes
            )
        if spec.kind == "magi":
            config, patches = _magi_parts(spec.backend)
            backend = _fresh_magi(spec.backend, config, {**patches, **setting})
            return dataclasses.replace(spec, backend=backend, passes=passes)
        return dataclasses.replace(spec, backend=_PatchedBackend(spec.backend, setting))

    def _over_budget(self, longest: float) -> bool:
        if self.budget_s is None:
            return False
        return time.perf_counter() - self._start + longest > self.budget_s

    def _cure(self, saved: _Saved) -> tuple[list[Retry], Fp32Rerun | None]:
        current = _rng_state(saved.devices)
        try:
            return self._cures(saved)
        finally:
            _set_rng_state(saved.devices, current)  # the retries' random draws leave no trace

    def _cures(self, saved: _Saved) -> tuple[list[Retry], Fp32Rerun | None]:
        expected = self._eager(saved, saved.inputs)
        longest = 0.0
        fp32 = None
        if self.fp32_rerun:
            if self._over_budget(0.0):
                fp32 = Fp32Rerun("n/a", note=f"untried: over the budget of {self.budget_s:g} s")
            else:
                fp32 = self._fp32(saved)
                longest = fp32.seconds
        replay, replayed = self._replay(saved, expected)
        self._launched = launch_lines(replayed) or None
        if replay.status == "wrong" and replayed:
            if self._over_budget(replay.seconds):
                self._notes.append(
                    f"configs of the replay's kernels not swept: over the budget of "
                    f"{self.budget_s:g} s"
                )
            else:
                self._configs = self._sweep(saved)
        retries: list[Retry] = [replay]
        if self._over_budget(longest):
            note = f"over the budget of {self.budget_s:g} s"
            retries.append(Retry(CONTROL, "control", "untried", note=note))
        else:
            launches: list[KernelLaunch] = []
            control = self._retry(
                CONTROL, "control", fresh_spec(self.spec), saved, expected, launches
            )
            longest = max(longest, control.seconds)
            retries.append(control)
            self._kernels = _kernel_diff(replay, replayed, control, launches)
        for name, kind, variant, skip in self._variants(saved):
            if skip:
                retries.append(Retry(name, kind, "skipped", note=skip))
                continue
            if self._over_budget(longest):
                note = f"over the budget of {self.budget_s:g} s"
                retries.append(Retry(name, kind, "untried", note=note))
                continue
            retry = self._retry(name, kind, variant, saved, expected)
            longest = max(longest, retry.seconds)
            retries.append(retry)
        return retries, fp32

    def _eager(self, saved: _Saved, inputs: Sequence[Any]) -> list[Any]:
        clones = strided_clone(inputs)
        _set_rng_state(saved.devices, saved.rng)
        with torch.no_grad():
            return _flatten(saved.eager(*clones))

    def _compile_and_run(
        self,
        spec: SideSpec,
        saved: _Saved,
        inputs: Sequence[Any],
        launches: list[KernelLaunch] | None = None,
        widen: torch.dtype | None = None,
    ) -> list[Any]:
        """The graph recompiled by ``spec`` (as dynamic as the run's compile: its symbolic
        examples where it had them; ``widen``: bf16/fp16 ones cast) and run on ``inputs``."""
        side = SideBackend("retry", spec)
        examples: list[Any] = list(inputs)
        scope: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        if saved.symbolic is not None:
            examples, scope = saved.symbolic.inputs(widen), saved.symbolic.scope()
        with torch.set_grad_enabled(saved.grad), scope:
            compiled = side(_copy_module(saved.eager), examples)
        return self._run_saved(compiled, saved, inputs, launches)

    @staticmethod
    def _run_saved(
        compiled: Callable[..., Any],
        saved: _Saved,
        inputs: Sequence[Any],
        launches: list[KernelLaunch] | None = None,
    ) -> list[Any]:
        """``compiled`` on strided copies of ``inputs`` from the wrong call's RNG state; the
        Triton kernels it launched appended to ``launches``."""
        clones = strided_clone(inputs)
        _set_rng_state(saved.devices, saved.rng)
        with torch.set_grad_enabled(saved.grad), recorded_launches() as record:
            out = _flatten(compiled(*clones))
        if launches is not None:
            launches.extend(record)
        return out

    def _sweep(self, saved: _Saved) -> list[str] | None:
        """Each Triton kernel of the wrong code, rerun with each of its candidate configs on
        its own arguments: does its output depend on the config (``config_sweep``)?"""
        from .config_sweep import sweep_configs, sweep_lines

        _set_rng_state(saved.devices, saved.rng)
        try:
            with torch.set_grad_enabled(saved.grad):
                sweeps = sweep_configs(saved.compiled, *saved.inputs)
            alone = [s.name for s in sweeps if not s.error and not s.runs]
            if alone:
                self._notes.append(
                    f"config sweep: {len(alone)} of {len(sweeps)} kernels had no other config "
                    "to compare (one config, or served by the autotune cache: run with "
                    "torch._inductor.config.autotune_local_cache=False to sweep them)"
                )
            return sweep_lines(sweeps)
        except Exception as error:  # noqa: BLE001 - reported; the recompiles still run
            self._notes.append(f"config sweep failed: {type(error).__name__}: {error}"[:300])
            return None

    def _replay(self, saved: _Saved, expected: list[Any]) -> tuple[Retry, list[KernelLaunch]]:
        """The code compiled in the run, rerun on the saved inputs: is the code itself wrong?"""
        launches: list[KernelLaunch] = []
        start = time.perf_counter()
        try:
            actual = self._run_saved(saved.compiled, saved, saved.inputs, launches)
        except Exception as error:  # noqa: BLE001 - reported; the recompiles still run
            note = f"{type(error).__name__}: {error}"[:300]
            return Retry(
                REPLAY, "replay", "error", seconds=time.perf_counter() - start, note=note
            ), []
        worst, wrong = self._judge(actual, expected)
        status = "cleared" if wrong == 0 else "wrong"
        return Retry(REPLAY, "replay", status, worst, wrong, time.perf_counter() - start), launches

    def _judge(self, actual: list[Any], expected: list[Any]) -> tuple[float, int]:
        """(worst distance, wrong outputs) of a retry's outputs against the eager graph's."""
        worst, wrong = 0.0, 0
        if len(actual) != len(expected):
            return math.inf, max(len(actual), len(expected))
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            distance, _, _ = output_distance(a, e)
            worst = max(worst, distance)
            original = self._saved_dtype(i, e)
            if not distance <= self.tolerance_for(original):
                wrong += 1
        return worst, wrong

    def _saved_dtype(self, index: int, value: Any) -> torch.dtype | None:
        """The dtype output ``index`` of the first wrong graph had (fp32 reruns widen it)."""
        if self._first is not None:
            outputs = self._states[self._first.graph].record.outputs
            if index < len(outputs) and outputs[index].dtype:
                return getattr(torch, outputs[index].dtype, None)
        return value.dtype if isinstance(value, torch.Tensor) else None

    def _retry(
        self,
        name: str,
        kind: str,
        spec: SideSpec,
        saved: _Saved,
        expected: list[Any],
        launches: list[KernelLaunch] | None = None,
    ) -> Retry:
        start = time.perf_counter()
        try:
            actual = self._compile_and_run(spec, saved, saved.inputs, launches)
        except Exception as error:  # noqa: BLE001 - one failing retry must not hide the rest
            note = f"{type(error).__name__}: {error}"[:300]
            return Retry(name, kind, "error", seconds=time.perf_counter() - start, note=note)
        worst, wrong = self._judge(actual, expected)
        status = "cleared" if wrong == 0 else "wrong"
        return Retry(name, kind, status, worst, wrong, time.perf_counter() - start)

    def _fp32(self, saved: _Saved) -> Fp32Rerun:
        low = [x for x in saved.inputs if isinstance(x, torch.Tensor) and x.dtype in _LOW_PRECISION]
        if not low:
            return Fp32Rerun("n/a", note="no bf16/fp16 input: nothing to widen")
        start = time.perf_counter()
        wide = list(_cast(tuple(saved.inputs), torch.float32))
        try:
            expected = self._eager(saved, wide)
            actual = self._compile_and_run(fresh_spec(self.spec), saved, wide, widen=torch.float32)
        except Exception as error:  # noqa: BLE001 - reported, the cures still run
            note = f"{type(error).__name__}: {error}"[:300]
            return Fp32Rerun("error", seconds=time.perf_counter() - start, note=note)
        worst, wrong = self._judge(actual, expected)
        verdict = "logic" if wrong else "precision"
        return Fp32Rerun(verdict, worst, time.perf_counter() - start)
