#!/usr/bin/env bash
# Session 27's second GPU batch (a fresh machine after the first went back), run like run.sh
# beside it: `setsid nohup bash docs/results/session27/run2.sh STEP... &`, logs in /tmp/s27b,
# polled with `bash docs/results/session27/poll.sh SECONDS /tmp/s27b`.
# What it measures: the cold compile of the compile forms with their decisions recorded
# (`PassConfig.decided_on`: graphs on a named device compile once, by the static rules), beside
# torch.compile's cold compile, on the Wan decode and on the five video VAEs whose cold compile
# missed torch.compile's in session 22 (measured decisions compile each graph twice).
# Ran: `setup targets27 wancold vae_cogvideox-vae vae_ltx-video-vae formprof
# vae_hunyuanvideo-vae vae_cosmos-vae vae_mochi-vae`; mochi was cut off when the machine went
# back (30 minutes held). Next session: `setup` then, with run.sh's steps, the GPU tests of the
# shipped form (`pytest tests/test_zoo_gpu.py -k "static_form or wan_decode_holds"`),
# `vae_mochi-vae` and the other zoo models' cold compiles.
set -u
LOGS=/tmp/s27b
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh  # step NAME CMD..., setup_step, cold, cold_model, HBM
DECIDED=MAGI_PASSES__DECIDED_ON=H100,H200
for s in "$@"; do
    case $s in
    setup)
        setup_step ;;
    targets27)  # issue 18's targets for the Wan form with its levers (channels-last weights,
        # pads through the cache concat), decisions measured (decided_on emptied: how many of
        # its graphs keep plain), beside torch.compile (compiled first: cold on a fresh machine)
        # and torch.compile with frames isolated, T=3 and T=21
        step targets27 env MAGI_PASSES__DECIDED_ON= python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --variants torch.compile+frames,magi --rounds 3 --hbm-gbps $HBM ;;
    wancold)  # the Wan form as shipped (its decisions recorded for H100s), cold, T=3
        step cold_wan_decided cold magi wandec ;;
    vae_*)  # vae_<zoo name>: torch.compile cold, then magi as shipped (decisions measured: how
        # many keep plain, the ratio, the compile) in one process; then magi with its decisions
        # recorded, cold, alone
        m=${s#vae_}
        step "${m}_measured" cold_model "$m" "${m}_m" torch.compile,magi
        step "${m}_decided" cold_model "$m" "${m}_d" magi "$DECIDED" ;;
    formprof)  # the form (magi_compile's Wan default) profiled per further frame
        step formprof python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline magi --variants magi --rounds 3 --profile --profile-rounds 1 \
            --profile-top 20 --hbm-gbps $HBM ;;
    esac
done
echo done >"$LOGS/ALL.done"
