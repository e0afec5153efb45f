#!/usr/bin/env bash
# Session 47's GPU steps (issue 18): the checks its closing needs on the final tree, in one call.
# `bash docs/results/session47/next.sh STEP...` in the background (setsid), logs in /tmp/s47,
# `bash tools/gpu_poll.sh /tmp/s47 540 s47_logs.tgz` to wait.
#   setup      tools/gpu_setup.sh, the GPUs, and tests/test_stack_room.py on this Python
#              (NO_ROOM_TEST=1 skips the test: 9 passed on the GPU hosts' Python, session 45)
#   suite      the GPU suites (every requires_cuda test, the Wan decode's gain included)
#   targets    issue 18's targets on the Wan decode in its form, against torch.compile, with
#              torch.compile with frames isolated beside it (T=3 and T=21, the slope a further
#              latent frame, every output against fp32, profiled): measured on H100s only so far
#              (60.79 ms a further frame, session 30; T=21 1.904x and 1.386x, session 27)
#   zoovae     tests/test_zoo_gpu.py's never-slower tests of every video VAE but Wan's
#              (--magi-perf, one xdist worker per GPU), each decoder in its form as shipped
#   lanes4     (four-GPU kind) all three at once: GPUs 0 and 1 run `suite`, then a part of
#              `zoovae`; GPU 2 runs `targets`, then a part; GPU 3 runs a part from the start.
#              The parts are split by the tests' earlier durations (sessions 34 and 46), so that
#              the lanes end together. Each lane times on GPUs of its own; compiles share the host.
#   cosmodes   (two GPUs) Cosmos's two speeds (94 or 122 ms for one graph, by what ran before it
#              in the process, run 2), its form's passes on (`magi-form-passes`: as it was before
#              its H200 decision became plain): on GPU 0 torch.compile, that form, then that form
#              with its weights in place (`magi-form-passes-cl-params`, session 45's form),
#              profiled (the fast and the slow one in one process: which kernels differ); on GPU
#              1 the other order, with cuDNN's warnings logged (CUDNN_LOGLEVEL_DBG=2: engines
#              that failed to build or to get their workspace)
#   cosint     (two GPUs) Cosmos with DeconvInterleavePass (`magi-form-deconv-interleave`: the
#              inverse Haar wavelet's 28 transposed convolutions as fused products, no cuDNN
#              call) against torch.compile, `magi-form-passes` and the form as shipped (plain on
#              H200s), both orders, one per GPU, profiled on GPU 0; then Cosmos's never-slower
#              test (the form as shipped) on GPU 0
# The first machine ran `setup lanes4` on the tree of 36fe47f (run1/); run 2 (run2/, x2) the
# Cosmos orders by hand (`zoo.py --models cosmos-vae --baseline torch.compile --rounds 5
# --no-eager-timing --variants magi-form-no-cl-params,magi` on GPU 0 and `magi,...` with
# `--profile` on GPU 1); run 3 (run3/, x4) the never-slower test of Cosmos with its form
# without the weights in place (forms.py edited, not committed) beside cold compiles of
# torch.compile, that form and `magi-form-cl-params`. For the next machine: `NO_ROOM_TEST=1
# ... next.sh setup cosmodes cosint` (x2, about 10 minutes).
set -u
LOGS=/tmp/s47
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
# zoovae as NAME on the visible GPUs with xdist's arguments, the decoders selected by -k EXPR
zoo_part() {
    local name=$1 expr=$2
    shift 2
    step "$name" python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf "$@" \
        --magi-report "$LOGS/r_$name.json" tests/test_zoo_gpu.py \
        -k "test_video_vae_is_never_slower and ($expr)"
}
targets() {
    step targets python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
        --baseline torch.compile --variants torch.compile+frames,magi --rounds 3 --profile \
        --profile-rounds 1 --profile-top 20 --hbm-gbps "$HBM" --json "$LOGS/targets.json"
}
# Cosmos timed against torch.compile in two processes at once: the variants VA on GPU 0 in that
# order (profiled), VB on GPU 1 (B_ENV: ENV=VALUE words for that process), as TAG_a and TAG_b
cosmos_orders() {
    local tag=$1 va=$2 vb=$3
    local cos=(python benchmarks/zoo.py --models cosmos-vae --baseline torch.compile --rounds 5
        --hbm-gbps "$HBM" --no-eager-timing)
    CUDA_VISIBLE_DEVICES=0 step "${tag}_a" "${cos[@]}" --variants "$va" --profile \
        --profile-rounds 1 --profile-top 25 &
    # shellcheck disable=SC2086  # B_ENV's words, split on purpose
    CUDA_VISIBLE_DEVICES=1 step "${tag}_b" env ${B_ENV:-} "${cos[@]}" --variants "$vb" &
    wait
}
for s in "$@"; do
    case $s in
    setup) setup_room_step ;;
    suite) suite_step suite ;;
    targets) targets ;;
    zoovae) zoo_part zoovae "not wan2" -n 2 ;;
    lanes4)
        (export CUDA_VISIBLE_DEVICES=0,1
            suite_step suite
            zoo_part zoo_a "hunyuanvideo1 or mochi or cosmos or kvae or kandinsky or easyanimate or svd" -n 2) &
        (export CUDA_VISIBLE_DEVICES=2
            targets
            zoo_part zoo_b "minimax or vidtok or ltx2" -n 0) &
        (export CUDA_VISIBLE_DEVICES=3
            zoo_part zoo_c "allegro or cogvideox or hunyuanvideo-vae or ltx-video-vae" -n 0) &
        wait ;;
    cosmodes)
        B_ENV="CUDNN_LOGLEVEL_DBG=2 CUDNN_LOGDEST_DBG=$LOGS/cudnn_b.log" cosmos_orders cosmodes \
            magi-form-passes,magi-form-passes-cl-params magi-form-passes-cl-params,magi-form-passes
        # the log's first megabyte travels back (the poll tars every *.log)
        if [ -f "$LOGS/cudnn_b.log" ]; then
            head -c 1000000 "$LOGS/cudnn_b.log" >"$LOGS/cudnn_b.head"
            mv "$LOGS/cudnn_b.head" "$LOGS/cudnn_b.log"
        fi ;;
    cosint)
        cosmos_orders cosint magi-form-deconv-interleave,magi-form-passes,magi \
            magi,magi-form-passes,magi-form-deconv-interleave
        CUDA_VISIBLE_DEVICES=0 zoo_part zoocos "cosmos" -n 0 ;;
    *) echo "unknown step $s" >&2 ;;
    esac
done
echo done >"$LOGS/ALL.done"
