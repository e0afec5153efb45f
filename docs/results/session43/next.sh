#!/usr/bin/env bash
# Session 43's GPU steps (issue 18), for the two-GPU kind: `bash docs/results/session43/next.sh
# STEP...` in the background (setsid), logs in /tmp/s43, `bash tools/gpu_poll.sh /tmp/s43 540
# s43_logs.tgz` to wait. Session 43's own run was session 42's script (`setup suite ea1
# decide-cogvideox decide-ltx-video decide-hunyuanvideo decide-cosmos decide-svd decide-vidtok
# decide-ltx2-video`, on the tree of 922535d); after it the seven decoders' forms record H200s.
#   setup suite
#   level1/level2  the decoders whose cold compile stood level with torch.compile's in session
#                43's one round (Cosmos 34.5 against 34.5 s, VidTok 41.1 against 40.8) and
#                MiniMax-H3 (1.011x over four rounds): torch.compile cold on one GPU, magi cold
#                (the forms as shipped, H200s recorded) on the other at the same time, the GPUs
#                swapped between the two steps
#   gc1/gc2      MiniMax-H3, ResNet-50 and Allegro: magi with full collections held off while
#                it compiles (MAGI_PASSES__DEFER_FULL_COLLECTIONS=1) beside magi
# For the next machine: setup suite (the forms changed after the last GPU run; the suites do
# not compile these decoders, but every requires_cuda test runs after a change) level1 level2
# gc1 gc2
set -u
LOGS=/tmp/s43
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
export COLD_ROUNDS=5
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    suite) suite_step suite ;;
    level[12])
        cold_both_each "${s#level}" torch.compile magi "" cosmos-vae vidtok-vae minimax-h3-vae ;;
    gc[12])
        A_ENV=MAGI_PASSES__DEFER_FULL_COLLECTIONS=1 A_NAME=magi-deferred-gc \
            cold_both_each "${s#gc}" magi magi _gc minimax-h3-vae resnet50 allegro-vae ;;
    *) echo "unknown step $s" >&2 ;;
    esac
done
echo done >"$LOGS/ALL.done"
