"""Do a compiled call's Triton kernels compute the same values under every config their
autotuner chose from? ``sweep_configs(fn, *inputs)``.

Why: Inductor autotunes each Triton kernel over a few configs (block sizes, warps) and keeps the
fastest, per process. A pointwise kernel computes every element the same way under each of
them, so its output must not depend on the choice. On the Wan 2.2 decode (torch 2.11, Triton
3.6, H100) one kernel's did: the conv input's producer wrote whole channel rows wrong under 3 of
its 6 configs, so one process decoded wrong and the next right, while Triton's CPU interpreter
ran every shape right (docs/results.md, "Wan 2.2 decode"). This sweep finds such a kernel in one
call.

How: ``fn`` is called once on strided copies of the inputs, with Inductor's
``CachingAutotuner.run`` wrapped at class level; before each kernel's first launch (by name) its
arguments are copied, strides, offsets and aliasing kept. Then, per kernel, the launcher the
autotuner kept and each of its candidate configs (compiled by the autotuner's own
``_precompile_config``) run on fresh copies of those arguments, and every tensor argument after
each run is compared, bit for bit, with the kept launcher's. A pointwise kernel whose configs
disagree is wrong under at least one of them (a miscompile below its source, or a race); a
reduction's configs may add in another order, so its differences are reported with their size
and count as disagreement only above ``REDUCTION_RTOL`` of the output's largest magnitude.

Private Inductor APIs (``launchers``, ``configs`` before precompiling, ``compile_results`` after
it, ``_precompile_config``; read from torch 2.11 and 2.13): a kernel they fail on is reported with the error and the sweep goes on. Without Triton
nothing launches through the autotuner, and the sweep is empty. The original ``run`` is put back
on exit, also on error, and every kernel gets its own launchers back.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from magi_passes.compile.decisions import sync_cuda

from ..capture.launches import config_text, kernel_name, wrapped_run
from .locate_tensors import strided_clone

#: a reduction's configs may sum in another order: differences up to this fraction of the
#: output's largest magnitude are rounding, not disagreement
REDUCTION_RTOL = 1e-2


@dataclass(frozen=True)
class ConfigRun:
    """One candidate config's run, against the kept config's run on the same arguments."""

    config: str
    differing: int = 0  # tensor elements that differ from the kept config's run
    worst: float = 0.0  # the largest |difference| among them (inf: a NaN against a number)
    error: str = ""  # it did not compile or launch

    def text(self) -> str:
        if self.error:
            return f"{self.config}: {self.error}"
        if not self.differing:
            return f"{self.config}: same"
        return f"{self.config}: {self.differing} elements differ, max |diff| {self.worst:.3g}"


@dataclass(frozen=True)
class KernelSweep:
    """One kernel: the config its autotuner kept and each candidate's run against it."""

    name: str
    kept: str
    reduction: bool = False
    runs: tuple[ConfigRun, ...] = ()
    scale: float = 0.0  # the largest |value| the kept run wrote (a reduction's yardstick)
    error: str = ""  # the kernel could not be swept

    def disagreeing(self) -> list[ConfigRun]:
        """The configs whose values differ from the kept config's (module docstring)."""
        limit = REDUCTION_RTOL * self.scale if self.reduction else 0.0
        return [r for r in self.runs if not r.error and r.differing and not r.worst <= limit]

    def text(self) -> str:
        """``"name (kept K): 3 of 6 configs disagree: A: 97920 elements differ, ...; B: ..."``."""
        head = f"{self.name} (kept {self.kept or '?'})"
        if self.error:
            return f"{head}: not swept: {self.error}"
        bad = self.disagreeing()
        tried = [r for r in self.runs if not r.error]
        if not self.runs:
            return f"{head}: no other config to compare (one config, or an autotune cache hit)"
        if not bad:
            return f"{head}: all {len(tried)} configs agree"
        details = "; ".join(r.text() for r in bad)
        return f"{head}: {len(bad)} of {len(tried)} configs disagree: {details}"


@dataclass
class _Saved:
    kernel: Any
    args: list[Any]
    kwargs: dict[str, Any] = field(default_factory=dict)


@contextlib.contextmanager
def saved_launches(pattern: str = "") -> Iterator[dict[str, _Saved]]:
    """``{kernel name: its arguments before its first launch}`` for the kernels launched in the
    block whose name contains ``pattern`` (autotuning's own benchmark runs are not launches)."""
    saved: dict[str, _Saved] = {}

    def before(kernel: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        name = kernel_name(kernel)
        if pattern in name and name not in saved and not kwargs.get("benchmark_run", False):
            saved[name] = _Saved(kernel, strided_clone(list(args)), dict(kwargs))

    with wrapped_run(before=before):
        yield saved


def _differences(got: Sequence[Any], want: Sequence[Any]) -> tuple[int, float]:
    """(differing elements, their largest |difference|) over the tensor arguments."""
    count, worst = 0, 0.0
    for g, w in zip(got, want, strict=True):
        if not isinstance(g, torch.Tensor) or not isinstance(w, torch.Tensor):
            continue
        same = g == w
        if g.is_floating_point() or g.is_complex():
            same = same | (g.isnan() & w.isnan())
        differing = int((~same).sum())
        if differing:
            count += differing
            diff = (g.double() - w.double()).abs()
            worst = max(worst, float(diff.nan_to_num(math.inf).max()))
    return count, worst


def _largest(values: Sequence[Any]) -> float:
    tensors = [v for v in values if isinstance(v, torch.Tensor) and v.is_floating_point()]
    return max((float(t.abs().nan_to_num(0).max()) for t in tensors if t.numel()), default=0.0)


def _run_with(saved: _Saved, launcher: Any) -> list[Any]:
    kernel = saved.kernel
    kernel.launchers = [launcher]
    fresh = strided_clone(saved.args)
    kernel.run(*fresh, **saved.kwargs)
    sync_cuda(fresh)
    return fresh


def _candidates(kernel: Any) -> list[tuple[Any, Any]]:
    """``[(config, its compile result or None)]``: the configs the autotuner chose from. Before
    precompiling it holds them in ``configs``; after (torch 2.11 and 2.13 set ``configs`` to
    None) each survives as a compile result, which is reused rather than compiled again. An
    autotune cache hit leaves only the cached config."""
    configs = getattr(kernel, "configs", None)
    if configs:
        return [(config, None) for config in configs]
    results = getattr(kernel, "compile_results", None) or []
    return [(getattr(r, "config", None), r) for r in results]


def _launcher(kernel: Any, config: Any, result: Any = None) -> Any:
    """A launcher of ``kernel`` for ``config``, made as the autotuner makes its own: from
    ``result`` (its compile result) or, without one, compiled by the autotuner's own code."""
    if result is None:
        if getattr(getattr(kernel, "fn", None), "fn", "") is None and hasattr(
            kernel, "_reload_kernel"
        ):
            kernel.fn = kernel._reload_kernel().fn  # compiled in a worker process: load it here
        result = kernel._precompile_config(config)
    maker = getattr(kernel, "_make_launcher", None)  # torch 2.13: (launcher, error)
    if maker is None:
        return result.make_launcher()  # torch 2.11
    launcher, error = maker(result)
    if launcher is None:
        raise error if isinstance(error, BaseException) else RuntimeError("no launcher")
    return launcher


def sweep_kernel(name: str, saved: _Saved) -> KernelSweep:
    """Each candidate config of one saved kernel launch against the config its autotuner kept."""
    kernel = saved.kernel
    kept = list(getattr(kernel, "launchers", None) or [])
    if not kept:
        return KernelSweep(name, "", error="no launcher: never compiled")
    kept_config = getattr(kept[0], "config", None)
    kept_text = config_text(kept_config)
    reduction = any(k.startswith("R") for k in getattr(kept_config, "kwargs", None) or {})
    try:
        want = _run_with(saved, kept[0])
        runs: list[ConfigRun] = []
        seen = {kept_text}
        for config, result in _candidates(kernel):
            text = config_text(config)
            if text in seen:
                continue
            seen.add(text)
            try:
                got = _run_with(saved, _launcher(kernel, config, result))
            except Exception as error:  # noqa: BLE001 - reported; the other configs still run
                runs.append(ConfigRun(text, error=f"{type(error).__name__}: {error}"[:200]))
                continue
            differing, worst = _differences(got, want)
            runs.append(ConfigRun(text, differing, worst))
        return KernelSweep(name, kept_text, reduction, tuple(runs), _largest(want))
    except Exception as error:  # noqa: BLE001 - a private API that changed: reported
        return KernelSweep(
            name, kept_text, reduction, error=f"{type(error).__name__}: {error}"[:300]
        )
    finally:
        kernel.launchers = kept


def sweep_configs(fn: Callable[..., Any], *inputs: Any, pattern: str = "") -> list[KernelSweep]:
    """Call ``fn`` once on strided copies of ``inputs`` and sweep every Triton kernel it
    launched (those whose name contains ``pattern``): module docstring. In launch order."""
    if not callable(fn):
        raise TypeError(f"sweep_configs(fn, ...): fn must be callable, got {fn!r}")
    if not isinstance(pattern, str):
        raise TypeError(f"sweep_configs(pattern=...) must be a str, got {pattern!r}")
    with saved_launches(pattern) as saved:
        fn(*strided_clone(list(inputs)))
    return [sweep_kernel(name, launch) for name, launch in saved.items()]


def sweep_lines(sweeps: Sequence[KernelSweep]) -> list[str]:
    """One line per kernel whose configs disagree or that could not be swept."""
    return [s.text() for s in sweeps if s.error or s.disagreeing()]
