"""Measured pass decisions (`magi_passes.decisions`), on CPU: the rule, the key, the cache, and
the magi backend's use of them with fake timers (the static rules are what CPU sees by default).
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
import warnings
from pathlib import Path

import pytest
import torch
from fake_timers import FakeTimer

from magi_passes import MagiBackend, PassConfig
from magi_passes.compile.decisions import (
    CACHE_ENV,
    CACHE_SUBDIR,
    Decider,
    Decision,
    DecisionCache,
    DecisionCacheWarning,
    choose,
    decision_cache_dir,
    decision_key,
    default_cache_dir,
    mutates_inputs,
)


class Block(torch.nn.Module):
    """A conv3d block: the channels-last rewrite (a measured pass) changes its graph."""

    def __init__(self, channels: int = 4) -> None:
        super().__init__()
        self.conv = torch.nn.Conv3d(channels, channels, 3, padding=1)
        self.norm = torch.nn.GroupNorm(2, channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.silu(self.norm(self.conv(x))) + x


class NoConv(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sin(x) * 2


class InPlace(torch.nn.Module):
    """Writes into its input before a conv3d: timing must run on copies."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv3d(2, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x.add_(1)
        return self.conv(x)


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    # the FX graph cache would serve a graph without running the passes
    with torch._inductor.config.patch(fx_graph_cache=False, fx_graph_remote_cache=False):
        yield
    torch._dynamo.reset()


def _compile(model, x, backend):
    with torch.no_grad():
        out = torch.compile(model, backend=backend)(x)
    return out


@pytest.mark.slow  # a second Python process imports torch and compiles: 15-30 s on 2 cores
def test_a_plain_variant_compiled_in_the_background_is_a_cache_hit_here(tmp_path, monkeypatch):
    """`compile_plain_in_background`: a measured graph's plain variant compiles in a process of
    its own while the magi variant compiles here, with the same Inductor cache; the plain compile
    the timing needs here is then an FX graph cache hit, and the decision is as it was."""
    from torch._dynamo.utils import counters

    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))  # empty, shared
    x = torch.randn(1, 4, 3, 6, 6)
    model = Block().eval()
    backend = MagiBackend(
        PassConfig(compile_plain_in_background=True),
        decider=Decider(timer=FakeTimer(magi=1.0, plain=2.0), rounds=1, use_cache=False),
    )
    assert backend.background_worker.ready(timeout=300)  # started with the backend
    counters.clear()
    with torch._inductor.config.patch(fx_graph_cache=True):
        torch.testing.assert_close(_compile(model, x, backend), model(x))
    (decision,) = backend.decisions
    assert (decision.choice, decision.source) == ("magi", "measured")
    assert backend.background == [""], backend.background  # the process compiled the variant
    # magi's variant was compiled here first (a miss), then plain's was found (a hit)
    assert counters["inductor"]["fxgraph_cache_hit"] == 1, dict(counters["inductor"])
    assert "1 of 1 plain variants compiled in the background, waited" in backend.seconds_text()
    process = backend.background_worker.process
    del backend  # the process ends with its backend (dynamo's caches hold it until reset)
    torch._dynamo.reset()
    import gc

    gc.collect()
    assert process.wait(timeout=30) is not None


def test_a_cached_decision_finds_the_timed_variant_in_aot_autograds_cache(tmp_path, monkeypatch):
    """The magi variant that is timed compiles from a copy of dynamo's graph; a later compile
    whose cached decision keeps it compiles dynamo's graph itself, and finds it in AOTAutograd's
    cache as well as Inductor's, so a warm start does no AOT dispatch."""
    from torch._dynamo.utils import counters

    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))  # empty

    def backend():
        return MagiBackend(
            decider=Decider(
                timer=FakeTimer(magi=1.0, plain=2.0), rounds=1, cache=DecisionCache(tmp_path)
            )
        )

    x = torch.randn(1, 4, 3, 6, 6)
    model = Block().eval()
    first, second = backend(), backend()
    with torch._inductor.config.patch(fx_graph_cache=True):
        _compile(model, x, first)
        torch._dynamo.reset()
        counters.clear()
        out = _compile(model, x, second)
    assert [(d.choice, d.source) for d in first.decisions] == [("magi", "measured")]
    assert [(d.choice, d.source) for d in second.decisions] == [("magi", "cached")]
    assert counters["aot_autograd"]["autograd_cache_hit"] == 1, dict(counters["aot_autograd"])
    torch.testing.assert_close(out, model(x))


def test_a_graph_the_background_cannot_take_is_compiled_here_saying_why(monkeypatch):
    """A graph that cannot be sent (here: an input that is not a tensor) starts nothing; the
    variant is compiled here as without the option, and the backend says why."""
    from magi_passes.compile import workers

    worker = workers.BackgroundWorker()
    job = worker.submit(torch.fx.symbolic_trace(Block()), [3], PassConfig(), {})
    assert worker.process is None  # nothing was started for it
    assert job.wait() == "not sent (TypeError: an input that is not a tensor (int))"
    sent, bounds = [], []

    class Refused(workers.BackgroundCompile):
        def wait(self, timeout=workers.BACKGROUND_WAIT_S):
            bounds.append(timeout)
            return super().wait(timeout)

    def refuse(self, *args):
        sent.append(args)
        return Refused(None, "not sent (x)")

    monkeypatch.setattr(workers.BackgroundWorker, "submit", refuse)
    x = torch.randn(1, 4, 3, 6, 6)
    backend = MagiBackend(
        PassConfig(compile_plain_in_background=True),
        decider=Decider(timer=FakeTimer(magi=1.0, plain=2.0), rounds=1, use_cache=False),
    )
    model = Block().eval()
    with torch._inductor.config.patch(fx_graph_cache=True):
        torch.testing.assert_close(_compile(model, x, backend), model(x))
    assert len(sent) == 1 and backend.background == ["not sent (x)"]
    # waited no longer than the magi variant took to compile here (compiling the plain one
    # here costs about as much), and at least a second
    (bound,) = bounds
    kept = backend.seconds["compile"]  # the magi variant's: plain's was discarded
    assert bound == pytest.approx(max(kept, workers.BACKGROUND_MIN_WAIT_S))
    assert backend.decisions[0].source == "measured"
    assert "0 of 1 plain variants compiled in the background" in backend.seconds_text()
    assert "(not sent (x))" in backend.seconds_text()
    backend.background_worker.stop()


def test_the_background_worker_says_why_a_job_failed_and_starts_again(monkeypatch):
    """A job the process cannot compile is answered with its error, the process keeps serving;
    a stopped process is started again by the next job. The process does not inherit the
    variable that turns the option on (its own backend would start a process of its own)."""
    from magi_passes.compile import workers

    lower = "MAGI_PASSES__compile_plain_in_background"  # PassConfig.from_env reads it too
    monkeypatch.setenv(workers.BACKGROUND_ENV, "1")
    monkeypatch.setenv(lower, "1")
    worker = workers.BackgroundWorker()
    worker.start()
    first = worker.process
    environ = Path(f"/proc/{first.pid}/environ")
    if environ.exists():
        inherited = environ.read_bytes()
        assert workers.BACKGROUND_ENV.encode() not in inherited
        assert lower.encode() not in inherited
    assert worker.ready(timeout=300)  # its imports are done
    bad = worker.folder / "job-bad.pkl"
    bad.write_bytes(b"not a pickle")
    first.stdin.write(f"{bad}\n".encode())
    reply = worker.reply(timeout=300)
    assert reply.startswith("failed (UnpicklingError"), reply
    assert first.poll() is None  # still serving
    folder = worker.folder
    worker.stop()
    assert first.poll() is not None and worker.process is None and not worker.is_ready
    assert not folder.exists()  # its stderr and job files go with it
    job = worker.submit(torch.fx.symbolic_trace(lambda t: t + 1), [torch.ones(3)], PassConfig(), {})
    assert worker.process is not None and worker.process is not first
    assert job.worker is worker  # sent to the new process
    job.cancel()
    assert worker.process is None


def test_a_graph_that_comes_while_the_background_process_imports_waits_for_it():
    """A graph sent before the process has done its imports (seconds) waits in its input, so a
    one-graph model still has its variants compiled at once; the wait's bound counts the
    imports, and a process not done within it is stopped, saying how far it got."""
    from magi_passes.compile import workers

    worker = workers.BackgroundWorker()
    worker.start()
    gm = torch.fx.symbolic_trace(lambda t: t + 1)
    try:
        job = worker.submit(gm, [torch.ones(3)], PassConfig(), {})  # importing torch still
        assert job.worker is worker and not worker.is_ready  # sent all the same
        assert job.wait(timeout=300) == ""  # compiled once the imports were done
        assert worker.is_ready and worker.process.poll() is None  # serving the next graph
        worker.stop()
        job = worker.submit(gm, [torch.ones(3)], PassConfig(), {})  # a fresh process
        process = worker.process
        assert job.wait(timeout=0.01) == "still starting after 0.01 s"
        assert process.poll() is not None and worker.process is None  # stopped
    finally:
        worker.stop()
    ended = workers.BackgroundWorker()
    ended.start()
    killed = ended.process
    killed.kill()
    killed.wait()
    assert not ended.ready()  # it ended before it said so: gone, its folder with it
    assert ended.process is None and ended.folder is None


def _cl_result(backend: MagiBackend):
    return next(r for r in backend.results if r.name == "conv_channels_last")


# --------------------------------------------------------------------------- the rule
@pytest.mark.parametrize(
    ("magi", "plain", "margin", "kept"),
    [
        (1.0, 2.0, 0.02, "magi"),  # much faster
        (2.0, 1.0, 0.02, "plain"),  # slower
        (1.0, 1.0, 0.02, "plain"),  # a tie keeps plain
        (1.0, 1.0, 0.0, "plain"),  # a tie keeps plain even without a margin
        (1.0, 1.015, 0.02, "plain"),  # 1.5% faster: inside the noise margin
        (1.0, 1.03, 0.02, "magi"),  # 3% faster: outside it
        (1.0, 1.03, 0.05, "magi" if 1.0 * 1.05 < 1.03 else "plain"),
    ],
)
def test_choose_keeps_plain_unless_magi_wins_by_the_margin(magi, plain, margin, kept):
    assert choose(magi, plain, margin) == kept


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((0.0, 1.0), "magi_ms must be a positive, finite time, got 0.0"),
        ((1.0, float("nan")), "plain_ms must be a positive, finite time, got nan"),
        ((1.0, 1.0, 1.5), r"margin must be a fraction in \[0, 1\), got 1.5; fix"),
        ((1.0, 1.0, -0.1), r"margin must be a fraction in \[0, 1\), got -0.1"),
    ],
)
def test_choose_refuses_bad_times_and_margins(args, match):
    with pytest.raises(ValueError, match=match):
        choose(*args)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"margin": True}, "margin must be a fraction"),
        ({"rounds": 0}, r"rounds must be an int >= 1, got 0; fix: e.g. Decider\(rounds=9\)"),
        ({"warmup": -1}, r"warmup must be an int >= 0, got -1"),
        ({"timer": 3}, "timer must be a callable"),
    ],
)
def test_decider_refuses_bad_settings(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        Decider(**kwargs)


def test_decision_describes_itself():
    d = Decision("plain", "measured", "timed 9 interleaved rounds", magi_ms=1.52, plain_ms=1.31)
    assert d.describe() == "measured: plain 1.310 ms vs magi 1.520 ms (margin 2%), kept plain"
    # timings of something else than the graph's two variants say what they are
    convs = dataclasses.replace(d, choice="magi", reason="its 2 convolutions timed alone")
    assert convs.describe().endswith("kept magi (its 2 convolutions timed alone)")
    s = Decision("magi", "static", "not a CUDA graph (inputs on cpu)")
    assert s.describe() == "static: not a CUDA graph (inputs on cpu)"
    with pytest.raises(ValueError, match="choice must be one of"):
        Decision("fast", "measured", "")


# --------------------------------------------------------------------------- the key
def _traced(model: torch.nn.Module, x: torch.Tensor):
    """dynamo's graph and example inputs, as a backend receives them."""
    seen = []

    def grab(gm, inputs):
        seen.append((gm, list(inputs)))
        return gm.forward

    torch._dynamo.reset()
    with torch.no_grad():
        torch.compile(model, backend=grab)(x)
    return seen[0]


KEY_DEFAULTS = {"device_name": "NVIDIA H200", "torch_version": "2.11.0", "passes_uuid": "u1"}


def _key(gm, inputs, **changes):
    return decision_key(gm, inputs, **{**KEY_DEFAULTS, **changes})


def test_the_key_is_stable_across_processes_objects_and_names():
    torch.manual_seed(0)
    a = _traced(Block(), torch.randn(1, 4, 3, 6, 6))
    b = _traced(Block(), torch.randn(1, 4, 3, 6, 6))  # other weights, another GraphModule
    assert _key(*a) == _key(*b)
    assert len(_key(*a)) == 64


@pytest.mark.parametrize(
    "change",
    ["structure", "shape", "stride", "dtype", "device_name", "torch_version", "passes_uuid"],
)
def test_each_part_of_the_key_changes_it(change):
    x = torch.randn(1, 4, 3, 6, 6)
    base = _key(*_traced(Block(), x))
    if change == "structure":
        other = _key(*_traced(NoConv(), x))
    elif change == "shape":
        other = _key(*_traced(Block(), torch.randn(1, 4, 3, 6, 8)))
    elif change == "stride":
        other = _key(*_traced(Block(), x.contiguous(memory_format=torch.channels_last_3d)))
    elif change == "dtype":
        other = _key(*_traced(Block().double(), x.double()))
    else:
        other = _key(*_traced(Block(), x), **{change: KEY_DEFAULTS[change] + "x"})
    assert other != base


def test_mutation_is_seen():
    assert mutates_inputs(_traced(InPlace(), torch.randn(1, 2, 2, 3, 3))[0])
    assert not mutates_inputs(_traced(Block(), torch.randn(1, 4, 3, 6, 6))[0])


# --------------------------------------------------------------------------- the cache
def _decision(key: str = "a" * 64) -> Decision:
    return Decision("magi", "measured", "r", magi_ms=1.0, plain_ms=1.5, rounds=9, key=key)


def test_the_cache_round_trips_and_misses(tmp_path):
    cache = DecisionCache(tmp_path)
    assert cache.load("a" * 64) is None
    path = cache.store(_decision())
    assert path == tmp_path / f"{'a' * 64}.json"
    assert cache.load("a" * 64) == _decision()
    assert not list(tmp_path.glob(".tmp-*"))  # written atomically, nothing left behind


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "is not a valid decision"),
        (json.dumps({"schema": 99, "decision": {}}), "not a schema-1 decision"),
        (json.dumps({"schema": 1, "decision": {"choice": "fast"}}), "is not a valid decision"),
        (
            json.dumps({"schema": 1, "decision": {**_decision("b" * 64).to_dict()}}),
            "holds the decision of key 'bbbb",
        ),
        (
            json.dumps({"schema": 1, "decision": {**_decision().to_dict(), "magi_ms": -1}}),
            "magi_ms must be a positive number",
        ),
    ],
)
def test_a_bad_cache_file_warns_and_misses(tmp_path, content, problem):
    (tmp_path / f"{'a' * 64}.json").write_text(content)
    with pytest.warns(DecisionCacheWarning, match=problem) as caught:
        assert DecisionCache(tmp_path).load("a" * 64) is None
    assert "measuring again and rewriting it" in str(caught[0].message)


def test_an_unwritable_cache_warns_and_goes_on(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.warns(DecisionCacheWarning, match="could not write .* set MAGI_DECISION_CACHE"):
        assert DecisionCache(blocker / "sub").store(_decision()) is None


def test_bad_cache_arguments_are_named():
    with pytest.raises(TypeError, match="directory must be a path or None, got 3"):
        DecisionCache(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a key is a sha256 hex digest, got '../x'"):
        DecisionCache().path("../x")


def test_the_default_folder_is_inside_inductors_cache(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))
    assert default_cache_dir() == tmp_path / "inductor" / CACHE_SUBDIR
    assert DecisionCache().directory == tmp_path / "inductor" / CACHE_SUBDIR  # read at each use
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert DecisionCache().directory == tmp_path / "mine"


def test_decision_cache_dir_restores_the_variable(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "/before")
    with decision_cache_dir(tmp_path) as folder:
        assert default_cache_dir() == folder == tmp_path
    assert os.environ[CACHE_ENV] == "/before"
    monkeypatch.delenv(CACHE_ENV)
    with pytest.raises(RuntimeError), decision_cache_dir(tmp_path):
        raise RuntimeError
    assert CACHE_ENV not in os.environ


def test_the_fixture_gives_each_test_its_own_folder(decision_cache, tmp_path):
    assert decision_cache.directory == tmp_path / "magi_decisions"
    assert default_cache_dir() == decision_cache.directory


def test_the_fixture_reads_no_decision_file_while_it_lasts(monkeypatch, request, tmp_path):
    """A developer's `MAGI_DECISIONS_FILE` never serves a test that asked for a fresh cache."""
    from magi_passes.compile.decision_files import FILES_ENV

    monkeypatch.setenv(FILES_ENV, str(tmp_path / "team.json"))
    request.getfixturevalue("decision_cache")
    assert FILES_ENV not in os.environ


# --------------------------------------------------------------------------- the backend
def test_the_faster_variant_wins_and_is_cached(tmp_path):
    x = torch.randn(1, 4, 3, 6, 6)
    model = Block().eval()
    timer = FakeTimer(magi=1.0, plain=2.0)
    backend = MagiBackend(decider=Decider(timer=timer, rounds=3, cache=DecisionCache(tmp_path)))
    out = _compile(model, x, backend)
    torch.testing.assert_close(out, model(x))
    (decision,) = backend.decisions
    assert (decision.choice, decision.source) == ("magi", "measured")
    # the Block's GroupNorm reads the channels-last conv output: its statistics are rewritten too
    assert decision.passes == ("conv_channels_last", "group_norm_stats")
    assert timer.calls.count("magi") == timer.calls.count("plain") == 3
    assert len(backend.discarded) == 1  # plain was compiled to be timed, then dropped
    cl = _cl_result(backend)
    assert cl.applied
    assert "measured: plain 2.000 ms vs magi 1.000 ms (margin 2%), kept magi" in cl.reason
    stored = json.loads((tmp_path / f"{decision.key}.json").read_text())
    assert stored["decision"]["choice"] == "magi"

    # a second compile of the same model: the cached decision, one compile, nothing timed
    torch._dynamo.reset()
    timer2 = FakeTimer(magi=9.0, plain=1.0)  # would choose plain if it were asked
    again = MagiBackend(decider=Decider(timer=timer2, cache=DecisionCache(tmp_path)))
    torch.testing.assert_close(_compile(model, x, again), model(x))
    assert timer2.calls == []
    (cached,) = again.decisions
    assert (cached.choice, cached.source, cached.key) == ("magi", "cached", decision.key)
    assert again.discarded == [] and len(again.managers) == 1
    assert "cached: plain 2.000 ms vs magi 1.000 ms" in _cl_result(again).reason


@pytest.mark.parametrize(("magi", "plain"), [(2.0, 1.0), (1.0, 1.0), (1.0, 1.01)])
def test_slower_tied_or_within_noise_keeps_plain_inductor(tmp_path, magi, plain):
    x = torch.randn(1, 4, 3, 6, 6)
    model = Block().eval()
    backend = MagiBackend(
        decider=Decider(timer=FakeTimer(magi, plain), rounds=2, cache=DecisionCache(tmp_path))
    )
    torch.testing.assert_close(_compile(model, x, backend), model(x))
    (decision,) = backend.decisions
    assert decision.choice == "plain"
    cl = _cl_result(backend)
    assert not cl.applied
    assert cl.reason.startswith("measured: plain ") and cl.reason.endswith("kept plain")
    # the graph that runs is plain Inductor's: no channels-last clone in it
    assert "channels_last" not in backend.managers[-1].graphs[-1]
    assert "channels_last" in backend.discarded[0].graphs[-1]


def test_a_bad_cache_file_is_measured_again_and_rewritten(tmp_path):
    x = torch.randn(1, 4, 3, 6, 6)
    model = Block().eval()
    first = MagiBackend(
        decider=Decider(timer=FakeTimer(1.0, 2.0), rounds=1, cache=DecisionCache(tmp_path))
    )
    _compile(model, x, first)
    path = tmp_path / f"{first.decisions[0].key}.json"
    path.write_text("garbage")
    torch._dynamo.reset()
    timer = FakeTimer(1.0, 2.0)
    second = MagiBackend(decider=Decider(timer=timer, rounds=1, cache=DecisionCache(tmp_path)))
    with pytest.warns(DecisionCacheWarning, match="is not a valid decision"):
        torch.testing.assert_close(_compile(model, x, second), model(x))
    assert second.decisions[0].source == "measured" and timer.calls
    assert json.loads(path.read_text())["decision"]["choice"] == "magi"


def test_timing_runs_on_copies_of_inputs_the_graph_writes(tmp_path):
    x = torch.randn(1, 2, 2, 3, 3)
    x0 = x.clone()
    model = InPlace().eval()
    timer = FakeTimer(1.0, 2.0)
    backend = MagiBackend(decider=Decider(timer=timer, rounds=3, cache=DecisionCache(tmp_path)))
    out = _compile(model, x, backend)
    assert backend.decisions[0].source == "measured" and len(timer.calls) == 6
    # the user's tensor was written once (by the real call), not once per timed call
    torch.testing.assert_close(x, x0 + 1)
    torch.testing.assert_close(out, model.conv(x0 + 1))


def test_a_timing_failure_warns_and_keeps_the_static_rule(tmp_path):
    def broken(variant, args):
        raise RuntimeError("no clock")

    x = torch.randn(1, 4, 3, 6, 6)
    backend = MagiBackend(decider=Decider(timer=broken, cache=DecisionCache(tmp_path)))
    with pytest.warns(RuntimeWarning, match="timing the graph's two variants failed"):
        _compile(Block().eval(), x, backend)
    (decision,) = backend.decisions
    assert (decision.choice, decision.source) == ("magi", "static")
    assert "timing failed (RuntimeError)" in decision.reason
    assert len(backend.discarded) == 1  # the plain variant, compiled to be timed, is dropped
    assert not list(tmp_path.iterdir())


class Conv2dBlock(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x)) * 2


@pytest.mark.parametrize(
    ("model", "x", "why"),
    [
        (
            NoConv(),
            torch.randn(8),
            "no measured pass can change this graph (no convolution, no vector norm)",
        ),
        (
            Conv2dBlock().eval(),
            torch.randn(1, 4, 6, 6),
            "no measured pass can change this graph (channels-last: no conv3d; ND tiling: "
            "static shapes; no vector norm; no pad to fold or trim; no transposed convolution "
            "to interleave)",
        ),
    ],
)
def test_graphs_no_measured_pass_can_change_compile_once_untimed(tmp_path, model, x, why):
    """Read from dynamo's graph before compiling: one variant, nothing timed, nothing stored."""
    timer = FakeTimer(1.0, 2.0)
    backend = MagiBackend(decider=Decider(timer=timer, cache=DecisionCache(tmp_path)))
    torch.testing.assert_close(_compile(model, x, backend), model(x))
    assert timer.calls == [] and backend.discarded == [] and len(backend.managers) == 1
    (decision,) = backend.decisions
    assert (decision.reason, decision.source, decision.in_play) == (why, "static", False)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("heavy_ratio", [1, 300], ids=["nd-tiling-stands-down", "nd-tiling-fires"])
def test_a_dynamic_graph_is_compiled_once_and_never_timed(tmp_path, heavy_ratio):
    """Dynamic with a convolution, so ND tiling may fire: the static rules decide, whether it
    fires or not (on the GPU a second, plain compile of a graph with sizes marked dynamic
    specialised them; docs/reliability.md)."""
    timer = FakeTimer(1.0, 2.0)
    backend = MagiBackend(
        PassConfig(conv_heavy_ratio=heavy_ratio),
        decider=Decider(timer=timer, cache=DecisionCache(tmp_path)),
    )
    model, x = Conv2dBlock().eval(), torch.randn(1, 4, 6, 6)
    with torch.no_grad():
        out = torch.compile(model, backend=backend, dynamic=True)(x)
    torch.testing.assert_close(out, model(x))
    assert timer.calls == [] and backend.discarded == []
    assert len(backend.managers) == 1
    (decision,) = backend.decisions
    assert decision.reason.startswith("dynamic shapes") and decision.source == "static"
    assert not list(tmp_path.iterdir())  # nothing measured, nothing cached


def test_an_fx_cache_hit_on_a_graph_no_pass_can_change_is_not_compiled_twice(tmp_path, monkeypatch):
    """Inductor's FX graph cache serves a graph without running the passes (no history): a
    graph no measured pass can change is still compiled once and never timed."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))
    model, x = NoConv(), torch.randn(8)
    with torch._inductor.config.patch(fx_graph_cache=True):
        for round_ in range(2):
            torch._dynamo.reset()
            timer = FakeTimer(1.0, 2.0)
            backend = MagiBackend(decider=Decider(timer=timer, use_cache=False))
            torch.testing.assert_close(_compile(model, x, backend), model(x))
            assert timer.calls == [] and backend.discarded == [], round_
            assert backend.decisions[0].reason.startswith("no measured pass can change")
    # the second round was served by the FX graph cache: no pass ran
    assert backend.managers[0].history == []


@pytest.mark.parametrize(
    ("config", "grad", "why"),
    [
        (PassConfig(), False, "not a CUDA graph (inputs on cpu)"),
        (PassConfig(measure_decisions=False), False, "measuring is off"),
        (
            PassConfig(
                enable_conv_channels_last=False,
                enable_nd_tiling=False,
                enable_norm_rsqrt=False,
                enable_group_norm_stats=False,
                enable_conv_pad_fold=False,
                enable_causal_pad_trim=False,
            ),
            False,
            "no measured pass is on",
        ),
        (PassConfig(), True, "a training graph"),
    ],
)
def test_the_static_rules_decide_where_nothing_is_measured(tmp_path, config, grad, why):
    """CPU (what CI sees), measuring switched off, no measured pass on, training graphs."""
    x = torch.randn(1, 4, 3, 6, 6, requires_grad=grad)
    model = Block()
    decider = Decider(timer=FakeTimer(1.0, 2.0), cache=DecisionCache(tmp_path)) if grad else None
    backend = MagiBackend(config, decider=decider)
    with torch.set_grad_enabled(grad):
        torch.compile(model, backend=backend)(x)
    (decision,) = backend.decisions
    assert (decision.choice, decision.source) == ("magi", "static")
    assert decision.reason.startswith(why)
    assert len(backend.managers) == 1 and backend.discarded == []
    assert not list(tmp_path.iterdir())
    if config.enable_conv_channels_last:
        cl = _cl_result(backend)
        assert cl.applied and cl.reason.endswith(f"; static: {decision.reason}")


@pytest.mark.parametrize("kept", ["magi", "plain"])
@pytest.mark.parametrize(("devices", "measured"), [("cpu", False), ("H100,H200", True)])
def test_a_device_with_a_recorded_decision_compiles_once_untimed(tmp_path, kept, devices, measured):
    """`PassConfig.decided_on` (kept magi) and `decided_plain_on` (kept plain Inductor): on a
    device they name (here "cpu", the only device a CPU run has, with a fake timer standing in
    for CUDA's) the graph compiles once as the recorded decision says, nothing is timed or
    cached, and the decision says why; a device they do not name is measured as usual (the
    fake timer favours the other variant, so a measurement shows)."""
    x = torch.randn(1, 4, 3, 6, 6)
    model = Block().eval()
    other = "plain" if kept == "magi" else "magi"
    timer = FakeTimer(magi=2.0, plain=1.0) if other == "plain" else FakeTimer(magi=1.0, plain=2.0)
    field = "decided_on" if kept == "magi" else "decided_plain_on"
    backend = MagiBackend(
        PassConfig(**{field: devices}),
        decider=Decider(timer=timer, rounds=1, cache=DecisionCache(tmp_path)),
    )
    torch.testing.assert_close(_compile(model, x, backend), model(x))
    (decision,) = backend.decisions
    if measured:
        assert (decision.choice, decision.source) == (other, "measured")
        assert timer.calls and len(backend.discarded) == 1
        return
    assert (decision.choice, decision.source) == (kept, "static")
    assert decision.in_play  # shown in the compile record's decisions
    how = "decided on" if kept == "magi" else "decided plain on"
    assert decision.reason.startswith(f"{how} this device: cpu matches 'cpu'")
    assert timer.calls == [] and backend.discarded == [] and not list(tmp_path.iterdir())
    cl = _cl_result(backend)
    assert cl.applied == (kept == "magi")
    # plain Inductor's graph has no channels-last copy; the reason names the recorded decision
    assert ("channels_last" in backend.managers[-1].graphs[-1]) == (kept == "magi")
    assert how in cl.reason


@pytest.mark.parametrize("why", ["cudagraphs", "training"])
def test_a_recorded_decision_holds_where_nothing_can_be_timed(tmp_path, why):
    """CUDA graphs on (the timing is blocked): a device the config names gets its recorded
    decision (here plain, where the static rules would keep magi), nothing timed; a training
    graph keeps the static rules, as no recorded forward timing saw its backward. In fake CUDA
    the device is named as an H100, so a form recorded for H100s decides there too."""
    from magi_passes.compile.variants import _device_name
    from pytest_magi.capture.fake_cuda import fake_cuda

    timer = FakeTimer(magi=1.0, plain=2.0)
    decider = Decider(timer=timer, rounds=1, cache=DecisionCache(tmp_path))
    backend = MagiBackend(PassConfig(decided_plain_on="cpu"), decider=decider)
    training = why == "training"
    x = torch.randn(1, 4, 3, 6, 6, requires_grad=training)
    options = {"triton.cudagraphs": True} if why == "cudagraphs" else None
    with torch.set_grad_enabled(training):
        torch.compile(Block() if training else Block().eval(), backend=backend, options=options)(x)
    (decision,) = backend.decisions
    assert timer.calls == [] and backend.discarded == [] and not list(tmp_path.iterdir())
    if training:
        assert decision.choice == "magi" and decision.reason.startswith("a training graph")
    else:
        assert (decision.choice, decision.source) == ("plain", "static")
        assert decision.reason.startswith("decided plain on this device: cpu matches 'cpu'")
        assert "channels_last" not in backend.managers[-1].graphs[-1]
    with fake_cuda() as env, env.fake_mode:
        name = _device_name([torch.empty(1, 4, 3, 6, 6, device="cuda")])
    if not env.fake:  # a real GPU is not renamed: the graph's device is the one it names
        assert name == torch.cuda.get_device_name()
        return
    assert PassConfig(decided_plain_on="H100").decided_plain_for(name) == "H100"


def test_fake_cuda_is_never_measured():
    from pytest_magi.capture.fake_cuda import fake_cuda

    with fake_cuda() as env, env.fake_mode:
        x = torch.empty(1, 4, 3, 6, 6, device="cuda")
        why = Decider(use_cache=False).blocked([x], {})
    assert why == "no real CUDA device (fake CUDA codegen)"
    assert Decider(use_cache=False).blocked([torch.ones(2)], {"triton.cudagraphs": True}) == (
        "CUDA graphs are on (their replay is not what a plain call times)"
    )


def test_a_pair_shows_only_the_chosen_variants_code(compiled_pair, tmp_path):
    """The variant compiled only to be timed leaves no code, graph or kernels in the pair."""
    x = torch.randn(1, 4, 3, 6, 6)
    candidate = MagiBackend(
        decider=Decider(timer=FakeTimer(2.0, 1.0), rounds=1, cache=DecisionCache(tmp_path))
    )
    pair = compiled_pair(Block().eval(), x, candidate=candidate)
    assert pair.decisions["candidate"][0].choice == "plain"
    assert len(pair.graphs["candidate"]) == 1
    assert "channels_last" not in pair.graphs["candidate"][0]
    assert pair.kernel_counts["candidate"] == pair.kernel_counts["baseline"]
    assert len(pair.code["candidate"].split("def call(")) == 2  # one module of code


def test_the_compile_record_lists_the_decisions(compiled_pair, tmp_path):
    from pytest_magi.report import CompileRecord, format_compile_table

    candidate = MagiBackend(
        decider=Decider(timer=FakeTimer(1.0, 3.0), rounds=1, cache=DecisionCache(tmp_path))
    )
    pair = compiled_pair(Block().eval(), torch.randn(1, 4, 3, 6, 6), candidate=candidate)
    record = CompileRecord.from_pair("t::x", pair)
    assert record is not None
    assert record.decisions == [
        "candidate graph 0: measured: plain 3.000 ms vs magi 1.000 ms (margin 2%), kept magi"
    ]
    assert CompileRecord.from_dict(record.to_dict()) == record
    lines = format_compile_table([record])
    assert lines[-2] == "pass decisions (magi_passes.decisions):"
    assert lines[-1].startswith("  t::x [") and lines[-1].endswith("kept magi")


@pytest.mark.slow
def test_decisions_live_in_each_workers_own_inductor_cache_folder(pytester, monkeypatch):
    """Decisions are kept in the process's Inductor cache folder: two xdist workers whose
    folders differ (what `--magi-perf -n N` gives each) decide into two folders."""
    pytest.importorskip("xdist")
    pytester.makeconftest(
        """
        import os

        worker = os.environ.get("PYTEST_XDIST_WORKER")
        if worker:  # each worker its own Inductor cache, as the plugin's cache slot sets it
            os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(os.environ["OUT"], "c-" + worker)
        """
    )
    pytester.makepyfile(
        """
        import os
        from pathlib import Path
        from magi_passes.compile.decisions import default_cache_dir

        def test_where():
            out = Path(os.environ["OUT"]) / os.environ["PYTEST_XDIST_WORKER"]
            out.write_text(str(default_cache_dir()))
        """
    )
    out = pytester.path / "out"
    out.mkdir()
    monkeypatch.setenv("OUT", str(out))
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    result = pytester.runpytest_subprocess("-n", "2", "--dist", "each", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    folders = {p.name: Path(p.read_text()) for p in out.iterdir() if p.is_file()}
    assert set(folders) == {"gw0", "gw1"}
    assert folders["gw0"] != folders["gw1"]
    assert all(f.name == CACHE_SUBDIR and f"c-{w}" in str(f) for w, f in folders.items())


def test_warnings_stay_quiet_on_the_static_path():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        backend = MagiBackend()
        torch.compile(Block().eval(), backend=backend)(torch.randn(1, 4, 3, 6, 6))
    assert backend.decisions[0].source == "static"


def test_the_wall_clock_timer_times_the_real_compiled_variants(tmp_path):
    """The default timer, forced onto CPU: both variants really run inside the backend call."""
    from magi_passes.compile.decisions import wall_timer

    x = torch.randn(1, 4, 3, 6, 6)
    model = Block().eval()
    backend = MagiBackend(
        decider=Decider(timer=wall_timer, rounds=3, warmup=1, cache=DecisionCache(tmp_path))
    )
    torch.testing.assert_close(_compile(model, x, backend), model(x))
    (decision,) = backend.decisions
    assert decision.source == "measured" and decision.rounds == 3
    assert decision.magi_ms > 0 and decision.plain_ms > 0
    assert decision.choice == choose(decision.magi_ms, decision.plain_ms, decision.margin)


@pytest.mark.slow
def test_a_zoo_pair_reports_the_candidates_decisions(tmp_path):
    from pytest_magi import zoo
    from pytest_magi.report import decision_lines

    model = zoo.load("ltx-video-vae", "tiny")
    timer = FakeTimer(magi=2.0, plain=1.0)
    candidate = MagiBackend(decider=Decider(timer=timer, rounds=1, cache=DecisionCache(tmp_path)))
    pair = zoo.ZooPair(model, candidate=candidate)
    with torch.no_grad():
        pair.run("candidate")
    (decision,) = pair.decisions["candidate"]
    assert decision.choice == "plain"
    (line,) = decision_lines(pair.decisions)
    assert line.startswith("candidate graph 0: measured: plain 1.000 ms vs magi 2.000 ms")
    assert zoo.ZooPair(model, candidate="inductor").decisions == {}


def test_the_backends_records_hold_one_entry_per_graph(tmp_path):
    """managers, decisions and hoisted_weights describe what runs: the variant compiled only to
    be timed (here plain, which hoists no weight) is in `discarded` alone."""
    x = torch.randn(1, 4, 3, 6, 6)
    model = Block().eval()
    backend = MagiBackend(
        PassConfig(channels_last_weights_once=True),
        decider=Decider(timer=FakeTimer(1.0, 2.0), rounds=1, cache=DecisionCache(tmp_path)),
    )
    torch.testing.assert_close(_compile(model, x, backend), model(x))
    assert backend.decisions[0].choice == "magi"
    assert len(backend.managers) == len(backend.decisions) == 1
    assert backend.hoisted_weights == [1]  # the conv weight, converted once outside the graph
    assert len(backend.discarded) == 1


# --------------------------------------------------------------------------- stopping early
def test_separated_names_the_choice_every_sample_agrees_on():
    from magi_passes.compile.decisions import separated

    assert separated([1.0, 1.1, 1.05], [2.0, 2.2, 1.9], 0.02) == "magi"
    assert separated([2.0, 2.1], [1.0, 1.2], 0.02) == "plain"
    # magi's fastest within the margin of plain's slowest: plain, as `choose` would say
    assert separated([1.0, 1.0], [1.01, 1.01], 0.02) == "plain"
    # overlapping samples: undecided, keep timing
    assert separated([1.0, 1.5], [1.2, 1.3], 0.02) is None
    # agrees with choose on the medians of every decisive case
    for magi, plain in (([1.0, 1.1], [2.0, 2.2]), ([2.0, 2.1], [1.0, 1.2])):
        med = choose(sorted(magi)[0], sorted(plain)[0], 0.02)
        assert separated(magi, plain, 0.02) == med


class NoisyTimer(FakeTimer):
    """Times from per-variant sequences, cycled: lets a test make rounds overlap or not."""

    def __init__(self, magi: list[float], plain: list[float]) -> None:
        super().__init__(0.0, 0.0)
        self.seq = {"magi": magi, "plain": plain}

    def __call__(self, variant, args) -> float:  # noqa: ANN001 - the Timer protocol
        variant(*args)
        self.calls.append(variant.name)
        seq = self.seq[variant.name]
        return seq[(self.calls.count(variant.name) - 1) % len(seq)]


@pytest.mark.parametrize(
    ("magi", "plain", "rounds", "choice"),
    [
        ([1.0], [2.0], 3, "magi"),  # decisive: stops after min_rounds
        ([2.0], [1.0], 3, "plain"),
        ([1.0, 1.6], [1.3], 9, "magi"),  # overlapping rounds: all 9, median decides
    ],
)
def test_the_timing_stops_once_every_sample_agrees(tmp_path, magi, plain, rounds, choice):
    timer = NoisyTimer(magi, plain)
    backend = MagiBackend(decider=Decider(timer=timer, cache=DecisionCache(tmp_path)))
    _compile(Block().eval(), torch.randn(1, 4, 3, 6, 6), backend)
    (decision,) = backend.decisions
    assert (decision.choice, decision.rounds) == (choice, rounds)
    assert len(timer.calls) == 2 * rounds
    assert decision.reason == f"timed {rounds} interleaved rounds"


def test_min_rounds_is_checked():
    with pytest.raises(ValueError, match="min_rounds must be an int >= 1, got 0"):
        Decider(min_rounds=0)


def test_the_wall_timer_takes_a_call_that_fills_the_target_as_the_round():
    from magi_passes.compile.decisions import wall_timer

    calls = []

    def slow(x):
        calls.append(x)
        time.sleep(0.02)

    ms = wall_timer(slow, [1], target_s=0.01)
    assert len(calls) == 1 and ms >= 20
    calls.clear()
    ms = wall_timer(lambda x: calls.append(x), [1], target_s=0.001)
    assert len(calls) > 2 and ms > 0


# --------------------------------------------------------------------------- shared across shapes
def _compile_static(model, x, backend):
    with torch.no_grad():
        return torch.compile(model, backend=backend, dynamic=False)(x)


def _sharing(tmp_path, timer, share=True):
    return MagiBackend(
        PassConfig(share_decisions_across_shapes=share),
        decider=Decider(timer=timer, rounds=3, min_rounds=3, cache=DecisionCache(tmp_path)),
    )


def test_a_block_at_another_shape_takes_its_familys_decisive_decision(tmp_path):
    model = Block().eval()
    timer = FakeTimer(magi=1.0, plain=2.0)
    backend = _sharing(tmp_path, timer)
    for size in (6, 8):
        x = torch.randn(1, 4, 3, size, size)
        torch.testing.assert_close(_compile_static(model, x, backend), model(x))
    measured, shared = backend.decisions
    assert (measured.source, shared.source) == ("measured", "shared")
    assert shared.choice == "magi" and shared.key != measured.key
    assert "plain 2.000 ms vs magi 1.000 ms): its 2.00x gap carries over" in shared.reason
    assert shared.describe().startswith("shared: the same structure at other shapes was timed")
    assert timer.calls.count("magi") == timer.calls.count("plain") == 3  # the first shape only
    assert len(backend.discarded) == 1  # one plain variant compiled to be timed, not two
    assert backend.managers[-1].fired("conv_channels_last")
    assert "(1 measured, 0 cached, 1 shared); kept plain 0 of 2 decided" in backend.seconds_text()
    # never stored: the cache holds what was timed
    assert sorted(p.stem for p in tmp_path.glob("*.json")) == [measured.key]


def test_a_familys_decision_read_from_the_cache_decides_its_other_shapes(tmp_path):
    model = Block().eval()
    _compile_static(model, torch.randn(1, 4, 3, 6, 6), _sharing(tmp_path, FakeTimer(2.0, 1.0)))
    torch._dynamo.reset()
    timer = FakeTimer(magi=1.0, plain=9.0)  # would keep magi, if it were asked
    again = _sharing(tmp_path, timer)
    for size in (6, 8):
        x = torch.randn(1, 4, 3, size, size)
        torch.testing.assert_close(_compile_static(model, x, again), model(x))
    assert [(d.source, d.choice) for d in again.decisions] == [
        ("cached", "plain"),
        ("shared", "plain"),
    ]
    assert timer.calls == [] and again.discarded == []
    assert not again.managers[-1].fired("conv_channels_last")


def test_a_familys_evidence_reaches_the_other_backends_of_its_cache_folder(tmp_path):
    """backend="magi" makes a backend per graph (and a model compiled block by block one per
    block): a block timed by one backend decides its other shapes in the next one that decides
    into the same folder, and in no backend of another folder."""
    model = Block().eval()
    first = _sharing(tmp_path / "team", FakeTimer(magi=1.0, plain=2.0))
    _compile_static(model, torch.randn(1, 4, 3, 6, 6), first)
    torch._dynamo.reset()
    timer = FakeTimer(magi=9.0, plain=1.0)  # would keep plain, if it were asked
    second = _sharing(tmp_path / "team", timer)
    x = torch.randn(1, 4, 3, 8, 8)
    torch.testing.assert_close(_compile_static(model, x, second), model(x))
    ((source, choice),) = [(d.source, d.choice) for d in second.decisions]
    assert (source, choice) == ("shared", "magi") and timer.calls == []
    assert second.families == {}  # the evidence is the first backend's, not copied into it
    torch._dynamo.reset()
    elsewhere = _sharing(tmp_path / "other", FakeTimer(magi=9.0, plain=1.0))
    _compile_static(model, x, elsewhere)
    assert [(d.source, d.choice) for d in elsewhere.decisions] == [("measured", "plain")]
    torch._dynamo.reset()
    # sharing off: the folder's evidence is not used
    off = _sharing(tmp_path / "team", FakeTimer(magi=9.0, plain=1.0), share=False)
    _compile_static(model, torch.randn(1, 4, 3, 10, 10), off)
    assert [d.source for d in off.decisions] == ["measured"]


@pytest.mark.parametrize(
    ("magi", "plain", "share"),
    [
        pytest.param(1.0, 1.05, True, id="a-5%-gap-is-timed-again"),
        pytest.param(1.0, 2.0, False, id="off-by-default"),
    ],
)
def test_a_close_call_or_sharing_off_times_every_shape(tmp_path, magi, plain, share):
    model = Block().eval()
    backend = _sharing(tmp_path, FakeTimer(magi, plain), share=share)
    if not share:
        assert PassConfig().share_decisions_across_shapes is False
        backend = MagiBackend(
            decider=Decider(timer=FakeTimer(magi, plain), rounds=3, cache=DecisionCache(tmp_path))
        )
    for size in (6, 8):
        _compile_static(model, torch.randn(1, 4, 3, size, size), backend)
    assert [d.source for d in backend.decisions] == ["measured", "measured"]
    assert len(backend.discarded) == 2


def test_a_family_leaves_out_sizes_and_keeps_ops_dtypes_and_layouts():
    from magi_passes.compile.decisions import decision_family

    def family(fn, *inputs):
        gm = torch.fx.symbolic_trace(fn)
        return decision_family(gm, inputs, device_name="cpu", torch_version="t", passes_uuid="u")

    x, y = torch.randn(2, 8), torch.randn(4, 16)
    assert family(lambda a: a.view(-1, 4).sin(), x) == family(lambda a: a.view(-1, 8).sin(), y)
    assert family(lambda a: a.sin(), x) != family(lambda a: a.cos(), x)
    assert family(lambda a: a.sin(), x) != family(lambda a: a.sin(), x.half())
    assert family(lambda a: a.sin(), x) != family(lambda a: a.sin(), y.t())  # another layout
    # the same ops wired otherwise
    assert family(lambda a, b: a.sin() - b, x, x) != family(lambda a, b: b.sin() - a, x, x)


# --------------------------------------------------------------------------- the same code twice
def _inductor_results(*fns) -> list:
    """What Inductor's `compile_fx` returns for each of ``fns`` compiled on one input."""
    from torch._inductor.compile_fx import compile_fx

    results = []

    def backend(gm, inputs):
        results.append(compile_fx(gm, inputs))
        return results[-1]

    for fn in fns:
        torch.compile(fn, backend=backend)(torch.randn(8))
    return results


def test_two_compiles_of_one_graph_are_the_same_code_and_another_graph_is_not() -> None:
    """`same_code` compares the generated modules without their comments (each compile has its
    own AOT id and kernel paths there); a variant without Inductor's source says nothing."""
    from magi_passes.compile.variants import same_code

    def f(x):
        return (x.sin() + 1).relu()

    def g(x):
        return (x.cos() + 1).relu()

    with torch._inductor.config.patch(fx_graph_cache=False):  # two compiles, not one and a hit
        first, second, other = _inductor_results(f, lambda x: (x.sin() + 1).relu(), g)
    assert first.source_code != second.source_code  # their AOT ids differ, in a comment
    assert same_code(first, second)
    assert not same_code(first, other)
    assert not same_code(first, lambda *args: first(*args))  # a wrapper has no source


def test_a_graph_whose_two_variants_generate_the_same_code_is_not_timed(monkeypatch) -> None:
    """Where the plain variant's code is the magi variant's, there is nothing to measure: the
    timer is never called, plain Inductor is kept (statically, saying why) and the magi variant
    is discarded."""
    from magi_passes.compile import backend as backend_module

    monkeypatch.setattr(backend_module, "same_code", lambda magi, plain: True)
    timer = FakeTimer(magi=1.0, plain=2.0)
    backend = MagiBackend(decider=Decider(timer=timer, rounds=1, use_cache=False))
    model, x = Block().eval(), torch.randn(1, 4, 3, 6, 6)
    torch.testing.assert_close(_compile(model, x, backend), model(x))
    assert timer.calls == []
    (decision,) = backend.decisions
    assert (decision.choice, decision.source) == ("plain", "static")
    assert decision.reason == "both variants generate the same code: nothing to time"
    assert "conv_channels_last" in decision.passes and len(backend.discarded) == 1


def _prior(tmp_path, timer, on=True):
    return MagiBackend(
        PassConfig(conv_prior=on),
        decider=Decider(timer=timer, rounds=3, min_rounds=3, cache=DecisionCache(tmp_path)),
    )


def _conv_timer(first, last, copy, magi=1.0, plain=2.0):
    timer = FakeTimer(magi=magi, plain=plain)
    timer.ms.update({"conv channels-first": first, "conv channels-last": last, "layout copy": copy})
    return timer


def test_convolutions_that_settle_it_keep_magi_without_compiling_plain(tmp_path):
    model, x = Block().eval(), torch.randn(1, 4, 3, 6, 6)
    timer = _conv_timer(first=3.0, last=1.0, copy=0.1, magi=9.0, plain=1.0)
    backend = _prior(tmp_path, timer)
    torch.testing.assert_close(_compile_static(model, x, backend), model(x))
    (decision,) = backend.decisions
    assert (decision.choice, decision.source) == ("magi", "measured")
    # one conv: 3.0 ms channels-first against 1.0 + its weight, the graph's input and its
    # output laid out again, 0.1 each
    assert "its 1 convolutions timed alone: 3.000 ms channels-first against 1.300 ms" in (
        decision.reason
    )
    assert "magi" not in timer.calls and "plain" not in timer.calls
    assert backend.discarded == [] and backend.managers[-1].fired("conv_channels_last")
    torch._dynamo.reset()
    again = _prior(tmp_path, _conv_timer(first=1.0, last=9.0, copy=1.0))
    _compile_static(model, x, again)
    assert [(d.source, d.choice) for d in again.decisions] == [("cached", "magi")]


@pytest.mark.parametrize(
    ("first", "on"),
    [
        pytest.param(1.5, True, id="a-gap-under-25%-after-the-copies-is-timed"),
        pytest.param(3.0, False, id="off-by-default"),
    ],
)
def test_an_open_conv_gap_or_the_prior_off_times_both_variants(tmp_path, first, on):
    assert PassConfig().conv_prior is False
    timer = _conv_timer(first=first, last=1.0, copy=0.1, magi=9.0, plain=1.0)
    backend = _prior(tmp_path, timer, on=on)
    _compile_static(Block().eval(), torch.randn(1, 4, 3, 6, 6), backend)
    assert [(d.source, d.choice) for d in backend.decisions] == [("measured", "plain")]
    assert "plain" in timer.calls and len(backend.discarded) == 1
    assert ("conv channels-first" in timer.calls) is on


def test_conv_calls_count_each_size_once_and_give_up_on_symbolic_sizes():
    from magi_passes.compile.gates import boundary_activations, conv_calls

    class Two(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a, self.b = Block(), Block()

        def forward(self, x):
            return self.b(self.a(x))

    graphs = []

    def grab(gm, inputs):
        graphs.append(gm)
        return gm.forward

    for dynamic in (False, True):
        torch._dynamo.reset()
        torch.compile(Two(), backend=grab, dynamic=dynamic)(torch.randn(1, 4, 3, 6, 6))
    static, symbolic = graphs
    ((key, count),) = conv_calls(static).items()
    assert count == 2 and key[:2] == ((1, 4, 3, 6, 6), (4, 4, 3, 3, 3))
    assert conv_calls(symbolic) == {}
    # the activation in and out; not the weights (5-d too), the norms' (1-d) or the biases
    crossing = [(side, tuple(t.shape)) for side, t in boundary_activations(static)]
    assert crossing == [("in", (1, 4, 3, 6, 6)), ("out", (1, 4, 3, 6, 6))]


def test_convolutions_that_cannot_be_timed_alone_leave_the_graph_to_both_variants(tmp_path):
    timer = FakeTimer(magi=9.0, plain=1.0)

    def failing(variant, args):
        if variant.name.startswith("conv") or variant.name == "layout copy":
            raise RuntimeError("CUDA out of memory")
        return timer(variant, args)

    backend = _prior(tmp_path, failing)
    with pytest.warns(RuntimeWarning, match="convolutions alone failed .RuntimeError: CUDA out"):
        _compile_static(Block().eval(), torch.randn(1, 4, 3, 6, 6), backend)
    assert [(d.source, d.choice) for d in backend.decisions] == [("measured", "plain")]
    assert "plain" in timer.calls


def test_activations_alike_at_the_boundary_are_timed_once_and_counted_each():
    from magi_passes.compile.gates import time_convolutions

    class TwoIn(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = torch.nn.Conv3d(4, 4, 3, padding=1)

        def forward(self, x, state):  # a causal decoder's cache: another input of one size
            return self.conv(x) + state

    graphs = []

    def grab(gm, inputs):
        graphs.append(gm)
        return gm.forward

    x = torch.randn(1, 4, 3, 6, 6)
    torch.compile(TwoIn(), backend=grab, dynamic=False)(x, x.clone())
    timer = _conv_timer(first=3.0, last=1.0, copy=0.1)
    first, last, count = time_convolutions(graphs[0], timer)
    # the weight's copy, two inputs of one size timed once, the output
    assert (first, count) == (3.0, 1) and last == pytest.approx(1.0 + 0.1 + 2 * 0.1 + 0.1)
    assert timer.calls.count("layout copy") == 3 * 3  # three copies, each a median of 3 rounds
