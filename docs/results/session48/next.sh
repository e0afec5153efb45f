#!/usr/bin/env bash
# Session 48's GPU steps (issue 18: Cosmos never slower), for the one-GPU kind, in one call.
# `bash docs/results/session48/next.sh STEP...` in the background (setsid), logs in /tmp/s48,
# `bash tools/gpu_poll.sh /tmp/s48 540 s48_logs.tgz` to wait. Every step times on the one GPU,
# one process at a time.
#   setup      tools/gpu_setup.sh and the GPU (NO_ROOM_TEST=1 skips tests/test_stack_room.py)
#   zoocos     Cosmos's never-slower test (tests/test_zoo_gpu.py) in its form as shipped (run
#              1: plain Inductor on H200s, session 47's gate; run 2: the interleave; the final
#              tree: the interleave with the weights in place, timed by `coldcl` in zoo.py, its
#              test not yet run: `setup zoocos upcast coldcos` on the next machine, H100 or H200)
#   zoocosi    the same test on a copy of the tree with cosmos_interleave_form.patch applied:
#              the form with DeconvInterleavePass on and its decision recorded as kept magi on
#              H100s and H200s (the inverse Haar wavelet's 28 transposed convolutions as fused
#              products, no cuDNN call)
#   cosint     Cosmos with the interleave (`magi-form-deconv-interleave`) against
#              torch.compile, `magi-form-passes` (the passes, no interleave) and the form as
#              shipped, in both orders, each order a process of its own (the first profiled)
#   cosmodes   Cosmos's two speeds (94 or 122 ms for one graph by what ran before it in the
#              process, session 47's run 2): torch.compile, `magi-form-passes`, then
#              `magi-form-passes-cl-params`, profiled, with cuDNN's warnings logged
#              (CUDNN_LOGLEVEL_DBG=2: engines that failed to build or to get their workspace)
#   suite      every requires_cuda test in one process (`-n 0`) on the final tree
#   coldcos    Cosmos compiled cold as torch.compile, magi, magi, torch.compile (`cold_abba`:
#              each a process of its own with empty caches), magi in its form as shipped
#   coldcl     Cosmos's form with its conv weights channels-last in place too
#              (`magi-form-cl-params`: fake CUDA, 59 Triton kernels and 242 launches against the
#              form's 61 and 260 and Inductor's 63 and 304) compiled cold, then torch.compile
#              and the form timed against it in that process; torch.compile cold; it cold again
#   upcast     (not yet run) Cosmos, MiniMax-H3, SVD, VidTok and Allegro (or UPCAST_MODELS)
#              with UpcastMatmulPass (`magi-form-upcast-matmul`: their math attention's first
#              matmul, q k^T, on the bf16 operands with an fp32 output, instead of an fp32
#              cuBLAS kernel: 2, 36, 1, 1 and 15 such matmuls in fake CUDA) against
#              torch.compile and their forms, in both orders, each order a process of its own
#              (the first profiled)
# Run 1 (run1/): `NO_ROOM_TEST=1 ... next.sh setup zoocos zoocosi cosint cosmodes suite` on the
# tree of 5273f2c; run 2 (run2/): `setup zoocos coldcos` on c064b4a (the form with the
# interleave), LOGS=/tmp/s48b; run 3 (run3/): `coldcl` on 49992e0 with LOGS=/tmp/s48c,
# tools/gpu_setup.sh run beside its first step. Each on a one-H200 machine of its own.
set -u
LOGS=${LOGS:-/tmp/s48}
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
HERE=$PWD
zoo_cosmos() {
    local name=$1
    shift
    step "$name" "$@" python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
        -n 0 --magi-report "$LOGS/r_$name.json" tests/test_zoo_gpu.py \
        -k "test_video_vae_is_never_slower and cosmos"
}
COS=(python benchmarks/zoo.py --models cosmos-vae --baseline torch.compile --rounds 5
    --hbm-gbps "$HBM" --no-eager-timing)
for s in "$@"; do
    case $s in
    setup) setup_room_step ;;
    suite) suite_one_gpu_step suite ;;
    coldcos) cold_abba cosmos-vae torch.compile magi ;;
    upcast)
        for m in ${UPCAST_MODELS:-cosmos-vae minimax-h3-vae svd-vae vidtok-vae allegro-vae}; do
            up=(python benchmarks/zoo.py --models "$m" --baseline torch.compile --rounds 5
                --hbm-gbps "$HBM" --no-eager-timing)
            step "upcast_${m%-vae}_a" "${up[@]}" --variants magi-form-upcast-matmul,magi \
                --profile --profile-rounds 1 --profile-top 25
            step "upcast_${m%-vae}_b" "${up[@]}" --variants magi,magi-form-upcast-matmul
        done ;;
    coldcl)
        step cos_cl_1 cold_model cosmos-vae cos_cl_1 magi-form-cl-params,torch.compile,magi
        step cos_tc cold_model cosmos-vae cos_tc torch.compile
        step cos_cl_2 cold_model cosmos-vae cos_cl_2 magi-form-cl-params ;;
    zoocos) zoo_cosmos zoocos ;;
    zoocosi)
        rm -rf /tmp/alt && mkdir -p /tmp/alt
        tar cf - --exclude=./.git --exclude='*inductor_cache*' . | tar xf - -C /tmp/alt
        cd /tmp/alt || exit 1
        git apply docs/results/session48/cosmos_interleave_form.patch ||
            patch -p1 <docs/results/session48/cosmos_interleave_form.patch
        PYTHONPATH=/tmp/alt python -c 'import magi_passes.forms as f; print(f.__file__)' \
            >"$LOGS/zoocosi_which.log" 2>&1
        zoo_cosmos zoocosi env PYTHONPATH=/tmp/alt
        cd "$HERE" || exit 1 ;;
    cosint)
        step cosint_a "${COS[@]}" --variants magi-form-deconv-interleave,magi-form-passes,magi \
            --profile --profile-rounds 1 --profile-top 25
        step cosint_b "${COS[@]}" --variants magi,magi-form-passes,magi-form-deconv-interleave ;;
    cosmodes)
        step cosmodes env CUDNN_LOGLEVEL_DBG=2 CUDNN_LOGDEST_DBG="$LOGS/cudnn.log" "${COS[@]}" \
            --variants magi-form-passes,magi-form-passes-cl-params --profile --profile-rounds 1 \
            --profile-top 25
        # the log's first megabyte travels back (the poll tars every *.log)
        if [ -f "$LOGS/cudnn.log" ]; then
            head -c 1000000 "$LOGS/cudnn.log" >"$LOGS/cudnn.head"
            mv "$LOGS/cudnn.head" "$LOGS/cudnn.log"
        fi ;;
    *) echo "unknown step $s" >&2 ;;
    esac
done
echo done >"$LOGS/ALL.done"
