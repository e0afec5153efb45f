"""The "magi" backend end to end on CPU: numerics, scoped config, options, weights converted once."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch._inductor import config as inductor_config

import magi_passes.compile.workers as backend_module
from magi_passes import MagiBackend, PassConfig, inductor_options, magi_compile
from magi_passes.backend import warm_compile_workers
from magi_passes.passes.base import config_differences, inductor_config_values
from pytest_magi.models import VAEDecoderLike

# The FX graph cache would skip the post-grad passes on a hit; these tests look at what the
# passes did, so every compile here runs them.
pytestmark = pytest.mark.usefixtures("no_fx_graph_cache")


@pytest.fixture
def no_fx_graph_cache():
    torch._dynamo.reset()
    with inductor_config.patch(fx_graph_cache=False):
        yield
    torch._dynamo.reset()


# conv3d: the channels-last rewrite fires on graphs with a conv3d (conv2d-only graphs are left to
# Inductor's layout optimisation, tests/test_channels_last.py)
ONCE = PassConfig(channels_last_weights_once=True)


class TinyConv(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv3d(3, 8, 3, padding=1)
        self.c2 = torch.nn.Conv3d(8, 8, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.c2(F.silu(self.c1(x))).sum(1)


def assert_config_unchanged(before: dict) -> None:
    diff = config_differences(before, inductor_config_values())
    assert diff == {}, f"Inductor config leaked: {diff}"


def test_backend_registered_and_no_config_leak_forward_and_lazy_backward() -> None:
    assert "magi" in torch._dynamo.list_backends()
    torch.manual_seed(0)
    model = TinyConv()
    ref_model = TinyConv()
    ref_model.load_state_dict(model.state_dict())
    x = torch.randn(2, 3, 3, 9, 9, requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    before = inductor_config_values()
    with inductor_config.patch(layout_optimization=True):
        compiled = torch.compile(model, backend="magi", dynamic=True)
        out = compiled(x)
        assert inductor_config.layout_optimization is True  # restored after the forward compile
        out.sum().backward()  # the backward graph compiles here, lazily, and runs the passes too
        assert inductor_config.layout_optimization is True
    assert_config_unchanged(before)
    ref = ref_model(x_ref)
    ref.sum().backward()
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-4, atol=1e-4)
    for p, q in zip(model.parameters(), ref_model.parameters(), strict=True):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-4)


def test_backward_graph_runs_the_passes() -> None:
    backend = MagiBackend()
    model = TinyConv()
    x = torch.randn(1, 3, 2, 8, 8, requires_grad=True)
    out = torch.compile(model, backend=backend)(x)
    manager = backend.managers[-1]
    assert len(manager.history) == 1  # forward only, so far
    out.sum().backward()
    assert len(manager.history) == 2
    forward, backward = manager.history
    bwd = next(r for r in backward if r.name == "conv_channels_last")
    fwd = next(r for r in forward if r.name == "conv_channels_last")
    assert fwd.applied and fwd.counts["convs_converted"] == 2
    assert bwd.applied and bwd.counts["conv_backwards_converted"] == 2


def test_two_configs_in_one_process_do_not_influence_each_other() -> None:
    model = TinyConv().eval()
    x = torch.randn(1, 3, 2, 8, 8)
    on, off = MagiBackend(PassConfig()), MagiBackend(PassConfig(enable_conv_channels_last=False))
    with torch.no_grad():
        a = torch.compile(model, backend=on)(x)
        torch._dynamo.reset()
        b = torch.compile(model, backend=off)(x)
    torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-4)
    assert on.fired("conv_channels_last") and not off.fired("conv_channels_last")
    # a pass's count summed over the graphs: both convs converted on, none off, none of a count
    # the pass does not have
    assert on.count("conv_channels_last", "convs_converted") == 2
    assert off.count("conv_channels_last", "convs_converted") == 0
    assert on.count("conv_channels_last", "no_such_count") == 0
    assert on.managers[-1].uuid() != off.managers[-1].uuid()
    assert off.hoisted_weights == [0]  # no channels-last, no weight conversion


def test_options_pass_fields_and_inductor_keys() -> None:
    model = TinyConv().eval()
    x = torch.randn(1, 3, 2, 8, 8)
    before = inductor_config_values()
    with torch.no_grad():
        out = torch.compile(
            model,
            backend="magi",
            options={"enable_conv_channels_last": False, "max_fusion_size": 32},
        )(x)
    torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
    assert_config_unchanged(before)


def test_options_take_a_pass_config() -> None:
    """``options={"pass_config": PassConfig(...)}`` compiles with that config (it is not
    taken as an Inductor patch, which would give the config twice); a
    backend given a config both ways says so when it is made."""
    model = TinyConv().eval()
    x = torch.randn(1, 3, 2, 8, 8)
    config = PassConfig(enable_conv_channels_last=False, measure_decisions=False)
    torch._dynamo.reset()
    with torch.no_grad():
        compiled = torch.compile(model, backend="magi", options={"pass_config": config})
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    torch._dynamo.reset()
    with pytest.raises(ValueError, match="give the PassConfig once"):
        MagiBackend(config, inductor_config_patches={"pass_config": config})


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"enable_nd_tilling": True}, "did you mean enable_nd_tiling"),
        ({"pass_config": "fast"}, "must be a magi_passes.PassConfig"),
    ],
)
def test_bad_options_are_clear(options: dict, match: str) -> None:
    model = TinyConv()
    with pytest.raises(Exception, match=match):
        torch.compile(model, backend="magi", options=options)(torch.randn(1, 3, 2, 8, 8))


def test_inductor_options_for_backend_inductor() -> None:
    model = TinyConv().eval()
    x = torch.randn(1, 3, 2, 8, 8)
    options = inductor_options()
    manager = options["post_grad_custom_post_pass"]
    assert set(manager.mutates_inductor_config) <= set(options)
    before = inductor_config_values()
    with torch.no_grad():
        out = torch.compile(model, options=options)(x)
    torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
    assert manager.fired("conv_channels_last")
    assert_config_unchanged(before)


def test_magi_compile_wrapper() -> None:
    model = TinyConv().eval()
    compiled = magi_compile(model, config=PassConfig(enable_nd_tiling=False))
    with torch.no_grad():
        out = compiled(torch.ones(1, 3, 2, 8, 8))
    torch.testing.assert_close(out, model(torch.ones(1, 3, 2, 8, 8)), rtol=1e-4, atol=1e-4)
    assert compiled.magi_backend.fired("conv_channels_last")
    with pytest.raises(TypeError, match="chooses the backend itself"):
        magi_compile(model, backend="inductor")


def test_weights_converted_once_and_refreshed_after_in_place_update() -> None:
    model = TinyConv().eval()
    x = torch.randn(1, 3, 2, 8, 8)
    backend = MagiBackend(ONCE)
    compiled = torch.compile(model, backend=backend)
    with torch.no_grad():
        first = compiled(x)
        assert backend.hoisted_weights == [2]
        assert model.c1.weight.is_contiguous()  # the user's parameters are never re-laid-out
        torch.testing.assert_close(compiled(x), first)
        model.c1.weight.mul_(-1.0)  # an in-place update bumps the version: the copy is refreshed
        after = compiled(x)
        torch.testing.assert_close(after, model(x), rtol=1e-4, atol=1e-4)
        assert not torch.allclose(after, first)
        model.c2.weight.data = torch.zeros_like(model.c2.weight)  # a new storage, same object
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    assert len(backend.managers) == 1  # no recompilation for any of it


def test_training_keeps_weight_clones_in_graph() -> None:
    backend = MagiBackend(ONCE)
    model = TinyConv()
    torch.compile(model, backend=backend)(torch.randn(1, 3, 2, 8, 8))
    assert backend.hoisted_weights == [0]
    result = backend.managers[-1].result("conv_channels_last")
    assert result.counts["clones_inserted"] >= 2  # the two weights, cloned in the graph


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_vae_decoder_tiny_matches_eager(dynamic: bool) -> None:
    torch.manual_seed(0)
    model = VAEDecoderLike("tiny").eval()
    z = model.example_input()
    if dynamic:
        torch._dynamo.mark_dynamic(z, 3)
        torch._dynamo.mark_dynamic(z, 4)
    backend = MagiBackend()
    with torch.no_grad():
        out = torch.compile(model, backend=backend)(z)
        ref = model(z)
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4)
    result = backend.managers[-1].result("conv_channels_last")
    n_convs = sum(isinstance(m, torch.nn.Conv3d) for m in model.modules())
    assert result.applied and result.counts["convs_converted"] == n_convs == 7


def test_vae_decoder_tiny_training_grads_match() -> None:
    torch.manual_seed(0)
    model = VAEDecoderLike("tiny")
    ref_model = VAEDecoderLike("tiny")
    ref_model.load_state_dict(model.state_dict())
    z = model.example_input()
    out = torch.compile(model, backend="magi")(z)
    ref = ref_model(z)
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4)
    out.square().mean().backward()
    ref.square().mean().backward()
    for (name, p), q in zip(model.named_parameters(), ref_model.parameters(), strict=True):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-3, atol=1e-4, msg=name)


def test_outputs_keep_eager_layout_when_weights_are_converted_once() -> None:
    model = torch.nn.Conv2d(3, 4, 3).eval()  # the graph output is the conv itself
    x = torch.randn(2, 3, 8, 8)
    backend = MagiBackend(ONCE.replace(channels_last_conv2d_graphs=True))
    with torch.no_grad():
        out = torch.compile(model, backend=backend)(x)
        ref = model(x)
    assert backend.hoisted_weights == [1]
    assert out.stride() == ref.stride()  # channels-last inside, eager's layout outside
    out.view(2, -1)


def test_inference_mode_weights_stay_in_graph() -> None:
    with torch.inference_mode():
        model = torch.nn.Conv2d(3, 4, 3).eval()  # parameters are inference tensors
        x = torch.randn(1, 3, 8, 8)
        backend = MagiBackend(ONCE.replace(channels_last_conv2d_graphs=True))
        out = torch.compile(model, backend=backend)(x)
        torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
    assert backend.hoisted_weights == [0]  # no version counter to watch: no cached copy


def test_default_weights_stay_in_graph_and_follow_every_update() -> None:
    """The default converts weights in the graph: nothing is cached, so even an update through
    `.data` (which the opt-in cache cannot see) is followed."""
    model = TinyConv().eval()
    x = torch.randn(1, 3, 2, 8, 8)
    backend = MagiBackend()
    compiled = torch.compile(model, backend=backend)
    with torch.no_grad():
        compiled(x)
        assert backend.hoisted_weights == [0]
        model.c1.weight.data.add_(1.0)
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    result = backend.managers[-1].result("conv_channels_last")
    assert result.applied and result.counts["clones_inserted"] >= 2  # the weights' clones


def test_a_graph_the_fx_graph_cache_serves_is_counted_as_unseen(tmp_path, monkeypatch) -> None:
    """The same graph compiled twice with the same passes: the second time Inductor's FX graph
    cache serves it and no pass runs, so `fired` cannot see the rewrite there; `unseen` says
    so (and the zoo benchmark's pass counts print it)."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))  # an empty cache folder
    model = TinyConv().eval()
    x = torch.randn(1, 3, 2, 8, 8)
    seen = []
    with torch.no_grad(), inductor_config.patch(fx_graph_cache=True):
        for _ in range(2):
            torch._dynamo.reset()
            backend = MagiBackend()
            torch.compile(model, backend=backend)(x)
            seen.append((backend.unseen, backend.fired("conv_channels_last")))
    torch._dynamo.reset()
    assert seen == [(0, True), (1, False)]


@pytest.fixture
def pool_warms(monkeypatch) -> list[int]:
    """Each start of Inductor's compile workers, recorded instead of made, CUDA claimed in use.

    Claimed to the backend alone (`_cuda_in_use`): ``torch.cuda.is_initialized`` patched to True
    would also have Inductor's lowering of a CPU graph ask a CPU-only torch for its CUDA device.
    """
    import torch._inductor.async_compile as async_compile

    calls: list[int] = []
    monkeypatch.setattr(async_compile, "maybe_warm_pool", lambda: calls.append(1))
    monkeypatch.setattr(backend_module, "_cuda_in_use", lambda: True)
    return calls


def test_a_backend_starts_inductors_compile_workers_before_dynamo_traces(pool_warms) -> None:
    MagiBackend()
    assert pool_warms == [1]
    magi_compile(TinyConv())  # the workers start here, before the first call traces anything
    assert pool_warms == [1, 1]
    assert warm_compile_workers({"compile_threads": 4}) and pool_warms == [1, 1, 1]
    inductor_options()  # backend="inductor" users get them started as early
    assert pool_warms == [1, 1, 1, 1]


def test_compile_threads_one_starts_no_compile_workers(pool_warms) -> None:
    MagiBackend(inductor_config_patches={"compile_threads": 1})
    magi_compile(TinyConv(), options={"compile_threads": 1})
    assert not warm_compile_workers({"compile_threads": 1})
    inductor_options(compile_threads=1)
    assert pool_warms == []


def test_backend_magi_hands_its_options_to_the_compile_workers(monkeypatch) -> None:
    import magi_passes.compile.backend as backend

    asked: list[dict] = []

    def started(patches: dict) -> bool:
        asked.append(patches)
        return True

    monkeypatch.setattr(backend, "warm_compile_workers", started)
    x = torch.randn(1, 3, 3, 5, 5)
    torch.compile(TinyConv(), backend="magi", options={"compile_threads": 1})(x)
    assert asked == [{"compile_threads": 1}]


def test_no_cuda_in_use_starts_no_compile_workers_and_never_initialises_cuda(
    pool_warms, monkeypatch
) -> None:
    # CUDA reads CUDA_VISIBLE_DEVICES once, when it initialises: asking whether a GPU exists
    # (torch.cuda.is_available) would initialise the driver before pytest-magi pins a worker
    monkeypatch.setattr(backend_module, "_cuda_in_use", _REAL_CUDA_IN_USE)
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: False)
    monkeypatch.setattr(torch.cuda, "is_available", _must_not_be_asked)
    MagiBackend()
    inductor_options()
    assert not warm_compile_workers()
    assert pool_warms == []


_REAL_CUDA_IN_USE = backend_module._cuda_in_use


def _must_not_be_asked() -> bool:
    raise AssertionError("torch.cuda.is_available() initialises CUDA's driver")


def test_a_backend_made_before_cuda_is_in_use_starts_the_workers_at_its_first_graph(
    pool_warms, monkeypatch
) -> None:
    in_use = [False]
    monkeypatch.setattr(backend_module, "_cuda_in_use", lambda: in_use[0])
    backend = MagiBackend()
    assert pool_warms == [] and not backend.workers_started
    in_use[0] = True  # the model moved to the GPU after magi_compile
    x = torch.randn(1, 3, 3, 5, 5)
    compiled = torch.compile(TinyConv(), backend=backend)
    compiled(x)
    compiled(x + 1)
    torch.compile(TinyConv(), backend=backend)(x)  # a second graph: started already
    assert pool_warms == [1] and backend.workers_started


# whether a fresh process has imported Inductor's compile_fx before and after the model is wrapped
_INDUCTOR_IMPORTED_WHEN_MADE = """
import sys, torch
from magi_passes import magi_compile
before = "torch._inductor.compile_fx" in sys.modules
model = torch.nn.Conv2d(3, 3, 3)
compiled = magi_compile(model) if sys.argv[1] == "magi" else torch.compile(model)
print(before, "torch._inductor.compile_fx" in sys.modules)
"""


def test_magi_compile_imports_inductor_when_made_as_torch_compile_does() -> None:
    """A fresh process's first call of either compiled model holds compile work only: both
    `torch.compile(model)` and `magi_compile(model)` import Inductor's compile_fx when made."""
    said = {side: _fresh_process_says(_INDUCTOR_IMPORTED_WHEN_MADE, side)[-2:] for side in SIDES}
    if any(before == "True" for before, _ in said.values()):
        pytest.skip("this torch imports compile_fx with magi_passes: no compile call imports it")
    assert {side: after for side, (_, after) in said.items()} == {
        "torch.compile": "True",
        "magi": "True",
    }


SIDES = ("torch.compile", "magi")


def _fresh_process_says(script: str, side: str) -> list[str]:
    """The words a fresh Python process running ``script`` for ``side`` prints."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", script, side],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout.split()


# what a fresh process says about Inductor's compile workers once the model is wrapped, before
# its first call: torch.compile's default backend has not started them, magi_compile has
_WORKERS_BEFORE_THE_FIRST_CALL = """
import sys, torch
from torch._inductor.async_compile import AsyncCompile, get_compile_threads
from magi_passes import magi_compile
model = torch.nn.Conv2d(3, 3, 3).cuda()
compiled = magi_compile(model) if sys.argv[1] == "magi" else torch.compile(model)
print(get_compile_threads(), AsyncCompile._ready_future is not None)
"""


@pytest.mark.requires_cuda
def test_magi_compile_has_the_compile_workers_starting_before_the_first_call() -> None:
    said = {}
    for side in SIDES:
        threads, started = _fresh_process_says(_WORKERS_BEFORE_THE_FIRST_CALL, side)[-2:]
        said[side] = started == "True"
    if int(threads) <= 1:
        pytest.skip(f"Inductor compiles in the process here (compile_threads {threads})")
    assert said == {"torch.compile": False, "magi": True}


def test_merged_reads_several_backends_as_one() -> None:
    """A model compiled block by block has a backend per block: `MagiBackend.merged` gives their
    graphs, decisions and seconds together, and leaves each backend as it was."""
    backends = [MagiBackend(), MagiBackend()]
    for scale, backend in zip((2.0, 3.0), backends, strict=True):
        fn = torch.compile(lambda x, s=scale: torch.sin(x) * s, backend=backend)
        with inductor_config.patch(fx_graph_cache=False):
            fn(torch.randn(8))
    torch._dynamo.reset()
    merged = MagiBackend.merged(backends)
    assert len(merged.managers) == len(merged.decisions) == 2
    assert merged.decisions == backends[0].decisions + backends[1].decisions
    assert merged.seconds["calls"] == pytest.approx(sum(b.seconds["calls"] for b in backends))
    assert merged.seconds_text().startswith(f"compile {merged.seconds['compile']:.1f} s (2 graphs)")
    assert merged.unseen == 0 and merged.fired("conv_channels_last") is False
    assert [len(b.decisions) for b in backends] == [1, 1]
