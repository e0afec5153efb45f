#!/usr/bin/env bash
# Session 42's GPU steps (issue 18), for the two-GPU kind: `bash docs/results/session42/next.sh
# STEP...` in the background (setsid), logs in /tmp/s42, `bash tools/gpu_poll.sh /tmp/s42 540
# s42_logs.tgz` to wait. Session 42's own run was session 41's script (docs/results/session41/
# next.sh `setup suite small1 small2 workers1 workers2 ea1 ea2 allegroform2`, on the tree of
# e326a07); these steps are for the code after it (EasyAnimate's form with its two levers and
# H200s recorded; full collections held off while magi compiles, opt-in):
#   setup suite
#   ea1/ea2      EasyAnimate in its form cold beside torch.compile cold (one per GPU, swapped)
#   gc1/gc2      MiniMax-H3, ResNet-50 and Allegro: magi with full collections held off while
#                it compiles (MAGI_PASSES__DEFER_FULL_COLLECTIONS=1) beside magi
#   small1/small2  MiniMax-H3, ResNet-50, EfficientNet-B0, SD's VAE: torch.compile cold beside
#                magi cold
#   decide-MODEL  a decoder whose form records its decisions for H100s only (cogvideox,
#                ltx-video, hunyuanvideo, cosmos, svd, vidtok, ltx2-video): on GPU 0
#                torch.compile cold, then magi timed against it (on an H200 each graph is
#                measured, its decision in the log); on GPU 1 magi cold with H200s recorded
#                (MAGI_PASSES__DECIDED_ON=H100,H200): the cold compile the form gives there
#                once the measurement has kept magi
# For the next machine (about 30 min of device time): setup suite (the backend changed after the
# last GPU run: EasyAnimate's form, the pass_config option, the collector) ea1 decide-cogvideox
# decide-ltx-video decide-hunyuanvideo decide-cosmos decide-svd decide-vidtok decide-ltx2-video
# gc1 ea2 gc2 small1
set -u
LOGS=/tmp/s42
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
export COLD_ROUNDS=5
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    suite) suite_step suite ;;
    ea[12]) BOTH_ROUNDS=${s#ea} cold_both easyanimate-vae torch.compile magi ea ;;
    gc[12])
        for m in minimax-h3-vae resnet50 allegro-vae; do
            A_ENV=MAGI_PASSES__DEFER_FULL_COLLECTIONS=1 A_NAME=magi-deferred-gc \
                BOTH_ROUNDS=${s#gc} cold_both "$m" magi magi "${m%-vae}_gc"
        done ;;
    small[12])
        for m in minimax-h3-vae resnet50 efficientnet_b0 sd-vae; do
            BOTH_ROUNDS=${s#small} cold_both "$m" torch.compile magi "${m%-vae}"
        done ;;
    decide-*)
        m=${s#decide-}-vae
        B_ENV=MAGI_PASSES__DECIDED_ON=H100,H200 B_NAME=magi-h200-recorded BOTH_ROUNDS=1 \
            cold_both "$m" torch.compile,magi magi "decide_${m%-vae}" ;;
    esac
done
echo done >"$LOGS/ALL.done"
