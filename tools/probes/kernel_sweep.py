"""Each Triton kernel of a compiled model, launched with each of its candidate configs: right or
wrong against the config Inductor picked, and how fast (GPU probe, issue 18).

Two questions of session 19 have this one answer:
- **correctness:** the Wan decode's graph 35 was wrong in two processes and right in a third,
  deterministic within each: a kernel whose output depends on the config the autotuner picked
  (docs/benchmarks.md, "Session 19") would do that. Here every config of every kernel runs on
  the same saved arguments, and each output is compared with the picked config's, bit for bit;
- **speed:** the memory-bound kernels under 60% of HBM (the Wan decode's cached producer,
  `_to_copy_add_cat_convolution_div_mul_silu`, 38%): would another config reach the bandwidth,
  or does the access pattern stand in the way? Each config is timed (`triton.testing.do_bench`)
  with its GB/s over the kernel's argument bytes.

How: the model is compiled by magi (decisions off) and called once with each kernel's first
launch saved (`pytest_magi.config_sweep.saved_launches`, the mechanism `locate`'s config sweep
uses). Then, per kernel, its own launcher and each candidate config's (with `--extra`, a grid of
2-D block shapes and warps beyond Inductor's list) run on fresh copies of those arguments,
compared bit for bit with the kept one's, and timed. Private Inductor APIs: a kernel they fail
on is reported, the rest go on.

Models: `wan-resblock`, diffusers' `WanResidualBlock` in the decoder's steady chunk (one new
frame, two 2-frame causal caches), at `--channels`, `--height`, `--width`.
Run: `python tools/probes/kernel_sweep.py --model wan-resblock --channels 512 --height 136
--width 240 [--pattern cat] [--extra]`.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.config_sweep import (  # noqa: E402
    _candidates,
    _differences,
    _launcher,
    _run_with,
    saved_launches,
)
from pytest_magi.launches import config_text  # noqa: E402
from pytest_magi.locating import strided_clone  # noqa: E402
from pytest_magi.timing import device_name  # noqa: E402


class ResBlockStep(torch.nn.Module):
    """A Wan 2.2 decoder residual block in its steady chunk: one frame in, two caches."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        from diffusers.models.autoencoders.autoencoder_kl_wan import WanResidualBlock

        self.block = WanResidualBlock(channels, channels)

    def forward(self, x: torch.Tensor, c1: torch.Tensor, c2: torch.Tensor) -> Any:
        cache = [c1, c2]
        out = self.block(x, cache, [0])
        return out, cache[0], cache[1]


def _extra_configs(first: Any) -> list[Any]:
    """A grid of block shapes and warps for a 1-D or 2-D pointwise kernel whose candidate
    configs start with ``first``."""
    from triton import Config

    keys = [k for k in ("YBLOCK", "XBLOCK") if k in first.kwargs]
    if not keys or any(k.startswith("R") for k in first.kwargs):
        return []
    sizes = (16, 32, 64, 128, 256) if len(keys) == 2 else (256, 512, 1024, 2048)
    out = []
    for blocks in itertools.product(sizes, repeat=len(keys)):
        if len(keys) == 2 and blocks[0] * blocks[1] > 16384:
            continue
        for warps in (2, 4, 8):
            out.append(Config(dict(zip(keys, blocks, strict=True)), num_warps=warps, num_stages=1))
    return out


def sweep(name: str, saved: Any, extra: bool) -> None:
    """Each config (Inductor's, and with ``extra`` a grid beyond them) against the kept one, bit
    for bit (``pytest_magi.config_sweep``), and timed."""
    import triton

    kernel, args, kwargs = saved.kernel, saved.args, saved.kwargs
    picked = list(kernel.launchers)
    nbytes = sum(a.numel() * a.element_size() for a in args if isinstance(a, torch.Tensor))
    kept = config_text(picked[0].config) if len(picked) == 1 else "?"
    print(f"\n{name}: {kernel.inductor_meta.get('grid_type', '')}, {nbytes / 1e6:.1f} MB of "
          f"arguments, picked {kept}")  # fmt: skip
    try:
        want = _run_with(saved, picked[0])
        configs = _candidates(kernel)
        if extra and configs:
            configs += [(c, None) for c in _extra_configs(configs[0][0])]
        seen: set[str] = set()
        rows = []
        for config, result in configs:
            text = config_text(config)
            if text in seen:
                continue
            seen.add(text)
            try:
                launcher = _launcher(kernel, config, result)
            except Exception as exc:  # noqa: BLE001 - a config that does not compile: reported
                rows.append((float("inf"), text, f"does not compile: {type(exc).__name__}"))
                continue
            count, worst = _differences(_run_with(saved, launcher), want)
            bench = strided_clone(args)
            ms = triton.testing.do_bench(lambda b=bench: kernel.run(*b, **kwargs), rep=50)
            verdict = "same" if count == 0 else f"DIFFERS: {count} elements, max {worst:.3g}"
            rows.append((ms, text, f"{ms * 1e3:8.1f} us {nbytes / ms / 1e6:7.0f} GB/s  {verdict}"))
        for _, text, line in sorted(rows):
            print(f"  {'*' if text == kept else ' '} {text:<48} {line}")
    except Exception as exc:  # noqa: BLE001 - a probe: report and go on to the next kernel
        print(f"  not swept: {type(exc).__name__}: {exc}"[:300])
    finally:
        kernel.launchers = picked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("wan-resblock",), default="wan-resblock")
    parser.add_argument("--channels", type=int, default=512)
    parser.add_argument("--height", type=int, default=136)
    parser.add_argument("--width", type=int, default=240)
    parser.add_argument("--pattern", default="", help="only kernels whose name contains this")
    parser.add_argument("--extra", action="store_true", help="a grid of configs beyond Inductor's")
    args = parser.parse_args()
    print(
        f"{device_name('cuda')}, torch {torch.__version__}, bf16, {args.model} "
        f"{args.channels} x {args.height} x {args.width}",
        flush=True,
    )
    torch.manual_seed(0)
    c, h, w = args.channels, args.height, args.width
    model = ResBlockStep(c).cuda().eval().to(torch.bfloat16)
    inputs = [torch.randn(1, c, t, h, w, device="cuda", dtype=torch.bfloat16) for t in (1, 2, 2)]
    compiled = torch.compile(model, backend=MagiBackend(PassConfig(measure_decisions=False)))
    with torch.no_grad(), saved_launches(args.pattern) as saved:
        compiled(*inputs)
    for name, launch in saved.items():
        sweep(name, launch, args.extra)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
