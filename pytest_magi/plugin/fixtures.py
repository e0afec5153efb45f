"""The magi fixtures. Thin: the logic lives in `config_guard`, `pair`, `codegen`, `models`,
`zoo` and `snapshots`, imported when a fixture is first used (loading the plugin imports none).

- `config_patch`: patch `torch._inductor.config` until the test ends (or for a `with` block).
- `compiled_pair`: build a `CompiledPair` (baseline vs candidate compilation); `min_speedup`
  tests time the pairs built here.
- `VAEDecoderLike`: the conv3d-heavy reference model class.
- `inductor_codegen` / `kernel_counts`: generated code and Triton kernel counts of a function;
  every count is recorded for the session's kernel-count table and `--magi-report`.
- `decision_cache`: a per-test folder for the magi backend's measured pass decisions.
- `triton_snapshot`, `fx_snapshot`, `signature_snapshot`: syrupy's `snapshot` with a magi
  extension bound (`pytest_magi.snapshots`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pytest

from .session import CONFIG_PATCHES_KEY, PAIRS_KEY, record_kernel_counts

if TYPE_CHECKING:
    from syrupy.assertion import SnapshotAssertion

    from ..capture.config_guard import ConfigPatchStack
    from ..codegen import GeneratedCode, KernelCounts
    from ..models import VAEDecoderLike as VAEDecoderLikeClass
    from ..pair import CompiledPair


def _label_of(fn: Any) -> str:
    for attr in ("__qualname__", "__name__"):
        name = getattr(fn, attr, None)
        if isinstance(name, str):
            return name.replace("<locals>.", "")
    return type(fn).__name__


def _describe(kwargs: Mapping[str, Any]) -> str:
    """What sets one call apart from another of the same function: ``[passes=A+B, dynamic]``."""
    parts: list[str] = []
    passes = kwargs.get("passes")
    if passes is not None:
        names = [getattr(p, "__name__", None) or type(p).__name__ for p in passes]
        parts.append(f"passes={'+'.join(names) or 'none'}")
    patched = kwargs.get("inductor_config")
    if patched:
        parts.append(", ".join(f"{k}={v!r}" for k, v in sorted(dict(patched).items())))
    config = kwargs.get("config")
    if config is not None:
        parts.append(f"config={type(config).__name__}")
    if kwargs.get("dynamic_dims"):
        parts.append(f"dynamic_dims={dict(kwargs['dynamic_dims'])}")
    return f" [{', '.join(parts)}]" if parts else ""


def _row_label(fn: Any, label: str | None, kwargs: Mapping[str, Any]) -> str:
    return label if label is not None else _label_of(fn) + _describe(kwargs)


def _check_label(label: Any) -> None:
    if label is not None and not isinstance(label, str):
        raise TypeError(
            f"label={label!r}: expected a str naming the row in the kernel-count table (or None "
            f"for the function's name)"
        )


@pytest.fixture
def config_patch(request: pytest.FixtureRequest) -> Iterator[ConfigPatchStack]:
    """Patch `torch._inductor.config`: `config_patch({"triton.max_tiles": 2})` or
    `config_patch(triton__max_tiles=2)`; restored when the test ends, or at the end of
    `with config_patch(...):`. Unknown keys fail with close matches."""
    from ..capture.config_guard import ConfigPatchStack

    stack = ConfigPatchStack()
    request.node.stash[CONFIG_PATCHES_KEY] = stack
    try:
        yield stack
    finally:
        stack.restore_all()
        del request.node.stash[CONFIG_PATCHES_KEY]


@pytest.fixture
def compiled_pair(request: pytest.FixtureRequest) -> Iterator[Callable[..., CompiledPair]]:
    """Factory: `compiled_pair(model, *example_inputs, passes=None, inductor_config=None,
    dynamic_dims=None, backward=False, baseline=None, candidate=None, label=None) ->
    CompiledPair` (see `pytest_magi.pair.CompiledPair.build`). `min_speedup` tests time every
    pair built; `no_graph_breaks` / `no_recompiles` tests check each; every pair's compile
    health goes to the session's compile table and `--magi-report`."""
    pairs: list[Any] = request.node.stash.setdefault(PAIRS_KEY, [])

    def build(
        model: Any,
        *example_inputs: Any,
        passes: Sequence[Any] | None = None,
        inductor_config: Mapping[str, Any] | None = None,
        dynamic_dims: Mapping[int, int | Sequence[int]] | None = None,
        backward: bool = False,
        baseline: Any = None,
        candidate: Any = None,
        label: str | None = None,
    ) -> CompiledPair:
        from ..pair import CompiledPair

        pair = CompiledPair.build(
            model,
            *example_inputs,
            passes=passes,
            inductor_config=inductor_config,
            dynamic_dims=dynamic_dims,
            backward=backward,
            baseline=baseline,
            candidate=candidate,
            label=label,
        )
        pairs.append(pair)
        return pair

    yield build
    # the compiled models are not kept alive past the test: Dynamo's caches, globals and
    # cached backends let go of each pair (pytest_magi.capture.lifetime, docs/reliability.md "Memory")
    from ..capture.lifetime import release_pair

    for pair in pairs:
        release_pair(pair)
    pairs.clear()


@pytest.fixture
def VAEDecoderLike() -> type[VAEDecoderLikeClass]:  # noqa: N802 - named after the class
    """The conv3d-heavy VAE-decoder-like model class (`VAEDecoderLike("tiny")`, `"540p"`)."""
    from ..models import VAEDecoderLike as cls

    return cls


@pytest.fixture
def inductor_codegen(request: pytest.FixtureRequest) -> Callable[..., GeneratedCode]:
    """`inductor_codegen(fn, *inputs, dynamic_dims=None, backward=False, config=None,
    inductor_config=None, passes=None, label=None) -> GeneratedCode` (see
    `pytest_magi.codegen.inductor_codegen`)."""

    def generate(fn: Any, *inputs: Any, label: str | None = None, **kwargs: Any) -> GeneratedCode:
        from ..codegen import inductor_codegen as _inductor_codegen
        from ..report import KernelCountRecord

        _check_label(label)
        code = _inductor_codegen(fn, *inputs, **kwargs)
        backward = len(code.backward) if "backward" in code.graph_kinds else None
        record_kernel_counts(
            request.node,
            KernelCountRecord(
                request.node.nodeid, _row_label(fn, label, kwargs), len(code.forward), backward
            ),
        )
        return code

    return generate


@pytest.fixture
def kernel_counts(request: pytest.FixtureRequest) -> Callable[..., KernelCounts]:
    """`kernel_counts(fn, *inputs, dynamic_dims=None, backward=False, config=None,
    inductor_config=None, passes=None, label=None)` -> `KernelCounts(forward, backward)` (see
    `pytest_magi.codegen.kernel_counts`)."""

    def count(fn: Any, *inputs: Any, label: str | None = None, **kwargs: Any) -> KernelCounts:
        from ..codegen import kernel_counts as _kernel_counts
        from ..report import KernelCountRecord

        _check_label(label)
        counts = _kernel_counts(fn, *inputs, **kwargs)
        record_kernel_counts(
            request.node,
            KernelCountRecord(
                request.node.nodeid, _row_label(fn, label, kwargs), counts.forward, counts.backward
            ),
        )
        return counts

    return count


@pytest.fixture
def zoo_pair(request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """Factory: `zoo_pair(name, size="tiny", *, device="cpu", dtype=torch.float32,
    baseline="inductor", candidate="magi", label=None, candidate_form="auto", **load_options)
    -> pytest_magi.zoo.ZooPair`: a real zoo model (`pytest_magi.zoo.load`) compiled both ways, as
    users compile it (a magi candidate in the model's compile form, `magi_passes.forms`, unless
    ``candidate_form=None``); timed by `min_speedup` like a `compiled_pair`. A model whose
    library is not importable here skips the test with the reason."""
    pairs: list[Any] = request.node.stash.setdefault(PAIRS_KEY, [])

    def build(
        name: str,
        size: str = "tiny",
        *,
        baseline: Any = "inductor",
        candidate: Any = "magi",
        label: str | None = None,
        candidate_form: Any = "auto",
        **load_kwargs: Any,
    ) -> Any:
        from .. import zoo

        missing = zoo.unavailable()
        if name in missing:
            pytest.skip(f"zoo model {name!r}: {missing[name]}")
        model = zoo.load(name, size, **load_kwargs)
        pair = zoo.ZooPair(
            model,
            baseline=baseline,
            candidate=candidate,
            label=label,
            candidate_form=candidate_form,
        )
        pairs.append(pair)
        return pair

    yield build
    # a full-size model compiled twice is memory the next test needs: Dynamo's caches on the
    # sides' frames and the cached backends let go of it (pytest_magi.capture.lifetime), and the CUDA
    # caching allocator gives its blocks back, so each zoo test starts from what it allocates
    import gc

    import torch

    from ..capture.lifetime import release_zoo_pair

    for pair in pairs:
        release_zoo_pair(pair)
    pairs.clear()
    gc.collect()
    if torch.cuda.is_initialized():
        torch.cuda.empty_cache()


@pytest.fixture
def decision_cache(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fresh, empty on-disk cache of the magi backend's measured pass decisions for this test
    (`magi_passes.decisions`): `MAGI_DECISION_CACHE_DIR` points into the test's `tmp_path`
    until it ends, so decisions measured here never serve another test. Yields the
    `DecisionCache`. Decision files (`MAGI_DECISIONS_FILE`) are not read while it lasts, so a
    decision is measured. Without it, decisions go to the worker's own Inductor cache folder."""
    from magi_passes.compile.decision_files import FILES_ENV
    from magi_passes.compile.decisions import CACHE_ENV, DecisionCache

    folder = tmp_path / "magi_decisions"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    monkeypatch.delenv(FILES_ENV, raising=False)
    return DecisionCache(folder)


@pytest.fixture
def triton_snapshot(snapshot: SnapshotAssertion, request: pytest.FixtureRequest) -> Any:
    """syrupy's `snapshot` storing normalised generated code (`TritonCodeExtension`, `.py`)."""
    from ..snapshots import TritonCodeExtension, skip_without_device_snapshots, use_code_extension

    skip_without_device_snapshots(request)
    return use_code_extension(snapshot, TritonCodeExtension)


@pytest.fixture
def fx_snapshot(snapshot: SnapshotAssertion, request: pytest.FixtureRequest) -> Any:
    """syrupy's `snapshot` storing normalised post-pass FX graphs (`FxGraphExtension`)."""
    from ..snapshots import FxGraphExtension, skip_without_device_snapshots

    skip_without_device_snapshots(request)
    return snapshot.use_extension(FxGraphExtension)


@pytest.fixture
def signature_snapshot(snapshot: SnapshotAssertion, request: pytest.FixtureRequest) -> Any:
    """syrupy's `snapshot` storing `GeneratedCode.signature()` (`SignatureExtension`)."""
    from ..snapshots import SignatureExtension, skip_without_device_snapshots

    skip_without_device_snapshots(request)
    return snapshot.use_extension(SignatureExtension)


@pytest.fixture
def perf_budget() -> Callable[..., Any]:
    """`perf_budget(fn, *inputs, profile="h200", dynamic_dims=None, backward=False, passes=None,
    inductor_config=None) -> Budget` (see `pytest_magi.budget`): what one call of the generated
    CUDA code costs, from code generated without running it (fake CUDA on a CPU)."""
    from ..budget import budget

    return budget


@pytest.fixture
def budget_snapshot(snapshot: SnapshotAssertion, request: pytest.FixtureRequest) -> Any:
    """syrupy's `snapshot` storing budgets as `.budget.json`, compared within bands
    (`pytest_magi.budget.snapshot`; other bands: `.use_extension(budget_bands(bytes=0.05))`)."""
    from ..budget.snapshot import BudgetSnapshotExtension
    from ..snapshots import skip_without_device_snapshots

    skip_without_device_snapshots(request)
    return snapshot.use_extension(BudgetSnapshotExtension)
