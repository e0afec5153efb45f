"""`ProducerRecomputePass` (`PassConfig.recompute_norm_producers`): a GroupNorm's apply chain
that Inductor would store in fp32, because SiLU and a replicate pad of frames read it several
times, is copied for each reader, and the norm, SiLU and pad write the conv input in one kernel."""

from __future__ import annotations

import re

import torch
import torch.nn as nn
import torch.nn.functional as F
from graphs import assert_rewrite_keeps_values, codegen_off_and_on, launches
from torch._inductor import config as inductor_config

from magi_passes import PassConfig, ProducerRecomputePass

aten = torch.ops.aten


class TemporalLayer(nn.Module):
    """Allegro's temporal conv layer, twice: GroupNorm, SiLU, the first and last frames repeated
    (`cat`), a (3, 1, 1) Conv3d; the input added back."""

    def __init__(self, channels: int = 64) -> None:
        super().__init__()
        self.norms = nn.ModuleList(nn.GroupNorm(8, channels) for _ in range(2))
        self.convs = nn.ModuleList(nn.Conv3d(channels, channels, (3, 1, 1)) for _ in range(2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x
        for norm, conv in zip(self.norms, self.convs, strict=True):
            h = F.silu(norm(h))
            h = conv(torch.cat((h[:, :, :1], h, h[:, :, -1:]), dim=2))
        return x + h


def _fp32_buffers(code, shape: tuple[int, ...]) -> int:
    """How many fp32 buffers of ``shape`` the generated wrapper allocates."""
    sizes = re.escape(str(shape))
    return sum(
        len(re.findall(rf"empty_strided_\w+\({sizes}, \([^)]*\), torch\.float32\)", g.raw))
        for g in code.captured
    )


def test_the_norm_silu_and_pad_write_the_conv_input_in_one_kernel_in_fake_cuda() -> None:
    """Off: each GroupNorm's output is stored in fp32 (SiLU reads it twice) and a second kernel
    writes the padded conv input from it. On: no such buffer, two fewer launches."""
    shape = (1, 64, 4, 16, 16)
    model = TemporalLayer(64).eval().to(torch.bfloat16)
    codes = codegen_off_and_on(
        model, "recompute_norm_producers", torch.randn(shape, dtype=torch.bfloat16)
    )
    assert _fp32_buffers(codes[False], shape) == 2, codes[False].kernel_names
    assert _fp32_buffers(codes[True], shape) == 0, codes[True].kernel_names
    counts = {on: launches(c) for on, c in codes.items()}
    assert counts[True] == counts[False] - 2, counts
    (result,) = [
        r for g in codes[True].captured for r in g.pass_results if r.name == "producer_recompute"
    ]
    # per norm: SiLU's input (two readers), its output (the two frame slices and the cat)
    assert result.counts["values_recomputed"] == 4 and result.counts["chain_copies"] == 6


def _graph_of(fn, *shapes: tuple[int, ...]) -> torch.fx.Graph:
    """``fn``'s aten graph (make_fx, fake values in ``meta["val"]``)."""
    from torch.fx.experimental.proxy_tensor import make_fx

    gm = make_fx(fn, tracing_mode="fake")(*(torch.randn(s) for s in shapes))
    return gm.graph


def _norm_silu_pad(x, mean, rstd, w, b):
    """A GroupNorm's apply (five inputs), SiLU as Inductor decomposes it, the first and last
    frames repeated: the graph Inductor's GPU decomposition gives Allegro's temporal layer."""
    y = (x - mean) * rstd * w + b
    h = y / (1 + (-y).exp())
    return torch.cat((h[:, :, :1], h, h[:, :, -1:]), dim=2)


NORM_SHAPES = [(1, 4, 3, 5, 5), (1, 4, 1, 1, 1), (1, 4, 1, 1, 1), (1, 4, 1, 1, 1), (1, 4, 1, 1, 1)]


def test_the_rewritten_graph_computes_what_it_did() -> None:
    def rewrite(graph: torch.fx.Graph) -> None:
        p = ProducerRecomputePass(PassConfig(recompute_norm_producers=True))
        p(graph)
        assert p.last_result is not None
        assert p.last_result.counts["values_recomputed"] == 2, p.last_result.counts

    assert_rewrite_keeps_values(
        lambda: _graph_of(_norm_silu_pad, *NORM_SHAPES), rewrite, NORM_SHAPES
    )


def test_every_copy_has_one_reader() -> None:
    graph = _graph_of(_norm_silu_pad, *NORM_SHAPES)
    ProducerRecomputePass(PassConfig(recompute_norm_producers=True))(graph)
    full = [n for n in graph.nodes if n.op == "call_function" and n.target is aten.add.Tensor
            and tuple(n.meta["val"].shape) == NORM_SHAPES[0]]  # fmt: skip
    assert len(full) >= 6 and all(len(n.users) == 1 for n in full), [len(n.users) for n in full]


def test_a_value_read_by_a_convolution_is_left_stored() -> None:
    """A reader that needs the value stored anyway (a convolution) leaves the chain alone."""

    def fn(x, mean, rstd, w, b, k):
        y = (x - mean) * rstd * w + b
        return F.conv2d(y, k) + y.neg()

    graph = _graph_of(
        fn, (1, 4, 6, 6), (1, 4, 1, 1), (1, 4, 1, 1), (1, 4, 1, 1), (1, 4, 1, 1), (4, 4, 1, 1)
    )
    p = ProducerRecomputePass(PassConfig(recompute_norm_producers=True))
    p(graph)
    assert p.last_result is not None and not p.last_result.applied
    assert p.last_result.counts["skipped_readers"] >= 1


def test_a_chain_of_few_inputs_is_left_to_inductor() -> None:
    """Inductor inlines a value of at most `realize_reads_threshold` inputs itself; the pass
    reads that threshold as the compile has it (a GroupNorm's five inputs are left alone where
    it is raised to five)."""

    def fn(x, w):
        y = x * w
        h = y / (1 + (-y).exp())
        return torch.cat((h[:, :, :1], h), dim=2)

    graph = _graph_of(fn, (1, 4, 6, 6), (1, 4, 1, 1))
    assert inductor_config.realize_reads_threshold == 4
    p = ProducerRecomputePass(PassConfig(recompute_norm_producers=True))
    p(graph)
    assert p.last_result is not None and not p.last_result.applied
    assert p.last_result.counts["skipped_few_reads"] == 2  # SiLU's input, its output
    with inductor_config.patch(realize_reads_threshold=5):
        p(_graph_of(_norm_silu_pad, *NORM_SHAPES))
    assert p.last_result is not None and not p.last_result.applied
    assert p.last_result.counts["skipped_few_reads"] == 2


def test_a_norm_read_only_in_its_own_shape_is_left_to_inductors_fusion() -> None:
    """SiLU straight into a convolution: Inductor fuses the stored norm into the SiLU kernel and
    drops the store, so there is nothing to recompute (Allegro pads before its norms)."""

    def fn(x, mean, rstd, w, b, k):
        y = (x - mean) * rstd * w + b
        return F.conv2d(y / (1 + (-y).exp()), k)

    graph = _graph_of(
        fn, (1, 4, 6, 6), (1, 4, 1, 1), (1, 4, 1, 1), (1, 4, 1, 1), (1, 4, 1, 1), (4, 4, 1, 1)
    )
    p = ProducerRecomputePass(PassConfig(recompute_norm_producers=True))
    p(graph)
    assert p.last_result is not None and not p.last_result.applied
    assert p.last_result.counts["skipped_fused"] == 1


def test_the_pass_is_off_unless_asked_for() -> None:
    assert not ProducerRecomputePass(PassConfig()).enabled()
    assert ProducerRecomputePass(PassConfig(recompute_norm_producers=True)).enabled()
