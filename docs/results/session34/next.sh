#!/usr/bin/env bash
# Session 34's GPU steps (issue 18), written for the 1-GPU kind: a machine of one chip counts half
# its held time against the session's device time, and each compile then has the host's 16 cores
# to itself (session 32's cold compiles shared the host with an unrelated one; session 33's
# `cold_both` needs two GPUs). `bash docs/results/session34/next.sh STEP...` in the background
# (setsid), logs in /tmp/s34, `bash tools/gpu_poll.sh /tmp/s34 540 s34_logs.tgz` to wait.
#   setup     wheels, this checkout, versions, the GPU
#   cold1     the compile-time target's open cases, each compile alone in a fresh process with
#             empty caches, one after another: HunyuanVideo torch.compile, the form, the form
#             with the chunked statistics (chunk reduction one fixed config, session 33), the form
#             with pointwise autotuning off; mochi torch.compile and the form (decided plain)
#   cold2     HunyuanVideo's and mochi's torch.compile and form again, the other way round
#             (magi first), for the second machine (the levers lost at runtime in `hvab`)
#   prof      HunyuanVideo's cold compile under cProfile, torch.compile and the form, each in a
#             process with empty caches (tools/probes/gpu_compile_profile.py): where the
#             form's extra fusion and codegen time goes
#   snap211   (for the next session) the torch 2.11 snapshots the GroupNorm change of session 34
#             touches, updated (snap211.tgz)
#   coldnew   (for the next session) the five decoders whose decisions session 34 recorded for
#             H100s, torch.compile and magi, each compile alone with empty caches
#   hvab2     (for the next session) HunyuanVideo's runtime: the form against the form without
#             the GroupNorm statistics rewrite and without ND tiling, and torch.compile
#   cold3     (for the next session) HunyuanVideo cold: those two, the form, torch.compile
#   hvab      HunyuanVideo's runtime: the form against the two levers and torch.compile, one
#             process (rounds 5); a lever joins the form only if it is no slower
#   suite     the GPU suites after sessions 32-34's code, in one process (`-n 0`: one GPU, two
#             workers would time their pairs on a shared card; `-p no:xdist` would leave the
#             `xdist_group` marker unregistered, which the GPU machine's pytest refuses)
#   zootests  the never-slower tests of the decoders without a recorded decision (svd,
#             easyanimate, vidtok, minimax-h3, ltx2-video, allegro), in one process; its report
#             (r_zootests.json) holds each graph's measured decision
set -u
LOGS=/tmp/s34
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
HV=hunyuanvideo-vae
DEC=MAGI_PASSES__DECIDED_ON=H100,H200
hv_cold() { step "hv_${1}_$2" cold_model $HV "hv_${1}_$2" "$1" $DEC; }
mochi_cold() { step "mochi_${1}_$2" cold_model mochi-vae "mochi_${1}_$2" "$1"; }
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    cold1)
        hv_cold torch.compile 1
        hv_cold magi 1
        mochi_cold torch.compile 1
        mochi_cold magi 1
        hv_cold magi-form-gn-chunks 1
        hv_cold magi-form-no-pw-autotune 1 ;;
    cold2)
        mochi_cold magi 2
        mochi_cold torch.compile 2
        hv_cold magi 2
        hv_cold torch.compile 2 ;;
    prof)
        for v in torch.compile magi; do
            rm -rf "$LOGS/cache_prof_$v" && mkdir -p "$LOGS/cache_prof_$v"
            step "prof_$v" env TORCHINDUCTOR_CACHE_DIR="$LOGS/cache_prof_$v" \
                TRITON_CACHE_DIR="$LOGS/cache_prof_$v/triton" $DEC \
                python tools/probes/gpu_compile_profile.py $HV "$v" --lines 70
        done ;;
    snap211)
        # session 34 erased the GroupNorm rewrite's unused nodes after its last GPU run: the
        # torch 2.11 snapshots of the static tiny VAE decoder under magi lose those nodes (FX)
        # and renumber their buffers (Triton); made again here, where torch 2.11 is
        step snap211 python -m pytest -p no:cacheprovider -n 0 -q tests/test_snapshot_suite.py \
            -k "vae_decoder_tiny and static-magi" --snapshot-update
        tar czf "$LOGS/snap211.tgz" tests/__snapshots__/torch-2.11/test_snapshot_suite ;;
    coldnew) cold_pairs svd-vae allegro-vae easyanimate-vae vidtok-vae ltx2-video-vae ;;
    hvab2)
        step hvab2 env $DEC python benchmarks/zoo.py --models $HV --baseline magi \
            --variants magi,magi-form-no-gn-stats,magi-form-no-nd-tiling,torch.compile \
            --rounds 5 --hbm-gbps $HBM --json "$LOGS/hvab2.json" ;;
    cold3)
        hv_cold magi-form-no-gn-stats 3
        hv_cold magi-form-no-nd-tiling 3
        hv_cold magi 3
        hv_cold torch.compile 3 ;;
    hvab)
        step hvab env $DEC python benchmarks/zoo.py --models $HV --baseline magi \
            --variants magi,magi-form-gn-chunks,magi-form-no-pw-autotune,torch.compile \
            --rounds 5 --hbm-gbps $HBM --json "$LOGS/hvab.json" ;;
    suite) suite_one_gpu_step suite ;;
    zootests)
        step zootests python -m pytest -p no:cacheprovider -n 0 -v -rA -m requires_cuda \
            --magi-perf --magi-report "$LOGS/r_zootests.json" tests/test_zoo_gpu.py \
            -k "video_vae_is_never_slower and (svd or easyanimate or vidtok or minimax or ltx2 \
or allegro)" ;;
    esac
done
echo done >"$LOGS/ALL.done"
