"""Is a small compiled pair host-bound? Host enqueue time vs device time per call (GPU probe, session 9: docs/reliability.md)."""

import statistics
import sys
import time

import torch

from magi_passes import MagiBackend, PassConfig
from pytest_magi.models import VAEDecoderLike, WanCausalStage
from pytest_magi.timing import CudaTimer

torch.manual_seed(0)
name = sys.argv[1] if len(sys.argv) > 1 else "wan"
cls = {"wan": WanCausalStage, "vae": VAEDecoderLike}[name]
model = cls("540p").cuda().to(torch.bfloat16).eval()
x = model.example_input(device="cuda", dtype=torch.bfloat16)
dev = torch.device("cuda")


def host_us(fn, n=50):
    torch.cuda.synchronize()
    torch.cuda._sleep(int(2e9))  # ~1 s of GPU spin: the queue never drains while we enqueue
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    dt = (time.perf_counter() - t0) / n * 1e6
    torch.cuda.synchronize()
    return dt


def device_ms(fn, n=50):
    """Events around each call, recorded behind a spin kernel that outlasts the host's enqueue."""
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    torch.cuda.synchronize()
    torch.cuda._sleep(int(2e9))
    for s, e in zip(starts, ends, strict=True):
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends, strict=True))


for dynamic in (False, True):
    torch._dynamo.reset()
    sides = {
        "torch.compile": torch.compile(model),
        "magi": torch.compile(model, backend=MagiBackend(PassConfig(measure_decisions=False))),
    }
    xi = x.clone()
    if dynamic:
        for d in cls.DYNAMIC_HW:
            torch._dynamo.mark_dynamic(xi, d)
    timer = CudaTimer(dev)
    for side, fn in sides.items():
        with torch.no_grad():
            fn(xi)
            fn(x)

            def call(fn=fn):
                with torch.no_grad():
                    return fn(x)

            for _ in range(5):
                call()
            host = statistics.median(host_us(call) for _ in range(5))
            dev_ms = statistics.median(device_ms(call) for _ in range(5))
            wall = statistics.median(statistics.median(timer(call, 50)) for _ in range(5))
        print(
            f"{name} dynamic={dynamic} {side:14s}: host enqueue {host:7.1f} us/call, "
            f"device {dev_ms:.4f} ms/call (spin-ahead events), CudaTimer {wall:.4f} ms/call",
            flush=True,
        )
