"""Where a static 540p model's call spends its time, torch.compile beside magi.

Both sides compiled once (magi with decisions off, so it is exactly its passes), their relative L2
from an fp64 run beside eager's, the ratio from `pytest_magi.timing.measure_pair` (`--repeats`
times, to show how much it moves within one process), then each side's
`pytest_magi.profiling.profile` table: per class and Triton pattern, with bandwidth floors.

Run: `python tools/probes/vae_static_profile.py [--model vae|wan] [--rounds 15] [--top 30]
[--options JSON]` (`vae`: VAEDecoderLike, `wan`: WanCausalStage, the models of
tests/test_perf_gpu.py; `--options`: Inductor options for magi's compile, e.g.
'{"max_autotune_pointwise": true}').
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.models import VAEDecoderLike, WanCausalStage  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.profiling import profile  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402

MODELS = {"vae": VAEDecoderLike, "wan": WanCausalStage}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--preset", default="540p")
    parser.add_argument("--model", choices=sorted(MODELS), default="vae")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--options", type=json.loads, default={})
    args = parser.parse_args()
    print(f"device {device_name()}, torch {torch.__version__}", flush=True)
    torch.manual_seed(0)
    name = MODELS[args.model].__name__
    model = MODELS[args.model](args.preset).cuda().eval()
    x = model.example_input(device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        ref = model.double()(x.double())
        model.to(torch.bfloat16)
        eager_err = _relative_l2(model(x), ref)
        tc = torch.compile(model)
        backend = MagiBackend(PassConfig(measure_decisions=False), args.options)
        magi = torch.compile(model, backend=backend)
        sides = {"torch.compile": lambda: tc(x), "magi": lambda: magi(x)}
        errs = {side: _relative_l2(fn(), ref) for side, fn in sides.items()}
        for _ in range(args.repeats):
            timed = measure_pair((sides["torch.compile"], sides["magi"]), rounds=args.rounds)
            print(
                f"{name} {args.preset} static bf16: torch.compile {timed.baseline_ms:.4f} ms, "
                f"magi {timed.candidate_ms:.4f} ms, {timed.ratio:.3f}x (spread "
                f"{timed.spread:.1%}); rel-L2 from fp64: eager {eager_err:.3e}, torch.compile "
                f"{errs['torch.compile']:.3e}, magi {errs['magi']:.3e}",
                flush=True,
            )
        for side, fn in sides.items():
            report = profile(fn, rounds=5, label=f"{name} {args.preset} {side}")
            print(f"\n## {side}\n", flush=True)
            print(report.table(top=args.top), flush=True)


if __name__ == "__main__":
    main()
