"""Hand-built post-grad FX graphs under FakeTensorMode, for graph-level pass tests; one
end-to-end CPU compile through the magi backend, for pass tests on real post-grad graphs; and the
padded-convolution modules the pad passes' tests share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn
from torch._inductor import config as inductor_config
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv, StatelessSymbolicContext

from magi_passes import MagiBackend, PassConfig

aten = torch.ops.aten


class GraphBuilder:
    """Builds an aten-level FX graph whose nodes carry fake `meta["val"]`s, as post-grad graphs do."""

    def __init__(self, dynamic: bool = False) -> None:
        self.shape_env = ShapeEnv() if dynamic else None
        self.mode = FakeTensorMode(shape_env=self.shape_env, allow_non_fake_inputs=True)
        self.graph = torch.fx.Graph()
        self._n = 0

    def input(
        self,
        shape: tuple[int, ...],
        *,
        dynamic_dims: tuple[int, ...] = (),
        memory_format: torch.memory_format | None = None,
        dtype: torch.dtype = torch.float32,
        name: str | None = None,
    ) -> torch.fx.Node:
        real = torch.empty(shape, dtype=dtype)
        if memory_format is not None:
            real = real.contiguous(memory_format=memory_format)
        if dynamic_dims:
            assert self.shape_env is not None, "GraphBuilder(dynamic=True) for symbolic inputs"
        if self.shape_env is not None:
            ctx = StatelessSymbolicContext(
                dynamic_sizes=[
                    DimDynamic.DYNAMIC if i in dynamic_dims else DimDynamic.STATIC
                    for i in range(len(shape))
                ]
            )
            val = self.mode.from_tensor(real, symbolic_context=ctx)
        else:
            val = self.mode.from_tensor(real)
        self._n += 1
        node = self.graph.placeholder(name or f"arg{self._n}")
        node.meta["val"] = val
        return node

    def call(self, target: Any, *args: Any, **kwargs: Any) -> torch.fx.Node:
        node = self.graph.call_function(target, args, kwargs)

        def val(a: Any) -> Any:
            return a.meta["val"] if isinstance(a, torch.fx.Node) else a

        fargs = torch.fx.node.map_aggregate(args, val)
        fkwargs = torch.fx.node.map_aggregate(kwargs, val)
        with self.mode:
            node.meta["val"] = target(*fargs, **fkwargs)
        return node

    def conv(
        self,
        x: torch.fx.Node,
        w: torch.fx.Node,
        *,
        padding: int = 0,
        transposed: bool = False,
        bias: torch.fx.Node | None = None,
    ) -> torch.fx.Node:
        nd = w.meta["val"].dim() - 2
        return self.call(
            aten.convolution.default,
            x,
            w,
            bias,
            [1] * nd,
            [padding] * nd,
            [1] * nd,
            transposed,
            [0] * nd,
            1,
        )

    def output(self, *nodes: torch.fx.Node) -> torch.fx.Graph:
        self.graph.output(tuple(nodes))
        self.graph.lint()
        return self.graph


def targets(graph: torch.fx.Graph) -> list[Any]:
    return [n.target for n in graph.nodes if n.op == "call_function"]


def clones(graph: torch.fx.Graph) -> list[torch.fx.Node]:
    return list(graph.find_nodes(op="call_function", target=aten.clone.default))


def compile_on_cpu(
    model: torch.nn.Module, config: PassConfig, *args: Any
) -> tuple[Any, MagiBackend]:
    """``model(*args)`` compiled by a fresh ``MagiBackend(config)`` on the CPU, without grad;
    returns the output and the backend (its managers hold the passes' results and graphs)."""
    torch._dynamo.reset()
    backend = MagiBackend(config)
    # (caches off: a graph served by the FX graph cache runs no pass)
    with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
        out = torch.compile(model, backend=backend)(*args)
    return out, backend


def run_channels_last(graph: torch.fx.Graph, config: PassConfig) -> Any:
    """`ConvChannelsLastPass(config)` on ``graph`` as Inductor runs it (its layout optimisation
    on beforehand); returns the pass's `PassResult`."""
    from magi_passes import ConvChannelsLastPass

    p = ConvChannelsLastPass(config)
    with inductor_config.patch(layout_optimization=True):
        p(graph)
    assert p.last_result is not None
    return p.last_result


def assert_rewrite_keeps_values(
    build: Callable[[], torch.fx.Graph],
    rewrite: Callable[[torch.fx.Graph], Any],
    shapes: list[tuple[int, ...]],
) -> None:
    """Two graphs from ``build()``, ``rewrite`` applied to one: run on random inputs of
    ``shapes`` (seed 0), they give bit-identical outputs."""
    rewritten = torch.fx.GraphModule(torch.nn.Module(), build())
    plain = torch.fx.GraphModule(torch.nn.Module(), build())
    rewrite(rewritten.graph)
    rewritten.recompile()
    torch.manual_seed(0)
    args = [torch.randn(shape) for shape in shapes]
    torch.testing.assert_close(rewritten(*args), plain(*args), rtol=0, atol=0)


def compile_dynamic_on_cpu(
    model: torch.nn.Module, config: PassConfig, *args: torch.Tensor, dims: tuple[int, ...] = (3, 4)
) -> tuple[Any, Any]:
    """`compile_on_cpu` with ``dims`` of every input marked dynamic; returns the output and
    the `conv_channels_last` result of that one compilation."""
    for t in args:
        torch._dynamo.mark_dynamic(t, list(dims))
    out, backend = compile_on_cpu(model, config, *args)
    return out, pass_result(backend, "conv_channels_last")


def codegen_off_and_on(model: torch.nn.Module, field: str, *args: torch.Tensor) -> dict[bool, Any]:
    """``model(*args)``'s generated code (fake CUDA where there is no GPU) with the `PassConfig`
    bool ``field`` off and on, decisions not measured, without grad: ``{False: ..., True: ...}``."""
    from pytest_magi.capture.codegen import inductor_codegen

    codes = {}
    with torch.no_grad():
        for on in (False, True):
            config = PassConfig(measure_decisions=False, **{field: on})
            codes[on] = inductor_codegen(model, *args, config=config)
    return codes


def launches(code: Any) -> int:
    """How many kernel launches and extern calls a `GeneratedCode`'s wrappers make (the count
    `python benchmarks/zoo.py compile-time` prints)."""
    return sum(len(g.calls) for g in code.captured)


def pass_result(backend: MagiBackend, name: str) -> Any:
    """The `PassResult` of the pass called ``name`` in ``backend``'s one compilation."""
    (manager,) = backend.managers
    result = manager.result(name)
    assert result is not None, f"{name} did not run"
    return result


class CausalConv(nn.Module):
    """The Wan 2.x decoder's causal conv: norm + SiLU, the previous call's frames concatenated in
    front (or the causal zero frames), the spatial zero pad, a 3x3x3 conv with padding=0."""

    def __init__(self, channels: int, out: int | None = None) -> None:
        super().__init__()
        self.gamma = nn.Parameter(torch.randn(channels, 1, 1, 1))
        self.conv = nn.Conv3d(channels, out or channels, 3)

    def forward(self, x: torch.Tensor, cache: torch.Tensor | None = None) -> torch.Tensor:
        h = F.silu(F.normalize(x, dim=1) * self.gamma)
        front = 2
        if cache is not None:
            h = torch.cat([cache, h], dim=2)
            front -= cache.shape[2]
        return self.conv(F.pad(h, (1, 1, 1, 1, front, 0)))


class Padded(nn.Module):
    """`conv(F.pad(relu(x), pads, value=value))` with the conv's own keyword arguments."""

    def __init__(self, conv: nn.Module, pads: tuple[int, ...], value: float = 0.0) -> None:
        super().__init__()
        self.conv, self.pads, self.value = conv, pads, value

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(F.pad(torch.relu(x), self.pads, value=self.value))


class PadAlsoReturned(Padded):
    """`Padded` whose padded tensor is also an output: the pad has a second user."""

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:  # type: ignore[override]
        p = F.pad(torch.relu(x), self.pads)
        return self.conv(p), p * 2
