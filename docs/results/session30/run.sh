#!/usr/bin/env bash
# Session 30's GPU steps (issue 18), run in the background (setsid) so that they can outlast one
# 10-minute call: `bash docs/results/session30/run.sh STEP...`, each step's log in
# /tmp/s30/<step>.log and its exit status in /tmp/s30/<step>.rc;
# `bash docs/results/session30/poll.sh SECONDS` waits.
#   setup     wheels, this checkout, versions, the GPU's name, clock and power cap
#   tests30   the GPU suites after sessions 28-29's changes (the norm-input pin rule, the report's
#             numerics), with the Wan form's zoo tests
#   targets30 issue 18's targets with the norm-input pin of session 29: the Wan form against
#             torch.compile with frames isolated, T=3 and T=21, each checked against an fp32
#             decode, and profiled per further frame (T=21 minus T=3) in the same process
#   coldcl    LTX-Video and HunyuanVideo compiled cold, each in a process of its own:
#             torch.compile, magi (its form as shipped) and magi-form-cl-params (the form with the
#             conv weights channels-last in place)
#   ltxnorm   LTX-Video's form with the norm-input pin, and with its weights in place, timed
#             against the form as shipped
# What ran first (one H100, half its held time counted): `setup tests30 targets30 coldcl
# ltxnorm`, all of it. Then, after LTX-Video's and HunyuanVideo's forms took those levers:
#   coldphase  both compiled cold again, torch.compile and magi, with dynamo's phase timers
#   ab30       the new forms against the forms as session 29 shipped them (magi-form-s29)
#   zootests30 the zoo's never-slower tests (every model but Wan)
# The second machine ran `setup coldphase ab30 zootests30`; the device time ran out in
# zootests30 after ten tests had passed (it ran with -q: only dots; use -v next time).
set -u
LOGS=/tmp/s30
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
mkdir -p "$LOGS/inductor_cache"
export TORCHINDUCTOR_CACHE_DIR=$LOGS/inductor_cache
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    tests30)
        step tests30 python -m pytest -p no:cacheprovider -q -rA -m requires_cuda --magi-perf \
            tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py \
            tests/test_workarounds.py tests/test_channels_last.py tests/test_norm_inputs.py \
            tests/test_bounds.py tests/test_zoo_gpu.py -k "not test_zoo_gpu or wan_decode_holds or wan-form" ;;
    targets30)
        step targets30 python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline torch.compile+frames --variants magi --rounds 3 --profile --profile-rounds 1 \
            --profile-top 20 --hbm-gbps $HBM --json $LOGS/targets30.json ;;
    coldcl)  # cold compiles, each in a process of its own with empty Inductor and Triton caches
        for m in ltx-video-vae hunyuanvideo-vae; do
            step "cold_${m}_tc" cold_model "$m" "tc_$m" torch.compile
            step "cold_${m}_magi" cold_model "$m" "magi_$m" magi
            step "cold_${m}_clp" cold_model "$m" "clp_$m" magi-form-cl-params
        done ;;
    ltxnorm)
        step ltxnorm python benchmarks/zoo.py --models ltx-video-vae --baseline magi \
            --variants magi-form-cl-norm,magi-form-cl-params --rounds 5 --hbm-gbps $HBM ;;
    coldphase)  # after the forms change: LTX-Video and HunyuanVideo cold, torch.compile and magi
        # (their forms with the weights in place, LTX-Video's norm inputs pinned), each in a
        # process of its own, with dynamo's phase timers (the `phases:` lines)
        for m in ltx-video-vae hunyuanvideo-vae; do
            step "coldp_${m}_tc" cold_model "$m" "ptc_$m" torch.compile
            step "coldp_${m}_magi" cold_model "$m" "pmagi_$m" magi
        done ;;
    ab30)  # the new forms against the forms as session 29 shipped them, and torch.compile
        step ab30 python benchmarks/zoo.py --models ltx-video-vae,hunyuanvideo-vae \
            --baseline torch.compile --variants magi-form-s29,magi --rounds 5 --hbm-gbps $HBM \
            --json $LOGS/ab30.json ;;
    zootests30)  # every zoo model but Wan against torch.compile (the never-slower tests)
        step zootests30 python -m pytest -p no:cacheprovider -q -rA -m requires_cuda --magi-perf \
            tests/test_zoo_gpu.py -k "video_vae_is_never_slower or zoo_model_is_never_slower" ;;
    esac
done
echo done >"$LOGS/ALL.done"
