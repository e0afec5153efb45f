#!/usr/bin/env bash
# The next GPU steps after session 49 (one-GPU kind): can Cosmos's form take UpcastMatmulPass
# (3.44-3.46x torch.compile against the form's 2.59x, output as close to fp32) without a cold
# compile slower than torch.compile's? In process it compiled 2.5-2.7 s slower than the form,
# and fake CUDA shows no cause (fewer kernels, fewer autotuned configs, the same codegen time).
# `LOGS=/tmp/s50 NO_ROOM_TEST=1 setsid nohup bash docs/results/session49/next.sh STEP... &`,
# then `bash tools/gpu_poll.sh /tmp/s50 540 s50_logs.tgz` until ALL.done (about 10 minutes for
# setup coldup profup proftc zoocosup on one H200; split and zoocossplit about 7 more). The split
# has no requires_cuda test yet: write one (tests/test_upcast_matmul.py's GPU test with a
# `upcast_matmul_split` side) for the same run.
#   setup      tools/gpu_setup.sh and the GPU (NO_ROOM_TEST=1 skips tests/test_stack_room.py)
#   coldup     Cosmos cold as torch.compile, the form with the upcast, the same, torch.compile
#              (`cold_abba`: each a process of its own with empty caches); compare session 49's
#              1.030x for the form without it (docs/benchmarks.md "Session 49")
#   profup     the form with the upcast compiled cold under cProfile (prof_magi.log/.pstats)
#   proftc     torch.compile's cold compile of it under cProfile (prof_torch.compile.log/.pstats)
#   zoocosup   Cosmos's never-slower test with the upcast (MAGI_PASSES__ENABLE_UPCAST_MATMUL=1;
#              run 2 of session 49 passed it at 3.445x with the field set in the form)
#   split      Cosmos: the form with the upcast and its attention's second matmul split
#              (`magi-form-upcast-matmul-split`: the fp32 probabilities as two bf16 parts, two
#              bf16 matmuls; 12.2 of the upcast form's 36.2 ms was that matmul in fp32) against
#              torch.compile, the form with the upcast and the form, both orders, each order a
#              process of its own (the first profiled)
#   zoocossplit  Cosmos's never-slower test with the upcast and the split (both variables)
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
    split)
        COS=(python benchmarks/zoo.py --models cosmos-vae --baseline torch.compile --rounds 5
            --hbm-gbps "$HBM" --no-eager-timing)
        SPLIT=magi-form-upcast-matmul-split
        step split_a "${COS[@]}" --variants "$SPLIT,magi-form-upcast-matmul,magi" \
            --profile --profile-rounds 1 --profile-top 25
        step split_b "${COS[@]}" --variants "magi,magi-form-upcast-matmul,$SPLIT" ;;
    zoocossplit)
        step zoocossplit env "$UP" MAGI_PASSES__UPCAST_MATMUL_SPLIT=1 python -m pytest \
            -p no:cacheprovider -v -rA -m requires_cuda --magi-perf -n 0 \
            --magi-report "$LOGS/r_zoocossplit.json" tests/test_zoo_gpu.py \
            -k "test_video_vae_is_never_slower and cosmos" ;;
    upcast)
        LOGS=$LOGS UPCAST_MODELS=${UPCAST_MODELS:-svd-vae vidtok-vae allegro-vae} \
            bash docs/results/session48/next.sh upcast ;;
    *) echo "unknown step $s" >&2 ;;
    esac
done
echo done >"$LOGS/ALL.done"
