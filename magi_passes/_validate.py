"""Argument checks for the public entry points of `magi_passes`, at the call site.

A wrong argument must fail where the user gave it, not deep inside Inductor at the first call
(`AttributeError: 'dict' object has no attribute 'enable_dynamic_reshape'`). Every message names
the callable and the argument, shows the value (`!r`), says what is accepted and how to fix it:

    TypeError: MagiBackend: config must be a magi_passes.PassConfig or None, got
    {'enable_nd_tiling': False} (dict); fix: MagiBackend(config=PassConfig(enable_nd_tiling=False))

The table of every bad input tried, with its message, is in docs/reliability.md ("Bad input").
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import torch

_REPR_LIMIT = 160


def shown(value: object) -> str:
    """`value!r (type)`, shortened: what a message shows of a bad value."""
    text = repr(value)
    if len(text) > _REPR_LIMIT:
        text = text[: _REPR_LIMIT - 3] + "..."
    return f"{text} ({type(value).__name__})"


def fail(
    kind: type[Exception], where: str, arg: str, value: object, expected: str, fix: str
) -> NoReturn:
    raise kind(f"{where}: {arg} must be {expected}, got {shown(value)}; fix: {fix}")


def close_matches(name: str, choices: Iterable[str]) -> str:
    """`"; did you mean a, b?"` or `""`."""
    close = difflib.get_close_matches(name, list(choices), n=3)
    return f"; did you mean {', '.join(close)}?" if close else ""


def check_bool(where: str, arg: str, value: object) -> bool:
    if not isinstance(value, bool):
        fail(TypeError, where, arg, value, "True or False", f"{where}({arg}=True)")
    return value


def check_optional_bool(where: str, arg: str, value: object) -> bool | None:
    if value is not None and not isinstance(value, bool):
        fail(TypeError, where, arg, value, "True, False or None", f"{where}({arg}=True)")
    return value


def check_positive_int(where: str, arg: str, value: object, example: int = 300) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(TypeError, where, arg, value, "a positive int", f"{where}(..., {arg}={example})")
    if value <= 0:
        fail(ValueError, where, arg, value, "a positive int", f"{where}(..., {arg}={example})")
    return value


def check_optional_mapping(where: str, arg: str, value: object, example: str) -> dict[str, Any]:
    """A mapping with str keys (or None, as `{}`), copied into a dict."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        fail(
            TypeError,
            where,
            arg,
            value,
            "a dict with str keys, or None",
            f"{where}({arg}={example})",
        )
    bad = [k for k in value if not isinstance(k, str)]
    if bad:
        fail(
            TypeError,
            where,
            arg,
            value,
            f"a dict with str keys (key {bad[0]!r} is a {type(bad[0]).__name__})",
            f"{where}({arg}={example})",
        )
    return dict(value)


def check_graph(where: str, value: object, arg: str = "graph") -> torch.fx.Graph:
    """A `torch.fx.Graph`; a `GraphModule` is refused with the `.graph` it meant."""
    import torch

    if isinstance(value, torch.fx.Graph):
        return value
    if isinstance(value, torch.fx.GraphModule):
        fix = f"pass the module's graph: {where}(gm.graph)"
    else:
        fix = f"pass the torch.fx.Graph a post-grad pass receives, e.g. {where}(gm.graph)"
    fail(TypeError, where, arg, value, "a torch.fx.Graph", fix)


def check_inductor_keys(where: str, patches: Mapping[str, Any]) -> None:
    """Every key names a `torch._inductor.config` key (dots may be written `__` in kwargs)."""
    from torch._inductor import config as inductor_config

    known = inductor_config.get_config_copy()
    for key, value in patches.items():
        if key not in known and key.replace("__", ".") not in known:
            fail(
                ValueError,
                where,
                key,
                value,
                "a torch._inductor.config key",
                "spell the key as torch._inductor.config does (write dots as '__' in keyword "
                f"arguments: triton__max_tiles=2){close_matches(key.replace('__', '.'), known)}",
            )


def check_backend_call(where: str, gm: object, example_inputs: object, options: object) -> None:
    """What dynamo hands a backend: a GraphModule, a sequence of inputs, options or None."""
    import torch

    if not isinstance(gm, torch.fx.GraphModule):
        fail(
            TypeError,
            where,
            "gm",
            gm,
            "a torch.fx.GraphModule (dynamo calls the backend)",
            "let dynamo call it: torch.compile(model, backend='magi')",
        )
    if isinstance(example_inputs, (str, bytes)) or not isinstance(example_inputs, Sequence):
        fail(
            TypeError,
            where,
            "example_inputs",
            example_inputs,
            "a list of example inputs",
            "let dynamo call it: torch.compile(model, backend='magi')",
        )
    check_optional_mapping(where, "options", options, "{'enable_nd_tiling': False}")


def check_compile_target(where: str, model: object) -> None:
    """A module or a function: something `torch.compile` can compile."""
    if not callable(model):
        fail(
            TypeError,
            where,
            "model",
            model,
            "a torch.nn.Module or a function",
            f"{where}(model) with the module itself, e.g. {where}(MyNet())",
        )
