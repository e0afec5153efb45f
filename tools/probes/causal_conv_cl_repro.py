"""Session 19's wrong Wan decode, graph 35 (a causal conv with 1024 output channels at 34 x 60,
1 frame out), rebuilt alone: diffusers' WanCausalConv3d called as the decoder calls its conv_in
(1-frame slices of latents of 3, 3, then 21 frames, with the decoder's cache), compiled by magi
with the conv pad fold off and decisions off, each latent's worst relative L2 from eager's; then
the same with `triton.max_tiles=1`, with the fold on, and for a 1024-channel input.
Run: `TORCH_LOGS=output_code python tools/probes/causal_conv_cl_repro.py 2> code.log`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch
from diffusers.models.autoencoders.autoencoder_kl_wan import WanCausalConv3d

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from magi_passes import MagiBackend, PassConfig  # noqa: E402
from pytest_magi.numerics import _relative_l2  # noqa: E402


def decode_like(conv: torch.nn.Module, compiled, latents) -> list[str]:
    """Call ``conv`` chunk by chunk over each latent as the Wan decoder calls its conv_in (a
    1-frame slice of the latent, the cache of the last frames), compiled and eager; the
    worst relative L2 of each latent's calls."""
    worst = []
    for z in latents:
        cache = None
        dists = []
        for i in range(z.shape[2]):
            x = z[:, :, i : i + 1]
            got, want = compiled(x, cache), conv(x, cache)
            dists.append(_relative_l2(got, want))
            new = x[:, :, -2:].clone()
            if new.shape[2] < 2 and cache is not None:
                new = torch.cat([cache[:, :, -1:], new], 2)
            cache = new
        worst.append(f"T={z.shape[2]}: {max(dists):.3g} (call {dists.index(max(dists)) + 1})")
    return worst


def run(label: str, c_in: int, fold: bool, patches: dict) -> None:
    torch.manual_seed(0)
    conv = WanCausalConv3d(c_in, 1024, 3, padding=1).cuda().to(torch.bfloat16).eval()
    backend = MagiBackend(PassConfig(measure_decisions=False, enable_conv_pad_fold=fold), patches)
    torch._dynamo.reset()
    compiled = torch.compile(conv, backend=backend)
    latents = [
        torch.randn(1, c_in, t, 34, 60, device="cuda", dtype=torch.bfloat16) for t in (3, 3, 21)
    ]
    with torch.no_grad():
        worst = decode_like(conv, compiled, latents)
    print(f"{label}: C_in={c_in} fold={fold} {patches}: {worst}", flush=True)


if __name__ == "__main__":
    print(torch.__version__, torch.cuda.get_device_name())
    run("conv_in", 48, False, {})
    run("conv_in max_tiles=1", 48, False, {"triton.max_tiles": 1})
    run("conv_in fold on", 48, True, {})
    run("1024 in", 1024, False, {})
