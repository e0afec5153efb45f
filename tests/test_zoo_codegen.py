"""Fake-CUDA code generation of the real diffusers VAEs (`pytest_magi.zoo`, tiny): the whole
``vae.decode(z).sample`` call (``ZooModel.as_module()``), plain Inductor against the magi passes
(``config=PassConfig()``), on a machine without a GPU.

Measured (torch 2.13.0+cpu, triton 3.7, fake H100; one graph each, no graph break):

| model (tiny) | Inductor kernels | magi kernels | ``conv_channels_last`` |
| --- | --- | --- | --- |
| ``sd-vae``, latent (1, 4, 4, 4) | 47 | 47, same signature | stands down: conv2d-only graph (27 convs) |
| ``wan2.2-vae``, latent (1, 4, 1, 2, 3) | 39 | 49 (43 with weights converted once) | fires: 29 of 29 convolutions |

On Wan the rewrite adds kernels at this size (the layout copies it inserts are kernels of their
own, and by default the conv weights are cloned in the graph; the opt-in
``channels_last_weights_once`` converts them once outside it); the bound asserted below is that
measurement with some room, not a goal.
Each model's two generations are shared by its tests: the file took 35 s on this 2-core machine
(87 s while other jobs kept both cores busy).
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
import torch

from magi_passes import PassConfig
from pytest_magi import zoo
from pytest_magi.capture.bounds import accesses_checked, out_of_bounds
from pytest_magi.capture.codegen import inductor_codegen
from pytest_magi.capture.fake_cuda import fake_cuda_status, real_cuda_available

# every test here needs a model's two generations (~8-20 s each on 2 cores): `-m "not slow"`
# leaves the file out of a quick loop

OPTIONS: dict[str, dict[str, int]] = {
    "sd-vae": {},
    "wan2.2-vae": {"frames": 1},  # one latent frame: the causal decode loop runs once
}


def _skip_unless_available(name: str) -> None:
    if name not in zoo.names():
        pytest.skip(zoo.unavailable()[name])
    ok, why = fake_cuda_status()
    if not ok:
        pytest.skip(why)


@functools.cache
def _generated(name: str) -> dict[str, Any]:
    model = zoo.load(name, **OPTIONS[name])
    before = model.run()
    module = model.as_module()
    inductor = inductor_codegen(module, *model.inputs)
    magi = inductor_codegen(module, *model.inputs, config=PassConfig())
    return {"model": model, "before": before, "inductor": inductor, "magi": magi}


def _result(code: Any, name: str) -> Any:
    return next(r for r in code.pass_results if r.name == name)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPTIONS))
def test_whole_decode_is_one_graph_generated_for_cuda(name: str) -> None:
    _skip_unless_available(name)
    gen = _generated(name)
    for side in ("inductor", "magi"):
        code = gen[side]
        assert code.device == ("fake-cuda" if not real_cuda_available() else code.device)
        assert len(code.graphs) == 1, (side, code.compile_stats)
        assert code.compile_stats.graph_breaks == 0, code.compile_stats.break_reasons
        assert code.kernel_count > 10
        assert all(k.name.startswith("triton_") for k in code.forward)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPTIONS))
def test_run_on_cpu_is_unchanged_by_the_fake_generation(name: str) -> None:
    """The parameters swapped for fake cuda tensors are put back: ``.run()`` gives the same
    numbers after both generations as before them."""
    _skip_unless_available(name)
    gen = _generated(name)
    after = gen["model"].run()
    assert after.device.type == "cpu" and torch.isfinite(after).all()
    torch.testing.assert_close(after, gen["before"], rtol=0, atol=0)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPTIONS))
def test_magis_code_reads_and_writes_inside_every_buffer(name: str) -> None:
    """No launch of magi's generated decode reaches past a buffer's storage at the last element of
    its ranges (`pytest_magi.capture.bounds`; what found torch 2.13's padded misread, tests/test_bounds.py)."""
    _skip_unless_available(name)
    for graph in _generated(name)["magi"].captured:
        found = out_of_bounds(graph)
        assert found == [], [str(f) for f in found]
        assert accesses_checked(graph) > 20  # most accesses are plain index arithmetic


@pytest.mark.slow
def test_sd_vae_channels_last_stands_down_and_the_code_is_inductors() -> None:
    _skip_unless_available("sd-vae")
    gen = _generated("sd-vae")
    inductor, magi = gen["inductor"], gen["magi"]
    rewrite = _result(magi, "conv_channels_last")
    assert not rewrite.applied and "conv2d-only" in rewrite.reason, str(rewrite)
    assert rewrite.counts["convs_converted"] == 0 and rewrite.counts["skipped_conv2d_graph"] > 0
    # weights stay as they are too (the backend converts them only where the rewrite fires)
    assert magi.kernel_count == inductor.kernel_count
    assert magi.signature() == inductor.signature()


@pytest.mark.slow
def test_wan_vae_channels_last_fires_within_the_measured_kernel_bound() -> None:
    _skip_unless_available("wan2.2-vae")
    gen = _generated("wan2.2-vae")
    inductor, magi = gen["inductor"], gen["magi"]
    rewrite = _result(magi, "conv_channels_last")
    assert rewrite.applied, str(rewrite)
    convs = rewrite.counts["convs_converted"]
    assert convs > 0 and rewrite.counts.get("skipped_conv2d_graph", 0) == 0, str(rewrite)
    assert "channels_last_3d" in magi.graphs[0] and "channels_last_3d" not in inductor.graphs[0]
    assert magi.signature() != inductor.signature()
    # the rewrite's copies (graph input, weights cloned in the graph) cost kernels at this size:
    # measured 39 -> 44 on torch 2.13 with the trim off
    model = gen["model"]
    untrimmed = inductor_codegen(
        model.as_module(), *model.inputs, config=PassConfig(enable_causal_pad_trim=False)
    )
    counts = (inductor.kernel_count, untrimmed.kernel_count, magi.kernel_count)
    assert inductor.kernel_count <= untrimmed.kernel_count <= inductor.kernel_count * 1.3, counts
    # one latent frame is the first chunk: the trim (on by default) drops every causal conv's
    # zero-frame taps, and their pads' producer kernels go with them (39 / 44 -> 34)
    trim = _result(magi, "causal_pad_trim")
    assert trim.applied and trim.counts["convolutions_trimmed"] > 0, str(trim)
    assert magi.kernel_count < untrimmed.kernel_count, counts
