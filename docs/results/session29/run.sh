#!/usr/bin/env bash
# Session 29's GPU steps (issue 18), run in the background (setsid) so that they can outlast one
# 10-minute call: `bash docs/results/session29/run.sh STEP...`, each step's log in
# /tmp/s29/<step>.log and its exit status in /tmp/s29/<step>.rc;
# `bash docs/results/session29/poll.sh SECONDS` waits.
#   setup      wheels, this checkout, versions, the GPU's name, clock and power cap
#   targets29  issue 18's targets: the Wan form (norm-input pin now also on activations that are
#              channels-last in eager) beside the form with the old rule (magi-form-s28),
#              torch.compile (compiled first: cold on a fresh machine) and torch.compile with
#              frames isolated, T=3 and T=21, each checked against an fp32 decode
#   formprof29 the form against magi-form-s28, profiled per further frame (T=21 minus T=3)
#   tests29    the GPU suites after sessions 28-29's changes, and the Wan form's zoo tests
#   ltxnorm    LTX-Video's form with the norm-input pin, and with its weights in place, timed
#   coldcl     LTX-Video and HunyuanVideo compiled cold, each in a process of its own: torch.compile,
#              magi (its form as shipped) and magi-form-cl-params (the form with the conv weights
#              channels-last in place)
# What ran (one H100, its held time counted in full): `setup targets29` (magi-form-s28's graphs
# were served to magi by the FX graph cache: the form before the fix, timed twice), then poll.sh
# restarted the run as `targets29b formprof29 coldcl` with an Inductor cache of its own;
# targets29b was cut off in its T=21 timings when the device time ran out (T=3: 1.029x over the
# pin before). Next session: `setup targets29b formprof29 coldcl ltxnorm tests29` (about 28
# minutes).
set -u
LOGS=/tmp/s29
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    targets29)
        step targets29 python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --variants torch.compile+frames,magi-form-s28,magi --rounds 5 --hbm-gbps $HBM ;;
    targets29b)  # targets29 after its fix: magi-form-s28 had served its graphs to magi through
        # Inductor's FX graph cache (the same pass-manager key); now it compiles uncached, and
        # this run has an Inductor cache of its own; torch.compile left out (device time)
        step targets29b python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline torch.compile+frames --variants magi-form-s28,magi --rounds 3 --hbm-gbps $HBM ;;
    formprof29)
        step formprof29 python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline magi-form-s28 --variants magi --rounds 3 --profile --profile-rounds 1 \
            --profile-top 20 --hbm-gbps $HBM ;;
    coldcl)  # cold compiles, each in a process of its own with empty Inductor and Triton
        # caches: torch.compile, magi, and magi in the model's form with the conv weights
        # channels-last in place (fake CUDA: 28 and 27 fewer launches, no per-call weight
        # conversion)
        for m in ltx-video-vae hunyuanvideo-vae; do
            step "cold_${m}_tc" cold_model "$m" "tc_$m" torch.compile
            step "cold_${m}_magi" cold_model "$m" "magi_$m" magi
            step "cold_${m}_clp" cold_model "$m" "clp_$m" magi-form-cl-params
        done ;;
    ltxnorm)  # LTX-Video's form with the norm-input pin (its RMS norms over permuted channels,
        # matched since session 29: 19 pins, 12 across-channel accesses a call gone in fake
        # CUDA) and with the weights channels-last in place, each against the form as shipped
        step ltxnorm python benchmarks/zoo.py --models ltx-video-vae --baseline magi \
            --variants magi-form-cl-norm,magi-form-cl-params --rounds 5 --hbm-gbps $HBM ;;
    tests29)
        step tests29 python -m pytest -p no:cacheprovider -q -rA -m requires_cuda --magi-perf \
            tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py \
            tests/test_workarounds.py tests/test_channels_last.py tests/test_norm_inputs.py \
            tests/test_bounds.py tests/test_zoo_gpu.py -k "not test_zoo_gpu or wan_decode_holds or wan-form" ;;
    esac
done
echo done >"$LOGS/ALL.done"
