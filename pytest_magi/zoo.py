"""`pytest_magi.zoo`: real models from the libraries people use, random weights, never a download.

Every model is built from its own library's classes (diffusers, timm) with random initialisation,
at two sizes: ``"tiny"`` (CPU tests and fake-CUDA codegen: seconds to compile) and ``"full"`` (the
real size, for the GPU benchmarks in ``benchmarks/zoo.py``). A model whose library is not
importable here is absent from `names()`; `unavailable()` says why.

| name | library class | what `.module` is | what `.run()` does |
| --- | --- | --- | --- |
| ``wan2.2-vae`` | diffusers ``AutoencoderKLWan``, Wan 2.2 TI2V-5B config | ``vae.decoder`` | ``vae.decode(z).sample`` (per-frame causal chunks) |
| ``sd-vae`` | diffusers ``AutoencoderKL``, SD-style 4x ``UpDecoderBlock2D`` | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``resnet50`` | timm | the network | ``model(x)`` |
| ``efficientnet_b0`` | timm | the network | ``model(x)`` |

Sizes (``full``): Wan latent (1, 48, 21, 34, 60) — a 540p video of 81 frames; SD latent
(1, 4, 64, 64) — a 512x512 image; timm batch 16 at 224x224. Options of `load` change the input
shape (``frames`` for the Wan decode, ``batch`` and ``resolution`` for the others).

`ZooModel.compile(backend=...)` compiles ``.module`` *in place on a copy* of the whole model, the
way users do it (``vae.decoder = torch.compile(vae.decoder)``), and returns a new `ZooModel` whose
``.run()`` goes through the compiled module. ``.flops()`` counts the FLOPs of ``.run()`` with
``torch.utils.flop_counter.FlopCounterMode`` on a copy built on the meta device (no memory, no
compute), so it is cheap even at full size.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

from magi_passes.frames import isolate_forward_code

SIZES = ("tiny", "full")

# ---------------------------------------------------------------------------------- specs


@dataclass(frozen=True)
class _Built:
    owner: nn.Module  # the whole model (the VAE, the network)
    attr: str | None  # owner.<attr> is the module to compile; None: the owner itself
    inputs: tuple[Any, ...]


@dataclass(frozen=True)
class ZooSpec:
    """How one zoo model is built: its library, its sizes' settings and its call."""

    name: str
    library: str  # the module that must import ("diffusers", "timm")
    description: str
    settings: Mapping[str, Mapping[str, Any]]  # size -> options (input shape and widths)
    build: Callable[[Mapping[str, Any], torch.device, torch.dtype], _Built]
    run: Callable[[nn.Module, tuple[Any, ...]], Any]
    options: tuple[str, ...]  # the options `load(..., **options)` may override


def _wan_build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> _Built:
    from diffusers import AutoencoderKLWan

    z_dim = s["z_dim"]
    vae: Any = AutoencoderKLWan(
        base_dim=s["base_dim"],
        decoder_base_dim=s["decoder_base_dim"],
        z_dim=z_dim,
        dim_mult=list(s["dim_mult"]),
        num_res_blocks=s["num_res_blocks"],
        temperal_downsample=[False, True, True],
        is_residual=True,
        in_channels=12,
        out_channels=12,
        patch_size=2,
        scale_factor_spatial=16,
        scale_factor_temporal=4,
        latents_mean=[0.0] * z_dim,
        latents_std=[1.0] * z_dim,
    )
    # nn.Module.to: diffusers' own .to warns on any dtype (its fp32-module list is empty here)
    vae = nn.Module.to(vae, device=device, dtype=dtype).eval()
    z = _randn((s["batch"], z_dim, s["frames"], s["height"], s["width"]), device, dtype)
    return _Built(vae, "decoder", (z,))


def _wan_run(vae: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return vae.decode(*inputs).sample  # type: ignore[operator]


def _sd_build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> _Built:
    from diffusers import AutoencoderKL

    blocks = len(s["block_out_channels"])
    vae: Any = AutoencoderKL(
        in_channels=3,
        out_channels=3,
        down_block_types=("DownEncoderBlock2D",) * blocks,
        up_block_types=("UpDecoderBlock2D",) * blocks,
        block_out_channels=tuple(s["block_out_channels"]),
        layers_per_block=s["layers_per_block"],
        latent_channels=4,
        norm_num_groups=s["norm_num_groups"],
    )
    # nn.Module.to: diffusers' own .to warns on any dtype (its fp32-module list is empty here)
    vae = nn.Module.to(vae, device=device, dtype=dtype).eval()
    z = _randn((s["batch"], 4, s["resolution"], s["resolution"]), device, dtype)
    return _Built(vae, "decoder", (z,))


def _vae_run(vae: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return vae.decode(*inputs).sample  # type: ignore[operator]


def _timm_build(arch: str) -> Callable[[Mapping[str, Any], torch.device, torch.dtype], _Built]:
    def build(s: Mapping[str, Any], device: torch.device, dtype: torch.dtype) -> _Built:
        import timm

        net = timm.create_model(arch, pretrained=False, num_classes=s["num_classes"])
        net = net.to(device=device, dtype=dtype).eval()
        x = _randn((s["batch"], 3, s["resolution"], s["resolution"]), device, dtype)
        return _Built(net, None, (x,))

    return build


def _call_run(net: nn.Module, inputs: tuple[Any, ...]) -> Any:
    return net(*inputs)


_TIMM_SETTINGS = {
    "tiny": {"batch": 2, "resolution": 64, "num_classes": 10},
    "full": {"batch": 16, "resolution": 224, "num_classes": 1000},
}

SPECS: dict[str, ZooSpec] = {
    spec.name: spec
    for spec in (
        ZooSpec(
            "wan2.2-vae",
            "diffusers",
            "diffusers AutoencoderKLWan, Wan 2.2 TI2V-5B config; vae.decode of a video latent",
            {
                # the TI2V-5B VAE: base_dim 160, decoder_base_dim 256, z_dim 48, residual,
                # 12 in/out channels (patch_size 2), 16x spatial / 4x temporal; full = 540p, T=21
                "full": {
                    "base_dim": 160,
                    "decoder_base_dim": 256,
                    "z_dim": 48,
                    "dim_mult": (1, 2, 4, 4),
                    "num_res_blocks": 2,
                    "batch": 1,
                    "frames": 21,
                    "height": 34,
                    "width": 60,
                },
                "tiny": {
                    "base_dim": 8,
                    "decoder_base_dim": 8,
                    "z_dim": 4,
                    "dim_mult": (1, 2, 2, 2),
                    "num_res_blocks": 1,
                    "batch": 1,
                    "frames": 2,
                    "height": 2,
                    "width": 3,
                },
            },  # fmt: skip
            _wan_build,
            _wan_run,
            ("batch", "frames", "height", "width"),
        ),
        ZooSpec(
            "sd-vae",
            "diffusers",
            "diffusers AutoencoderKL, SD-style 4x UpDecoderBlock2D; vae.decode of an image latent",
            {
                "full": {
                    "block_out_channels": (128, 256, 512, 512),
                    "layers_per_block": 2,
                    "norm_num_groups": 32,
                    "batch": 1,
                    "resolution": 64,
                },
                "tiny": {
                    "block_out_channels": (8, 8, 16, 16),
                    "layers_per_block": 1,
                    "norm_num_groups": 4,
                    "batch": 1,
                    "resolution": 4,
                },
            },  # fmt: skip
            _sd_build,
            _vae_run,
            ("batch", "resolution"),
        ),
        ZooSpec(
            "resnet50",
            "timm",
            "timm resnet50; an image classifier forward",
            _TIMM_SETTINGS,
            _timm_build("resnet50"),
            _call_run,
            ("batch", "resolution"),
        ),
        ZooSpec(
            "efficientnet_b0",
            "timm",
            "timm efficientnet_b0 (depthwise convs, squeeze-excite); an image classifier forward",
            _TIMM_SETTINGS,
            _timm_build("efficientnet_b0"),
            _call_run,
            ("batch", "resolution"),
        ),
    )
}


def _randn(shape: Sequence[int], device: torch.device, dtype: torch.dtype) -> torch.Tensor:
    if device.type == "meta":
        return torch.empty(tuple(shape), device=device, dtype=dtype)
    return torch.randn(tuple(shape), device=device, dtype=dtype)


# ------------------------------------------------------------------------------ library check
_LIBRARY_ERRORS: dict[str, str | None] = {}


def _library_error(library: str) -> str | None:
    """Why ``library`` cannot be used here (None: it imports). Checked once per process."""
    if library not in _LIBRARY_ERRORS:
        try:
            importlib.import_module(library)
        except Exception as exc:  # ImportError, or a broken install (torchvision's nms op)
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            _LIBRARY_ERRORS[library] = (
                f"{library} is not importable here ({type(exc).__name__}: {first}); "
                f"install it with `pip install 'pytest-magi[models]'`"
                + (
                    " (timm needs a torchvision that matches the installed torch)"
                    if library == "timm"
                    else ""
                )
            )
        else:
            _LIBRARY_ERRORS[library] = None
    return _LIBRARY_ERRORS[library]


def names() -> list[str]:
    """The zoo models usable in this environment, in a stable order."""
    return [name for name, spec in SPECS.items() if _library_error(spec.library) is None]


def all_names() -> list[str]:
    """Every zoo model, usable here or not."""
    return list(SPECS)


def unavailable() -> dict[str, str]:
    """``{name: reason}`` for the zoo models whose library does not import here."""
    out: dict[str, str] = {}
    for name, spec in SPECS.items():
        error = _library_error(spec.library)
        if error is not None:
            out[name] = error
    return out


# ----------------------------------------------------------------------------------- models
@dataclass
class ZooModel:
    """One zoo model, ready to run or compile. See the module docstring."""

    name: str
    size: str
    owner: nn.Module
    attr: str | None
    inputs: tuple[Any, ...]
    settings: Mapping[str, Any]
    spec: ZooSpec = field(repr=False)
    backend: Any = None  # what `.compile` compiled with (None: eager)
    compile_kwargs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def module(self) -> nn.Module:
        """The `nn.Module` users compile (the VAE's decoder; the whole network)."""
        return self.owner if self.attr is None else getattr(self.owner, self.attr)

    @property
    def device(self) -> torch.device:
        return next(t for t in self.inputs if isinstance(t, torch.Tensor)).device

    @property
    def dtype(self) -> torch.dtype:
        return next(t for t in self.inputs if isinstance(t, torch.Tensor)).dtype

    @property
    def compiled(self) -> bool:
        return self.backend is not None

    def run(self, *inputs: Any) -> Any:
        """The call users make (``vae.decode(z).sample``, ``model(x)``), on ``inputs`` or
        the example inputs."""
        with torch.no_grad():
            return self.spec.run(self.owner, tuple(inputs) if inputs else self.inputs)

    __call__ = run

    def compile(
        self, backend: Any = "inductor", *, isolate: str = "class", **torch_compile_kwargs: Any
    ) -> ZooModel:
        """A new `ZooModel`: a deep copy whose ``.module`` is ``torch.compile(module, ...)``.

        The copy shares nothing with this model (weights included), and its modules get
        ``forward`` code objects of their own (`magi_passes.frames.isolate_forward_code`):
        ``isolate="class"`` (default) makes the copy behave as if it were the only compiled copy
        in the process — two copies sharing the classes' code share dynamo's frames and recompile
        limits (measured on the Wan 2.2 decode on the GPU: the second copy ran its up blocks
        eagerly); ``isolate="instance"`` gives every module instance its own frames, as
        `magi_compile` does.
        """
        if self.compiled:
            raise ValueError(
                f"zoo model {self.name!r} is already compiled (backend={self.backend!r}); "
                f"call .compile() on the eager model returned by zoo.load()"
            )
        owner: Any = copy.deepcopy(self.owner)
        isolate_forward_code(owner if self.attr is None else getattr(owner, self.attr), isolate)
        if self.attr is None:
            owner = torch.compile(owner, backend=backend, **torch_compile_kwargs)
        else:
            module = getattr(owner, self.attr)
            setattr(
                owner, self.attr, torch.compile(module, backend=backend, **torch_compile_kwargs)
            )
        return dataclasses.replace(
            self,
            owner=owner,
            backend=backend,
            compile_kwargs={"isolate": isolate, **torch_compile_kwargs},
        )

    def as_module(self) -> nn.Module:
        """An ``nn.Module`` whose ``forward(*inputs)`` is ``.run()``: the whole call as one
        module (for ``inductor_codegen`` / ``kernel_counts``, which compile a module whole)."""
        return _RunModule(self.owner, self.spec.run)

    def with_inputs(self, *inputs: Any) -> ZooModel:
        """The same model (shared, not copied) with other example inputs."""
        if not inputs:
            raise ValueError("with_inputs() needs at least one input")
        return dataclasses.replace(self, inputs=tuple(inputs))

    def flops(self, **options: Any) -> int:
        """FLOPs of ``.run()`` (``torch.utils.flop_counter``), counted on a meta-device copy.

        ``options`` override the input shape as in `load` (e.g. ``frames=3``), so the cost of
        one more latent frame is ``m.flops(frames=T + 1) - m.flops(frames=T)``.
        """
        from torch.utils.flop_counter import FlopCounterMode

        settings = _settings(self.spec, self.size, {**self._input_options(), **options})
        with torch.device("meta"):
            built = self.spec.build(settings, torch.device("meta"), self.dtype)
        counter = FlopCounterMode(display=False)
        with counter, torch.no_grad():
            self.spec.run(built.owner, built.inputs)
        return int(counter.get_total_flops())

    def _input_options(self) -> dict[str, Any]:
        return {k: self.settings[k] for k in self.spec.options if k in self.settings}

    def __repr__(self) -> str:
        shapes = ", ".join(str(tuple(t.shape)) for t in self.inputs if isinstance(t, torch.Tensor))
        state = f"compiled backend={self.backend!r}" if self.compiled else "eager"
        return (
            f"ZooModel({self.name!r}, size={self.size!r}, inputs=[{shapes}], "
            f"{self.dtype}, {self.device}, {state})"
        )


class _RunModule(nn.Module):
    def __init__(self, owner: nn.Module, run: Callable[[nn.Module, tuple[Any, ...]], Any]) -> None:
        super().__init__()
        self.owner = owner
        self._run = run

    def forward(self, *inputs: Any) -> Any:
        return self._run(self.owner, inputs)


def _settings(spec: ZooSpec, size: str, options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise ValueError(
            f"zoo.load({spec.name!r}): unknown option(s) {', '.join(map(repr, unknown))}; "
            f"{spec.name!r} accepts {', '.join(spec.options)}"
        )
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(
                f"zoo.load({spec.name!r}): option {key}={value!r} must be a positive int"
            )
    return {**spec.settings[size], **options}


def _check_choice(what: str, value: Any, choices: Sequence[str]) -> None:
    if value in choices:
        return
    close = difflib.get_close_matches(str(value), list(choices), n=2)
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    raise ValueError(f"unknown zoo {what} {value!r}; choose one of {list(choices)}{hint}")


def load(
    name: str,
    size: str = "tiny",
    *,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float32,
    seed: int = 0,
    **options: Any,
) -> ZooModel:
    """Build zoo model ``name`` at ``size`` ("tiny" or "full") with random weights, in eval mode.

    ``device``/``dtype``: where the weights and example inputs live. ``seed``: weights and
    inputs are deterministic given it. ``options``: input-shape overrides (see the module
    docstring; e.g. ``load("wan2.2-vae", "full", frames=5)``). Unknown names, sizes and
    options raise ``ValueError`` naming the choices; a model whose library does not import
    here raises ``ModuleNotFoundError`` with the reason.
    """
    _check_choice("model name", name, list(SPECS))
    _check_choice("size", size, SIZES)
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise TypeError(
            f"zoo.load(dtype={dtype!r}): expected a floating torch.dtype such as torch.bfloat16"
        )
    spec = SPECS[name]
    error = _library_error(spec.library)
    if error is not None:
        raise ModuleNotFoundError(f"zoo model {name!r} needs {spec.library}: {error}")
    settings = _settings(spec, size, options)
    dev = torch.device(device)
    with torch.random.fork_rng(devices=[dev] if dev.type == "cuda" else []):
        torch.manual_seed(seed)
        built = spec.build(settings, dev, dtype)
    return ZooModel(name, size, built.owner, built.attr, built.inputs, settings, spec)


# ------------------------------------------------------------------------------------ pairs
class ZooPair:
    """Two compiled copies of one zoo model, the way users compile it: ``baseline`` (plain
    ``torch.compile``) and ``candidate`` (``backend="magi"`` by default).

    The candidate's modules get frames of their own per instance (``candidate_isolate``), as
    `magi_compile` gives them; the baseline is compiled as users compile it. Timed by
    ``@pytest.mark.min_speedup`` like a ``CompiledPair`` (the ``zoo_pair`` fixture
    registers it), or directly with ``pytest_magi.timing.measure_pair(pair)``.
    ``candidate_backend`` is the ``MagiBackend`` when the candidate is magi: its managers say
    what each pass did to each graph (``pair.fired("conv_channels_last")``).

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
        candidate_isolate: str = "instance",
        **torch_compile_kwargs: Any,
    ) -> None:
        if not isinstance(model, ZooModel):
            raise TypeError(
                f"ZooPair(model={model!r}): expected a ZooModel from pytest_magi.zoo.load(...)"
            )
        if label is not None and not isinstance(label, str):
            raise TypeError(f"ZooPair(label={label!r}): expected a str or None")
        if candidate == "magi":
            from magi_passes import MagiBackend

            candidate = MagiBackend()
        from .compile_stats import CompileStatsCollector

        self.model = model
        # what each side compiles with, as given (``locate`` compiles a side again from it)
        self.side_backends = {"baseline": baseline, "candidate": candidate}
        self.side_isolation = {"baseline": "class", "candidate": candidate_isolate}
        self.compile_kwargs = dict(torch_compile_kwargs)
        self.candidate_backend = candidate if hasattr(candidate, "managers") else None
        self._stats = {"baseline": CompileStatsCollector(), "candidate": CompileStatsCollector()}
        self._watched: set[str] = set()
        self.baseline = model.compile(
            backend=_counted(baseline, self._stats["baseline"], torch_compile_kwargs),
            **torch_compile_kwargs,
        )
        self.candidate = model.compile(
            backend=_counted(candidate, self._stats["candidate"], torch_compile_kwargs),
            isolate=candidate_isolate,
            **torch_compile_kwargs,
        )
        self.label = label or f"{model.name}-{model.size}"
        self.device = str(model.device)

    def run(self, side: str) -> Any:
        """One call of ``side`` ("baseline" or "candidate") on the model's inputs, with what
        dynamo reports meanwhile counted in ``compile_stats[side]``."""
        from .sides import check_side_name

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
        """``{side: pytest_magi.compile_stats.CompileStats}`` of the calls made through the pair."""
        return {side: c.stats() for side, c in self._stats.items()}

    @property
    def compile_note(self) -> str | None:
        """A note when the candidate compiles more graphs than the baseline."""
        from .compile_stats import more_graphs_note

        return more_graphs_note(self.compile_stats)

    def expect_compile(self, *, side: str = "both", **maximums: int) -> None:
        """Fail naming each count over its maximum, as ``CompiledPair.expect_compile``:
        ``pair.expect_compile(eager_fallbacks=0, automatic_dynamic=0, side="candidate")``."""
        from .compile_stats import check_maximums
        from .sides import check_side_name

        check_side_name(side, allow_both=True)
        check_maximums(self.compile_stats, maximums, self.label, owner="ZooPair", side=side)

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
        from .numerics import (
            REFERENCES,
            NumericsFailed,
            check_against,
            judge_against_reference,
            reference_outputs,
            verdict,
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
        dtype = {"fp32": torch.float32, "fp64": torch.float64}.get(reference, self.model.dtype)
        eager = self.model.run()
        if dtype == self.model.dtype:
            ref, eager = eager, None
        else:  # a copy of the whole call cast to the reference dtype
            ref = reference_outputs(self.model.as_module(), self.model.inputs, dtype, True)
        judgment = judge_against_reference(base, cand, ref, reference, eager=eager, against=against)
        try:
            verdict(
                judgment,
                owner=f"ZooPair {self.label!r}",
                reference_name=reference,
                against=against,
            )
        except NumericsFailed as exc:
            exc.locate = functools.partial(self.locate, exc.side)
            raise
        return f"{self.label}: " + "; ".join(judgment.lines)

    def locate(
        self, side: str = "candidate", reference: str | None = "fp32", **options: Any
    ) -> Any:
        """Where ``side``'s numbers go wrong on this zoo model: a fresh copy compiled with that
        side's backend wrapped in a ``pytest_magi.locating.LocatingBackend`` runs ``.run()`` once;
        each compiled graph is checked against the same FX graph run eagerly, and the first
        wrong graph is retried without each pass and with each Inductor setting.
        ``reference``: also judge the final output against a run at that precision (None: no).
        ``options``: ``settings``, ``fp32_rerun``, ``tolerance``, ``budget_s`` (docs/locate.md).
        """
        from .locating import LocatingBackend, check_reference
        from .sides import check_side_name

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
        compiled = self.model.compile(backend=locating, isolate=self.side_isolation[side])
        out = compiled.run()
        del compiled
        report = locating.report()
        if reference is not None and self.model.dtype in (torch.bfloat16, torch.float16):
            report.reference = check_reference(
                self.model.as_module(), self.model.inputs, out, reference,
                eager_output=self.model.run(),
            )  # fmt: skip
        return report

    def __repr__(self) -> str:
        return f"ZooPair({self.label!r}, device={self.device!r})"


class _CountedBackend:
    """A side's dynamo backend that reports each graph it compiles to the side's collector."""

    def __init__(self, backend: Callable[..., Any], collector: Any, name: str) -> None:
        self.backend = backend
        self.collector = collector
        self.name = name

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Any, **kwargs: Any) -> Any:
        self.collector.on_compile()
        return self.backend(gm, example_inputs, **kwargs)

    def __repr__(self) -> str:
        return self.name


def _counted(backend: Any, collector: Any, compile_kwargs: Mapping[str, Any]) -> Any:
    if isinstance(backend, str):
        if "mode" in compile_kwargs or "options" in compile_kwargs:
            # torch.compile applies mode/options itself only for a backend given by name
            collector.note(f"graphs of backend {backend!r} with mode/options are not counted")
            return backend
        from torch._dynamo import lookup_backend

        return _CountedBackend(lookup_backend(backend), collector, repr(backend))
    return _CountedBackend(backend, collector, repr(backend))
