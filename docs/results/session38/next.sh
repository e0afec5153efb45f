#!/usr/bin/env bash
# Session 38's GPU steps (issue 18), for the 1-GPU kind. `bash docs/results/session38/next.sh
# STEP...` in the background (setsid), logs in /tmp/s38, `bash tools/gpu_poll.sh /tmp/s38 540
# s38_logs.tgz` to wait. Session 37's code (channels_last_through_slices, CompileForm.frames)
# had no GPU run; these are its first.
#   setup     wheels, this checkout, versions, the GPU
#   ltx2ab    LTX-2's decoder in one process: the LTX-Video form's levers (weights channels-last
#             in place, RMS norm inputs pinned: magi-form-cl-params-norm; first, so cold), magi
#             and torch.compile, runtime side by side (fake CUDA: 80 -> 32 kernels, tc 60)
#   eaab      EasyAnimate's decoder in one process: magi (cold, with channels_last_through_slices),
#             magi-form-no-cl-slices (each window cloned, as before) and torch.compile
#   suite     the GPU suites after session 37's code, one process
#   eacold    EasyAnimate's torch.compile cold in a process of its own (eaab's first side is
#             magi's cold compile)
#   frames2   root-only frames (magi-form-root-frames) cold on Allegro and SVD
#   clp       weights channels-last in place (magi-form-cl-params, cold) beside magi and
#             torch.compile on VidTok, Allegro, EasyAnimate
set -u
LOGS=/tmp/s38
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    suite) suite_one_gpu_step suite ;;
    ltx2ab) step ltx2_ab cold_model ltx2-video-vae ltx2_ab magi-form-cl-params-norm,magi,torch.compile ;;
    eaab) step ea_ab cold_model easyanimate-vae ea_ab magi,magi-form-no-cl-slices,torch.compile ;;
    eacold) COLD_VARIANTS="torch.compile" cold_pairs easyanimate-vae ;;
    frames2) COLD_VARIANTS="magi-form-root-frames" cold_pairs allegro-vae svd-vae ;;
    clp)
        for m in vidtok-vae allegro-vae easyanimate-vae; do
            step "${m%-vae}_clp" cold_model "$m" "${m%-vae}_clp" magi-form-cl-params,magi,torch.compile
        done ;;
    esac
done
echo done >"$LOGS/ALL.done"
