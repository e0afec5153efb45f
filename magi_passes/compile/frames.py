"""Dynamo frames of one's own for each module: fresh ``forward`` code objects.

Dynamo keeps its compiled code, its guards and its recompile limit (``recompile_limit``, 8 by
default) per *code object*. A model whose repeated blocks graph-break inside (the Wan 2.2 VAE
decoder: a tensor compared with a string in its upsamplers breaks the graph on torch 2.11) makes
each block's ``forward`` a frame of its own, and every instance of the block class shares that
frame's cache: four up blocks of different widths times three chunk shapes exceed the limit, and
dynamo then runs those blocks *eagerly* for the rest of the process, convolutions included. Shapes
that differ between instances also make dynamo mark the channel dimension dynamic.

`isolate_forward_code(module, per="instance")` gives every submodule a bound ``forward`` whose
function is the class's, on a new code object (same bytecode, globals, defaults, closure and
qualified name, so ``super()`` behaves as before; its ``co_name`` gains a ``__magi_<n>`` suffix,
which tracebacks and dynamo's logs show). Dynamo then keeps one cache per instance: no instance
crowds another out of the limit, and no shape of one instance makes another's dynamic. The new
name is what makes the copy a code object of its own everywhere in dynamo: equal code objects
share resume functions, and automatic-dynamic sizes are kept per (file, first line, name); with
copies equal but for identity, the Wan 2.2 decode's up blocks compiled with H, W and T symbolic.
``per="class"`` gives one new code object per class (instances of a class still share it), which
makes a second compiled copy of a model behave as if it were alone in the process.
``per="root"`` gives the module itself one and leaves its submodules alone: for a model that
compiles to one graph, whose submodules dynamo only inlines, it keeps the copy's frame apart
without the cost `isolate_forward_code` describes (the forms of the decoders
measured with it take it, `magi_passes.forms.CompileForm.frames`).

torch's own modules (`torch.nn.Conv2d`, `nn.Sequential`, `nn.SiLU`...) get one more change:
dynamo compiles a frame of torch's own code only when it traces into it from compiled code,
never as a frame of its own (its skip rules match the file). When dynamo runs user code eagerly,
as it runs the rest of a function after a graph break it cannot resume from ("skipping the rest
of the function"), the torch.nn modules that code calls then run eagerly, each convolution with
its bias added by a second kernel and, for a channels-first input, cuDNN's layout transposes
around it. On the Wan 2.2 decode on torch 2.11 the upsamplers' `feat_cache[idx] == "Rep"` is
such a break: their per-frame `Conv2d`s ran eagerly. So the copy of a torch-owned
`forward` names the file `<magi frame> <torch's file>` (`frame_filename`), which no skip rule
matches: reached eagerly, the module is a frame dynamo compiles like any other, and traced into
from compiled code it is inlined as before. The source lines are registered under that name in
`linecache`, so tracebacks still show them. (`magi_compile(..., dynamo_fixes=True)` removes that
break instead: `magi_passes.compile.dynamo_fixes` traces the comparison as Python evaluates it, and each
chunk's decoder is then one graph; the Wan decoder's compile form uses it,
`magi_passes.compile.forms`.)

It changes no computation: the module computes exactly what it did (eager, or compiled). It is
visible as an instance attribute ``forward`` on each submodule; `restore_forward_code` removes
them. Modules whose instance already has its own ``forward`` (hooks installed by other
libraries) are left alone.

Measured: docs/results.md, "Wan 2.2 decode".
"""

from __future__ import annotations

import functools
import itertools
import linecache
import os
import types
from typing import Any

import torch

ISOLATION_LEVELS = ("instance", "class", "root")
_MARK = "__magi_fresh_forward__"
_NAME_MARK = "__magi_"
FRAME_FILE_PREFIX = "<magi frame> "
_copies = itertools.count(1)


@functools.cache
def _torch_dir() -> str:
    return os.path.dirname(os.path.abspath(torch.__file__)) + os.sep


def frame_filename(filename: str) -> str:
    """The file name a copied ``forward`` carries: its own, unless the code is torch's own
    (``torch/nn/modules/conv.py``), which dynamo compiles only when traced into from compiled
    code, never as a frame of its own; the copy then names ``<magi frame> <its file>``, a file
    no skip rule matches, with the source lines registered in `linecache` under that name so
    tracebacks still show them."""
    if not os.path.abspath(filename).startswith(_torch_dir()):
        return filename
    renamed = f"{FRAME_FILE_PREFIX}{filename}"
    if renamed not in linecache.cache:
        lines = linecache.getlines(filename)
        if lines:
            linecache.cache[renamed] = (sum(map(len, lines)), None, lines, renamed)
    return renamed


def _fresh_function(function: Any) -> types.FunctionType:
    # A new name makes the copy a code object of its own for dynamo everywhere: equal code
    # objects share resume functions (`ContinueExecutionCache`, a dict keyed by code), and
    # automatic-dynamic sizes are kept per (file, first line, name) (`torch._dynamo.pgo.CodeId`).
    code = function.__code__
    fresh = types.FunctionType(
        code.replace(
            co_name=f"{code.co_name}{_NAME_MARK}{next(_copies)}",
            co_filename=frame_filename(code.co_filename),
        ),
        function.__globals__,
        function.__name__,
        function.__defaults__,
        function.__closure__,
    )
    fresh.__kwdefaults__ = function.__kwdefaults__
    fresh.__qualname__ = function.__qualname__
    fresh.__doc__ = function.__doc__
    fresh.__wrapped__ = function  # type: ignore[attr-defined]
    setattr(fresh, _MARK, True)
    return fresh


def isolate_forward_code(module: torch.nn.Module, per: str = "instance") -> int:
    """Give ``module`` and each of its submodules a ``forward`` on a new code object.

    ``per="instance"``: one code object per module instance (each gets its own dynamo cache);
    ``per="class"``: one per class within ``module``; ``per="root"``: ``module``'s own only,
    its submodules left as they are. Returns how many code objects were made.

    Dynamo calls a submodule's ``forward`` directly only when the instance has no ``forward``
    of its own; otherwise it traces `torch.nn.Module._call_impl` around every call and guards
    each ``forward``. So isolation below the root about doubles the bytecode dynamo traces, for
    the same generated code, and lengthens the compile by its tracing time. A model
    that compiles to one graph per call has no frame below its root, so ``per="root"`` keeps
    its frames apart from any other copy's at the tracing cost of torch.compile.
    """
    if not isinstance(module, torch.nn.Module):
        raise TypeError(f"isolate_forward_code(module={module!r}): expected a torch.nn.Module")
    if per not in ISOLATION_LEVELS:
        raise ValueError(f"isolate_forward_code(per={per!r}): expected one of {ISOLATION_LEVELS}")
    by_class: dict[type, types.FunctionType] = {}
    made = 0
    for sub in [module] if per == "root" else module.modules():
        existing = vars(sub).get("forward")
        if existing is not None and not getattr(getattr(existing, "__func__", None), _MARK, False):
            continue  # another library's per-instance forward (e.g. an offloading hook)
        function = getattr(type(sub), "forward", None)
        if not isinstance(function, types.FunctionType) or function is torch.nn.Module.forward:
            continue  # containers (ModuleList, ModuleDict) have no forward of their own
        if per == "class" and type(sub) in by_class:
            fresh = by_class[type(sub)]
        else:
            fresh = _fresh_function(function)
            by_class[type(sub)] = fresh
            made += 1
        sub.forward = types.MethodType(fresh, sub)  # type: ignore[method-assign]
    return made


def restore_forward_code(module: torch.nn.Module) -> int:
    """Remove the ``forward`` attributes `isolate_forward_code` set; returns how many."""
    removed = 0
    for sub in module.modules():
        existing = vars(sub).get("forward")
        if existing is not None and getattr(getattr(existing, "__func__", None), _MARK, False):
            del sub.__dict__["forward"]
            removed += 1
    return removed
