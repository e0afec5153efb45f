#!/usr/bin/env bash
# Session 37's GPU steps (issue 18), for the 1-GPU kind. `bash docs/results/session37/next.sh
# STEP...` in the background (setsid), logs in /tmp/s37, `bash tools/gpu_poll.sh /tmp/s37 540
# s37_logs.tgz` to wait.
#   setup     wheels, this checkout, versions, the GPU
#   suite     the GPU suites after session 36's code (the Min/Max backport, root frames, one
#             compile scope), one process
#   hvcold    HunyuanVideo cold, each compile alone with empty caches (Inductor imported before
#             either side's timing): the form, torch.compile, the form with index propagation's
#             SymPy Min / Max (PassConfig.torch_index_min_max off), the form with a frame of its
#             own for the decoder only (magi-form-root-frames); ROUNDS rounds (1 unless set)
#   newpairs  LTX-2's and VidTok's decoders cold: torch.compile, magi, magi-form-root-frames
#   pairs2    Allegro's and EasyAnimate's decoders cold: the same three
#   rest      SVD's and Mochi's decoders cold: the same three
#   eacold    EasyAnimate's decoder cold after channels_last_through_slices: torch.compile, magi
#   eaab      EasyAnimate's decoder in one process: magi (cold), magi-form-no-cl-slices (each
#             window cloned, as before) and torch.compile, their runtime side by side
#   lever2    the LTX-Video form's levers (weights channels-last in place, RMS norm inputs
#             pinned: magi-form-cl-params-norm) on LTX-2's decoder, and the weights in place
#             on the others, each in one process beside magi and torch.compile (the first
#             variant cold): in fake CUDA LTX-2's kernels went 80 -> 32 (torch.compile 60)
#   frames2   root-only frames (magi-form-root-frames) cold on the other one-graph decided
#             decoders: Allegro, SVD
# Planned for the next session (session 37's device time ran out during pairs2):
# `setup eaab lever2 eacold frames2` (ROUNDS unset), then the suites.
set -u
LOGS=/tmp/s37
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
HV=hunyuanvideo-vae
DEC=MAGI_PASSES__DECIDED_ON=H100,H200
export COLD_VARIANTS="torch.compile magi magi-form-root-frames"
hv_cold() { step "hv_${1}_$2" cold_model $HV "hv_${1}_$2" "$1" $DEC; }
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    suite) suite_one_gpu_step suite ;;
    newpairs) cold_pairs ltx2-video-vae vidtok-vae ;;
    pairs2) cold_pairs allegro-vae easyanimate-vae ;;
    rest) cold_pairs svd-vae mochi-vae ;;
    eacold) COLD_VARIANTS="torch.compile magi" cold_pairs easyanimate-vae ;;
    eaab) step ea_ab cold_model easyanimate-vae ea_ab magi,magi-form-no-cl-slices,torch.compile ;;
    lever2)
        step ltx2_ab cold_model ltx2-video-vae ltx2_ab magi-form-cl-params-norm,magi,torch.compile
        for m in vidtok-vae allegro-vae easyanimate-vae; do
            step "${m%-vae}_clp" cold_model "$m" "${m%-vae}_clp" magi-form-cl-params,magi,torch.compile
        done ;;
    frames2) COLD_VARIANTS="magi-form-root-frames" cold_pairs allegro-vae svd-vae ;;
    hvcold)
        for i in ${ROUNDS:-1}; do
            hv_cold magi "$i"
            hv_cold torch.compile "$i"
            hv_cold magi-form-sympy-min-max "$i"
            hv_cold magi-form-root-frames "$i"
        done ;;
    esac
done
echo done >"$LOGS/ALL.done"
