#!/usr/bin/env bash
# The next GPU steps after session 49 (one-GPU kind): can Cosmos's form take UpcastMatmulPass
# (3.44-3.46x torch.compile against the form's 2.59x, output as close to fp32) without a cold
# compile slower than torch.compile's? In process it compiled 2.5-2.7 s slower than the form,
# and fake CUDA shows no cause (fewer kernels, fewer autotuned configs, the same codegen time).
# `LOGS=/tmp/s50 NO_ROOM_TEST=1 setsid nohup bash docs/results/session49/next.sh STEP... &`,
# then `bash tools/gpu_poll.sh /tmp/s50 540 s50_logs.tgz` until ALL.done (about 10 minutes for
# setup coldup profup proftc zoocosup on one H200).
#   setup      tools/gpu_setup.sh and the GPU (NO_ROOM_TEST=1 skips tests/test_stack_room.py)
#   coldup     Cosmos cold as torch.compile, the form with the upcast, the same, torch.compile
#              (`cold_abba`: each a process of its own with empty caches); compare session 49's
#              1.030x for the form without it (docs/benchmarks.md "Session 49")
#   profup     the form with the upcast compiled cold under cProfile (prof_magi.log/.pstats)
#   proftc     torch.compile's cold compile of it under cProfile (prof_torch.compile.log/.pstats)
#   zoocosup   Cosmos's never-slower test with the upcast (MAGI_PASSES__ENABLE_UPCAST_MATMUL=1;
#              run 2 of session 49 passed it at 3.445x with the field set in the form)
#   upcast     SVD, VidTok and Allegro (or UPCAST_MODELS) against torch.compile and their forms
#              with the upcast, both orders (session 48's step; fake CUDA counts 1, 1 and 15
#              rewrites, an upper bound: on an H200 MiniMax-H3's 36 were 0); last, as it ends
#              in that script's own end marker
set -u
LOGS=${LOGS:-/tmp/s50}
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
UP=MAGI_PASSES__ENABLE_UPCAST_MATMUL=1
for s in "$@"; do
    case $s in
    setup) setup_room_step ;;
    coldup) cold_abba cosmos-vae torch.compile magi-form-upcast-matmul ;;
    profup) profile_step cosmos-vae magi "$UP" ;;
    proftc) profile_step cosmos-vae torch.compile ;;
    zoocosup)
        step zoocosup env "$UP" python -m pytest -p no:cacheprovider -v -rA -m requires_cuda \
            --magi-perf -n 0 --magi-report "$LOGS/r_zoocosup.json" tests/test_zoo_gpu.py \
            -k "test_video_vae_is_never_slower and cosmos" ;;
    upcast)
        LOGS=$LOGS UPCAST_MODELS=${UPCAST_MODELS:-svd-vae vidtok-vae allegro-vae} \
            bash docs/results/session48/next.sh upcast ;;
    *) echo "unknown step $s" >&2 ;;
    esac
done
echo done >"$LOGS/ALL.done"
