#!/usr/bin/env bash
# Session 24's GPU steps, run in the background on the device machine (setsid) so that they can
# outlast one 10-minute call: `bash docs/results/session24/run.sh STEP...`, each step's log in
# /tmp/s24/<step>.log, and /tmp/s24/<step>.rc when it ends; `bash poll.sh SECONDS` (beside this
# file) waits for ALL.done or SECONDS, prints the ended steps and tars the logs into $OUT. Issue
# each poll call right after the last returns: the machine goes back after 30 s idle.
set -u
LOGS=/tmp/s24
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh  # step NAME CMD..., HBM
for s in "$@"; do
    case $s in
    setup)
        step setup bash -c 'bash tools/gpu_setup.sh && nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv' ;;
    tests)  # the GPU tests of the passes, of the downstream example and of the config sweep
        step tests python -m pytest -p no:cacheprovider -q -rA -m requires_cuda --magi-perf \
            tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py \
            tests/test_workarounds.py tests/test_channels_last.py ;;
    zoo_tests)  # the zoo's never-slower tests of the video VAEs and the Wan decode's gain
        step zoo_tests python -m pytest -p no:cacheprovider -q -rA --magi-perf \
            tests/test_zoo_gpu.py -k "video_vae or wan_decode_holds" ;;
    profgpu)  # the profiler's GPU tests (the kernels' origins, the runtime-activity fallback)
        step profgpu python -m pytest -p no:cacheprovider -q -rA -m requires_cuda \
            tests/test_profiling.py ;;
    nnprof)  # magi (decisions off) profiled per further frame after session 23's torch.nn
        # frames fix: where the upsamplers' per-frame conv2d (5.2 ms a frame eager before) goes
        step nnprof env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi --variants magi \
            --rounds 3 --profile --profile-rounds 1 --profile-top 20 --hbm-gbps $HBM ;;
    esac
done
echo done >"$LOGS/ALL.done"
