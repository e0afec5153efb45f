"""`pytest_magi.models.zoo`: real models from the libraries people use, random weights, never a download.

Every model is built from its own library's classes (diffusers, timm) with random initialisation,
at two sizes: ``"tiny"`` (CPU tests and fake-CUDA codegen: seconds to compile) and ``"full"`` (the
real size, for the GPU benchmarks in ``benchmarks/zoo.py``). A model whose library is not
importable here, or whose class the installed version lacks, is absent from `names()`;
`unavailable()` says why (checked by name when listed, never by building).

| name | library class | what `.module` is | what `.run()` does |
| --- | --- | --- | --- |
| ``wan2.2-vae`` | diffusers ``AutoencoderKLWan``, Wan 2.2 TI2V-5B config | ``vae.decoder`` | ``vae.decode(z).sample`` (per-frame causal chunks) |
| ``sd-vae`` | diffusers ``AutoencoderKL``, SD-style 4x ``UpDecoderBlock2D`` | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``resnet50`` | timm | the network | ``model(x)`` |
| ``efficientnet_b0`` | timm | the network | ``model(x)`` |
| ``cogvideox-vae`` | diffusers ``AutoencoderKLCogVideoX``, CogVideoX-2b | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``hunyuanvideo-vae`` | diffusers ``AutoencoderKLHunyuanVideo``, HunyuanVideo | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``hunyuanvideo1.5-vae`` | diffusers ``AutoencoderKLHunyuanVideo15``, HunyuanVideo-1.5 | ``vae.decoder`` | ``vae.decode(z).sample`` (loop-free causal mask: `causal_frame_mask`) |
| ``ltx-video-vae`` | diffusers ``AutoencoderKLLTXVideo``, LTX-Video 0.9.0 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``ltx2-video-vae`` | diffusers ``AutoencoderKLLTX2Video``, LTX-2 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``mochi-vae`` | diffusers ``AutoencoderKLMochi``, Mochi 1 preview | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``allegro-vae`` | diffusers ``AutoencoderKLAllegro``, Allegro | ``vae.decoder`` | ``vae.decode(z).sample`` (tiled: its only decode) |
| ``easyanimate-vae`` | diffusers ``AutoencoderKLMagvit``, EasyAnimate V5.1 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``cosmos-vae`` | diffusers ``AutoencoderKLCosmos``, Cosmos-1.0 CV8x8x8 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``kvae-3d-vae`` | diffusers ``AutoencoderKLKVAEVideo``, KVAE-3D-1.0 | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``minimax-h3-vae`` | diffusers ``AutoencoderKLMiniMaxH3``, MiniMax-H3 (ViT decoder) | ``vae.decoder`` | ``vae.decode(z).sample`` (tiling off) |
| ``vidtok-vae`` | diffusers ``AutoencoderVidTok``, VidTok KL causal 4x8x8 | ``vae.decoder`` | ``vae.decode(z)`` |
| ``kandinsky6-sr-vae`` | diffusers ``Kandinsky6SRVAE``, Kandinsky 6 SR K-VAE | ``vae.decoder`` | ``vae.decode(z).sample`` |
| ``svd-vae`` | diffusers ``AutoencoderKLTemporalDecoder``, SVD img2vid | ``vae.decoder`` | ``vae.decode(z, frames).sample`` |

Sizes (``full``): Wan latent (1, 48, 21, 34, 60) — a 540p video of 81 frames; SD latent
(1, 4, 64, 64) — a 512x512 image; timm batch 16 at 224x224; the other video VAEs at their
model's own resolution and a few latent frames (T=3, or one tile / clip / VidTok's 17 frames;
`VIDEO_VAES` lists them, each spec's comment gives its latent). Options of `load` change the
input shape (``frames`` for the Wan decode, ``batch``, ``frames``, ``height`` and ``width`` of
the latent for the other video VAEs, ``batch`` and ``resolution`` for the others).

`ZooModel.compile(backend=...)` compiles ``.module`` *in place on a copy* of the whole model, the
way users do it (``vae.decoder = torch.compile(vae.decoder)``), and returns a new `ZooModel` whose
``.run()`` goes through the compiled module. ``.flops()`` counts the FLOPs of ``.run()`` with
``torch.utils.flop_counter.FlopCounterMode`` on a copy built on the meta device (no memory, no
compute), so it is cheap even at full size.
"""

from __future__ import annotations

import contextlib
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

from magi_passes.compile.dynamo_fixes import attach_call_options
from magi_passes.compile.frames import isolate_forward_code
from magi_passes.compile.weights import convert_conv_parameters

from .zoo_builders import ZooSpec, randn
from .zoo_specs import SIZES, SPECS

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


@functools.cache
def _export_error(library: str, export: str) -> str | None:
    """Why ``library`` (which imports) has no usable ``export`` here (None: it has). Looks the
    name up (diffusers imports its submodule then), builds nothing."""
    module = importlib.import_module(library)
    version = getattr(module, "__version__", "(unknown version)")
    upgrade = f"upgrade it with `pip install -U {library}`"
    try:
        getattr(module, export)
    except AttributeError:
        return f"{library} {version} has no {export} (a later release adds it); {upgrade}"
    except Exception as exc:  # the submodule fails to import (a missing optional dependency)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return (
            f"{library} {version} cannot import {export} ({type(exc).__name__}: {first}); "
            f"{upgrade}, or `pip install` what it names"
        )
    return None


def _spec_error(spec: ZooSpec) -> str | None:
    """Why zoo model ``spec`` cannot be built here (None: it can)."""
    error = _library_error(spec.library)
    if error is not None:
        return error
    return next(
        (e for e in (_export_error(spec.library, n) for n in spec.needs) if e is not None), None
    )


def names() -> list[str]:
    """The zoo models usable in this environment, in a stable order."""
    return [name for name, spec in SPECS.items() if _spec_error(spec) is None]


def all_names() -> list[str]:
    """Every zoo model, usable here or not."""
    return list(SPECS)


def unavailable() -> dict[str, str]:
    """``{name: reason}`` for the zoo models that cannot be built here: their library does not
    import, or lacks the class (`ZooSpec.needs`) in the installed version."""
    out: dict[str, str] = {}
    for name, spec in SPECS.items():
        error = _spec_error(spec)
        if error is not None:
            out[name] = error
    return out


# ----------------------------------------------------------------------------------- models
def regional_blocks(module: Any) -> list[tuple[Any, str, Any]]:
    """The instances of the block class ``module`` repeats most, each as (parent, attribute
    name, block): what compiling a model block by block compiles, one graph or more each. A
    block is a submodule with submodules of its own (containers aside); among classes with as
    many instances, the one with more parameters; a block inside another is left to it. []
    where no block class repeats."""
    containers = (nn.ModuleList, nn.ModuleDict, nn.Sequential)
    found: dict[type, list[tuple[Any, str, Any]]] = {}
    for parent in module.modules():
        for attr, child in parent.named_children():
            if not isinstance(child, containers) and next(child.children(), None) is not None:
                found.setdefault(type(child), []).append((parent, attr, child))
    repeated = [c for c, items in found.items() if len(items) > 1]
    if not repeated:
        return []

    def weight(c: type) -> tuple[int, int]:
        return len(found[c]), sum(p.numel() for _, _, b in found[c] for p in b.parameters())

    chosen = found[max(repeated, key=weight)]
    inner = {
        id(m) for _, _, block in chosen for m in block.modules() if m is not block
    }  # instances nested in another instance
    return [item for item in chosen if id(item[2]) not in inner]


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
        self,
        backend: Any = "inductor",
        *,
        isolate: str = "class",
        dynamo_fixes: bool = False,
        contiguous_inputs: bool = False,
        channels_last_parameters: bool = False,
        regional: bool = False,
        **torch_compile_kwargs: Any,
    ) -> ZooModel:
        """A new `ZooModel`: a deep copy whose ``.module`` is ``torch.compile(module, ...)``.

        The copy shares nothing with this model (weights included), and its modules get
        ``forward`` code objects of their own (`magi_passes.frames.isolate_forward_code`):
        ``isolate="class"`` (default) makes the copy behave as if it were the only compiled copy
        in the process — two copies sharing the classes' code share dynamo's frames and recompile
        limits (measured on the Wan 2.2 decode on the GPU: the second copy ran its up blocks
        eagerly); ``isolate="instance"`` gives every module instance its own frames, as
        `magi_compile` does; ``isolate="root"`` gives the compiled module alone one (enough for
        a model that is one graph, and dynamo then traces its submodules as torch.compile does:
        `magi_passes.frames.isolate_forward_code`). ``dynamo_fixes=True`` runs every call of
        the compiled module inside `magi_passes.dynamo_fixes.tensor_constant_compare`, and
        ``contiguous_inputs=True`` makes its positional tensor arguments contiguous first
        (`magi_passes.dynamo_fixes.attach_contiguous_inputs`), as `magi_compile` does with them;
        ``channels_last_parameters=True`` lays the copy's conv weights out channels-last first
        (`magi_passes.channels_last.convert_conv_parameters`; the eager model is not touched).
        ``regional=True`` compiles block by block instead: each instance of the block class
        ``.module`` repeats most (`regional_blocks`) is replaced by its compiled copy, the
        module around them stays eager; ``isolate="class"`` then lets the instances share
        dynamo's frames, as torch.compile's do, and ``"instance"`` gives each its own, as
        ``magi_compile(block)`` does.
        """
        for name, value in (
            ("dynamo_fixes", dynamo_fixes),
            ("contiguous_inputs", contiguous_inputs),
            ("channels_last_parameters", channels_last_parameters),
            ("regional", regional),
        ):
            if not isinstance(value, bool):
                raise TypeError(f"ZooModel.compile({name}={value!r}): expected True or False")
        if regional and (dynamo_fixes or contiguous_inputs):
            raise ValueError(
                "ZooModel.compile(regional=True) compiles blocks, whose calls the model makes; "
                "dynamo_fixes and contiguous_inputs wrap the module's own call: fix: drop them"
            )
        if self.compiled:
            raise ValueError(
                f"zoo model {self.name!r} is already compiled (backend={self.backend!r}); "
                f"call .compile() on the eager model returned by zoo.load()"
            )
        owner: Any = copy.deepcopy(self.owner)
        target = owner if self.attr is None else getattr(owner, self.attr)
        if channels_last_parameters:
            convert_conv_parameters(target)
        isolate_forward_code(target, isolate)
        if regional:
            return self._compiled_by_block(owner, target, backend, isolate, torch_compile_kwargs)
        if self.attr is None:
            owner = compiled = torch.compile(owner, backend=backend, **torch_compile_kwargs)
        else:
            module = getattr(owner, self.attr)
            compiled = torch.compile(module, backend=backend, **torch_compile_kwargs)
            setattr(owner, self.attr, compiled)
        assert isinstance(compiled, nn.Module)  # torch.compile of a module is a module
        attach_call_options(
            compiled, dynamo_fixes=dynamo_fixes, contiguous_inputs=contiguous_inputs
        )
        return dataclasses.replace(
            self,
            owner=owner,
            backend=backend,
            compile_kwargs={
                "isolate": isolate,
                "dynamo_fixes": dynamo_fixes,
                "contiguous_inputs": contiguous_inputs,
                "channels_last_parameters": channels_last_parameters,
                **torch_compile_kwargs,
            },
        )

    def _compiled_by_block(
        self, owner: Any, target: nn.Module, backend: Any, isolate: str, kwargs: dict[str, Any]
    ) -> ZooModel:
        """`compile(regional=True)`'s copy: each of ``target``'s `regional_blocks` compiled in
        its place."""
        blocks = regional_blocks(target)
        if not blocks:
            raise ValueError(
                f"ZooModel.compile(regional=True): {self.name!r} repeats no block (no submodule "
                f"class with submodules of its own appears twice); fix: compile it whole"
            )
        for parent, attr, block in blocks:
            setattr(parent, attr, torch.compile(block, backend=backend, **kwargs))
        return dataclasses.replace(
            self,
            owner=owner,
            backend=backend,
            compile_kwargs={"isolate": isolate, "regional": True, **kwargs},
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

    def with_frames(self, frames: int) -> ZooModel:
        """The same model (shared, not copied) with a new latent of ``frames`` latent frames:
        its first input's dim 2 at ``frames``, drawn like its own (standard normal, on its device
        and in its dtype), the other inputs kept. For the video decoders whose latent is
        ``(batch, channels, frames, height, width)`` (the Wan 2.2 decode, most of
        `VIDEO_VAES`); a model with another first input raises ``ValueError``. One compiled
        copy decoding several lengths is how a wrong Wan decode on the GPU came about."""
        if isinstance(frames, bool) or not isinstance(frames, int) or frames < 1:
            raise ValueError(
                f"with_frames(frames={frames!r}): expected a positive number of latent frames, "
                f"e.g. with_frames(5)"
            )
        z, *rest = self.inputs
        if not isinstance(z, torch.Tensor) or z.dim() != 5:
            got = tuple(z.shape) if isinstance(z, torch.Tensor) else type(z).__name__
            raise ValueError(
                f"zoo model {self.name!r}: with_frames needs a (batch, channels, frames, height, "
                f"width) latent as its first input, got {got}: only the video decoders with "
                f"such a latent have latent frames to change (zoo.VIDEO_VAES)"
            )
        shape = list(z.shape)
        shape[2] = frames
        return self.with_inputs(randn(shape, z.device, z.dtype), *rest)

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

    ``device``/``dtype``: where the weights and example inputs live; ``device="meta"`` builds
    on the meta device (no memory, no compute: shapes, ``.run()`` shapes and ``.flops()``, even
    at full size). ``seed``: weights and inputs are deterministic given it. ``options``:
    input-shape overrides (see the module docstring; e.g. ``load("wan2.2-vae", "full",
    frames=5)``). Unknown names, sizes and options raise ``ValueError`` naming the choices; a
    model whose library does not import here, or lacks its class, raises
    ``ModuleNotFoundError`` with the reason.
    """
    _check_choice("model name", name, list(SPECS))
    _check_choice("size", size, SIZES)
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise TypeError(
            f"zoo.load(dtype={dtype!r}): expected a floating torch.dtype such as torch.bfloat16"
        )
    spec = SPECS[name]
    error = _spec_error(spec)
    if error is not None:
        raise ModuleNotFoundError(f"zoo model {name!r} needs {spec.library}: {error}")
    settings = _settings(spec, size, options)
    dev = torch.device(device)
    with torch.random.fork_rng(devices=[dev] if dev.type == "cuda" else []):
        torch.manual_seed(seed)
        # on meta the model is created there (a full-size model never exists in memory)
        with torch.device(dev) if dev.type == "meta" else contextlib.nullcontext():
            built = spec.build(settings, dev, dtype)
    return ZooModel(name, size, built.owner, built.attr, built.inputs, settings, spec)
