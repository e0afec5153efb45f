#!/usr/bin/env bash
# Session 35's GPU steps (issue 18), for the 1-GPU kind. `bash docs/results/session35/next.sh
# STEP...` in the background (setsid), logs in /tmp/s35, `bash tools/gpu_poll.sh /tmp/s35 540
# s35_logs.tgz` to wait.
#   setup     wheels, this checkout, versions, the GPU
#   snap211   the torch 2.11 snapshots of the static tiny VAE decoder under magi, made again after
#             session 34 erased the GroupNorm rewrite's unused nodes (snap211.tgz)
#   suite     the GPU suites after session 34's code, one process (`-n 0`: one GPU)
#   prof      HunyuanVideo's cold compile under cProfile, torch.compile and the form, each in a
#             process with empty caches (tools/probes/gpu_compile_profile.py); the whole
#             profiles kept (prof_*.pstats; the first run of this step had no --stats)
#   cold3     HunyuanVideo cold, each compile alone with empty caches, alternating sides: the form,
#             torch.compile, the form without the GroupNorm statistics rewrite, without ND tiling,
#             then the form and torch.compile again
#   hvab2     HunyuanVideo's runtime: the form against those two variants and torch.compile
#   coldnew   the five decoders whose decisions session 34 recorded for H100s, torch.compile and
#             magi, each compile alone with empty caches
#   mochi     mochi cold, magi then torch.compile
set -u
LOGS=/tmp/s35
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
HV=hunyuanvideo-vae
DEC=MAGI_PASSES__DECIDED_ON=H100,H200
hv_cold() { step "hv_${1}_$2" cold_model $HV "hv_${1}_$2" "$1" $DEC; }
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    snap211)
        step snap211 python -m pytest -p no:cacheprovider -n 0 -q tests/test_snapshot_suite.py \
            -k "vae_decoder_tiny and static-magi" --snapshot-update
        tar czf "$LOGS/snap211.tgz" tests/__snapshots__/torch-2.11/test_snapshot_suite ;;
    suite) suite_one_gpu_step suite ;;
    prof)
        profile_step $HV torch.compile $DEC
        profile_step $HV magi $DEC ;;
    cold3)
        hv_cold magi 1
        hv_cold torch.compile 1
        hv_cold magi-form-no-gn-stats 1
        hv_cold magi-form-no-nd-tiling 1
        hv_cold torch.compile 2
        hv_cold magi 2 ;;
    hvab2)
        step hvab2 env $DEC python benchmarks/zoo.py --models $HV --baseline magi \
            --variants magi,magi-form-no-gn-stats,magi-form-no-nd-tiling,torch.compile \
            --rounds 5 --hbm-gbps $HBM --json "$LOGS/hvab2.json" ;;
    coldnew) cold_pairs svd-vae allegro-vae easyanimate-vae vidtok-vae ltx2-video-vae ;;
    mochi)
        step mochi_magi cold_model mochi-vae mochi_magi magi
        step mochi_torch.compile cold_model mochi-vae mochi_torch.compile torch.compile ;;
    esac
done
echo done >"$LOGS/ALL.done"
