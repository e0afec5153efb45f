"""A/B of PaddingMiscompileWorkaround on WanCausalStage 540p bf16 with dynamic H/W (GPU probe, session 9: docs/reliability.md)."""

import os
import sys
import time

import torch
from torch._inductor import metrics
from torch._inductor.utils import run_and_get_code

from magi_passes import MagiBackend, PassConfig
from pytest_magi.models import VAEDecoderLike, WanCausalStage
from pytest_magi.timing import measure_pair

out = os.environ.get("OUT", "/tmp")
torch.manual_seed(0)
cls = {"wan": WanCausalStage, "vae": VAEDecoderLike}[sys.argv[1] if len(sys.argv) > 1 else "wan"]
dims = cls.DYNAMIC_HW
model = cls("540p").cuda().to(torch.bfloat16).eval()
x = model.example_input(device="cuda", dtype=torch.bfloat16)
with torch.no_grad():
    ref = model.float()(x.float()).float()
    model.to(torch.bfloat16)
    eager = model(x).float()


def rel(a):
    return ((a.float() - ref).norm() / ref.norm()).item()


def build(wa: bool, dynamic: bool):
    metrics.reset()
    be = MagiBackend(PassConfig(work_around_inductor_bugs=wa, measure_decisions=False))
    fn = torch.compile(model, backend=be)
    xi = x.clone()
    if dynamic:
        for d in dims:
            torch._dynamo.mark_dynamic(xi, d)
    t0 = time.perf_counter()
    with torch.no_grad():
        y, codes = run_and_get_code(fn, xi)
    dt = time.perf_counter() - t0
    tag = f"{'wa' if wa else 'nowa'}_{'dyn' if dynamic else 'static'}"
    with open(f"{out}/code_{sys.argv[1] if len(sys.argv) > 1 else 'wan'}_{tag}.py", "w") as f:
        f.write("\n\n#### NEXT GRAPH ####\n\n".join(codes))
    print(
        f"{tag}: compile {dt:.1f} s, paddings {metrics.num_comprehensive_padding}, "
        f"kernels {metrics.generated_kernel_count}, rel-L2 {rel(y):.3e} (eager {rel(eager):.3e})",
        flush=True,
    )
    print("  results:", [(r.name, r.applied, r.reason[:80]) for r in be.results], flush=True)

    def call():
        with torch.no_grad():
            return fn(x)

    return call


for dynamic in (True, False):
    torch._dynamo.reset()
    on = build(True, dynamic)
    off = build(False, dynamic)
    for order in ("on-off", "off-on"):
        a, b = (on, off) if order == "on-off" else (off, on)
        s = measure_pair((a, b), rounds=10, lock=False)
        print(f"dynamic={dynamic} {order}: {s}", flush=True)
