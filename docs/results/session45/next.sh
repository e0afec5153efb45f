#!/usr/bin/env bash
# Session 45's GPU steps (issue 18), for the two-GPU kind: `bash docs/results/session45/next.sh
# STEP...` in the background (setsid), logs in /tmp/s45, `bash tools/gpu_poll.sh /tmp/s45 540
# s45_logs.tgz` to wait.
#   setup        tools/gpu_setup.sh, the GPUs, and tests/test_stack_room.py on this Python
#                (NO_ROOM_TEST=1 skips the test: 9 passed on the GPU hosts' Python in run 1)
#   suite        the GPU suites (every requires_cuda test; the first run since the stack room,
#                Cosmos's root frame and inductor_codegen's room)
#   cosmosframes Cosmos's form (the root frame since session 44) cold, then a frame per module
#                instance timed against it in the same process (the same graph, the same speed)
#   cosmos1/2    Cosmos: torch.compile cold on one GPU, magi cold on the other at the same time,
#                the GPUs swapped between the two steps (session 44: 1.059x with a frame per
#                instance)
#   vc1/vc2      VidTok and CogVideoX as cosmos1/cosmos2 (0.931x and 0.949x before the room)
#   clp1/clp2    Cosmos as cosmos1/cosmos2, magi's side the form with its conv weights
#                channels-last in place (fake CUDA: 310 launches against 329), then in the same
#                process the form as it is and the form without the GroupNorm statistics, timed
#                against it (their compiles warm)
#   new1/new2    Cosmos as cosmos1/cosmos2 with its form's weights in place (the form since
#                clp: magi-form-cl-params compiled cold in 21.3 and 20.0 s against torch.compile's
#                22.9 and 23.0)
#   old1/old2    Cosmos's form before (magi-form-no-cl-params) cold on one GPU, the form now on
#                the other, the GPUs swapped between the two steps
#   kk1/kk2      KVAE-3D and Kandinsky-6 SR as cosmos1/cosmos2 (their only H200 rounds, session
#                31, took 1.056x and 1.034x, before Kandinsky-6 SR's levers, the stack room, the
#                compile workers started early and the root frame)
#   hm1/hm2      HunyuanVideo-1.5 and Mochi likewise (0.974x on an H200 in session 31, alone;
#                Mochi 0.91x on an H100 only)
#   kkframes     KVAE-3D's and Kandinsky-6 SR's forms (the root frame since session 45's CPU
#                evidence) cold, then a frame per module instance timed against each in the same
#                process (the same graph, the same speed)
# For the next machine: `NO_ROOM_TEST=1 ... next.sh setup kkframes kk1 kk2 hm1 hm2`.
# Session 45's first run: `setup suite cosmosframes cosmos1 cosmos2` on the tree of cc4cb40
# (logs in run1/); its second `setup clp1 clp2` (NO_ROOM_TEST=1) on the tree of 375b53e (run2/);
# its third `setup new1 new2 old1 old2 vc1 vc2` (NO_ROOM_TEST=1) on the tree of a05861b, Cosmos's
# form taking its weights in place (run3/).
set -u
LOGS=/tmp/s45
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
export COLD_ROUNDS=3
for s in "$@"; do
    case $s in
    setup) setup_room_step ;;
    suite) suite_step suite ;;
    cosmosframes) step cosmos_frames cold_model cosmos-vae cosmos_frames magi,magi-form-instance-frames ;;
    cosmos[12]) cold_both_each "${s#cosmos}" torch.compile magi "" cosmos-vae ;;
    clp[12]) cold_both_each "${s#clp}" torch.compile magi-form-cl-params,magi,magi-form-no-gn-stats "" cosmos-vae ;;
    new[12]) cold_both_each "${s#new}" torch.compile magi "" cosmos-vae ;;
    old[12]) cold_both_each "${s#old}" magi-form-no-cl-params magi _old cosmos-vae ;;
    kkframes)
        step kvae-3d_frames cold_model kvae-3d-vae kvae-3d_frames magi,magi-form-instance-frames
        step kandinsky6-sr_frames cold_model kandinsky6-sr-vae kandinsky6-sr_frames \
            magi,magi-form-instance-frames ;;
    kk[12]) cold_both_each "${s#kk}" torch.compile magi "" kvae-3d-vae kandinsky6-sr-vae ;;
    hm[12]) cold_both_each "${s#hm}" torch.compile magi "" hunyuanvideo1.5-vae mochi-vae ;;
    vc[12]) cold_both_each "${s#vc}" torch.compile magi "" vidtok-vae cogvideox-vae ;;
    *) echo "unknown step $s" >&2 ;;
    esac
done
echo done >"$LOGS/ALL.done"
