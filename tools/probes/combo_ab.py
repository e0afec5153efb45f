"""Launching magi's per-call weight conversions as one kernel, A/B on the GPU.

In magi's static channels-last graphs each conv weight is converted to channels-last by a small
kernel of its own, every call. Two ways to launch them as one:
- Inductor's combo kernels (`options={"combo_kernels": True}`), which launch any independent
  kernels of a graph together (fake CUDA, WanCausalStage 540p: 10 -> 9 kernels, the five weight
  conversions in one; VAEDecoderLike 540p: 23 -> 21);
- `ConvChannelsLastPass`'s batched weights (`magi_passes.channels_last.batch_weight_clones`,
  session 14): the weights concatenated in one kernel, each conv reading a view.

Four sides per model, decisions off on the magi ones: torch.compile; magi with its weights
converted apart (`_BATCH` patched to 1 for its compile); magi as it is (batched); magi with combo
kernels. One dynamo reset per model, none between its sides (a reset would drop the patched
side's code and it would recompile unpatched). Times from `pytest_magi.timing.measure_pair`
(device-side, interleaved, L2 flushed), `--repeats` times; each side's relative L2 from an fp64
run beside eager's.

Its first run (session 14, `docs/results/session14/combo_ab.log`) predates the batching: its
"magi" side converted the weights apart.

Run: `python tools/probes/combo_ab.py [--rounds 15] [--repeats 2]`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from unittest import mock

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gn_stats_ab import GroupNormBlock  # noqa: E402

from magi_passes import MagiBackend, PassConfig, channels_last  # noqa: E402
from pytest_magi.models import VAEDecoderLike, WanCausalStage  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402

STATIC = PassConfig(measure_decisions=False)


def ab(label: str, model: torch.nn.Module, x: torch.Tensor, args) -> None:
    with torch.no_grad():
        ref = model.double()(x.double())
        model.to(x.dtype)
        eager_err = _relative_l2(model(x), ref)
        torch._dynamo.reset()
        # a backend object per side: dynamo keeps one compiled entry per backend, so no side
        # is served another's code
        fns = {
            "torch.compile": torch.compile(model),
            "weights apart": torch.compile(model, backend=MagiBackend(STATIC)),
            "batched": torch.compile(model, backend=MagiBackend(STATIC)),
            "combo": torch.compile(model, backend=MagiBackend(STATIC, {"combo_kernels": True})),
        }
        # compiled on their first calls with no cache: the two magi sides have the same graph,
        # config and pass sources, so a cached compile would hand one the other's code
        with torch._inductor.config.patch(force_disable_caches=True):
            with mock.patch.object(channels_last, "_BATCH", 1):
                fns["weights apart"](x)
            errs = {side: _relative_l2(fn(x), ref) for side, fn in fns.items()}
        runs = {side: (lambda f=fn: f(x)) for side, fn in fns.items()}
        for _ in range(args.repeats):
            pairs = {
                "apart -> batched": measure_pair(
                    (runs["weights apart"], runs["batched"]), rounds=args.rounds
                ),
                "apart -> combo": measure_pair(
                    (runs["weights apart"], runs["combo"]), rounds=args.rounds
                ),
                "tc -> batched": measure_pair(
                    (runs["torch.compile"], runs["batched"]), rounds=args.rounds
                ),
            }
            text = "; ".join(
                f"{name} {p.baseline_ms:.4f} -> {p.candidate_ms:.4f} ms {p.ratio:.3f}x "
                f"(spread {p.spread:.1%})"
                for name, p in pairs.items()
            )
            print(f"{label}: {text}", flush=True)
        print(
            f"{label}: rel-L2 fp64: eager {eager_err:.3e}, "
            + ", ".join(f"{side} {err:.3e}" for side, err in errs.items()),
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    print(f"{device_name()}, torch {torch.__version__}, bf16", flush=True)
    for name, cls in (
        ("WanCausalStage 540p static", WanCausalStage),
        ("VAEDecoderLike 540p static", VAEDecoderLike),
    ):
        torch.manual_seed(0)
        model = cls("540p").cuda().eval()
        ab(name, model, model.example_input(device="cuda", dtype=torch.bfloat16), args)
    torch.manual_seed(0)
    x = torch.randn(1, 256, 7, 136, 240, device="cuda", dtype=torch.bfloat16)
    ab("conv-GN-SiLU-conv C=256 T=7 136x240", GroupNormBlock(256).cuda().eval(), x, args)


if __name__ == "__main__":
    main()
