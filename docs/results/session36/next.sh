#!/usr/bin/env bash
# Session 36's GPU steps (issue 18), for the 1-GPU kind. `bash docs/results/session36/next.sh
# STEP...` in the background (setsid), logs in /tmp/s36, `bash tools/gpu_poll.sh /tmp/s36 540
# s36_logs.tgz` to wait.
#   setup     wheels, this checkout, versions, the GPU
#   prof      HunyuanVideo's cold compile under cProfile, torch.compile and the form, each in a
#             process with empty caches, the whole profiles kept (prof_*.pstats): first, so that
#             the profiles come back with the first poll
#   suite     the GPU suites after session 35's code (xdist_compat, the forms table), one process
#   coldnew   the five decoders whose decisions session 34 recorded for H100s, torch.compile and
#             magi, each compile alone with empty caches
#   mochi     mochi cold, torch.compile and magi
#   hvcold    HunyuanVideo cold, each compile alone with empty caches (Inductor imported before
#             either side's timing), alternating: the form, torch.compile, the form with
#             index propagation's SymPy Min / Max (PassConfig.torch_index_min_max off), the form
#             with a frame of its own for the decoder only (magi-form-root-frames); ROUNDS
#             rounds ("1 2" unless set)
#   newpairs  LTX-2's and VidTok's decoders cold, torch.compile then magi (after the backport)
#   pairs2    Allegro's and EasyAnimate's decoders cold, torch.compile then magi
# Run on this session's tree: `setup hvcold newpairs` (its logs were lost: the device's time ran
# out under the poll). Planned for the next session: `setup suite hvcold newpairs pairs2`
# (ROUNDS=1), the suites first, as the backport is in every magi compile on torch 2.11.
set -u
LOGS=/tmp/s36
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
HV=hunyuanvideo-vae
DEC=MAGI_PASSES__DECIDED_ON=H100,H200
hv_cold() { step "hv_${1}_$2" cold_model $HV "hv_${1}_$2" "$1" $DEC; }
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    prof)
        profile_step $HV torch.compile $DEC
        profile_step $HV magi $DEC ;;
    suite) suite_one_gpu_step suite ;;
    coldnew) cold_pairs svd-vae allegro-vae easyanimate-vae vidtok-vae ltx2-video-vae ;;
    mochi) cold_pairs mochi-vae ;;
    newpairs) cold_pairs ltx2-video-vae vidtok-vae ;;
    pairs2) cold_pairs allegro-vae easyanimate-vae ;;
    hvcold)
        for i in ${ROUNDS:-1 2}; do
            hv_cold magi $i
            hv_cold torch.compile $i
            hv_cold magi-form-sympy-min-max $i
            hv_cold magi-form-root-frames $i
        done ;;
    esac
done
echo done >"$LOGS/ALL.done"
