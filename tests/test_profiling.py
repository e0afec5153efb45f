"""pytest_magi.measure.profiling: classes, patterns, floors, gaps and the table from synthetic kernel
events (CPU); the kineto-event reader on stand-in events; Inductor's byte counts from a real
fake-CUDA compile; the GPU path under ``requires_cuda``."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import pytest
import torch
from torch.autograd import DeviceType

from pytest_magi.capture.fake_cuda import real_cuda_available
from pytest_magi.measure import profiling
from pytest_magi.measure.profile_events import (
    EAGER,
    IN_FRAME,
    IN_GRAPH,
    LAYOUT,
    OUTSIDE,
    TRITON,
    args_bytes,
    kernel_bytes,
    shapes_text,
    union_us,
)
from pytest_magi.measure.profiling import (
    CONV,
    ROUND_MARK,
    KernelEvent,
    ProfileReport,
    build_report,
    classify,
    events_from_kineto,
)

MIB = 1 << 20
CAT = (
    "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
    "namespace)::OpaqueType<2u>, unsigned int, 5, 64, 64>(...)"
)
DIRECT_COPY = (
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
    "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
    "const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, ...)::{lambda(int)#1}>(int, ...)"
)
XMMA = "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64"
TO_NHWC = "void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, float>(...)"
ADD = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<"
    "c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>)"
)


# --------------------------------------------------------------------------- classification
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "triton_poi_fused_add_convolution_0",
            (TRITON, "triton_poi_fused_add_convolution", "poi"),
        ),
        (
            "triton_red_fused_native_group_norm_3",
            (TRITON, "triton_red_fused_native_group_norm", "red"),
        ),
        (
            "triton_per_fused_native_group_norm_silu_12",
            (TRITON, "triton_per_fused_native_group_norm_silu", "per"),
        ),
        ("triton_tem_fused_mm_0", (TRITON, "triton_tem_fused_mm", "tem")),
        ("triton_poi_fused_clone_4", (LAYOUT, "triton_poi_fused_clone", "poi")),
        ("triton_poi_fused__to_copy_1", (LAYOUT, "triton_poi_fused__to_copy", "poi")),
        (XMMA, (CONV, XMMA[:69] + "...", "")),
        ("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm>(...)", (CONV, "Kernel2", "")),
        (
            "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT",
            (CONV, "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT", ""),
        ),
        (TO_NHWC, (LAYOUT, "nchwToNhwcKernel", "")),
        (DIRECT_COPY, (LAYOUT, "elementwise_kernel[direct_copy_kernel_cuda]", "")),
        ("Memcpy DtoD (Device -> Device)", (LAYOUT, "Memcpy DtoD", "")),
        (CAT, (EAGER, "CatArrayBatchedCopy", "")),
        (ADD, (EAGER, "vectorized_elementwise_kernel[CUDAFunctor_add]", "")),
        ("Memset (Device)", (EAGER, "Memset", "")),
    ],
)
def test_classify(name: str, expected: tuple[str, str, str]) -> None:
    assert classify(name) == expected


def test_union_counts_overlaps_once() -> None:
    assert union_us([]) == 0.0
    assert union_us([(0, 10), (5, 15), (20, 25)]) == 20.0
    assert union_us([(0, 10), (2, 3), (10, 12)]) == 12.0


# --------------------------------------------------------------------------- the report
def _events() -> list[KernelEvent]:
    """Two calls of: conv 2 ms; a Triton add that moves 48 MB in 20 us; the same pattern under
    another index with no bytes known; a clone overlapping the conv; an eager cat."""
    out: list[KernelEvent] = []
    for call in range(2):
        t0 = call * 10_000.0
        out += [
            KernelEvent(XMMA, t0 + 100, 2000),
            KernelEvent(TO_NHWC, t0 + 150, 50),  # concurrent with the conv: 50 us overlap
            KernelEvent("triton_poi_fused_add_0", t0 + 2200, 20, 48_000_000, "inductor"),
            KernelEvent("triton_poi_fused_add_7", t0 + 2300, 30),
            KernelEvent("triton_poi_fused_clone_2", t0 + 2400, 10, 9_600_000, "args"),
            KernelEvent(CAT, t0 + 2500, 40),
        ]
    return out


def _report(**overrides: Any) -> ProfileReport:
    options: dict[str, Any] = {
        "calls": 2,
        "wall_ms": 3.0,
        "flops": 790e9,
        "peak_tflops": 790.0,
        "hbm_gbps": 4800.0,
        "label": "synthetic",
        "device": "none",
    }
    options.update(overrides)
    return build_report(_events(), **options)


def test_report_rows_floors_and_bandwidth() -> None:
    r = _report()
    add = next(x for x in r.rows if x.pattern == "triton_poi_fused_add")
    assert (add.klass, add.kind, add.launches) == (TRITON, "poi", 2)
    assert math.isclose(add.ms, 0.050)  # 20 + 30 us per call
    # the bytes and the time of the launch with bytes only: 48 MB in 20 us = 2400 GB/s
    assert add.bytes == 48_000_000 and math.isclose(add.bytes_ms, 0.020)
    assert math.isclose(add.achieved or 0, 2400.0)
    assert math.isclose(add.floor_ms or 0, 0.010)  # 48 MB at 4800 GB/s
    assert math.isclose(add.of_peak or 0, 0.5)
    assert add.bytes_source == "inductor" and add.example == "triton_poi_fused_add_0"
    clone = next(x for x in r.rows if x.pattern == "triton_poi_fused_clone")
    assert clone.klass == LAYOUT and math.isclose(clone.achieved or 0, 960.0)
    cat = next(x for x in r.rows if x.klass == EAGER)
    assert cat.bytes is None and cat.floor_ms is None and cat.achieved is None
    classes = {c.klass: c for c in r.classes()}
    assert list(classes) == [CONV, TRITON, LAYOUT, EAGER]
    conv = classes[CONV]
    assert math.isclose(conv.floor_ms or 0, 1.0)  # 790 GFLOP at 790 TFLOP/s
    assert math.isclose(conv.ms, 2.0) and math.isclose(conv.achieved or 0, 395.0)
    assert math.isclose(conv.of_peak or 0, 0.5) and conv.achieved_unit == "TFLOP/s"
    assert math.isclose(r.floor_ms, 1.0 + 0.010 + 0.002)
    # kernel time 2.15 ms per call, of which 0.05 overlaps the conv; wall 3.0 ms
    assert math.isclose(r.kernel_ms, 2.15) and math.isclose(r.busy_ms, 2.10)
    assert math.isclose(r.overlap_ms, 0.05) and math.isclose(r.gap_ms, 0.90)
    # no floor: the add launch without bytes, the cat, and cuDNN's transpose
    assert math.isclose(r.unknown_ms, 0.030 + 0.040 + 0.050)


def test_wall_defaults_to_the_events_span() -> None:
    r = build_report([KernelEvent("triton_poi_fused_add_0", 0, 10), KernelEvent(ADD, 40, 10)])
    assert math.isclose(r.wall_ms, 0.050) and math.isclose(r.gap_ms, 0.030)


def test_divide_by_reports_per_unit() -> None:
    whole = _report()
    per = _report(divide_by=4.0, unit="latent frame")
    assert per.unit == "latent frame"
    assert math.isclose(per.wall_ms, whole.wall_ms / 4) and math.isclose(per.gap_ms, 0.225)
    assert math.isclose(per.floor_ms, whole.floor_ms / 4)
    add = next(x for x in per.rows if x.pattern == "triton_poi_fused_add")
    assert math.isclose(add.launches, 0.5) and math.isclose(add.achieved or 0, 2400.0)


def test_minus_is_the_cost_per_further_unit() -> None:
    small = _report(calls=2, wall_ms=3.0, flops=790e9)
    extra = [*_events(), *[KernelEvent(XMMA, 30_000 + 100 * i, 1000) for i in range(4)]]
    big = build_report(extra, calls=2, wall_ms=7.0, flops=3 * 790e9, label="big")
    diff = big.minus(small, divide_by=2, unit="further frame")
    assert diff.unit == "further frame" and math.isclose(diff.wall_ms, 2.0)
    conv = next(c for c in diff.classes() if c.klass == CONV)
    # two more 1 ms convs per call over 2 units, 790 GFLOP per unit: at the floor
    assert math.isclose(conv.ms, 1.0) and math.isclose(conv.launches, 1.0)
    assert math.isclose(conv.floor_ms or 0, 1.0) and math.isclose(conv.of_peak or 0, 1.0)
    add = next(x for x in diff.rows if x.pattern == "triton_poi_fused_add")
    assert add.launches == 0 and add.ms == 0 and add.bytes == 0
    with pytest.raises(ValueError, match=r"divide_by=0: expected a finite number > 0"):
        big.minus(small, divide_by=0)
    with pytest.raises(ValueError, match="different peaks"):
        big.minus(_report(hbm_gbps=3000.0))
    assert not any("SM clock" in note for note in diff.notes)  # no clock read (no NVML)


def test_a_difference_says_which_clock_each_of_its_runs_held() -> None:
    """The Wan decode's cost per further frame is T=21 minus T=3; where the longer run's GPU
    held a lower clock, its convs may be slower for that reason, so both clocks are shown."""
    small = _report(calls=2, wall_ms=3.0, flops=790e9)
    big = build_report(_events(), calls=2, wall_ms=7.0, flops=3 * 790e9, label="T=21")
    small.label = "T=3"
    big.sm_clock_mhz, big.power_w = 1695.0, 497.0
    small.sm_clock_mhz = 1965.0
    diff = big.minus(small, divide_by=2, unit="further frame")
    assert diff.sm_clock_mhz is None
    assert "SM clock (median, timed calls): T=21 1695 MHz, 497 W; T=3 1965 MHz" in diff.notes
    assert "note: SM clock (median, timed calls): T=21 1695 MHz" in diff.summary()


def test_table_is_markdown_with_every_class_gaps_and_wall() -> None:
    r = _report()
    text = r.table()
    lines = text.splitlines()
    assert lines[0].startswith("| class | kernel pattern | kind | launches | ms |")
    assert set(lines[1]) <= set("|-: ")
    assert all(line.count("|") == lines[0].count("|") for line in lines)
    assert "| **conv/matmul** | (all 1 patterns) |" in text
    assert (
        "| triton | triton_poi_fused_add | poi | 2 | 0.050 | 1.7% | 0.010 (part) | 2,400 GB/s | 50% | inductor |"
        in text
    )
    assert (
        "| **launch gaps** | wall minus the union of kernel intervals | | | **0.900** | 30.0% |"
        in text
    )
    assert "| concurrent |" in text and "| -0.050 |" in text
    assert "| **wall** | per call | | 6 | **3.000** | 100% | **1.012** |" in text
    folded = r.table(top=1)
    assert "| triton | (1 more patterns) |" not in folded  # one Triton pattern: nothing folded
    assert "| layout copy | (1 more patterns) | | 1 | 0.010 | 0.3% |" in folded
    summary = str(r)
    assert summary.startswith("profile of synthetic on none")
    assert "launch gaps 0.900 ms" in summary and "wall / floor 2.96x" in summary
    with pytest.raises(ValueError, match=r"top=0: expected None \(every pattern\) or an int >= 1"):
        r.table(top=0)


def _gap_events() -> tuple[list[KernelEvent], list[tuple[float, float]]]:
    """Two calls, each 1 ms on the CPU. Call 1: an add 100 us in, a cat overlapping it that ends
    later (350 us), then a conv at 600 us; call 2: an add 50 us in, then the conv right after
    a 50 us gap. A kernel outside both calls is left out of the gaps."""
    events = [
        KernelEvent("triton_poi_fused_add_0", 100, 200),
        KernelEvent(CAT, 250, 100),
        KernelEvent(XMMA, 600, 100),
        KernelEvent("triton_poi_fused_add_0", 2050, 500),
        KernelEvent(XMMA, 2600, 300),
        KernelEvent(ADD, 5000, 10),
    ]
    return events, [(0.0, 1000.0), (2000.0, 3000.0)]


def test_launch_gaps_are_located_before_between_and_after() -> None:
    events, rounds = _gap_events()
    r = build_report(events, calls=2, rounds_us=rounds, label="gaps", device="none")
    add, cat, conv = (classify(n)[1] for n in ("triton_poi_fused_add_0", CAT, XMMA))
    # per call: before (100 + 50) / 2 us, after (300 + 100) / 2 us
    assert r.lead_ms == pytest.approx(0.075) and r.tail_ms == pytest.approx(0.200)
    pairs = {g.pattern: g for g in r.gap_pairs()}
    # call 1 waited 250 us after the cat (the kernel that ended last), not after the add
    assert set(pairs) == {f"between {cat} and {conv}", f"between {add} and {conv}"}
    after_cat = pairs[f"between {cat} and {conv}"]
    assert after_cat.launches == pytest.approx(0.5) and after_cat.ms == pytest.approx(0.125)
    assert pairs[f"between {add} and {conv}"].ms == pytest.approx(0.025)
    assert r.between_ms == pytest.approx(0.150)
    assert [g.pattern for g in r.gap_pairs()][0] == after_cat.pattern  # longest first
    assert (
        "launch gaps located: before the first kernel 0.075 ms, between kernels 0.150 ms, "
        "after the last 0.200 ms; the longest: between" in r.summary()
    )
    text = r.table(top=1)
    lines = text.splitlines()
    assert all(line.count("|") == lines[0].count("|") for line in lines)
    at = lines.index(next(x for x in lines if x.startswith("| **launch gaps**")))
    assert lines[at + 1].startswith("| launch gaps | before the first kernel | | | 0.075 |")
    assert lines[at + 2].startswith(f"| launch gaps | between {cat} and {conv} | | 0.5 | 0.125 |")
    assert lines[at + 3].startswith("| launch gaps | (gaps between 1 more pairs of patterns) |")
    assert lines[at + 4].startswith("| launch gaps | after the last kernel | | | 0.200 |")
    # without the calls' ranges nothing is located, and the table has no such rows
    plain = build_report(events, calls=2)
    assert plain.gaps == [] and plain.lead_ms is None and plain.between_ms is None
    assert "| launch gaps |" not in plain.table() and "located" not in plain.summary()


def test_located_gaps_survive_json_and_subtract_per_unit() -> None:
    events, rounds = _gap_events()
    r = build_report(events, calls=2, rounds_us=rounds)
    back = ProfileReport.from_dict(json.loads(r.to_json()))
    assert back == r and back.table() == r.table()
    # one more call's worth of gaps: a 400 us gap after the conv, before another add
    more = [*events, KernelEvent("triton_poi_fused_add_0", 1100, 10)]
    bigger = build_report(more, calls=2, rounds_us=[(0.0, 1200.0), (2000.0, 3000.0)])
    diff = bigger.minus(r, divide_by=2, unit="further frame")
    pairs = {g.pattern: g for g in diff.gap_pairs()}
    conv, add = classify(XMMA)[1], classify("triton_poi_fused_add_0")[1]
    new = pairs[f"between {conv} and {add}"]
    assert new.ms == pytest.approx(0.400 / 2 / 2) and new.launches == pytest.approx(0.25)
    # call 1 now ends 90 us after its last kernel instead of 300: a difference can be negative
    assert diff.lead_ms == pytest.approx(0.0)
    assert diff.tail_ms == pytest.approx((0.090 - 0.300) / 2 / 2)
    with pytest.raises(ValueError, match=r"rounds_us=.*one \(start_us, end_us\) range per call"):
        build_report(events, calls=2, rounds_us=[(0.0, 1000.0)])
    with pytest.raises(ValueError, match="end_us >= start_us"):
        build_report(events, calls=2, rounds_us=[(0.0, 1000.0), (3000.0, 2000.0)])


def test_to_dict_round_trips_through_json() -> None:
    r = _report(profiled_wall_ms=3.5)
    r.notes.append("a note")
    data = json.loads(json.dumps(r.to_dict()))
    # gaps from the profiled calls (3.5 ms wall under the profiler - 2.1 ms of kernels)
    assert data["gap_ms"] == pytest.approx(1.4) and data["floor_ms"] == pytest.approx(1.012)
    assert _report().gap_ms == pytest.approx(0.9)  # no profiled wall: the unprofiled one
    assert {c["klass"] for c in data["classes"]} == {CONV, TRITON, LAYOUT, EAGER}
    add = next(x for x in data["rows"] if x["pattern"] == "triton_poi_fused_add")
    assert add["achieved"] == pytest.approx(2400.0) and add["achieved_unit"] == "GB/s"
    back = ProfileReport.from_dict(data)
    assert back == r
    assert back.table() == r.table()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: _report(peak_tflops=-1.0), "peak_tflops=-1.0: expected a finite number > 0"),
        (lambda: _report(hbm_gbps=0), "hbm_gbps=0: expected a finite number > 0"),
        (lambda: _report(calls=0), r"calls=0: expected an int >= 1"),
        (lambda: _report(divide_by=float("nan")), "divide_by=nan: expected a finite number > 0"),
        (lambda: _report(flops=-5), "flops=-5: expected a finite number >= 0"),
        (
            lambda: profiling.profile(lambda: None, rounds=0),
            r"rounds=0: expected an int >= 1 \(profiled calls, e.g. rounds=3\)",
        ),
        (lambda: profiling.profile(lambda: None, warmup=-1), r"warmup=-1: expected an int >= 0"),
        (
            lambda: profiling.profile(lambda: None, peak_tflops=-790),
            r"peak_tflops=-790: expected a finite number > 0 \(e.g. 790 for an H200's bf16 matmul\) or 'measure'",
        ),
        (
            lambda: profiling.profile(lambda: None, hbm_gbps="fast"),
            r"hbm_gbps='fast': expected a finite number > 0 .* or 'measure'",
        ),
        (
            lambda: profiling.profile(lambda: None, flops=-1),
            r"flops=-1: expected a finite number >= 0",
        ),
        (
            lambda: profiling.profile(lambda: None, divide_by=0),
            r"divide_by=0: expected a finite number > 0",
        ),
        (lambda: profiling.profile(lambda: None, unit=""), r"unit='': expected a non-empty str"),
    ],
)
def test_bad_arguments_name_the_value_and_the_fix(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_profile_needs_a_callable() -> None:
    with pytest.raises(TypeError, match="expected a zero-argument callable"):
        profiling.profile(3)  # type: ignore[arg-type]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the error is for machines without a GPU")
def test_profile_without_cuda_says_what_to_do() -> None:
    with pytest.raises(RuntimeError, match=r"profile\(\) requires a CUDA device; .*build_report"):
        profiling.profile(lambda: None)


def test_kernel_times_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="expected a zero-argument callable"):
        profiling.kernel_times(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="calls"):
        profiling.kernel_times(lambda: None, calls=0)


@pytest.mark.skipif(torch.cuda.is_available(), reason="the error is for machines without a GPU")
def test_kernel_times_without_cuda_says_what_to_do() -> None:
    with pytest.raises(RuntimeError, match=r"kernel_times\(\) requires a CUDA device"):
        profiling.kernel_times(lambda: None)


def test_count_flops_leaves_a_compiled_fn_compiled() -> None:
    """FlopCounterMode around a compiled call makes dynamo run that frame eagerly from then on
    (seen on torch 2.11 + CUDA and here); count_flops runs the call eagerly instead."""
    calls: list[int] = []

    def backend(gm: torch.fx.GraphModule, example_inputs: Any) -> Any:
        def run(*args: Any) -> Any:
            calls.append(1)
            return gm(*args)

        return run

    torch._dynamo.reset()
    linear = torch.nn.Linear(8, 8)
    compiled = torch.compile(linear, backend=backend)
    x = torch.randn(2, 8)
    with torch.no_grad():
        compiled(x)
        assert profiling.count_flops(lambda: compiled(x)) == 2 * 2 * 8 * 8
        assert len(calls) == 1  # counted on an eager run
        compiled(x)
        compiled(x)
    assert len(calls) == 3  # and the compiled code still runs
    torch._dynamo.reset()


# --------------------------------------------------------------------------- bytes
def test_args_bytes_follows_inductors_runtime_rule() -> None:
    shapes = [[1024, 1024], [1024, 1024], [1024, 1024], []]
    dtypes = ["float", "float", "float", "Scalar"]
    assert args_bytes(shapes, dtypes) == 12 * MIB
    # the first in/out argument is read and written
    assert args_bytes(shapes, dtypes, in_out_args=1) == 16 * MIB
    assert args_bytes([[8, 8], []], ["c10::BFloat16", "float"]) == 128 + 4  # a 0-d tensor
    assert args_bytes([[], []], ["Scalar", "Scalar"]) is None
    assert args_bytes([[4]], ["c10::SomethingNew"]) is None


def test_inductor_byte_counts_are_the_kernels_own_under_fake_cuda() -> None:
    """A real Inductor compile (fake CUDA on a CPU machine, the GPU where there is one) of an
    add of two [1024, 1024] fp32 tensors: 2 reads + 1 write of 4 MiB = 12 MiB, as Inductor
    writes it into the kernel's metadata under inductor_byte_counts()."""
    from pytest_magi.capture.codegen import inductor_codegen

    a, b = torch.randn(1024, 1024), torch.randn(1024, 1024)
    code = inductor_codegen(torch.add, a, b, inductor_config={"benchmark_kernel": True})
    assert kernel_bytes(code.kernels) == {"triton_poi_fused_add_0": 3 * 1024 * 1024 * 4}
    assert kernel_bytes(code.raw) == {"triton_poi_fused_add_0": 12 * MIB}
    # without the setting Inductor writes no count: nothing to read
    plain = inductor_codegen(torch.add, a, b)
    assert kernel_bytes(plain.kernels) == {}


def test_inductor_byte_counts_is_scoped() -> None:
    from torch._inductor import config

    before = config.benchmark_kernel
    with profiling.inductor_byte_counts():
        assert config.benchmark_kernel is True
    assert config.benchmark_kernel == before
    with pytest.raises(KeyError), profiling.inductor_byte_counts():
        raise KeyError("boom")
    assert config.benchmark_kernel == before


# --------------------------------------------------------------------------- kineto events
@dataclass
class FakeKineto:
    """The methods of torch's ``_KinetoEvent`` that events_from_kineto reads."""

    _name: str
    device: Any
    corr: int
    linked: int = 0
    start: int = 0
    dur: int = 0
    _shapes: list[Any] = field(default_factory=list)
    _dtypes: list[str] = field(default_factory=list)
    kw: dict[str, Any] = field(default_factory=dict)
    annotation: bool = False

    def name(self) -> str:
        return self._name

    def device_type(self) -> Any:
        return self.device

    def correlation_id(self) -> int:
        return self.corr

    def linked_correlation_id(self) -> int:
        return self.linked

    def start_ns(self) -> int:
        return self.start

    def duration_ns(self) -> int:
        return self.dur

    def shapes(self) -> list[Any]:
        return self._shapes

    def dtypes(self) -> list[str]:
        return self._dtypes

    def kwinputs(self) -> dict[str, Any]:
        return self.kw

    def is_user_annotation(self) -> bool:
        return self.annotation


def test_events_from_kineto_links_kernels_to_their_launches(tmp_path: Any) -> None:
    kernel_file = tmp_path / "k.py"
    kernel_file.write_text(
        "@triton.jit\ndef triton_poi_fused_add_1(in_out_ptr0, in_ptr0, xnumel, XBLOCK):\n"
    )
    cpu, gpu = DeviceType.CPU, DeviceType.CUDA
    sq = [[1024, 1024], [1024, 1024], []]
    raw = [
        FakeKineto(ROUND_MARK, cpu, 1, start=0, dur=900_000),
        FakeKineto("## Call CompiledFxGraph abc", cpu, 2, start=1_000, dur=500_000),
        # Inductor's own count, carried by the launch's record_function
        FakeKineto(
            "triton_poi_fused_add_0",
            cpu,
            3,
            _shapes=sq,
            _dtypes=["float", "float", "Scalar"],
            kw={"kernel_backend": "triton", "kernel_num_gb": 0.012582912},
        ),
        FakeKineto("cuLaunchKernel", cpu, 3, linked=3),  # a runtime id equal to an op id
        FakeKineto("triton_poi_fused_add_0", gpu, 3, linked=3, start=10_000, dur=5_000),
        # no count: the launch's arguments, the in/out one twice (from the kernel's file)
        FakeKineto(
            "triton_poi_fused_add_1",
            cpu,
            4,
            _shapes=sq,
            _dtypes=["float", "float", "Scalar"],
            kw={"kernel_file": str(kernel_file), "kernel_name": "triton_poi_fused_add_1"},
        ),
        FakeKineto("triton_poi_fused_add_1", gpu, 40, linked=4, start=20_000, dur=5_000),
        # an eager copy_ that launched two kernels: its bytes go to the first
        FakeKineto(
            "aten::copy_",
            cpu,
            5,
            _shapes=[[256], [256], []],
            _dtypes=["c10::BFloat16"] * 2 + ["Scalar"],
        ),
        FakeKineto(DIRECT_COPY, gpu, 50, linked=5, start=30_000, dur=1_000),
        FakeKineto(DIRECT_COPY, gpu, 51, linked=5, start=31_000, dur=1_000),
        # user annotations mirrored on the GPU: by flag, and by correlation id and name
        FakeKineto("## Call CompiledFxGraph abc", gpu, 2, start=9_000, dur=30_000),
        FakeKineto("my range", gpu, 60, start=9_000, dur=30_000, annotation=True),
        # a kernel that no op launched stays
        FakeKineto("Memset (Device)", gpu, 70, start=40_000, dur=500),
    ]
    kernels, rounds = events_from_kineto(raw)
    assert rounds == [(0.0, 900.0)]
    by_name = [(k.name, k.bytes, k.bytes_source, k.op) for k in kernels]
    assert by_name == [
        ("triton_poi_fused_add_0", 12 * MIB, "inductor", "triton_poi_fused_add_0"),
        # two 4 MiB tensors, the first in/out: 3 x 4 MiB (without the file's names: 8 MiB)
        ("triton_poi_fused_add_1", 12 * MIB, "args", "triton_poi_fused_add_1"),
        (DIRECT_COPY, 1024, "aten", "aten::copy_"),
        (DIRECT_COPY, None, None, "aten::copy_"),
        ("Memset (Device)", None, None, ""),
    ]
    assert (kernels[0].start_us, kernels[0].dur_us) == (10.0, 5.0)
    report = build_report(kernels, wall_ms=0.1)
    add = next(r for r in report.rows if r.pattern == "triton_poi_fused_add")
    assert add.launches == 2 and add.bytes == 24 * MIB and add.bytes_source == "inductor,args"


def _origin_trace(extra_eager: int = 1) -> list[FakeKineto]:
    """One call: a compiled frame (dynamo's range) holding a graph (Inductor's range) that
    launches a Triton kernel and a cuDNN transpose; between the frame's graph and its end an
    eager add; after the frame, ``extra_eager`` eager copies (a further frame's cost)."""
    cpu, gpu = DeviceType.CPU, DeviceType.CUDA
    big = [[1, 512, 4, 68, 120], [1, 512, 4, 68, 120], []]
    raw = [
        FakeKineto(ROUND_MARK, cpu, 1, start=0, dur=900_000),
        FakeKineto("Torch-Compiled Region: 0/1", cpu, 2, start=1_000, dur=400_000),
        FakeKineto("## Call CompiledFxGraph fx1 ##", cpu, 3, start=2_000, dur=200_000),
        FakeKineto("triton_poi_fused_add_0", cpu, 4, start=3_000, dur=1_000),
        FakeKineto("triton_poi_fused_add_0", gpu, 40, linked=4, start=10_000, dur=5_000),
        FakeKineto("aten::cudnn_convolution", cpu, 5, start=4_000, dur=1_000, _shapes=big),
        FakeKineto(TO_NHWC, gpu, 50, linked=5, start=20_000, dur=3_000),
        FakeKineto(XMMA, gpu, 51, linked=5, start=24_000, dur=30_000),
        FakeKineto("aten::add", cpu, 6, start=300_000, dur=1_000, _shapes=big),
        FakeKineto(ADD, gpu, 60, linked=6, start=310_000, dur=2_000),
    ]
    for i in range(extra_eager):
        start = 500_000 + i * 10_000
        raw += [
            FakeKineto("aten::copy_", cpu, 70 + i, start=start, dur=1_000, _shapes=[[256], [256]]),
            FakeKineto(DIRECT_COPY, gpu, 700 + i, linked=70 + i, start=start + 5_000, dur=1_000),
        ]
    return raw


def test_kernels_are_placed_in_a_graph_a_frame_or_outside() -> None:
    kernels, _ = events_from_kineto(_origin_trace())
    placed = {(k.op, classify(k.name)[0]): (k.origin, k.op_shapes) for k in kernels}
    shapes = "1x512x4x68x120, 1x512x4x68x120, scalar"
    assert placed == {
        ("triton_poi_fused_add_0", TRITON): (IN_GRAPH, ""),
        ("aten::cudnn_convolution", LAYOUT): (IN_GRAPH, shapes),
        ("aten::cudnn_convolution", CONV): (IN_GRAPH, shapes),
        ("aten::add", EAGER): (IN_FRAME, shapes),
        ("aten::copy_", LAYOUT): (OUTSIDE, "256, 256"),
    }
    report = build_report(kernels, wall_ms=1.0)
    # Inductor's own kernels and a conv inside a graph are not listed; the rest by origin
    assert [(r.klass, r.pattern, r.kind) for r in report.origins] == [
        (IN_GRAPH, "aten::cudnn_convolution > nchwToNhwcKernel", LAYOUT),
        (IN_FRAME, "aten::add > vectorized_elementwise_kernel[CUDAFunctor_add]", EAGER),
        (OUTSIDE, "aten::copy_ > elementwise_kernel[direct_copy_kernel_cuda]", LAYOUT),
    ]
    assert report.origins[1].example == shapes and report.origins[1].ms == pytest.approx(0.002)
    table = report.origin_table()
    assert (
        "| frame | aten::add > vectorized_elementwise_kernel[CUDAFunctor_add] | eager aten |"
        in (table)
    )
    assert "| **eager** | (all) | | | **0.001** |" in table
    assert len(report.origin_table(top=1).splitlines()) == 2 + 1 + 1 + 3  # head, row, rest, totals
    assert table in str(report)
    with pytest.raises(ValueError, match=r"top=0: expected None or an int >= 1"):
        report.origin_table(top=0)


def test_a_kernel_linked_to_a_runtime_activity_gets_the_op_around_it() -> None:
    """CUPTI links a launch that loaded its module ("Lazy Function Loading") or waited for the
    queue ("Command Buffer Full") to that activity: the op running then launched it."""
    cpu, gpu = DeviceType.CPU, DeviceType.CUDA
    raw = [
        FakeKineto("Torch-Compiled Region: 0/0", cpu, 1, start=0, dur=100_000),
        FakeKineto("aten::silu", cpu, 2, start=1_000, dur=50_000, _shapes=[[1, 256, 4]]),
        FakeKineto("aten::empty", cpu, 3, start=2_000, dur=1_000),  # ended before the launch
        FakeKineto("Command Buffer Full", cpu, 4, start=20_000, dur=5_000),
        FakeKineto(ADD, gpu, 40, linked=4, start=60_000, dur=1_000),
        # outside every op: the activity stays the launching op
        FakeKineto("Lazy Function Loading", cpu, 5, start=200_000, dur=1_000),
        FakeKineto(ADD, gpu, 50, linked=5, start=210_000, dur=1_000),
    ]
    kernels, _ = events_from_kineto(raw)
    assert [(k.op, k.origin, k.op_shapes) for k in kernels] == [
        ("aten::silu", IN_FRAME, "1x256x4"),
        ("Lazy Function Loading", OUTSIDE, ""),
    ]


def test_origins_subtract_per_unit_and_survive_json() -> None:
    short = build_report(events_from_kineto(_origin_trace(1))[0], wall_ms=1.0)
    long = build_report(events_from_kineto(_origin_trace(5))[0], wall_ms=2.0)
    per = long.minus(short, divide_by=2, unit="further frame")
    by_origin = {r.klass: r for r in per.origins if r.ms}
    assert list(by_origin) == [OUTSIDE]  # only the copies grow with the length
    assert by_origin[OUTSIDE].launches == 2 and by_origin[OUTSIDE].ms == pytest.approx(0.002)
    again = ProfileReport.from_dict(json.loads(per.to_json()))
    assert again.origins == per.origins and again.origin_table() == per.origin_table()
    # a report without origins (an older JSON, a hand-built event list) shows none
    bare = build_report([KernelEvent(ADD, 0, 10)], wall_ms=1.0)
    assert bare.origins == [] and bare.origin_table() == "" and long.minus(bare).origins == []


def test_shapes_text_keeps_tensors_only() -> None:
    assert shapes_text([[1, 8, 2], [], [8]]) == "1x8x2, scalar, 8"
    assert shapes_text([[1], [2], [3], [4], [5]]) == "1, 2, 3, +2"
    assert shapes_text([[[1, 2], [3]], "x", [True]]) == ""


# --------------------------------------------------------------------------- pairs
@pytest.mark.skipif(torch.cuda.is_available(), reason="the error is for machines without a GPU")
def test_pair_profile_on_cpu_says_what_to_do() -> None:
    from pytest_magi.pairs.compiled import CompiledPair

    pair = CompiledPair.build(torch.sin, torch.randn(8), passes=[])
    with pytest.raises(RuntimeError, match=r"profile\(\) requires a CUDA device"):
        pair.profile("baseline")
    with pytest.raises(ValueError, match=r"side='cand': expected one of 'baseline', 'candidate'"):
        pair.profile("cand")
    with pytest.raises(TypeError, match=r"takes no side, rounds; for one side's ProfileReport"):
        pair.profile("candidate", top=3, rounds=2)
    assert "candidate: self CPU total" in pair.profile(top=2, iterations=1)


@pytest.mark.requires_cuda
def test_profile_on_the_gpu_reads_inductors_bytes() -> None:
    """A compiled add of two [1024, 1024] fp32 tensors: one Triton launch per call, 12 MiB,
    from Inductor's metadata when compiled under inductor_byte_counts(), else from the launch's
    arguments; the wall time covers the kernels."""
    a = torch.randn(1024, 1024, device="cuda")
    b = torch.randn(1024, 1024, device="cuda")
    torch._dynamo.reset()
    with profiling.inductor_byte_counts():
        counted = torch.compile(lambda x, y: x + y)
        counted(a, b)
    report = profiling.profile(lambda: counted(a, b), rounds=2, label="add")
    assert [r.klass for r in report.rows] == [TRITON], report.table()  # no eager fallback
    row = report.rows[0]
    assert row.pattern == "triton_poi_fused_add" and row.launches == 1
    assert row.bytes == 12 * MIB and row.bytes_source == "inductor"
    assert row.achieved is not None and row.achieved > 0 and report.flops == 0
    assert report.wall_ms >= report.busy_ms > 0 and report.profiled_wall_ms is not None
    # the gaps located in the profiled calls: with one kernel a call, none between kernels,
    # and before + after add up to the gaps (two calls: their median is their mean)
    assert report.lead_ms is not None and report.lead_ms > 0 and report.between_ms == 0
    located = report.lead_ms + report.between_ms + (report.tail_ms or 0.0)
    assert located == pytest.approx(report.gap_ms, rel=0.02, abs=0.005), report.summary()
    torch._dynamo.reset()
    plain = torch.compile(lambda x, y: x + y)
    plain(a, b)
    row = next(
        r for r in profiling.profile(lambda: plain(a, b), rounds=2).rows if r.klass == TRITON
    )
    assert row.bytes == 12 * MIB and row.bytes_source == "args"
    torch._dynamo.reset()


@pytest.mark.requires_cuda
def test_profile_on_the_gpu_says_where_kernels_were_launched() -> None:
    """A compiled graph's Triton kernel is placed in the graph (Inductor's range), an eager
    add after the compiled call outside every compiled frame (dynamo's range): the range
    names the real torch records."""
    x = torch.randn(1024, 1024, device="cuda")
    torch._dynamo.reset()
    compiled = torch.compile(lambda t: t.sin() * 2)
    compiled(x).add_(1)  # every kernel loaded once: a first launch links to CUDA's lazy loading
    kernels, _ = profiling._profiled(lambda: compiled(x).add_(1), 2)
    origins = {(classify(k.name)[0], k.op, k.origin) for k in kernels}
    assert {o for c, _, o in origins if c == TRITON} == {IN_GRAPH}, origins
    assert (EAGER, "aten::add_", OUTSIDE) in origins, origins
    report = build_report(kernels, calls=2)
    assert [r.klass for r in report.origins] == [OUTSIDE], report.origin_table()
    assert report.origins[0].pattern.startswith("aten::add_ > ")
    assert report.origins[0].launches == 1 and report.origins[0].example.startswith("1024x1024")
    torch._dynamo.reset()


@pytest.mark.requires_cuda
def test_profile_on_the_gpu_counts_conv_flops() -> None:
    conv = torch.nn.Conv2d(64, 64, 3, padding=1).cuda().half()
    x = torch.randn(8, 64, 64, 64, device="cuda", dtype=torch.half)
    with torch.no_grad():
        report = profiling.profile(lambda: conv(x), rounds=2)
    expected = 2 * 8 * 64 * 64 * 64 * 64 * 9
    assert report.flops == expected
    conv_class = next(c for c in report.classes() if c.klass == CONV)
    assert conv_class.launches >= 1 and conv_class.floor_ms is not None
    assert "| **conv/matmul** |" in report.table()


def test_no_real_gpu_means_fake_cuda_was_used_above() -> None:
    """The fake-CUDA byte-count test above ran Inductor's CUDA codegen without a GPU here."""
    if real_cuda_available():
        pytest.skip("a real GPU: the codegen above used it")
    from pytest_magi.capture.fake_cuda import fake_cuda_status

    assert fake_cuda_status()[0]
