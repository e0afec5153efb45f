"""`pytest_magi.capture.launches`: the Triton kernels a compiled graph launches, with their configs, and
where two such records of one graph differ (what `locate` shows below a graph)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import torch

from pytest_magi.capture import launches
from pytest_magi.capture.core import fresh_entry
from pytest_magi.capture.launches import (
    MAX_LINES,
    KernelLaunch,
    config_text,
    kernel_differences,
    recorded_launches,
)

LABELS = ("replay, wrong", "control, right")


def config(**kwargs: int) -> SimpleNamespace:
    return SimpleNamespace(kwargs=kwargs, num_warps=4, num_stages=1)


def test_config_text_lists_block_sizes_then_warps_and_stages() -> None:
    text = config_text(config(YBLOCK=32, XBLOCK=64))
    assert text == "XBLOCK=64, YBLOCK=32, num_warps=4, num_stages=1"
    assert config_text(None) == ""


def test_kernel_differences_name_each_config_source_and_missing_kernel() -> None:
    a = KernelLaunch("k_pad", "XBLOCK=64, num_warps=4", "aaa")
    same = KernelLaunch("k_norm", "XBLOCK=8, R0_BLOCK=512", "bbb")
    wrong = [a, same, a, KernelLaunch("k_only_wrong", "", "ccc")]
    right = [
        KernelLaunch("k_pad", "XBLOCK=128, num_warps=8", "aaa"),
        same,
        KernelLaunch("k_only_right", "XBLOCK=1", "ddd"),
    ]
    assert kernel_differences(wrong, right, LABELS) == [
        "k_pad: XBLOCK=64, num_warps=4 (replay, wrong) vs XBLOCK=128, num_warps=8 (control, right)",
        "k_only_wrong: launched by replay, wrong only",
        "k_only_right: launched by control, right only",
    ]
    other_source = [KernelLaunch("k_pad", "XBLOCK=64, num_warps=4", "eee")]
    assert kernel_differences([a], other_source, LABELS) == [
        "k_pad: another source (replay, wrong aaa, control, right eee)"
    ]


def test_the_same_kernels_differ_only_by_launch_count_or_not_at_all() -> None:
    a = KernelLaunch("k", "XBLOCK=64", "aaa")
    assert kernel_differences([a, a], [a, a], LABELS) == []
    assert kernel_differences([a, a], [a], LABELS) == [
        "2 launches (replay, wrong) vs 1 (control, right)"
    ]


def test_many_differences_are_cut_with_a_count() -> None:
    wrong = [KernelLaunch(f"k{i}", "XBLOCK=64", "s") for i in range(MAX_LINES + 5)]
    lines = kernel_differences(wrong, [], LABELS)
    assert len(lines) == MAX_LINES + 1 and lines[-1] == "... and 5 more"


class FakeKernel:
    """What `recorded_launches` reads of a `CachingAutotuner`: ``fn`` and ``launchers``."""

    def __init__(self, name: str, source: str, launchers: list[Any]) -> None:
        self.fn = SimpleNamespace(__name__=name, src=source)
        self.launchers = launchers


def test_recorded_launches_wrap_inductors_launch_and_put_it_back(monkeypatch) -> None:
    cls = launches._autotuner_class()
    if cls is None:
        pytest.skip("no Triton here: Inductor launches no Triton kernel")
    ran: list[tuple[Any, ...]] = []

    def stub(self: Any, *args: Any, stream: Any, **kwargs: Any) -> str:
        ran.append(args)
        return "launched"

    monkeypatch.setattr(cls, "run", stub)
    tuned = FakeKernel("k_tuned", "src-1", [SimpleNamespace(config=config(XBLOCK=256))])
    untuned = FakeKernel("k_untuned", "src-2", [SimpleNamespace(config=None)] * 2)
    with recorded_launches() as record:
        assert cls.run is not stub  # wrapped for the block
        assert cls.run(tuned, 1, 2, stream=0) == "launched"  # the launch itself runs as before
        cls.run(untuned, stream=0)
        cls.run(tuned, stream=0, benchmark_run=True)  # autotuning's benchmark runs: not launches
    assert vars(cls)["run"] is stub  # put back on exit
    assert ran == [(1, 2), (), ()]
    assert [(r.name, r.config) for r in record] == [
        ("k_tuned", "XBLOCK=256, num_warps=4, num_stages=1"),
        ("k_untuned", ""),  # several configs left: none chosen yet
    ]
    assert record[0].source and record[0].source != record[1].source


def test_recorded_launches_are_put_back_on_error(monkeypatch) -> None:
    cls = launches._autotuner_class()
    if cls is None:
        pytest.skip("no Triton here")
    before = vars(cls)["run"]
    with pytest.raises(RuntimeError, match="boom"), recorded_launches():
        raise RuntimeError("boom")
    assert vars(cls)["run"] is before


def test_cpu_code_launches_no_triton_kernel() -> None:
    compiled = torch.compile(fresh_entry(lambda x: x.sin() * 2, "launches_cpu"))
    x = torch.randn(64)
    compiled(x)
    with recorded_launches() as record:
        compiled(x)
    assert record == []


@pytest.mark.requires_cuda
def test_a_cuda_graph_records_each_kernel_with_its_tuned_config() -> None:
    compiled = torch.compile(fresh_entry(lambda x: (x.sin() * 2).sum(0), "launches_cuda"))
    x = torch.randn(512, 300, device="cuda")
    with recorded_launches() as first:
        compiled(x)  # the first call autotunes
    with recorded_launches() as second:
        compiled(x)
    assert first and [r.name for r in first] == [r.name for r in second]
    assert all(r.name.startswith("triton_") and r.source for r in first)
    assert all("BLOCK=" in r.config and "num_warps=" in r.config for r in second)
    assert kernel_differences(first, second, LABELS) == []


def test_launch_lines_name_each_kernel_once_with_source_config_and_count() -> None:
    pad = KernelLaunch("k_pad", "XBLOCK=64, YBLOCK=32, num_warps=4", "aaa")
    norm = KernelLaunch("k_norm", "", "")  # several configs left, source unknown
    assert launches.launch_lines([pad, norm, pad, pad]) == [
        "k_pad [aaa]: XBLOCK=64, YBLOCK=32, num_warps=4 (x3)",
        "k_norm [?]: ?",
    ]
    assert launches.launch_lines([]) == []
    many = [KernelLaunch(f"k{i}", "XBLOCK=1", "s") for i in range(MAX_LINES + 2)]
    lines = launches.launch_lines(many)
    assert len(lines) == MAX_LINES + 1 and lines[-1] == "... and 2 more"
