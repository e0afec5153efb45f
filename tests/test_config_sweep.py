"""`pytest_magi.numerics.config_sweep`: every candidate config of each launched kernel against the one its
autotuner kept, on the arguments of its first launch. Inductor's CachingAutotuner is stood in for
by a fake with the same attributes (a real one needs a GPU; this file's `requires_cuda` test
sweeps Inductor's own kernels). What the sweep found on the GPU: docs/reliability.md,
"Dynamic concatenations tiled 2-D"."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import pytest_magi.capture.launches as launches
import pytest_magi.numerics.config_sweep as config_sweep
from pytest_magi.numerics.config_sweep import ConfigRun, KernelSweep, sweep_configs, sweep_lines


class Config:
    """A `triton.Config` as `config_text` reads it."""

    def __init__(self, num_warps: int = 4, **kwargs: int) -> None:
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, 1


class Launcher:
    """Doubles `x` into `out`; a faulty one writes its first `wrong` elements as -1."""

    def __init__(self, config: Config, wrong: int = 0, noise: float = 0.0) -> None:
        self.config, self.wrong, self.noise = config, wrong, noise

    def __call__(self, out: torch.Tensor, x: torch.Tensor, n: int) -> None:
        out.copy_(x * 2 + self.noise)
        out.view(-1)[: self.wrong] = -1


class Compiled:
    """A compile result: its config and a launcher of it."""

    def __init__(self, launcher: Launcher) -> None:
        self.launcher, self.config = launcher, launcher.config

    def make_launcher(self) -> Launcher:
        return self.launcher


class Autotuner:
    """The attributes of Inductor's CachingAutotuner that the sweep uses. Precompiled (as every
    launched one is, torch 2.11 and 2.13): ``configs`` is None and each config that compiled
    is a compile result; not precompiled: ``configs`` holds them."""

    def __init__(self, name: str, configs: list[Config], wrong: dict[int, int] | None = None,
                 broken: int | None = None, noise: dict[int, float] | None = None,
                 precompiled: bool = True) -> None:  # fmt: skip
        self.inductor_meta = {"kernel_name": name}
        self.all_configs = configs
        self.wrong, self.broken, self.noise = wrong or {}, broken, noise or {}
        self.runs = self.compiles = 0
        if precompiled:
            self.configs: list[Config] | None = None
            self.compile_results = [self._compiled(i) for i in range(len(configs)) if i != broken]
            self.launchers = [r.make_launcher() for r in self.compile_results]
        else:
            self.configs, self.compile_results = configs, []
            self.launchers = [Launcher(configs[0])]

    def _compiled(self, i: int) -> Compiled:
        return Compiled(Launcher(self.all_configs[i], self.wrong.get(i, 0), self.noise.get(i, 0.0)))

    def run(self, *args: Any, stream: int = 0, benchmark_run: bool = False) -> None:
        if len(self.launchers) > 1:  # "autotuning" keeps the first config
            self.launchers = self.launchers[:1]
        self.runs += 1
        self.launchers[0](*args)

    def _precompile_config(self, config: Config) -> Compiled:
        self.compiles += 1
        i = self.all_configs.index(config)
        if i == self.broken:
            raise RuntimeError("out of shared memory")
        return self._compiled(i)


@pytest.fixture
def autotuner(monkeypatch: pytest.MonkeyPatch) -> type[Autotuner]:
    monkeypatch.setattr(launches, "_autotuner_class", lambda: Autotuner)
    return Autotuner


def _configs() -> list[Config]:
    return [Config(XBLOCK=32, YBLOCK=32), Config(8, XBLOCK=64, YBLOCK=64), Config(XBLOCK=1024)]


def _call(*kernels: Autotuner):
    def fn(x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        for k in kernels:
            k.run(out, x, x.numel(), stream=0)
            x = out.clone()
        return out

    return fn


def test_a_config_that_writes_other_values_is_found(autotuner) -> None:
    good = autotuner("triton_poi_fused_add_0", _configs())
    bad = autotuner("triton_poi_fused_cat_1", _configs(), wrong={1: 5})
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    before = x.clone()
    sweeps = sweep_configs(_call(good, bad), x)
    assert [s.name for s in sweeps] == ["triton_poi_fused_add_0", "triton_poi_fused_cat_1"]
    assert torch.equal(x, before)  # the sweep called fn on copies
    ok, wrong = sweeps
    assert ok.kept == "XBLOCK=32, YBLOCK=32, num_warps=4, num_stages=1"
    assert not ok.disagreeing() and ok.text().endswith("all 2 configs agree")
    (run,) = wrong.disagreeing()
    assert run.config == "XBLOCK=64, YBLOCK=64, num_warps=8, num_stages=1"
    assert run.differing == 5 and run.worst == 4 * 4 + 1  # element 4, doubled twice, vs -1
    assert wrong.text().startswith("triton_poi_fused_cat_1 (kept XBLOCK=32, YBLOCK=32")
    assert "1 of 2 configs disagree" in wrong.text() and "5 elements differ" in wrong.text()
    assert sweep_lines(sweeps) == [wrong.text()]
    # every kernel has its kept launcher back, and the class its own run
    assert [len(k.launchers) for k in (good, bad)] == [1, 1]
    assert good.launchers[0].config is good.all_configs[0]
    assert good.compiles == bad.compiles == 0  # the compile results were reused, not recompiled
    assert "run" in vars(Autotuner) and Autotuner.run.__name__ == "run"


def test_the_pattern_picks_kernels_and_each_is_swept_once(autotuner) -> None:
    a = autotuner("triton_poi_fused_add_0", _configs())
    b = autotuner("triton_poi_fused_cat_1", _configs())
    x = torch.ones(4)
    sweeps = sweep_configs(_call(a, b, a), x, pattern="cat")
    assert [s.name for s in sweeps] == ["triton_poi_fused_cat_1"]


def test_a_config_that_does_not_compile_is_reported_not_fatal(autotuner) -> None:
    k = autotuner("triton_poi_fused_0", _configs(), broken=2, precompiled=False)
    (sweep,) = sweep_configs(_call(k), torch.ones(8))
    assert [r.error for r in sweep.runs] == ["", "RuntimeError: out of shared memory"]
    assert not sweep.disagreeing() and sweep.text().endswith("all 1 configs agree")
    assert k.compiles == 2  # not precompiled: each candidate compiled by the autotuner's own code
    # precompiled, a config that failed to compile is not among the compile results at all
    k = autotuner("triton_poi_fused_0", _configs(), broken=2)
    (sweep,) = sweep_configs(_call(k), torch.ones(8))
    assert [r.error for r in sweep.runs] == [""] and k.compiles == 0


def test_an_autotune_cache_hit_leaves_nothing_to_compare_and_says_so(autotuner) -> None:
    k = autotuner("triton_poi_fused_0", _configs()[:1])  # the cached config alone
    (sweep,) = sweep_configs(_call(k), torch.ones(8))
    assert sweep.runs == () and not sweep.error and not sweep.disagreeing()
    assert sweep.text().endswith(
        "no other config to compare (one config, or an autotune cache hit)"
    )
    assert sweep_lines([sweep]) == []


def test_a_reductions_rounding_is_not_disagreement(autotuner) -> None:
    configs = [Config(XBLOCK=1, R0_BLOCK=128), Config(XBLOCK=1, R0_BLOCK=2048)]
    close = autotuner("triton_red_fused_sum_0", configs, noise={1: 1e-4})
    far = autotuner("triton_red_fused_sum_1", list(configs), noise={1: 1.0})
    x = torch.full((16,), 10.0)
    rounding, wrong = sweep_configs(_call(close, far), x)
    assert rounding.reduction and rounding.runs[0].differing == 16
    assert not rounding.disagreeing()  # 1e-4 of ~40: under REDUCTION_RTOL
    assert len(wrong.disagreeing()) == 1


def test_nan_against_nan_is_the_same_value() -> None:
    nan = torch.tensor([float("nan"), 1.0])
    assert config_sweep._differences([nan], [nan.clone()]) == (0, 0.0)
    count, worst = config_sweep._differences([nan], [torch.tensor([0.0, 1.0])])
    assert count == 1 and worst == float("inf")


def test_a_kernel_without_launchers_or_with_a_changed_api_is_reported(autotuner) -> None:
    k = autotuner("triton_poi_fused_0", _configs())
    saved = config_sweep._Saved(k, [torch.ones(2), torch.ones(2), 2])
    k.launchers = []
    assert sweep_configs.__module__ == "pytest_magi.numerics.config_sweep"
    assert config_sweep.sweep_kernel("k", saved).error == "no launcher: never compiled"
    k.launchers = [object()]  # not callable: the kept run itself fails
    sweep = config_sweep.sweep_kernel("k", saved)
    assert sweep.error.startswith("TypeError") and sweep.text().startswith("k (kept ?): not swept")
    assert len(k.launchers) == 1 and sweep_lines([sweep]) == [sweep.text()]


def test_without_triton_nothing_is_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launches, "_autotuner_class", lambda: None)
    assert sweep_configs(lambda x: x * 2, torch.ones(3)) == []


def test_bad_arguments_name_the_fix() -> None:
    with pytest.raises(TypeError, match="fn must be callable, got 3"):
        sweep_configs(3)
    with pytest.raises(TypeError, match=r"pattern=\.\.\.\) must be a str, got 1"):
        sweep_configs(lambda: None, pattern=1)


def test_texts() -> None:
    assert ConfigRun("A").text() == "A: same"
    assert ConfigRun("A", error="boom").text() == "A: boom"
    sweep = KernelSweep("k", "K", runs=(ConfigRun("A", 3, 0.5),))
    assert (
        sweep.text() == "k (kept K): 1 of 1 configs disagree: A: 3 elements differ, max |diff| 0.5"
    )


@pytest.mark.requires_cuda
def test_on_a_gpu_inductors_own_kernels_are_swept() -> None:
    """The private Inductor APIs the sweep uses, on real kernels: a 2-D tiled transposing copy
    and a pointwise add, each swept over its candidate configs without an error, all agreeing
    (they are right under every config)."""

    def fn(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return (x.transpose(0, 1) * 2).contiguous() + y

    x = torch.randn(512, 768, device="cuda", dtype=torch.bfloat16)
    y = torch.randn(768, 512, device="cuda", dtype=torch.bfloat16)
    torch._dynamo.reset()
    compiled = torch.compile(fn)
    compiled(x, y)  # compiled and autotuned before the sweep
    sweeps = sweep_configs(compiled, x, y)
    assert sweeps, "no Triton kernel was launched"
    for sweep in sweeps:
        assert not sweep.error, sweep.text()
        assert sweep.kept, sweep.text()
        assert not [r for r in sweep.runs if r.error], sweep.text()
        assert not sweep.disagreeing(), sweep.text()
    assert any(s.runs for s in sweeps), [s.text() for s in sweeps]  # candidates were run
    assert sweep_lines(sweeps) == []
