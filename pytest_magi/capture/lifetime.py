"""Free what `torch.compile` keeps alive after the compiled function was dropped.

Measured (tests/test_memory.py, docs/reliability.md "Memory"): a `CompiledPair` dropped at the end
of its test stayed alive, with its FX graphs, fake tensors and generated code, until
`torch._dynamo.reset()`. Three things hold it:

1. `torch._dynamo.eval_frame.cached_backends`: every backend object given to `torch.compile` is
   kept there (so that `reset()` can reset it), whether or not anything else uses it.
2. Dynamo's cache entries live on the compiled function's *code object* (a C-level "extra" that
   Python's gc does not traverse). A backend that refers back to that code object (a pair's
   compile statistics keep `entry_code`) makes a cycle gc cannot see, so none of it is freed.
Dynamo's own `CleanupHook` removes the `__compiled_fn_*` globals it put in the function's module
once the cache entries die, so these two are all that needs undoing.

`release_compiled(functions, backends)` undoes both for the given functions and backends: it
resets their code objects' caches
(`torch._C._dynamo.eval_frame.reset_code`, as `torch._dynamo.reset()` does for every code) and
removes the backends from `cached_backends`. Only what belongs to those functions is touched;
other compiled functions keep working. Import is torch-free (the plugin loads this module).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable
from typing import Any


def _code_of(function: Any) -> types.CodeType | None:
    """The code object Dynamo caches on: the function's own, or the original of a compiled one."""
    inner = getattr(function, "_torchdynamo_orig_callable", function)
    inner = getattr(inner, "__func__", inner)  # a bound method
    code = getattr(inner, "__code__", None)
    return code if isinstance(code, types.CodeType) else None


def release_compiled(
    functions: Iterable[Callable[..., Any]], backends: Iterable[object] = ()
) -> dict[str, int]:
    """Release Dynamo's caches of `functions` and its references to `backends`.

    Call it when the compiled functions will not be called again (e.g. when a test that built
    them ends). Calling one of them afterwards compiles it afresh. Returns what was released:
    `{"codes": n, "backends": n}`.
    """
    import torch
    from torch._dynamo import eval_frame

    functions = list(functions)
    if not all(callable(f) for f in functions):
        bad = next(f for f in functions if not callable(f))
        raise TypeError(
            f"release_compiled: functions must be callables (the functions given to "
            f"torch.compile, or what it returned), got {bad!r}; fix: "
            f"release_compiled([fn], backends=[backend])"
        )
    reset_code = getattr(torch._C._dynamo.eval_frame, "reset_code", None)
    released = {"codes": 0, "backends": 0}
    for function in functions:
        code = _code_of(function)
        if code is None:
            continue
        if reset_code is not None:
            reset_code(code)
            released["codes"] += 1
    ids = {id(b) for b in backends}
    if ids:
        cached = eval_frame.cached_backends
        for key, value in list(cached.items()):
            if id(value) in ids or id(getattr(value, "compiler_fn", None)) in ids:
                del cached[key]
                released["backends"] += 1
    return released


def release_pair(pair: Any) -> dict[str, int]:
    """`release_compiled` for both compiled sides of a `CompiledPair` and their backends.

    The pair stays usable for what it recorded (code, graphs, results); calling a side again
    compiles it afresh.
    """
    functions = [
        getattr(getattr(pair, side, None), "fn", None) for side in ("baseline", "candidate")
    ]
    backends = list(getattr(pair, "backends", {}).values())
    return release_compiled([f for f in functions if callable(f)], backends)


def release_zoo_pair(pair: Any) -> dict[str, int]:
    """`release_compiled` for both sides of a `pytest_magi.zoo.ZooPair` and their backends.

    A zoo side gives each module (per class or per instance) a ``forward`` code object of its
    own, and Dynamo caches on every frame it entered: the compiled module's and each submodule's
    whose frame a graph break made. All of them are reset, so a full-size video VAE compiled in
    one test no longer holds its weights and generated code in the next. The pair stays usable
    for what it recorded; calling a side again compiles it afresh.
    """
    functions: list[Callable[..., Any]] = []
    backends: list[object] = []
    for side in ("baseline", "candidate"):
        model = getattr(pair, side, None)
        module = getattr(model, "module", None)
        if module is None:
            continue
        original = getattr(module, "_orig_mod", module)  # under torch.compile's wrapper
        functions.extend(m.forward for m in original.modules())
        backend = getattr(model, "backend", None)
        if backend is not None:
            backends.append(backend)
    return release_compiled(functions, backends)
