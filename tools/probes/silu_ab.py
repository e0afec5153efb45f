"""SiLU as Inductor writes it (`x / (1 + exp(-x))`) against `x * sigmoid(x)`, on real sizes.

Inductor decomposes `aten.silu` into `x / (1 + exp(-x))` (libdevice's precise exp, then a
division); `aten.sigmoid` lowers to `tl.sigmoid` (the hardware exp and a reciprocal). Where the
result is rounded to bf16 the two agree to far below its rounding. This probe times, with the
device-side timer and the same magi backend on both sides (decisions off), each module with
`F.silu` as it is and with `F.silu` replaced by `x * torch.sigmoid(x)` while dynamo traces it,
each side's relative L2 from an fp64 run beside eager's; it also prints what this torch's
Inductor does with silu, division and exp. Run: `python tools/probes/silu_ab.py`.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from norm_rsqrt_ab import Producer  # noqa: E402  (the Wan 2.2 decoder's conv-input producer)

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.models import VAEDecoderLike, WanCausalStage  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402
from pytest_magi.timing import device_name, measure_pair  # noqa: E402


@contextlib.contextmanager
def sigmoid_silu() -> Iterator[None]:
    """`F.silu` is `x * sigmoid(x)` within the block (dynamo traces the replacement)."""
    original = F.silu

    def silu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
        return input * torch.sigmoid(input)

    F.silu = silu
    try:
        yield
    finally:
        F.silu = original


def show_inductor(device: str) -> None:
    """The lines of the generated kernels that compute SiLU, in both spellings."""
    from torch._inductor.utils import run_and_get_code

    numerics = getattr(torch._inductor.config, "eager_numerics", None)
    print(
        "eager_numerics.division_rounding:",
        getattr(numerics, "division_rounding", "absent"),
        " use_fast_math:",
        torch._inductor.config.use_fast_math,
    )
    x = torch.randn(4096, device=device, dtype=torch.bfloat16)
    for sigmoid in (False, True):
        torch._dynamo.reset()
        with sigmoid_silu() if sigmoid else contextlib.nullcontext():
            _, codes = run_and_get_code(torch.compile(lambda t: F.silu(t.float()).to(t.dtype)), x)
        lines = [
            line.strip()
            for code in codes
            for line in code.splitlines()
            if re.search(r"exp|sigmoid|div|/", line) and "tmp" in line
        ]
        print("silu as", "x * sigmoid(x):" if sigmoid else "F.silu:", *lines, sep="\n    ")


def compiled(model: torch.nn.Module, sigmoid: bool, x: torch.Tensor) -> Callable[[], object]:
    torch._dynamo.reset()
    backend = MagiBackend(PassConfig(measure_decisions=False))
    fn = torch.compile(model, backend=backend)
    with sigmoid_silu() if sigmoid else contextlib.nullcontext():
        fn(x)  # compiles here, with the chosen silu
    return fn


def ab(label: str, model: torch.nn.Module, x: torch.Tensor, rounds: int) -> None:
    with torch.no_grad():
        ref = model.double()(x.double())
        model.to(x.dtype)
        eager_err = _relative_l2(model(x), ref)
        sides = [compiled(model, sigmoid, x) for sigmoid in (False, True)]
        errs = [_relative_l2(fn(x), ref) for fn in sides]
        sp = measure_pair(
            (lambda f=sides[0], x=x: f(x), lambda f=sides[1], x=x: f(x)), rounds=rounds
        )
    print(
        f"{label:<34} silu {sp.baseline_ms:8.4f} ms  sigmoid {sp.candidate_ms:8.4f} ms  "
        f"{sp.ratio:.3f}x (spread {sp.spread:.1%})  rel-L2 fp64: eager {eager_err:.3e} "
        f"silu {errs[0]:.3e} sigmoid {errs[1]:.3e}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--device", default="cuda", help="cpu: a small dry run of the probe")
    args = parser.parse_args()
    torch.manual_seed(0)
    print(f"{device_name()}, torch {torch.__version__}, bf16", flush=True)
    show_inductor(args.device)
    shapes = [(1024, 2, 68, 120), (512, 5, 272, 480), (256, 5, 272, 480)]
    preset = "540p"
    if args.device == "cpu":
        shapes, preset = [(16, 2, 6, 8)], "tiny"
    for c, t, h, w in shapes:
        x = torch.randn(1, c, t, h, w, device=args.device, dtype=torch.bfloat16)
        for tail in ("none", "cl", "conv"):
            model = Producer(c, tail).to(args.device).to(torch.bfloat16).eval()
            ab(f"producer C={c} T={t} {h}x{w} {tail}", model, x, args.rounds)
            del model
    for cls in (WanCausalStage, VAEDecoderLike):
        torch.manual_seed(0)
        model = cls(preset).to(args.device).to(torch.bfloat16).eval()
        x = model.example_input(device=args.device, dtype=torch.bfloat16)
        ab(f"{cls.__name__} {preset} static", model, x, args.rounds)


if __name__ == "__main__":
    main()
