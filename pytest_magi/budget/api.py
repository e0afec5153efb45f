"""`budget(fn, *inputs, profile="h200", ...)`: generate a function's CUDA code (fake CUDA where
there is no GPU) with Inductor's cost accounting on, and turn it into a `Budget`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .accounting import (
    ACCOUNTING_CONFIG,
    extern_costs_by_graph,
    kernel_bytes,
    kernel_flops,
    kernel_index_divmods,
    recorded_extern_calls,
)
from .profiles import Profile, get_profile
from .result import Budget, GraphBudget, LaunchCost


class BudgetError(RuntimeError):
    """The code of a function could not be generated for a budget."""


def _label_of(fn: Any) -> str:
    for attr in ("__qualname__", "__name__"):
        name = getattr(fn, attr, None)
        if isinstance(name, str) and not isinstance(fn, type):
            return name.replace("<locals>.", "")
    return type(fn).__name__


def budget(
    fn_or_model: Callable[..., Any],
    *inputs: Any,
    profile: str | Profile | Mapping[str, Any] = "h200",
    dynamic_dims: Mapping[int, int | Sequence[int]] | None = None,
    backward: bool = False,
    passes: Sequence[Any] | None = None,
    inductor_config: Mapping[str, Any] | None = None,
    config: Any = None,
    label: str | None = None,
) -> Budget:
    """The :class:`Budget` of one call of ``fn_or_model(*inputs)``'s generated CUDA code.

    Arguments as :func:`pytest_magi.codegen.inductor_codegen` (``config``: a
    ``magi_passes.PassConfig`` to generate with the magi passes); ``profile``: ``"h200"``,
    ``"h100"``, a :class:`Profile` or a dict of its fields. The code is generated, never run:
    the same inputs give the same budget on any machine of one torch version.
    """
    resolved = get_profile(profile)
    if label is not None and not isinstance(label, str):
        raise TypeError(f"label={label!r}: expected a str or None")
    import torch

    from ..capture.codegen import inductor_codegen
    from ..capture.core import validate_inductor_config
    from ..capture.kernels import KernelParseError

    patches = {**validate_inductor_config("inductor_config", inductor_config), **ACCOUNTING_CONFIG}
    try:
        with recorded_extern_calls() as records:
            code = inductor_codegen(
                fn_or_model,
                *inputs,
                dynamic_dims=dynamic_dims,
                backward=backward,
                config=config,
                inductor_config=patches,
                passes=passes,
            )
    except (TypeError, ValueError, KernelParseError):
        raise  # the arguments' own errors, already saying what to change
    except Exception as exc:
        raise BudgetError(_generation_failure(fn_or_model, exc, torch.__version__)) from exc
    return budget_of(code, records, resolved, label or _label_of(fn_or_model))


def _generation_failure(fn: Any, exc: BaseException, version: str) -> str:
    where = "fake CUDA (no GPU here)" if not _real_gpu() else "the GPU"
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    return (
        f"budget: Inductor could not generate CUDA code for {_label_of(fn)} under {where}, "
        f"torch {version}: {type(exc).__name__}: {first}. The budget comes from code generated "
        "without running it, so a model must trace with dynamo and lower through Inductor on "
        "fake cuda tensors: no reading tensor values (.item(), .tolist(), data-dependent "
        "control flow), no direct torch.cuda calls, no op without a fake (meta) "
        "implementation. Check that torch.compile(fn) compiles it, and see the chained "
        "exception for where it failed"
    )


def _real_gpu() -> bool:
    from ..capture.fake_cuda import real_cuda_available

    return bool(real_cuda_available())


def budget_of(code: Any, records: Sequence[Any], profile: Profile, label: str) -> Budget:
    """A :class:`Budget` from generated code (``GeneratedCode`` of an accounting run) and its
    extern records (:func:`pytest_magi.budget.accounting.recorded_extern_calls`)."""
    import torch

    captured = list(code.captured)
    externs = extern_costs_by_graph([g.extern_calls for g in captured], records)
    graphs = []
    for graph, extern_records in zip(captured, externs, strict=True):
        by_name = {k.name: k for k in graph.kernels if k.kind != "cpp"}
        remaining = list(extern_records)
        launches = []
        for call in graph.calls:
            kernel = by_name.get(call)
            if kernel is not None:
                launches.append(
                    LaunchCost(
                        call,
                        kernel.kind,
                        kernel_bytes(kernel.source),
                        kernel_flops(kernel.source),
                        index_divmods=kernel_index_divmods(kernel.source),
                    )
                )
                continue
            record = remaining.pop(0) if remaining else None
            launches.append(
                LaunchCost(
                    call,
                    "extern",
                    None if record is None else record.bytes,
                    None if record is None else record.flops,
                    None if record is None else record.dtype,
                    None if record is None else record.layout,
                )
            )
        graphs.append(GraphBudget(graph.kind, tuple(by_name), tuple(launches)))
    return Budget(
        graphs,
        profile,
        label=label,
        device=code.device,
        torch_version=".".join(torch.__version__.split("+")[0].split(".")[:2]),
    )
