"""`ConvInputWindowPass` on and off, on the Wan 2.2 decoder's residual block with its causal cache.

The block is diffusers' own `WanResidualBlock` (norm, SiLU, cache window, causal conv, twice), run
as the decode's steady chunk runs it: `x` of `Tx` new frames and a 2-frame cache per conv, the
caches' frame dim static (`--dynamic` marks it dynamic, as automatic dynamic shapes make it in
the decode; the pass skips dynamic graphs, so the off and on sides are then the same). Sides:
torch.compile, then `MagiBackend(PassConfig(measure_decisions=False, enable_conv_input_windows=...))`
off and on, so the pass is the only difference between the last two; timed on the device side by
side (`pytest_magi.timing.measure_pair`), each side's relative L2 from an fp64 run beside eager's.
Run: `python tools/probes/conv_input_ab.py` (`--device cpu` is a small dry run).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
from torch._inductor import config as inductor_config

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402


class CachedBlock(torch.nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        from diffusers.models.autoencoders.autoencoder_kl_wan import WanResidualBlock

        self.block = WanResidualBlock(channels, channels)

    def forward(
        self, x: torch.Tensor, c1: torch.Tensor, c2: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        cache = [c1, c2]
        y = self.block(x, cache, [0])
        return y, cache[0], cache[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--device", default="cuda", help="cpu: a small dry run of the probe")
    parser.add_argument(
        "--dynamic", action="store_true", help="the caches' frame dim dynamic (the pass skips it)"
    )
    args = parser.parse_args()
    torch.manual_seed(0)
    print(f"{device_name()}, torch {torch.__version__}, bf16, dynamic={args.dynamic}", flush=True)
    shapes = [(1024, 1, 34, 60), (1024, 2, 68, 120), (512, 4, 136, 240), (256, 4, 272, 480)]
    if args.device == "cpu":
        shapes = [(16, 2, 6, 8)]
    for c, t, h, w in shapes:
        torch._dynamo.reset()
        model = CachedBlock(c).to(args.device).eval()
        x = torch.randn(1, c, t, h, w, device=args.device)
        caches = [torch.randn(1, c, 2, h, w, device=args.device) for _ in range(2)]
        # caches off: a graph served by the FX graph cache runs no pass (and `fired` would be False)
        with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
            ref = model.double()(x.double(), *(k.double() for k in caches))
            model.to(torch.bfloat16)
            inputs = [x.bfloat16(), *(k.bfloat16() for k in caches)]
            if args.dynamic:
                for k in inputs[1:]:
                    torch._dynamo.mark_dynamic(k, 2)
            eager_err = _relative_l2(model(*inputs)[0], ref[0])
            sides = [("torch.compile", torch.compile(model), None)]
            for on in (False, True):
                config = PassConfig(measure_decisions=False, enable_conv_input_windows=on)
                backend = MagiBackend(config)
                sides.append(
                    (
                        f"magi {'on' if on else 'off'}",
                        torch.compile(model, backend=backend),
                        backend,
                    )
                )
            errs, cache_errs, fired = [], [], None
            eager_out = model(*inputs)
            eager_cache = max(
                _relative_l2(e, r) for e, r in zip(eager_out[1:], ref[1:], strict=True)
            )
            for _name, fn, backend in sides:
                out = fn(*inputs)
                errs.append(_relative_l2(out[0], ref[0]))
                cache_errs.append(
                    max(_relative_l2(o, r) for o, r in zip(out[1:], ref[1:], strict=True))
                )
                if backend is not None and backend.fired("conv_input_windows"):
                    for got, want in zip(
                        out[1:], eager_out[1:], strict=True
                    ):  # eager's layout (a clone)
                        assert got.stride() == want.stride(), (got.stride(), want.stride())
                if backend is not None:
                    fired = backend.fired("conv_input_windows")
            calls = [lambda f=fn, a=inputs: f(*a) for _n, fn, _b in sides]
            tc_off = measure_pair((calls[0], calls[1]), rounds=args.rounds)
            off_on = measure_pair((calls[1], calls[2]), rounds=args.rounds)
            tc_on = measure_pair((calls[0], calls[2]), rounds=args.rounds)
        print(
            f"C={c} Tx={t} {h}x{w}: tc {tc_off.baseline_ms:.4f} ms, magi off {off_on.baseline_ms:.4f}"
            f" ms, on {off_on.candidate_ms:.4f} ms; off->on {off_on.ratio:.3f}x (spread "
            f"{off_on.spread:.1%}); tc->off {tc_off.ratio:.3f}x, tc->on {tc_on.ratio:.3f}x; rel-L2 fp64:"
            f" eager {eager_err:.3e}, tc {errs[0]:.3e}, off {errs[1]:.3e}, on {errs[2]:.3e};"
            f" caches: eager {eager_cache:.3e}, tc {cache_errs[0]:.3e}, off {cache_errs[1]:.3e},"
            f" on {cache_errs[2]:.3e}; fired={fired}",
            flush=True,
        )
        del sides, model, ref, inputs
        if args.device == "cuda":
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
