"""The two sides of a compiled pair: what each compiles with, and the backend that proves it.

``resolve_side`` turns ``baseline=`` / ``candidate=`` / ``passes=`` / ``inductor_config=`` into a
:class:`SideSpec`; :class:`SideBackend` is the dynamo backend of one side: it compiles (plain
Inductor with config patches and the user's passes, the magi backend, or any backend), counts its
invocations, captures its output code, records its post-grad graphs before and after the passes
(:class:`pytest_magi.capture.core.GraphLog`) and its compile health
(:class:`pytest_magi.capture.compile_stats.CompileStatsCollector`). :class:`SideCallable` is what
``pair.baseline`` / ``pair.candidate`` are.
"""

from __future__ import annotations

import contextlib
import unittest.mock as mock
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from magi_passes import MagiBackend, PassConfig, PassResult

from .compile_stats import CompileStatsCollector
from .core import (
    GRAPH_CACHES_OFF,
    GraphLog,
    PassChain,
    RecordingGraphPass,
    capture_output_code,
    copy_graph,
    declared_config,
    existing,
    graph_caches_off,
    inductor_config_restored,
    pass_name,
    validate_inductor_config,
)

SIDES: tuple[str, str] = ("baseline", "candidate")
SIDE_ACCEPTED = (
    "None (default), a magi_passes.PassConfig, a MagiBackend, a dict of torch._inductor.config "
    "patches, a backend name, or a callable dynamo backend"
)


def check_side_name(side: Any, allow_both: bool = False) -> None:
    """ValueError naming ``side`` and the accepted names (``"both"`` where ``allow_both``)."""
    accepted = SIDES + (("both",) if allow_both else ())
    if side not in accepted:
        raise ValueError(f"side={side!r}: expected one of {', '.join(map(repr, accepted))}")


@dataclass(frozen=True)
class SideSpec:
    """How one side compiles: ``kind`` is "inductor" (with ``patches``), "magi" or "backend".

    ``passes``: the user's post-grad passes, run in order (after the magi passes on a magi side).
    """

    kind: str
    description: str
    patches: Mapping[str, Any] | None = None
    backend: Any = None
    passes: tuple[Any, ...] = ()


def _describe_passes(passes: Sequence[Any]) -> str:
    return f"passes[{', '.join(pass_name(p) for p in passes)}]"


def _magi_description(spec: PassConfig) -> str:
    default = PassConfig()
    changed = {
        k: getattr(spec, k)
        for k in PassConfig.field_names()
        if getattr(spec, k) != getattr(default, k)
    }
    return "magi" + (f"({', '.join(f'{k}={v!r}' for k, v in changed.items())})" if changed else "")


def _inductor_description(patches: Mapping[str, Any]) -> str:
    shown = ", ".join(
        f"{k}={v!r}" if not callable(v) else f"{k}={type(v).__name__}" for k, v in patches.items()
    )
    return f"inductor({shown})" if shown else "inductor"


def _base_spec(side: str, spec: Any, has_passes: bool) -> SideSpec:
    if spec is None:
        if side == "baseline" or has_passes:
            return SideSpec("inductor", "inductor", patches={})
        return SideSpec("magi", "magi", backend=MagiBackend(None, {}))
    if isinstance(spec, PassConfig):
        return SideSpec("magi", _magi_description(spec), backend=MagiBackend(spec, {}))
    if isinstance(spec, MagiBackend):
        return SideSpec("magi", "magi", backend=spec)
    if isinstance(spec, Mapping):
        patches = validate_inductor_config(side, spec)
        return SideSpec("inductor", _inductor_description(patches), patches=patches)
    if isinstance(spec, str):
        if spec == "inductor":
            return SideSpec("inductor", "inductor", patches={})
        from torch._dynamo.backends.registry import lookup_backend

        try:
            backend = lookup_backend(spec)
        except Exception as exc:
            raise ValueError(
                f"{side}={spec!r} is not a registered dynamo backend ({exc}); see "
                f"torch._dynamo.list_backends()"
            ) from exc
        return SideSpec("backend", spec, backend=backend)
    if callable(spec):
        name = getattr(spec, "__name__", None) or type(spec).__name__
        return SideSpec("backend", name, backend=spec)
    raise TypeError(f"{side}={spec!r}: expected {SIDE_ACCEPTED}")


def resolve_side(
    side: str,
    spec: Any,
    passes: Sequence[Any] | None = None,
    inductor_config: Mapping[str, Any] | None = None,
) -> SideSpec:
    """Turn a ``baseline=`` / ``candidate=`` argument into a ``SideSpec``.

    None: baseline = plain Inductor; candidate = magi (``MagiBackend``, config from the env), or
    plain Inductor running ``passes`` when they are given (``passes=[]``, given and empty:
    plain Inductor, no pass at all; ``passes=None``: not given). A ``PassConfig``: the magi
    passes with that config (then ``passes``, if any: composed only when asked like this). A
    ``MagiBackend``: that backend. A dict: plain Inductor with those ``torch._inductor.config``
    patches, for this side only. "inductor" or another registered backend name, or a callable
    backend.
    ``inductor_config``: more Inductor patches for this side.
    """
    base = _base_spec(side, spec, passes is not None)
    passes = tuple(passes or ())
    extra = dict(inductor_config or {})
    if (passes or extra) and base.kind == "backend":
        raise ValueError(
            f"{side}={spec!r} is a dynamo backend of its own: passes= and inductor_config= "
            f"apply to Inductor only. Give {side}=None (plain Inductor), a dict of config "
            f"patches or a PassConfig (the magi passes, then yours)"
        )
    description = base.description
    if passes:
        description = (
            _describe_passes(passes)
            if description == "inductor"
            else (f"{description}+{_describe_passes(passes)}")
        )
    if extra:
        description += f"[{', '.join(f'{k}={v!r}' for k, v in extra.items())}]"
    patches = {**(base.patches or {}), **extra} if base.kind == "inductor" else extra
    return SideSpec(base.kind, description, patches, base.backend, tuple(passes))


@contextlib.contextmanager
def compile_scope(sink: Callable[[str], None]) -> Iterator[None]:
    """Around one side's backend call: capture code, graph caches off, backward generated now."""
    functorch = torch._functorch.config
    with contextlib.ExitStack() as stack:
        stack.enter_context(capture_output_code(sink))
        stack.enter_context(graph_caches_off())
        stack.enter_context(
            functorch.patch(existing(functorch, {"force_non_lazy_backward_lowering": True}))
        )
        yield


@contextlib.contextmanager
def record_pass_manager(log: GraphLog) -> Iterator[None]:
    """While the block runs, every magi ``PassManager`` call records its graph before and after."""
    from magi_passes.compile.manager import PassManager

    original = PassManager.__call__

    def call(self: Any, graph: torch.fx.Graph) -> None:
        log.before.append(copy_graph(graph))
        original(self, graph)
        log.after.append(copy_graph(graph))
        log.texts.append(str(graph))
        log.owners.append(self)

    with mock.patch.object(PassManager, "__call__", call):
        yield


class SideBackend:
    """The dynamo backend of one side: compiles, counts its invocations, captures what it made."""

    def __init__(self, side: str, spec: SideSpec) -> None:
        self.side = side
        self.spec = spec
        self.invocations = 0
        self.code: list[str] = []
        self._code_owners: list[Any] = []  # the PassManager that ran before each code, if any
        self.log = GraphLog()
        self.stats = CompileStatsCollector()
        self.chain = PassChain(spec.passes) if spec.passes else None

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Any:
        self.invocations += 1
        self.stats.on_compile()
        with compile_scope(self._on_code):
            if self.spec.kind == "inductor":
                return self._compile_inductor(gm, list(example_inputs))
            if self.spec.kind == "magi":
                return self._compile_magi(gm, list(example_inputs))
            return self.spec.backend(gm, list(example_inputs))

    def _on_code(self, code: str) -> None:
        self.code.append(code)
        self._code_owners.append(self.log.owners[-1] if self.log.owners else None)

    def _drop_discarded(self, discarded: Sequence[Any]) -> None:
        """Forget what the magi backend compiled only to measure it (the variant not chosen,
        `magi_passes.decisions`): the side's code, graphs and kernel counts are what runs."""
        if not discarded:
            return
        ids = {id(m) for m in discarded}
        keep = [i for i, o in enumerate(self._code_owners) if o is None or id(o) not in ids]
        self.code[:] = [self.code[i] for i in keep]
        self._code_owners[:] = [self._code_owners[i] for i in keep]
        self.log.drop_owned_by(discarded)

    def _installed_and_chain(self, installed: Any) -> Any:
        if self.chain is None:
            return installed
        if installed is None:
            return self.chain
        return PassChain([installed, self.chain])

    def _compile_inductor(self, gm: torch.fx.GraphModule, inputs: list[Any]) -> Any:
        from torch._inductor.compile_fx import compile_fx

        patches = dict(self.spec.patches or {})
        installed = patches.pop(
            "post_grad_custom_post_pass", torch._inductor.config.post_grad_custom_post_pass
        )
        patches.update(existing(torch._inductor.config, GRAPH_CACHES_OFF))
        patches = {**declared_config([installed, *self.spec.passes]), **patches}
        patches["post_grad_custom_post_pass"] = RecordingGraphPass(
            self._installed_and_chain(installed), log=self.log
        )
        with inductor_config_restored():
            return compile_fx(gm, inputs, config_patches=patches)

    def _compile_magi(self, gm: torch.fx.GraphModule, inputs: list[Any]) -> Any:
        # MagiBackend's PassManager chains the post-grad pass installed when it is built
        installed = torch._inductor.config.post_grad_custom_post_pass
        chained = self._installed_and_chain(installed)
        patches = {
            **declared_config([installed, *self.spec.passes]),
            **(self.spec.patches or {}),
            "post_grad_custom_post_pass": chained,
        }
        with (
            inductor_config_restored(),
            torch._inductor.config.patch(patches),
            record_pass_manager(self.log),
        ):
            compiled = self.spec.backend(gm, inputs)
        self._drop_discarded(self.spec.backend.discarded)
        return compiled

    @property
    def magi(self) -> MagiBackend | None:
        return self.spec.backend if self.spec.kind == "magi" else None

    @property
    def graphs(self) -> list[str]:
        return list(self.log.texts)

    @property
    def results(self) -> list[PassResult]:
        magi = self.magi
        own = [r for m in magi.managers for rs in m.history for r in rs] if magi else []
        return own + (list(self.chain.results) if self.chain is not None else [])

    def __repr__(self) -> str:
        return (
            f"SideBackend({self.side!r}, {self.spec.description}, invocations={self.invocations})"
        )


class SideCallable:
    """``pair.baseline`` / ``pair.candidate`` / ``pair.eager``: call with the model's inputs.

    Every call of a compiled side is watched for compile health (``pair.compile_stats``).
    """

    def __init__(
        self, side: str, fn: Callable[..., Any], backend: SideBackend | None, inference: bool
    ) -> None:
        self.side = side
        self.fn = fn
        self.backend = backend
        self.inference = inference

    def __call__(self, *args: Any) -> Any:
        with contextlib.ExitStack() as stack:
            if self.backend is not None:
                stack.enter_context(self.backend.stats.watch())
            if self.inference:
                stack.enter_context(torch.no_grad())
            return self.fn(*args)

    def __repr__(self) -> str:
        what = self.backend.spec.description if self.backend is not None else "eager"
        return f"<{self.side}: {what}>"
