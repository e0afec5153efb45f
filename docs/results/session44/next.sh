#!/usr/bin/env bash
# Session 44's GPU steps (issue 18), for the two-GPU kind: `bash docs/results/session44/next.sh
# STEP...` in the background (setsid), logs in /tmp/s44, `bash tools/gpu_poll.sh /tmp/s44 540
# s44_logs.tgz` to wait. Session 44's first run was session 43's script (`setup suite level1 gc1
# level2 gc2`, on the tree of 408274d); its logs are beside this file.
#   setup        tools/gpu_setup.sh, the GPUs, and tests/test_stack_room.py on this Python (the
#                thrashing it measures, and the backend compiling under the room)
#   room1/room2  MiniMax-H3 and Cosmos (magi's cold compile 1.088x and 1.104x torch.compile's
#                over session 44's first run, two rounds): torch.compile cold on one GPU, magi
#                cold (its compiles on a fresh frame-stack chunk) on the other at the same
#                time, the GPUs swapped between the two steps
#   noroom1      the same two, magi with PassConfig.compile_on_fresh_stack off beside magi
#   suite        the GPU suites (every requires_cuda test after the stack room)
#   room3/room4  VidTok and CogVideoX as room1/room2
#   cosmosframes Cosmos's form (one frame for the decoder since session 44's CPU evidence) cold,
#                then a frame per module instance timed against it in the same process (the
#                same graph must run at the same speed)
# Session 44's second run: `setup room1 room2 noroom1` on the tree of 89376e6 (logs beside this
# file). For the next machine: setup suite cosmosframes room1 room2 room3 room4
set -u
LOGS=/tmp/s44
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
export COLD_ROUNDS=3
for s in "$@"; do
    case $s in
    setup) setup_room_step ;;
    room[12]) cold_both_each "${s#room}" torch.compile magi "" minimax-h3-vae cosmos-vae ;;
    suite) suite_step suite ;;
    cosmosframes) step cosmos_frames cold_model cosmos-vae cosmos_frames magi,magi-form-instance-frames ;;
    room[34]) cold_both_each $((${s#room} - 2)) torch.compile magi "" vidtok-vae cogvideox-vae ;;
    noroom1)
        A_ENV=MAGI_PASSES__COMPILE_ON_FRESH_STACK=0 A_NAME=magi-noroom \
            cold_both_each 1 magi magi _noroom minimax-h3-vae cosmos-vae ;;
    *) echo "unknown step $s" >&2 ;;
    esac
done
echo done >"$LOGS/ALL.done"
