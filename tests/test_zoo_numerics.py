"""The zoo benchmark's numerics and locate modes: each stage of torch.compile against a
higher-precision run, on a zoo model (tiny sizes on the CPU here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("diffusers")


def _load():  # type: ignore[no-untyped-def]
    from pytest_magi.bench import numerics

    return numerics


@pytest.mark.slow
def test_tracing_stages_are_bit_equal_to_eager_and_a_failing_stage_is_a_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = _load()
    real_backend = bench._backend

    def backend(name: str) -> tuple[Any, str]:
        if name == "aot_eager_decomp_partition":  # stands in for a stage that crashes

            def broken(gm: Any, inputs: Any) -> Any:
                raise RuntimeError("lowering exploded")

            return broken, "class"
        return real_backend(name)

    monkeypatch.setattr(bench, "_backend", backend)
    out_json = tmp_path / "n.json"
    argv = ["--models", "wan2.2-vae", "--size", "tiny", "--device", "cpu", "--dtype", "fp32"]
    argv += ["--reference", "fp64"]
    argv += ["--backends", "eager,aot_eager,aot_eager_decomp_partition", "--json", str(out_json)]
    assert bench.main(argv) == 0
    rows = json.loads(out_json.read_text())["models"]["wan2.2-vae"]
    assert [r["backend"] for r in rows] == [
        "eager model",
        "eager",
        "aot_eager",
        "aot_eager_decomp_partition",
    ]
    model, dynamo, aot, broken = rows
    for row in (dynamo, aot):  # tracing alone changes no number
        assert row["equal_to_eager"] and row["from_eager"] == 0.0, row
        assert row["from_reference"] == model["from_reference"] and row["non_finite"] == 0
    assert 0 < model["from_reference"] < 1e-5  # fp32 rounding, measured against fp64
    assert model["worst_frame"].startswith(("0: ", "1: ", "2: ", "3: ", "4: "))  # 5-D video
    assert "lowering exploded" in broken["error"]
    text = capsys.readouterr().out
    assert "| backend | from fp64 | from eager | = eager |" in text
    assert "| aot_eager_decomp_partition | error: " in text


@pytest.mark.parametrize(
    ("backends", "message"),
    [
        ("inductr", r"unknown backend 'inductr' in 'inductr'; choose from \('eager'"),
        ("inductor@no_such_key=1", r"'no_such_key=1' is not KEY=VALUE with KEY a torch._inductor"),
        ("inductor@dynamo.no_such_key=1", r"'dynamo.no_such_key=1' is not KEY=VALUE"),
        ("inductor@fallback_random", r"'fallback_random' is not KEY=VALUE"),
        ("inductor@fallback_random=yes", r"'yes' for fallback_random is not a Python literal"),
        (",", r"name at least one of"),
    ],
)
def test_bad_backend_is_a_usage_error(backends: str, message: str) -> None:
    bench = _load()
    with pytest.raises(SystemExit, match=message):
        bench.main(["--models", "sd-vae", "--backends", backends])


def test_a_row_with_inductor_config_gets_it_and_gives_it_back(tmp_path: Path) -> None:
    import torch
    import torch._inductor.config as inductor_config

    bench = _load()
    assert bench.parse_backend(
        "inductor@emulate_precision_casts=True@max_autotune=False@dynamo.recompile_limit=3"
    ) == (
        "inductor",
        {"emulate_precision_casts": True, "max_autotune": False, "dynamo.recompile_limit": 3},
    )
    import torch._dynamo.config as dynamo_config

    seen: list[tuple[bool, bool]] = []
    real_compile = bench.zoo.ZooModel.compile

    def compile_and_look(self: Any, backend: Any, **kwargs: Any) -> Any:
        seen.append((inductor_config.fallback_random, dynamo_config.automatic_dynamic_shapes))
        return real_compile(self, backend, **kwargs)

    before = inductor_config.fallback_random
    dynamic = dynamo_config.automatic_dynamic_shapes
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bench.zoo.ZooModel, "compile", compile_and_look)
        argv = ["--models", "wan2.2-vae", "--size", "tiny", "--device", "cpu", "--dtype", "fp32"]
        patch = f"eager@fallback_random={not before}@dynamo.automatic_dynamic_shapes={not dynamic}"
        argv += ["--backends", f"{patch},eager"]
        argv += ["--json", str(tmp_path / "n.json")]
        assert bench.main(argv) == 0
    assert seen == [(not before, not dynamic), (before, dynamic)]  # its own row only
    assert inductor_config.fallback_random is before  # and restored
    assert dynamo_config.automatic_dynamic_shapes is dynamic
    rows = json.loads((tmp_path / "n.json").read_text())["models"]["wan2.2-vae"]
    assert rows[1]["backend"] == patch and rows[1]["equal_to_eager"]
    assert torch.is_grad_enabled()


# --------------------------------------------------------------------------- --locate
def test_locate_names_the_wrong_graph_output_and_module_of_a_zoo_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = _load()
    compiled: list[int] = []

    def second_graph_scaled(gm: Any, inputs: Any) -> Any:
        """Stands in for a miscompile: the first output of every graph but the first (the
        second graph, and its recompiles for the cures) comes out 1.5x."""
        compiled.append(len(compiled))
        wrong = len(compiled) > 1

        def run(*args: Any) -> Any:
            out = list(gm(*args))
            if wrong:
                out[0] = out[0] * 1.5
            return out

        return run

    real_side = bench._locate_side

    def side(name: str, options: dict[str, Any]) -> tuple[Any, dict[str, Any], str]:
        assert (name, options) == ("eager", {})  # the spelling reached the script's parser
        return second_graph_scaled, *real_side(name, options)[1:]

    monkeypatch.setattr(bench, "_locate_side", side)
    import pytest_magi.numerics.locate_tensors

    table = ({"comprehensive_padding": False}, {"emulate_precision_casts": True})
    monkeypatch.setattr(
        pytest_magi.numerics.locate_tensors, "DEFAULT_SETTINGS", table
    )  # two retries, not 14
    out_json = tmp_path / "locate.json"
    argv = ["--models", "wan2.2-vae", "--size", "tiny", "--device", "cpu", "--dtype", "fp32"]
    argv += ["--reference", "fp64", "--locate", "--locate-backend", "eager"]
    argv += ["--json", str(out_json)]
    assert bench.main(argv + ["--locate-budget", "300"]) == 0
    located = json.loads(out_json.read_text())["locate"]["wan2.2-vae"]
    assert [g["index"] for g in located["graphs"]] == [0, 1]  # first chunk, steady-state chunk
    assert located["graphs"][0]["wrong"] == [] and located["graphs"][1]["wrong"] == [0]
    first = located["first_bad"]
    assert (first["graph"], first["output"]) == (1, 0)
    assert first["distance"] == pytest.approx(0.5, abs=1e-6) and first["module"]
    assert first["file"].endswith(".py") and first["line"] > 0
    assert located["clears"] == []  # no Inductor setting cures this
    assert [(r["name"], r["status"]) for r in located["retries"]] == [
        ("the run's code, rerun (replay)", "wrong"),  # the run's code is wrong in itself
        ("as compiled (control)", "wrong"),  # the fault repeats when the graph is alone
        ("comprehensive_padding=False", "wrong"),
        ("emulate_precision_casts=True", "wrong"),
    ]
    assert located["reproduced"] is True and located["replayed"] is True
    assert located["reference"]["wrong"] is True  # and the final output is wrong too
    text = capsys.readouterr().out
    assert "first wrong output: graph 1, output 0 of" in text
    assert f"  module  {first['module']}" in text
    assert "nothing tried clears it" in text


def test_locate_backend_spellings_map_to_the_side() -> None:
    bench = _load()
    backend, isolate, ambient = bench.locating_backend(
        "inductor@comprehensive_padding=False@dynamo.automatic_dynamic_shapes=False", budget_s=60
    )
    assert backend.spec.kind == "inductor" and isolate == "class"
    assert backend.spec.patches == {"comprehensive_padding": False}
    assert ambient == {"dynamo.automatic_dynamic_shapes": False} and backend.budget_s == 60
    backend, isolate, _ = bench.locating_backend("magi@triton.max_tiles=2")
    assert backend.spec.kind == "magi" and isolate == "instance"
    assert backend.spec.patches == {"triton.max_tiles": 2}
    with pytest.raises(SystemExit, match=r"--locate-backend: unknown backend 'inductr'"):
        bench.main(["--locate", "--locate-backend", "inductr"])


@pytest.mark.slow
def test_locate_decodes_the_before_frames_first_through_the_same_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--locate-before-frames 1,3``: the compiled copy decodes T=1, then T=3, then the located
    call at ``--frames 2`` (a wrong decode can follow other decodes in one process); the final
    output checked is the located call's."""
    bench = _load()
    runs: list[tuple[int, bool]] = []  # (latent frames, compiled copy?) of each ZooModel.run
    real_run = bench.zoo.ZooModel.run

    def run(self: Any, *inputs: Any) -> Any:
        latent = (inputs or self.inputs)[0]
        runs.append((int(latent.shape[2]), self.compiled))
        return real_run(self, *inputs)

    monkeypatch.setattr(bench.zoo.ZooModel, "run", run)
    out_json = tmp_path / "locate.json"
    argv = ["--models", "wan2.2-vae", "--size", "tiny", "--device", "cpu", "--dtype", "fp32"]
    argv += ["--frames", "2", "--locate", "--locate-backend", "eager"]
    argv += ["--locate-before-frames", "1,3", "--json", str(out_json)]
    assert bench.main(argv) == 0
    located = json.loads(out_json.read_text())["locate"]["wan2.2-vae"]
    assert located["first_bad"] is None and located["reference"]["wrong"] is False
    compiled = [frames for frames, is_copy in runs if is_copy]
    assert compiled == [1, 3, 2], runs  # the history, then the located call


@pytest.mark.parametrize("text", ["0", "x", "2,-1"])
def test_bad_before_frames_are_a_usage_error(text: str) -> None:
    with pytest.raises(SystemExit, match="--locate-before-frames"):
        _load().main(["--locate", "--locate-before-frames", text])
