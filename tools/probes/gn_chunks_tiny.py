"""The chunked GroupNorm statistics on real decoders, on the CPU (session 31).

Decodes a zoo model's tiny size in fp32 eagerly, in fp64 (the reference), and compiled by the
magi backend in the model's compile form with `PassConfig.group_norm_chunked_stats` off and on;
prints how many GroupNorms each rewrote and cut into chunks, and each output's relative L2 from
fp64 beside eager's. Run: `python tools/probes/gn_chunks_tiny.py [MODEL ...]` (HunyuanVideo and
CogVideoX by default, about a minute each on 2 cores).
"""

from __future__ import annotations

import sys

import torch
from torch._inductor import config as inductor_config

from magi_passes import MagiBackend, PassConfig, forms
from pytest_magi import zoo
from pytest_magi.numerics import _relative_l2 as rel_l2


def _counts(backend: MagiBackend, key: str) -> int:
    return sum(
        r.counts.get(key, 0)
        for manager in backend.managers
        for results in manager.history
        for r in results
        if r.name == "group_norm_stats"
    )


def main(names: list[str]) -> None:
    print(f"torch {torch.__version__}; CPU; tiny, fp32; rel-L2 from an fp64 decode")
    for name in names:
        model = zoo.load(name, "tiny", dtype=torch.float32)
        double = zoo.load(name, "tiny", dtype=torch.float64)
        module = model.as_module()
        with torch.no_grad():
            # the same weights (one seed); the fp32 inputs made fp64 (drawn in fp64 they differ)
            inputs = [t.double() if torch.is_tensor(t) else t for t in model.inputs]
            ref = double.as_module()(*inputs)
            eager = module(*model.inputs)
        form = forms.form_for(model.module)
        config = form.config({}) if form is not None else PassConfig()
        for chunked in (False, True):
            torch._dynamo.reset()
            backend = MagiBackend(config.replace(group_norm_chunked_stats=chunked))
            with torch.no_grad(), inductor_config.patch(force_disable_caches=True):
                out = torch.compile(module, backend=backend)(*model.inputs)
            print(
                f"{name} chunked={chunked}: GroupNorms rewritten "
                f"{_counts(backend, 'group_norms_rewritten')}, chunked "
                f"{_counts(backend, 'group_norms_chunked')}; rel-L2 {rel_l2(out, ref):.3e} "
                f"(eager {rel_l2(eager, ref):.3e})",
                flush=True,
            )


if __name__ == "__main__":
    main(sys.argv[1:] or ["hunyuanvideo-vae", "cogvideox-vae"])
