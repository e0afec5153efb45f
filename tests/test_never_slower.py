"""The zoo benchmark's compile-time reporting on CPU: the never-slower mode's time limit, how a
torch.compile baseline that does not compile is reported and where each compile went; the
cold-compile mode's fresh processes, warm starts, verdicts and argument errors."""

from __future__ import annotations

import argparse
import json
import signal
import time
from pathlib import Path

import pytest
import torch

from pytest_magi.bench import never_slower


def test_a_first_call_over_the_limit_is_stopped() -> None:
    before = signal.getsignal(signal.SIGALRM)
    start = time.perf_counter()
    with pytest.raises(never_slower.CompileTimeout, match=r"did not finish in 0 s"):
        never_slower._timed_first_call(lambda: time.sleep(5), limit=0.2)
    assert time.perf_counter() - start < 2
    # the timer is off and the handler is the one before: nothing fires later
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before
    # not an Exception: no `except Exception` in dynamo or Inductor swallows it
    assert not issubclass(never_slower.CompileTimeout, Exception)


def test_no_limit_and_a_call_within_it_return_the_output() -> None:
    seconds, out = never_slower._timed_first_call(lambda: 7)
    assert out == 7 and seconds >= 0
    seconds, out = never_slower._timed_first_call(lambda: 8, limit=30)
    assert out == 8 and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_baseline_that_did_not_compile_is_named_in_the_table() -> None:
    row = never_slower.Row(
        "hunyuanvideo1.5-vae",
        "full",
        baseline_ms=273.75,
        magi_ms=189.43,
        ratio=1.445,
        baseline_failure="CompileTimeout: the first call (compile) did not finish in 150 s",
        compile_kwargs="dynamic=False",
    )
    args = argparse.Namespace(dtype="bf16", size="full")
    table = never_slower.format_table([row], "cpu", args)
    assert "torch.compile failed: CompileTimeout" in table and "dynamic=False" in table
    assert "**1.445x**" in table


def test_the_table_says_where_each_compile_went() -> None:
    row = never_slower.Row(
        "cogvideox-vae",
        "full",
        ratio=1.3,
        compile_baseline_s=40.0,
        compile_magi_cold_s=52.0,
        compile_magi_warm_s=31.0,
        compile_baseline_warm_s=29.0,
        phases={
            "torch.compile cold": {"frame compiles": 39.0, "Inductor": 30.0, "kernel codegen": 9.0},
            "magi cold": {"frame compiles": 51.0, "Inductor": 41.5},
        },
        magi_seconds="compile 30.0 s (12 graphs), decisions 20.0 s",
    )
    table = never_slower.format_table([row], "cpu", argparse.Namespace(dtype="bf16", size="full"))
    assert "| 40 / 52 / 29 / 31 |" in table
    assert "- cogvideox-vae (magi cold: compile 30.0 s (12 graphs), decisions 20.0 s)" in table
    assert (
        "  - torch.compile cold 40.0 s: frame compiles 39.0 s, Inductor 30.0 s "
        "(kernel codegen 9.0 s)" in table
    )
    assert "  - magi cold 52.0 s: frame compiles 51.0 s, Inductor 41.5 s" in table


def test_a_first_call_records_the_phases_it_spent_its_time_in() -> None:
    import torch

    torch._dynamo.reset()
    phases: dict[str, float] = {}
    fn = torch.compile(lambda x: (x * 2).sin(), backend="eager")
    seconds, out = never_slower._timed_first_call(lambda: fn(torch.ones(3)), phases=phases)
    assert seconds > 0 and out.shape == (3,)
    assert phases.get("frame compiles", 0) > 0 and "dynamo tracing" in phases


# --------------------------------------------------------------------------- cold-compile mode
def _cold(run: str, seconds: float, **extra: object) -> dict[str, object]:
    return {"run": run, "seconds": seconds, "phases": {}, **extra}


def test_cold_compile_verdicts_compare_means_over_processes() -> None:
    from pytest_magi.bench import cold_compile

    records = [
        _cold("torch.compile, cold", 80.0),
        _cold("magi, cold", 190.0),
        _cold("magi, cold", 180.0),
        _cold("torch.compile, cold", 82.0),
        _cold("magi, decision file", 60.0),
        _cold("magi, form file", 78.0),
        _cold("magi, artifacts file", 30.0),
        _cold("magi, warm caches", 34.0),
        _cold("torch.compile, warm caches", 21.0),
    ]
    cold, file, form, artifacts, warm = cold_compile.verdicts(records)
    assert cold[0] == "cold compile at most 1.1x torch.compile's"
    assert cold[1:] == (False, "2.284x (185.0 s against 81.0 s)")
    assert file[1] is False and "decision file" in file[0]
    assert form[1:] == (False, "0.963x (78.0 s)") and "form file" in form[0]
    assert artifacts[1:] == (True, "0.370x (30.0 s)") and "artifacts file" in artifacts[0]
    assert warm[1:] == (True, "0.420x (34.0 s)")
    table = cold_compile.table({"held-out": records})
    assert (
        "| held-out | 80.0 / 82.0 | 190.0 / 180.0 | 2.284x | 60.0 | 78.0 | 30.0 | 34.0 | 21.0 "
        "| MISSED, MISSED, MISSED, met, met |" in table
    )


def test_cold_compile_splits_a_magi_frame_compile_into_the_backend_and_dynamo() -> None:
    """A magi line says how much of its frame compiles dynamo spent around the backend's calls
    (frame compiles less tracing, guards and the calls); without the calls' seconds, nothing."""
    from pytest_magi.bench import cold_compile

    phases = {"frame compiles": 12.0, "dynamo tracing": 1.5, "guards": 0.5}
    record = {**_cold("magi, cold", 13.0, backend_calls=8.0), "phases": phases}
    assert cold_compile.dynamo_own(record) == pytest.approx(2.0)
    assert "; dynamo's own work around the backend 2.0 s" in cold_compile._line(record)
    assert cold_compile.dynamo_own(_cold("torch.compile, cold", 9.0)) is None
    assert "dynamo's own" not in cold_compile._line(_cold("torch.compile, cold", 9.0))


def test_cold_compile_says_what_it_could_not_measure() -> None:
    from pytest_magi.bench import cold_compile

    records = [_cold("torch.compile, cold", 10.0), {"run": "magi, cold", "error": "rc 1"}]
    assert cold_compile.verdicts(records) == [
        ("cold compile at most 1.1x torch.compile's", None, "not measured")
    ]
    assert "FAILED rc 1" in cold_compile._line({"run": "magi, cold", "error": "rc 1"})
    unrecorded = {**_cold("magi, cold", 5.0), "form_file": "not recorded: no graph was measured"}
    assert "; form file not recorded: no graph was measured" in cold_compile._line(unrecorded)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--models", "no-such-vae"], "unknown no-such-vae"),
        (["--models", "tv:resnet"], "unknown tv:resnet"),
        (["--models", "sd-vae", "--order", "mm"], "--order 'mm': letters t and m"),
    ],
)
def test_cold_compile_refuses_bad_arguments_naming_them(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pytest_magi.bench import cold_compile

    with pytest.raises(SystemExit):
        cold_compile.main(argv)
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_cold_compile_runs_each_side_in_a_fresh_process_and_warm_starts_faster(
    tmp_path: Path,
) -> None:
    from pytest_magi.bench import cold_compile

    out = tmp_path / "cold.json"
    argv = ["--models", "sd-vae", "--size", "tiny", "--dtype", "fp32", "--order", "tm"]
    assert cold_compile.main([*argv, "--json", str(out)]) == 0
    records = json.loads(out.read_text())["sd-vae"]
    assert [r["run"] for r in records] == [
        "torch.compile, cold",
        "magi, cold",
        # no decision was measured on a CPU: no decision file to load
        "magi, artifacts file",  # what the first magi process left in torch's caches
        "magi, warm caches",
        "torch.compile, warm caches",  # the first torch.compile process's caches
    ]
    assert all("error" not in r and r["seconds"] > 0 and r["phases"] for r in records), records
    assert records[1]["graphs"] >= 1 and records[1]["decisions"]["measured"] == 0
    assert records[1]["form"] == "generic"  # sd-vae has no recorded form
    assert records[1]["artifacts"]["inductor"] >= 1  # its artifacts were saved
    assert records[3]["seconds"] < records[1]["seconds"]  # Inductor's and Triton's caches kept
    assert records[4]["seconds"] < records[0]["seconds"]
    # each timed from its compile call: the call's own part is inside the seconds
    assert all(0 < r["made"] < r["seconds"] for r in records)
    assert 0 < records[1]["backend_calls"] <= records[1]["phases"]["frame compiles"]


def test_cold_compile_in_the_generic_form_reaches_every_magi_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--form generic`: each child compiles magi with `magi_compile(module, form=None)`, the
    header and the table say so, and the records keep the form each magi process used."""
    import subprocess

    from pytest_magi.bench import cold_compile

    commands: list[list[str]] = []

    def fake_run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        out = Path(command[command.index("--out") + 1])
        side = command[command.index("--child") + 1]
        record = {"model": "sd-vae", "side": side, "seconds": 2.0, "phases": {"total": 2.0}}
        if side == "magi":
            record["form"] = command[command.index("--form") + 1]
        out.write_text(json.dumps(record))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(cold_compile.subprocess, "run", fake_run)
    argv = ["--models", "sd-vae", "--order", "tm", "--form", "generic", "--no-warm"]
    assert cold_compile.main(argv) == 0
    assert [c[c.index("--form") + 1] for c in commands] == ["generic", "generic"]
    out = capsys.readouterr().out
    assert "## sd-vae (magi in the generic form)" in out
    assert "| sd-vae (generic) | 2.0 | 2.0 | 1.000x |" in out

    with pytest.raises(SystemExit):
        cold_compile.main(["--models", "sd-vae", "--form", "none"])
    assert "--form: invalid choice: 'none'" in capsys.readouterr().err


def test_cold_compile_starts_magi_from_the_form_its_first_measured_process_recorded(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first magi process is asked to export its decisions and record its form; a form it
    recorded is loaded by a fresh process through `MAGI_FORMS_FILE`, compiling in the "auto"
    form (where the variable is read), with empty caches of its own."""
    import subprocess

    from pytest_magi.bench import cold_compile

    calls: list[tuple[list[str], dict[str, str]]] = []

    def fake_run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        calls.append((command, dict(kwargs["env"])))  # type: ignore[call-overload]
        side = command[command.index("--child") + 1]
        if "--form-out" in command:
            Path(command[command.index("--form-out") + 1]).write_text("{}")
        if "--artifacts-out" in command:
            Path(command[command.index("--artifacts-out") + 1]).write_bytes(b"saved")
        record = {"model": "sd-vae", "side": side, "seconds": 2.0, "phases": {}}
        Path(command[command.index("--out") + 1]).write_text(json.dumps(record))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(cold_compile.subprocess, "run", fake_run)
    monkeypatch.delenv("MAGI_FORMS_FILE", raising=False)
    assert cold_compile.main(["--models", "sd-vae", "--order", "tmm", "--form", "generic"]) == 0
    runs = [
        c[c.index("--child") + 1] + (" form-out" if "--form-out" in c else "") for c, _ in calls
    ]
    assert runs == [
        "torch.compile",
        "magi form-out",
        "magi",
        "magi",  # form file
        "magi",  # artifacts file
        "magi",  # warm caches
        "torch.compile",  # warm caches
    ]
    command, env = calls[3]  # no decisions were exported, so no run loads a decision file
    assert command[command.index("--form") + 1] == "auto"
    assert env["MAGI_FORMS_FILE"].endswith("sd-vae-form.json")
    assert env["TORCHINDUCTOR_CACHE_DIR"] != calls[1][1]["TORCHINDUCTOR_CACHE_DIR"]
    # the artifacts file, with empty caches of its own (no decisions were exported to add)
    command, env = calls[4]
    assert env["MAGI_ARTIFACTS_FILE"].endswith("sd-vae-artifacts.bin")
    assert "MAGI_DECISIONS_FILE" not in env and "MAGI_FORMS_FILE" not in env
    assert env["TORCHINDUCTOR_CACHE_DIR"] not in {
        c[1]["TORCHINDUCTOR_CACHE_DIR"] for c in calls[:4]
    }
    assert "--artifacts-out" in calls[1][0]
    assert "MAGI_FORMS_FILE" not in calls[5][1]  # the warm start: its own caches only
    assert calls[5][1]["TORCHINDUCTOR_CACHE_DIR"] == calls[1][1]["TORCHINDUCTOR_CACHE_DIR"]
    # torch.compile's warm start: the first torch.compile process's caches
    assert calls[6][1]["TORCHINDUCTOR_CACHE_DIR"] == calls[0][1]["TORCHINDUCTOR_CACHE_DIR"]
    assert "magi, form file: 2.0 s" in capsys.readouterr().out


def test_a_shortcut_is_one_more_cold_process_compared_with_full_measurement_graph_by_graph(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--shortcut MAGI_PASSES__FIELD=VALUE`: a cold magi process of its own with the variable
    set, whose choices are set beside the first full measurement's, graph by graph, and whose
    time is also a ratio to a full-measurement process run right after it."""
    import subprocess

    from pytest_magi.bench import cold_compile

    envs: list[dict[str, str]] = []
    variable = "MAGI_PASSES__SHARE_DECISIONS_ACROSS_SHAPES"

    def fake_run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        env = dict(kwargs["env"])  # type: ignore[call-overload]
        envs.append(env)
        side = command[command.index("--child") + 1]
        record: dict[str, object] = {"model": "m", "side": side, "seconds": 4.0, "phases": {}}
        if side == "magi":
            shared = env.get(variable) == "1"
            record["choices"] = ["magi", "plain" if shared else "magi", "magi"]
            record["gaps"] = [1.3, 1.01, None]
            record["seconds"] = 3.0 if shared else 6.0 + 2.0 * (len(envs) > 3)
        Path(command[command.index("--out") + 1]).write_text(json.dumps(record))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(cold_compile.subprocess, "run", fake_run)
    monkeypatch.delenv(variable, raising=False)
    argv = ["--models", "sd-vae", "--order", "tm", "--no-warm", "--shortcut", f"{variable}=1"]
    assert cold_compile.main(argv) == 0
    # torch.compile, magi, the shortcut, then full measurement again beside it, in caches of its own
    assert [e.get(variable) for e in envs] == [None, None, "1", None]
    folders = {e["TORCHINDUCTOR_CACHE_DIR"] for e in envs}
    assert len(folders) == 4
    out = capsys.readouterr().out
    # neither the shortcut nor the process beside it is one of the cold magi processes
    assert "| sd-vae | 4.0 | 6.0 | 1.500x |" in out
    assert f"magi, cold, beside {variable}=1: 8.0 s" in out  # logged as it ran
    assert (
        f"sd-vae, magi, cold, {variable}=1: 3.0 s, 0.750x torch.compile's cold compile, 0.375x "
        "the full measurement run after it (8.0 s); against full measurement: 1 of 3 graphs "
        "chose otherwise (graph 1: magi -> plain (full measurement timed plain at 1.010x magi's "
        "time: a close call, under 10% either way))" in out
    )
    assert "sd-vae, magi, cold, beside" not in out  # the process beside it has no line of its own
    # where the process beside it failed, the shortcut is held against torch.compile alone
    failed = [
        {"run": "torch.compile, cold", "seconds": 4.0},
        {"run": f"magi, cold, {variable}=1", "seconds": 3.0, "vs_full": "same"},
        {"run": f"magi, cold, beside {variable}=1", "error": "rc 1"},
    ]
    text = cold_compile.table({"m": failed})
    assert f"m, magi, cold, {variable}=1: 3.0 s, 0.750x torch.compile's cold compile; " in text
    assert never_slower.against_full(["magi"], ["magi"]) == "the same choice on every graph (1)"
    # full measurement's gaps say whether a changed decision mattered
    close = never_slower.against_full(["plain", "magi"], ["magi", "plain"], [0.97, 1.25])
    assert close == (
        "2 of 2 graphs chose otherwise (graph 0: plain -> magi (full measurement timed plain at "
        "0.970x magi's time: a close call, under 10% either way), graph 1: magi -> plain (full "
        "measurement timed plain at 1.250x magi's time: a decision that mattered))"
    )
    assert "(full measurement timed no gap)" in never_slower.against_full(
        ["magi"], ["plain"], [None]
    )
    assert never_slower.against_full(["magi"], []) == "0 graphs where full measurement compiled 1"


@pytest.mark.parametrize(
    "value", ["SHARE=1", "MAGI_PASSES__NO_SUCH_FIELD=1", "MAGI_PASSES__DECIDED_ON"]
)
def test_a_shortcut_that_is_not_a_pass_config_variable_is_refused_naming_it(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pytest_magi.bench import cold_compile

    with pytest.raises(SystemExit):
        cold_compile.main(["--models", "sd-vae", "--shortcut", value])
    err = capsys.readouterr().err
    assert f"{value!r} is not MAGI_PASSES__FIELD=VALUE with a PassConfig field" in err, err


def test_a_cold_compile_over_its_process_limit_is_a_failed_row(tmp_path: Path) -> None:
    from pytest_magi.bench import cold_compile

    out = tmp_path / "cold.json"
    argv = ["--models", "sd-vae", "--size", "tiny", "--order", "tm", "--process-limit", "0.5"]
    assert cold_compile.main([*argv, "--json", str(out)]) == 0
    records = json.loads(out.read_text())["sd-vae"]
    assert [(r["run"], r["error"]) for r in records] == [
        ("torch.compile, cold", "over --process-limit 0.5 s"),
        ("magi, cold", "over --process-limit 0.5 s"),
    ]  # no magi process finished: nothing to start warm from
    assert cold_compile.verdicts(records)[0][1:] == (None, "not measured")


def test_a_torchvision_video_model_is_loaded_compiled_in_place_and_called(monkeypatch) -> None:
    """``tv:NAME`` builds torchvision's model with random weights in the asked dtype and calls
    the compiled copy (a stand-in torchvision here: the CPU machines do not install it)."""
    import sys
    import types

    import torch

    from pytest_magi.bench import cold_compile

    built = {}

    def r3d_18(weights=None):
        built["weights"] = weights
        return torch.nn.Sequential(torch.nn.Conv3d(3, 2, 3), torch.nn.AdaptiveAvgPool3d(1))

    video = types.ModuleType("torchvision.models.video")
    video.r3d_18 = r3d_18
    models = types.ModuleType("torchvision.models")
    models.video = video
    monkeypatch.setitem(sys.modules, "torchvision", types.ModuleType("torchvision"))
    monkeypatch.setitem(sys.modules, "torchvision.models", models)
    monkeypatch.setitem(sys.modules, "torchvision.models.video", video)
    module, put, call = cold_compile._load("tv:r3d_18", "tiny", "cpu", torch.float64)
    assert built["weights"] is None and next(module.parameters()).dtype == torch.float64
    assert call().shape == (1, 2, 1, 1, 1)
    put(lambda x: x.sum())  # the compiled copy is what the call runs from then on
    assert call().dtype == torch.float64 and call().dim() == 0
    with pytest.raises(ValueError, match=r"torchvision video models are"):
        cold_compile._load("tv:vit", "tiny", "cpu", torch.float64)


class _Block(torch.nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(width)
        self.proj = torch.nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.proj(self.norm(x))


class _Stage(torch.nn.Module):  # a block without parameters
    def __init__(self, width: int) -> None:
        super().__init__()
        self.act = torch.nn.GELU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(x)


class _Tower(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.blocks = torch.nn.ModuleList([_Block(8), _Block(8), _Block(16)])
        self.stages = torch.nn.Sequential(_Stage(8), _Stage(8))
        self.widen = torch.nn.Linear(8, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stages(self.blocks[1](self.blocks[0](x)))
        return self.blocks[2](self.widen(x))


def test_regional_blocks_are_the_instances_of_the_block_the_model_repeats_most() -> None:
    from pytest_magi.models.zoo import regional_blocks

    tower = _Tower()
    blocks = regional_blocks(tower)
    # the three _Block instances (containers and leaves aside), in their parents' order
    assert [(parent, attr) for parent, attr, _ in blocks] == [
        (tower.blocks, "0"),
        (tower.blocks, "1"),
        (tower.blocks, "2"),
    ]
    assert all(type(b) is _Block for _, _, b in blocks)
    # a class as repeated loses to the one with more parameters
    even = torch.nn.Sequential(_Stage(2), _Block(2), _Stage(2), _Block(2))
    assert [attr for _, attr, _ in regional_blocks(even)] == ["1", "3"]
    # a block inside another is left to it; a model that repeats no block has none
    nested = torch.nn.Sequential(_Block(4), _Block(4))
    nested[0].inner = _Block(4)  # three _Block instances, one inside another
    assert [attr for _, attr, _ in regional_blocks(nested)] == ["0", "1"]
    assert regional_blocks(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())) == []


@pytest.mark.parametrize("side", ["torch.compile", "magi"])
def test_the_regional_form_compiles_each_block_in_its_place(
    side: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--form regional``: each repeated block compiled where it was, the model around them
    eager; magi's record sums its blocks' backends (a graph each here)."""
    from pytest_magi.bench import cold_compile

    tower = _Tower().eval()
    x = torch.randn(2, 8)
    expected = tower(x)
    outputs = []

    def load(name: str, size: str, device: str, dtype: object) -> tuple[object, object, object]:
        return tower, lambda compiled: None, lambda: outputs.append(tower(x))

    monkeypatch.setattr(cold_compile, "_load", load)
    out = tmp_path / "record.json"
    cold_compile.child(side, "tower", "tiny", "fp32", out, None, "regional")
    record = json.loads(out.read_text())
    assert record["blocks"] == "3 _Block"
    assert all(type(b).__name__ == "OptimizedModule" for b in tower.blocks)
    assert type(tower.widen) is torch.nn.Linear  # the model around the blocks stays eager
    torch.testing.assert_close(outputs[0], expected)
    if side == "magi":
        assert record["form"] == "regional" and record["graphs"] == 3
        assert record["magi_seconds"].startswith("compile ")
        assert "(3 graphs)" in record["magi_seconds"]
    else:
        assert "graphs" not in record
    torch._dynamo.reset()


def test_the_regional_form_refuses_a_model_without_a_repeated_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_magi.bench import cold_compile

    flat = torch.nn.Sequential(torch.nn.Linear(2, 2))
    monkeypatch.setattr(cold_compile, "_load", lambda *a: (flat, None, None))
    with pytest.raises(ValueError, match=r"--form regional: flat repeats no block; fix: --form"):
        cold_compile.child("magi", "flat", "tiny", "fp32", tmp_path / "r.json", None, "regional")


def test_a_frames_shortcut_sets_magi_compiles_isolate_frames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--shortcut MAGI_BENCH_ISOLATE_FRAMES=False``: the magi process compiles with
    ``magi_compile(..., isolate_frames=False)``; unset, with the default (True)."""
    import magi_passes
    from pytest_magi.bench import cold_compile

    assert cold_compile._shortcut("MAGI_BENCH_ISOLATE_FRAMES=False") == (
        "MAGI_BENCH_ISOLATE_FRAMES",
        "False",
    )
    with pytest.raises(argparse.ArgumentTypeError, match=r"MAGI_BENCH_ISOLATE_FRAMES= one of"):
        cold_compile._shortcut("MAGI_BENCH_ISOLATE_FRAMES=no")
    asked = []
    real = magi_passes.magi_compile

    def recording(target, **kwargs):
        asked.append(kwargs["isolate_frames"])
        return real(target, **kwargs)

    monkeypatch.setattr(magi_passes, "magi_compile", recording)
    tower = _Tower().eval()
    x = torch.randn(2, 8)
    monkeypatch.setattr(cold_compile, "_load", lambda *a: (tower, lambda c: None, lambda: tower(x)))
    for value in ("root", "False", None):
        if value is None:
            monkeypatch.delenv("MAGI_BENCH_ISOLATE_FRAMES", raising=False)
        else:
            monkeypatch.setenv("MAGI_BENCH_ISOLATE_FRAMES", value)
        cold_compile.child("magi", "tower", "tiny", "fp32", tmp_path / "r.json", None, "generic")
        torch._dynamo.reset()
    assert asked == ["root", False, True]


def test_cold_compile_times_each_processs_later_calls_and_their_numerics_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import subprocess

    from pytest_magi.bench import cold_compile
    from pytest_magi.measure.timing import steady_ms

    # two warm-up calls, then the timed ones, and the last output
    outputs = iter(range(5))
    ms, last = steady_ms(lambda: next(outputs), lambda: None, 3)
    assert ms >= 0 and last == 4

    commands: list[list[str]] = []
    speed = {"torch.compile": 4.0, "shortcut": 2.0, "magi": 1.0}

    def fake_run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        side = command[command.index("--child") + 1]
        env = dict(kwargs["env"])  # type: ignore[call-overload]
        kind = "shortcut" if env.get("MAGI_PASSES__CONV_PRIOR") == "1" else side
        record = {"model": "sd-vae", "side": side, "seconds": 2.0, "phases": {}}
        record |= {"steady_ms": speed[kind], "steady": 5, "rel_l2_eager": 1e-3}
        Path(command[command.index("--out") + 1]).write_text(json.dumps(record))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(cold_compile.subprocess, "run", fake_run)
    monkeypatch.delenv("MAGI_PASSES__CONV_PRIOR", raising=False)
    argv = ["--models", "sd-vae", "--order", "tm", "--no-warm", "--steady", "5"]
    assert cold_compile.main([*argv, "--shortcut", "MAGI_PASSES__CONV_PRIOR=1"]) == 0
    assert all(c[c.index("--steady") + 1] == "5" for c in commands) and len(commands) == 4
    out = capsys.readouterr().out
    assert "then 4.000 ms a call (median of 5), rel-L2 from eager 1.00e-03" in out
    assert "and runs at 0.500x its speed" in out  # the shortcut's 2 ms against 1 ms beside it

    with pytest.raises(SystemExit):
        cold_compile.main([*argv[:2], "--steady", "-1"])
    assert "--steady -1: a number of calls" in capsys.readouterr().err
