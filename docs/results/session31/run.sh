#!/usr/bin/env bash
# Session 31's GPU steps (issue 18), run in the background (setsid) so that they can outlast one
# 10-minute call: `bash docs/results/session31/run.sh STEP...`, each step's log in
# /tmp/s31/<step>.log and its exit status in /tmp/s31/<step>.rc;
# `bash docs/results/session31/poll.sh SECONDS` waits. Written for the 2-GPU kind.
#   setup     wheels, this checkout, versions, each GPU's name, clock and power cap
#   tests31   the GPU suites (perf pairs, examples, config sweep, workarounds, channels-last, norm
#             inputs, bounds, the Wan zoo tests) after session 30's changes, `--magi-perf -n 2
#             --dist loadgroup`: one xdist worker per GPU, the Wan-form tests on one worker
#   coldzoo   the zoo models without a compile form, each compiled cold in processes of its own
#             (empty Inductor, Triton and decision caches), two lanes at once, one per GPU:
#             torch.compile alone (its cold compile), then magi with its decisions taken as
#             recorded (MAGI_PASSES__DECIDED_ON=H100,H200: one compile by the static rules) compiled
#             first and torch.compile timed beside it (the ratio and both sides' distance from
#             an fp32 decode). The evidence a recorded-decision form needs, and the cold compile
#             it would give.
# The call got 2 x H200 (asked for nvidia-h100-x2): `setup tests31 coldzoo` started with the
# decisions taken as recorded for H100 only, so the first script was stopped (its tests31 run
# left going) before coldzoo and `coldzoo` restarted with H100,H200 once tests31's pytest ended.
set -u
LOGS=/tmp/s31
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
mkdir -p "$LOGS/inductor_cache"
export TORCHINDUCTOR_CACHE_DIR=$LOGS/inductor_cache
SUITE=(tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py tests/test_workarounds.py
    tests/test_channels_last.py tests/test_norm_inputs.py tests/test_bounds.py tests/test_zoo_gpu.py)
# one model cold: torch.compile alone, then magi (decisions as recorded) first beside torch.compile
cold_pair() {
    local m=$1
    step "tc_$m" cold_model "$m" "tc_$m" torch.compile
    step "magi_$m" cold_model "$m" "magi_$m" magi,torch.compile MAGI_PASSES__DECIDED_ON=H100,H200
}
lane() {  # lane GPU MODEL...: the models one after another on one GPU
    local gpu=$1
    shift
    for m in "$@"; do CUDA_VISIBLE_DEVICES=$gpu cold_pair "$m"; done
}
for s in "$@"; do
    case $s in
    setup)
        step setup bash -c 'bash tools/gpu_setup.sh && nvidia-smi --query-gpu=index,name,clocks.max.sm,power.limit --format=csv && nproc' ;;
    tests31)
        step tests31 python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
            -n 2 --dist loadgroup --magi-report "$LOGS/r_tests31.json" "${SUITE[@]}" \
            -k "not test_zoo_gpu or wan_decode_holds or wan-form" ;;
    coldzoo)
        lane 0 mochi-vae kvae-3d-vae easyanimate-vae vidtok-vae minimax-h3-vae sd-vae &
        lane 1 hunyuanvideo1.5-vae kandinsky6-sr-vae svd-vae ltx2-video-vae allegro-vae resnet50 &
        wait ;;
    esac
done
echo done >"$LOGS/ALL.done"
# Not run this session (the device time ran out), for the next one (`next.sh` here): the zoo's
# never-slower tests with the new forms (-k "video_vae_is_never_slower and (mochi or kvae or
# kandinsky6 or hunyuanvideo1.5 or svd or easyanimate or vidtok or minimax)"), the cut-off
# models' cold pairs (svd, easyanimate, vidtok, minimax-h3, ltx2-video, allegro, sd-vae,
# resnet50), mochi's form cold (decided plain), and the Wan T=21 decode against plain
# torch.compile.
