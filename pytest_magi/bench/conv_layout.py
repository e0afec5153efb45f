"""Conv-layout mode of the zoo benchmark (GPU): conv3d time by input layout, the Wan 2.2 decoder's
convolution shapes in NCDHW and in channels-last (NDHWC), with cuDNN's heuristic choice and with
``cudnn.benchmark``.

    python benchmarks/zoo.py conv-layout --rounds 20

Whether cuDNN runs the same convolution slower in one layout than the other. Each row times ``F.conv3d`` alone (CUDA
events, median of ``--rounds`` after warm-up) on a 3x3x3 convolution of a causal chunk (two new
frames and two cached ones, time padding done by the caller as in diffusers), bf16. Only
``torch.backends.cudnn.benchmark`` is changed, inside ``torch.backends.cudnn.flags`` (restored).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import torch
import torch.nn.functional as F

from pytest_magi.measure.clocks import GpuClocks
from pytest_magi.measure.profiling import CONV, classify, kernel_times

# (channels, height, width) of the decoder's 3x3x3 convolutions per resolution (TI2V-5B config)
SHAPES = ((1024, 34, 60), (1024, 68, 120), (512, 136, 240), (256, 272, 480))


def _conv(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return F.conv3d(x, weight, padding=(0, 1, 1))


def _time(x: torch.Tensor, weight: torch.Tensor, rounds: int) -> float:
    def fn() -> torch.Tensor:
        return _conv(x, weight)

    for _ in range(3):
        fn()
    times = []
    for _ in range(rounds):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def _sustained(x: torch.Tensor, weight: torch.Tensor, seconds: float) -> tuple[float, str]:
    """Per call (ms) over ``seconds`` of back-to-back convolutions, and the SM clock meanwhile:
    whether a long run of tensor-core work holds a lower clock than a short one."""
    _conv(x, weight)
    torch.cuda.synchronize()
    calls = 0
    start = time.perf_counter()
    with GpuClocks() as clocks:
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                _conv(x, weight)
            calls += 10
            torch.cuda.synchronize()
    ms = (time.perf_counter() - start) * 1e3 / calls
    reading = clocks.result()
    return ms, reading.describe() if reading is not None else "no NVML"


def _conv_kernel_ms(x: torch.Tensor, weight: torch.Tensor, calls: int = 5) -> tuple[float, str]:
    """Per call: the GPU time of the convolution kernel itself (the implicit GEMM, without
    cuDNN's layout transposes, which are layout copies in the profile's classes) and its name."""
    _conv(x, weight)
    torch.cuda.synchronize()
    times = kernel_times(lambda: _conv(x, weight), calls)
    gemm = {name: ms for name, (_, ms) in times.items() if classify(name)[0] == CONV}
    return sum(gemm.values()), (" + ".join(sorted(gemm)) if gemm else "?")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="zoo.py conv-layout", description="conv3d time by input layout (GPU)"
    )
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--frames", type=int, default=4, help="input frames (cache + new)")
    parser.add_argument(
        "--sustain", type=float, default=2.0, help="seconds of back-to-back calls per layout"
    )
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("conv_layout: needs a CUDA GPU (cuDNN kernels are what it times)", file=sys.stderr)
        return 2
    print(
        f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, cuDNN "
        f"{torch.backends.cudnn.version()}, bf16, 3x3x3 conv, padding (0, 1, 1)"
    )
    print(
        "| C, H x W | TFLOP | NCDHW ms | NDHWC ms | NDHWC / NCDHW | NCDHW bench ms | "
        "NDHWC bench ms | out layout NDHWC |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    kernels: list[str] = []
    sustained: list[str] = []
    for c, h, w in SHAPES:
        x = torch.randn(1, c, args.frames, h, w, device="cuda", dtype=torch.bfloat16)
        weight = torch.randn(c, c, 3, 3, 3, device="cuda", dtype=torch.bfloat16) * 0.02
        x_cl = x.to(memory_format=torch.channels_last_3d)
        w_cl = weight.to(memory_format=torch.channels_last_3d)
        flop = 2 * c * c * 27 * (args.frames - 2) * h * w
        row = []
        for bench in (False, True):
            with torch.backends.cudnn.flags(enabled=True, benchmark=bench):
                a = _time(x, weight, args.rounds)
                b = _time(x_cl, w_cl, args.rounds)
            row.append((a, b))
        out = _conv(x_cl, w_cl)
        cl = out.is_contiguous(memory_format=torch.channels_last_3d)
        (a, b), (ab, bb) = row
        print(
            f"| {c}, {h} x {w} | {flop / 1e12:.2f} | {a:.3f} | {b:.3f} | {b / a:.3f} | "
            f"{ab:.3f} | {bb:.3f} | {cl} |",
            flush=True,
        )
        for label, xi, wi in (("NCDHW", x, weight), ("NDHWC", x_cl, w_cl)):
            ms, name = _conv_kernel_ms(xi, wi)
            kernels.append(f"| {c}, {h} x {w} | {label} | {ms:.3f} | {name} |")
            if args.sustain > 0:
                per_call, clock = _sustained(xi, wi, args.sustain)
                sustained.append(f"| {c}, {h} x {w} | {label} | {per_call:.3f} | {clock} |")
    print()
    print(
        "cuDNN's heuristic choice, the convolution kernel alone (no layout transposes), per call:"
    )
    print("| C, H x W | input | kernel ms | kernel |")
    print("| --- | --- | ---: | --- |")
    print("\n".join(kernels))
    if sustained:
        print()
        print(f"{args.sustain:g} s of back-to-back calls (heuristic choice), per call, SM clock:")
        print("| C, H x W | input | ms per call | clock |")
        print("| --- | --- | ---: | --- |")
        print("\n".join(sustained))
    return 0
