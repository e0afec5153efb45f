"""The channels-last conversion of the Wan 2.2 decoder's conv weights, in the forms a pass can emit.

A static magi graph converts its conv weights (graph inputs) to channels-last every call; on the
Wan 2.2 decode that is 1.11 GB of bf16 weights read and written per chunk call. The forms, each a
function of the decoder's real weight shapes compiled by plain `torch.compile` (the same ATen ops
`batch_weight_clones` emits, so the same Inductor lowering):

- `flat`: per batch of up to 8 weights of one dtype, each `permute`d to `(O, *k, I)`, flattened
  and concatenated (`batch_weight_clones` before session 19);
- `rows`: per batch of up to 8 weights of one dtype and one I, each as `(O * prod(k), I)` rows,
  concatenated (session 19);
- `clones`: one `clone(memory_format=channels_last[_3d])` per weight (no batching);
- `copy`: the same bytes copied without a transpose (the bandwidth a transpose can aim at).

Each pair is timed side by side (`measure_pair`, device time, L2 flushed), with each side's
achieved GB/s (bytes read plus written over its time). Each form's compiled output is checked
equal to eager's, element by element in memory order, before timing.
Run: `python tools/probes/weight_batch_ab.py`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pytest_magi.timing import device_name, measure_pair  # noqa: E402

# (shape, count): the conv weights of diffusers' AutoencoderKLWan decoder, Wan 2.2 TI2V-5B config
WAN22_DECODER = [
    ((1024, 1024, 3, 3, 3), 16),
    ((512, 512, 3, 3, 3), 5),
    ((256, 256, 3, 3, 3), 5),
    ((1024, 1024, 3, 3), 2),
    ((2048, 1024, 3, 1, 1), 2),
    ((1024, 48, 3, 3, 3), 1),
    ((3072, 1024, 1, 1), 1),
    ((1024, 1024, 1, 1), 1),
    ((512, 1024, 3, 3, 3), 1),
    ((512, 1024, 1, 1, 1), 1),
    ((512, 512, 3, 3), 1),
    ((256, 512, 3, 3, 3), 1),
    ((256, 512, 1, 1, 1), 1),
    ((12, 256, 3, 3, 3), 1),
]
BATCH = 8


def _order(w: torch.Tensor) -> list[int]:
    return [0, *range(2, w.dim()), 1]


def _batches(ws: Sequence[torch.Tensor], by_channels: bool) -> list[list[torch.Tensor]]:
    groups: dict[tuple[object, ...], list[torch.Tensor]] = {}
    for w in ws:
        groups.setdefault((w.dtype, w.shape[1]) if by_channels else (w.dtype,), []).append(w)
    return [g[i : i + BATCH] for g in groups.values() for i in range(0, len(g), BATCH)]


def flat(ws: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    return [torch.cat([w.permute(_order(w)).reshape(-1) for w in b]) for b in _batches(ws, False)]


def rows(ws: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    return [
        torch.cat([w.permute(_order(w)).reshape(-1, w.shape[1]) for w in b])
        for b in _batches(ws, True)
    ]


def clones(ws: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    fmt = {4: torch.channels_last, 5: torch.channels_last_3d}
    return [w.clone(memory_format=fmt[w.dim()]) for w in ws]


def copy(ws: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    return [torch.cat([w.reshape(-1) for w in b]) for b in _batches(ws, False)]


def _memory(out: list[torch.Tensor]) -> torch.Tensor:
    """The elements of ``out`` in memory order."""
    return torch.cat(
        [t.permute(_order(t)).reshape(-1) if t.dim() > 2 else t.reshape(-1) for t in out]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    ws = [
        torch.randn(shape, device="cuda", dtype=torch.bfloat16)
        for shape, count in WAN22_DECODER
        for _ in range(count)
    ]
    nbytes = 2 * sum(w.numel() * w.element_size() for w in ws)  # read + written
    forms: dict[str, Callable[..., list[torch.Tensor]]] = {
        "flat": torch.compile(flat),
        "rows": torch.compile(rows),
        "clones": torch.compile(clones),
        "copy": torch.compile(copy),
    }
    for name, fn in [("flat", flat), ("rows", rows), ("clones", clones)]:
        got, want = _memory(forms[name](ws)), _memory(fn(ws))
        assert torch.equal(got, want), f"{name}: compiled values differ from eager's"
    print(
        f"device: {device_name('cuda')}, torch {torch.__version__}, {len(ws)} weights, "
        f"{nbytes / 2 / 1e6:.1f} MB bf16, {nbytes / 1e6:.1f} MB moved a conversion"
    )
    print("| baseline | candidate | baseline ms (GB/s) | candidate ms (GB/s) | speedup | spread |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for base, cand in [("flat", "rows"), ("clones", "rows"), ("rows", "copy")]:
        s = measure_pair(
            (lambda f=forms[base]: f(ws), lambda f=forms[cand]: f(ws)),
            rounds=args.rounds,
            device="cuda",
        )
        b_ms, c_ms = s.baseline_ms, s.candidate_ms
        print(
            f"| {base} | {cand} | {b_ms:.3f} ({nbytes / b_ms / 1e6:.0f}) | "
            f"{c_ms:.3f} ({nbytes / c_ms / 1e6:.0f}) | {s.ratio:.3f}x | {s.spread:.1%} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
