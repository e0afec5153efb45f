"""Dynamo fixes `magi_compile(..., dynamo_fixes=True)` applies while dynamo traces a model's calls.

A graph break is a correctness-neutral, speed-costly event; one that dynamo cannot resume from
makes it run the rest of the function eagerly. On torch 2.11 comparing a tensor with a string
(``feat_cache[idx] == "Rep"``, which the Wan 2.2 VAE's temporal upsamplers do on every chunk
after the second) is such a break: dynamo traces ``Tensor.__eq__("Rep")`` as a graph op, its
fake value is ``NotImplemented`` ("torch.* op returned non-Tensor"), and the decoder splits into
dozens of graphs with eager code between them (a few with this fix, as torch 2.13 traces it
unpatched).

Python answers that comparison without the tensor: ``Tensor.__eq__`` returns ``NotImplemented``
for a ``str``, ``bytes`` or ``None`` operand, the operand's reflected method does too, and
``==`` falls back to identity (``False``; ``!=`` gives ``True``). `tensor_constant_compare`
teaches dynamo exactly that: within the block, `TensorVariable.call_method` answers
``__eq__``/``__ne__`` of a plain tensor (``torch.Tensor`` or ``nn.Parameter``, not a subclass
with comparisons of its own) against such a constant with that constant result, and defers to
dynamo for everything else. It patches only a torch whose dynamo lacks its own handling (no
``TensorVariable.richcompare_impl``, which torch 2.13 added); elsewhere the block changes
nothing. The patch is reference counted and restored when the outermost block ends, so state
never leaks out of a call (tests/test_dynamo_fixes.py).

`attach_dynamo_fixes(module)` makes every call of a compiled module (``torch.compile``'s
``OptimizedModule``) run inside the block, with a forward pre-hook and an always-called forward
hook; `magi_compile(..., dynamo_fixes=True)` does it. ``torch.compile(model, backend="magi")``
cannot: the backend is called after dynamo has traced.

Off in the generic form, on in the Wan decoder's (`magi_passes.compile.forms`): on the Wan 2.2
decode the fix makes each chunk's decoder one graph, which compiles faster and whose output is
right under magi (plain torch.compile with the fix miscompiles that graph). Alone it makes the
steady chunk's graph dynamic (dynamo's automatic dynamic sizes, from the caches' lengths
changing between the second and third chunk), which the measured decisions do not time, and
slower. With ``dynamic=False`` and `attach_contiguous_inputs` (zoo variant
`magi-dynamo-fix-static`) every chunk graph is static and reused at every decode length; with
`PassConfig(channels_last_norm_inputs=True)` too, that is the Wan decoder's form, which
``magi_compile(vae.decoder)`` uses unless told otherwise. Any other model compiles without the
fix unless ``dynamo_fixes=True`` is passed.

Measured: docs/results.md, "Wan 2.2 decode".
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

import torch

# operand types whose comparison with a tensor Python settles by identity
_IDENTITY_COMPARED = (str, bytes, type(None))
_PLAIN_TENSORS = (torch.Tensor, torch.nn.Parameter)
_lock = threading.Lock()
_depth = 0
_original: Any = None


@functools.cache
def needs_tensor_constant_compare() -> bool:
    """Whether this torch's dynamo breaks the graph on ``tensor == "a string"`` (torch 2.11;
    torch 2.13's `TensorVariable.richcompare_impl` answers it itself)."""
    try:
        from torch._dynamo.variables.tensor import TensorVariable
    except ImportError:  # pragma: no cover - a torch without dynamo's variables
        return False
    return not hasattr(TensorVariable, "richcompare_impl") and callable(
        getattr(TensorVariable, "call_method", None)
    )


def _constant_compare(original: Callable[..., Any]) -> Callable[..., Any]:
    from torch._dynamo.variables.constant import ConstantVariable

    @functools.wraps(original)
    def call_method(self: Any, tx: Any, name: str, args: Any, kwargs: Any) -> Any:
        if name in ("__eq__", "__ne__") and len(args) == 1 and not kwargs:
            other = args[0]
            if (
                isinstance(other, ConstantVariable)
                and isinstance(other.value, _IDENTITY_COMPARED)
                and self.python_type() in _PLAIN_TENSORS
            ):
                return ConstantVariable.create(name == "__ne__")
        return original(self, tx, name, args, kwargs)

    call_method.__magi_dynamo_fix__ = True  # type: ignore[attr-defined]
    return call_method


def _enter() -> None:
    global _depth, _original
    with _lock:
        _depth += 1
        if _depth == 1 and needs_tensor_constant_compare():
            from torch._dynamo.variables.tensor import TensorVariable

            _original = TensorVariable.__dict__["call_method"]
            TensorVariable.call_method = _constant_compare(_original)  # type: ignore[method-assign]


def _exit() -> None:
    global _depth, _original
    with _lock:
        if _depth == 0:
            return  # an exit without its enter (a hook pair broken by another library)
        _depth -= 1
        if _depth == 0 and _original is not None:
            from torch._dynamo.variables.tensor import TensorVariable

            TensorVariable.call_method = _original  # type: ignore[method-assign]
            _original = None


@contextlib.contextmanager
def tensor_constant_compare() -> Iterator[None]:
    """Within the block, dynamo traces ``tensor == "str"`` (and ``!=``, ``bytes``, ``None``) as
    Python evaluates it, a constant, instead of breaking the graph (module docstring)."""
    _enter()
    try:
        yield
    finally:
        _exit()


def active() -> bool:
    """Whether dynamo's tensor comparison is patched now (inside a block, on a torch that
    needs it)."""
    from torch._dynamo.variables.tensor import TensorVariable

    return bool(getattr(TensorVariable.__dict__.get("call_method"), "__magi_dynamo_fix__", False))


def attach_dynamo_fixes(module: torch.nn.Module) -> tuple[Any, Any]:
    """Run every call of ``module`` (a compiled module) inside `tensor_constant_compare`.

    Returns the two hook handles; ``handle.remove()`` on both detaches the fixes. The forward
    hook is always called, an exception in the call included, so the patch never outlives it.
    """
    if not isinstance(module, torch.nn.Module):
        raise TypeError(
            f"attach_dynamo_fixes(module={module!r}): expected a torch.nn.Module (the result of "
            f"torch.compile(model) for an nn.Module); fix: wrap a compiled function's calls in "
            f"`with tensor_constant_compare():`"
        )

    def enter(_module: Any, _args: Any) -> None:
        _enter()

    def leave(_module: Any, _args: Any, _output: Any) -> None:
        _exit()

    before = module.register_forward_pre_hook(enter)
    after = module.register_forward_hook(leave, always_call=True)
    return before, after


def attach_contiguous_inputs(module: torch.nn.Module) -> Any:
    """Make every positional tensor argument of ``module``'s calls contiguous before dynamo sees
    it (a forward pre-hook, run before any other; returns its handle).

    Dynamo guards a static graph on its inputs' strides. A video decoder fed one slice of the
    latent at a time (``x[:, :, i:i + 1]``) gets strides that depend on the latent's length, so
    with static shapes every new length compiles every chunk graph again (on the tiny Wan 2.2
    decode, 3 more graphs per length, CPU) until the recompile limit sends the decoder back to
    eager; made contiguous, one latent frame has the same strides at any length and the graphs
    are reused (3 graphs for T=3, 6, 2 and 9). The copy is of the inputs that are not contiguous
    already (one latent frame there: 48 x 34 x 60 at 540p); a channels-last input is converted
    to the contiguous format, so leave this off for models fed channels-last tensors. The
    tensors inside list and tuple arguments, positional or keyword (a causal decoder's cache
    list, ``feat_cache=``), are not copied: their size-1 dims get one stride
    (`unit_strides_canonical`), a list's elements replaced by those views in place.
    """
    if not isinstance(module, torch.nn.Module):
        raise TypeError(
            f"attach_contiguous_inputs(module={module!r}): expected a torch.nn.Module; fix: pass "
            f"the compiled module, or call .contiguous() on a function's inputs yourself"
        )

    def contiguous(
        _module: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args = tuple(a.contiguous() if isinstance(a, torch.Tensor) else _state(a) for a in args)
        return args, {k: _state(v) for k, v in kwargs.items()}

    return module.register_forward_pre_hook(contiguous, prepend=True, with_kwargs=True)


def _state(value: Any) -> Any:
    """A list or tuple argument (a causal decoder's cache list) with `unit_strides_canonical`
    tensors: a list's elements are replaced in place (the model keeps its own list)."""
    if isinstance(value, list):
        value[:] = [unit_strides_canonical(t) for t in value]
    elif type(value) is tuple:
        value = tuple(unit_strides_canonical(t) for t in value)
    return value


def unit_strides_canonical(t: Any) -> Any:
    """``t`` (a tensor; anything else is returned as is) as a view whose size-1 dims have one
    stride whatever produced it: the extent of the other dims (``max(stride * size)``), as a
    dense tensor laid out in their order has it. The values and the storage are the same (a
    size-1 dim's stride is never multiplied by a non-zero index), but dynamo guards a static
    graph on every stride: on the Wan 2.2 decode with channels-last weights, one causal cache
    left the first chunk with a batch stride of 3072 and every later chunk with 6144, and the
    third chunk's graph, compiled on the first's cache, compiled again at every longer decode
    (tiny decode, CPU, T=3 then T=5: 4 graphs instead of 3)."""
    if not isinstance(t, torch.Tensor) or t.dim() == 0 or 1 not in t.shape:
        return t
    sizes, strides = t.shape, t.stride()
    extent = max((st * sz for sz, st in zip(sizes, strides, strict=True) if sz != 1), default=1)
    canonical = tuple(extent if sz == 1 else st for sz, st in zip(sizes, strides, strict=True))
    return t if canonical == strides else t.as_strided(sizes, canonical)


def with_dynamo_fixes(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a compiled function) with every call inside `tensor_constant_compare`."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        with tensor_constant_compare():
            return function(*args, **kwargs)

    return call


def attach_call_options(compiled: Any, *, dynamo_fixes: bool, contiguous_inputs: bool) -> Any:
    """``compiled`` (``torch.compile``'s result) with `magi_compile`'s opt-in call options:
    ``dynamo_fixes`` runs every call inside `tensor_constant_compare` (hooks on a module, a
    wrapper around a function), ``contiguous_inputs`` makes a module's positional tensor
    arguments contiguous first (`attach_contiguous_inputs`). Returns what to call: the module
    itself, or the wrapped function."""
    if dynamo_fixes:
        if isinstance(compiled, torch.nn.Module):
            attach_dynamo_fixes(compiled)
        else:
            compiled = with_dynamo_fixes(compiled)
    if contiguous_inputs:
        attach_contiguous_inputs(compiled)
    return compiled
