"""What `inductor_codegen` hands Inductor on the device it generates for: graphs traced on fake
cpu tensors moved to fake cuda, inputs copied there (the tensors inside list, tuple and dict
inputs too, in new containers), the module's parameters and buffers swapped for such copies and
put back, and the conv weights the magi passes lay out channels-last."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch


# --------------------------------------------------------------------------- fake cuda
def _to_cuda_device(value: Any) -> Any:
    if isinstance(value, torch.device) and value.type == "cpu":
        return torch.device("cuda", 0)
    if isinstance(value, str) and value == "cpu":
        return torch.device("cuda", 0)
    if isinstance(value, (list, tuple)):
        return type(value)(_to_cuda_device(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_cuda_device(v) for k, v in value.items()}
    return value


def _fake_cuda_like(value: Any, fake_mode: Any) -> Any:
    if isinstance(value, torch.Tensor) and value.device.type == "cpu":
        with fake_mode:
            return torch.empty_strided(
                value.shape, value.stride(), dtype=value.dtype, device="cuda"
            )
    return value


def _move_graph_to_cuda(
    gm: torch.fx.GraphModule, example_inputs: Sequence[Any]
) -> tuple[torch.fx.GraphModule, list[Any]]:
    """Rewrite a graph traced on fake cpu tensors to run on fake cuda tensors."""
    from torch._guards import detect_fake_mode
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp

    fake_mode = detect_fake_mode(example_inputs)
    if fake_mode is None:
        raise RuntimeError("pytest_magi: no fake mode found for the graph's inputs")
    inputs = [_fake_cuda_like(x, fake_mode) for x in example_inputs]
    for node in gm.graph.nodes:
        if node.op == "call_function":
            node.args = _to_cuda_device(node.args)
            node.kwargs = _to_cuda_device(node.kwargs)
    gm.recompile()
    with fake_mode:
        FakeTensorProp(gm, mode=fake_mode).propagate_dont_convert_inputs(*inputs)
    return gm, inputs


# --------------------------------------------------------------------------- inputs
def _copy_to_device(
    t: torch.Tensor, fake_mode: Any, device: str, requires_grad: bool
) -> torch.Tensor:
    """Same shape/dtype/strides on ``device``: fake when ``fake_mode`` is given, else a real copy."""
    if fake_mode is not None:
        with fake_mode:
            out = torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device=device)
    else:
        with torch.no_grad():
            out = torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device=device)
            out.copy_(t.detach())
    if requires_grad:
        out.requires_grad_(True)
    return out


def _copy_nested(
    value: Any, convert: Callable[[torch.Tensor], torch.Tensor], memo: dict[int, Any] | None = None
) -> Any:
    """``value`` with every tensor inside its lists, tuples and dicts replaced by ``convert(t)``,
    in new containers; anything else is kept as it is.

    A cache a model takes as an argument (diffusers' KVAE and Kandinsky-6 decoders take a dict
    of their causal convs' cached frames) can hold real cpu tensors, which would meet fake cuda
    ones in the graph; and dynamo writes what the traced call stores into it back into the
    object it was given, which must not be the caller's. A tensor or container reached twice is
    copied once (aliases stay aliases)."""
    memo = {} if memo is None else memo
    if id(value) in memo:
        return memo[id(value)]
    out: Any
    if isinstance(value, torch.Tensor):
        out = convert(value)
    elif type(value) is dict:
        out = {k: _copy_nested(v, convert, memo) for k, v in value.items()}
    elif type(value) is list:
        out = [_copy_nested(v, convert, memo) for v in value]
    elif type(value) is tuple:
        out = tuple(_copy_nested(v, convert, memo) for v in value)
    else:
        return value
    memo[id(value)] = out
    return out


@contextlib.contextmanager
def _swapped_module_state(
    module: torch.nn.Module, convert: Callable[[torch.Tensor, bool], torch.Tensor]
) -> Iterator[None]:
    """Replace every parameter and buffer of ``module`` by ``convert(t)``; put them back after."""
    memo: dict[int, torch.Tensor] = {}
    saved: list[tuple[dict[str, Any], str, Any]] = []
    try:
        for sub in module.modules():
            stores: tuple[tuple[dict[str, Any], bool], ...] = (
                (sub._parameters, True),
                (sub._buffers, False),
            )
            for store, is_param in stores:
                for name, value in list(store.items()):
                    if value is None:
                        continue
                    saved.append((store, name, value))
                    if id(value) not in memo:
                        new = convert(value, is_param)
                        memo[id(value)] = (
                            torch.nn.Parameter(new, requires_grad=new.requires_grad)
                            if is_param
                            else new
                        )
                    store[name] = memo[id(value)]
        yield
    finally:
        for store, name, value in reversed(saved):
            store[name] = value


def _channels_last_weights(fn: Any, config: Any, backward: bool) -> dict[int, torch.memory_format]:
    """`{id(weight): format}` for the conv weights `magi_backend` would convert once, else `{}`."""
    if (
        backward
        or config is None
        or not isinstance(fn, torch.nn.Module)
        or not config.channels_last_weights_once
    ):
        return {}
    from magi_passes.passes.channels_last import fires_on

    modules = list(fn.modules())
    # the rewrite's gate, applied to the module (subclasses such as diffusers' WanCausalConv3d
    # count as convs); where it stands down the backend leaves the weights alone too
    if not fires_on(config, any(isinstance(m, torch.nn.Conv3d) for m in modules)):
        return {}
    formats = ((torch.nn.Conv3d, torch.channels_last_3d), (torch.nn.Conv2d, torch.channels_last))
    return {
        id(m.weight): fmt
        for m in modules
        for cls, fmt in formats
        if isinstance(m, cls) and isinstance(m.weight, torch.Tensor)
    }
