#!/usr/bin/env bash
# Session 23's GPU steps, run in the background on the device machine (setsid) so that they can
# outlast one 10-minute call: `bash docs/results/session23/run.sh STEP...`, each step's log in
# /tmp/s23/<step>.log, and /tmp/s23/<step>.rc when it ends; `bash poll.sh SECONDS` (beside this
# file) waits for ALL.done or SECONDS, prints the ended steps and tars the logs into $OUT. Issue
# each poll call right after the last returns: the machine goes back after 30 s idle.
# Calls: 1 `setup tests trim cold` (10 passed; the trim 1.073x at T=3; cold compile lines, then
# an error from --rounds 1), 2 `setup profgpu where zoo_right` (zoo_right passed; profgpu's new
# test failed on a lazily loaded kernel, fixed; where ended on --rounds 1), 3 `setup profgpu
# targets` (all passed: issue 18's numbers and the origins), 4 `setup nnframes` (the torch.nn
# frames fix: no change in time). Next session: `setup tests zoo_tests profgpu` (the GPU suites
# after this session's last changes), then `nnprof`.
set -u
LOGS=/tmp/s23
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh  # step NAME CMD..., setup_step, cold VARIANT TAG, HBM
for s in "$@"; do
    case $s in
    setup)
        setup_step ;;
    tests)  # the GPU tests of the passes, of the downstream example and of the config sweep
        step tests python -m pytest -p no:cacheprovider -q -rA -m requires_cuda --magi-perf \
            tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py \
            tests/test_workarounds.py tests/test_channels_last.py ;;
    trim)  # the opt-in CausalPadTrimPass against magi (the first chunks' zero frame taps
        # dropped), T=3 and T=21, decisions off on both sides, each output against fp32
        step trim env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi \
            --variants magi-pad-trim --rounds 3 --hbm-gbps $HBM ;;
    cold)  # cold compile time of the Wan decode: torch.compile, magi as shipped, magi static
        step cold_tc cold torch.compile tc
        step cold_magi cold magi magi
        step cold_static cold magi-static static ;;
    profgpu)  # the profiler's GPU tests (the kernels' origins, new this session)
        step profgpu python -m pytest -p no:cacheprovider -q -rA -m requires_cuda \
            tests/test_profiling.py ;;
    where)  # magi (decisions off), T=3 and T=21, profiled per further frame with the kernels'
        # origins: which op in which graph (or outside graphs) launches the per-frame layout
        # copies and eager kernels
        step where env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi --variants magi \
            --rounds 3 --profile --profile-rounds 1 --profile-top 25 --hbm-gbps $HBM ;;
    t21)  # issue 18's T=21 target: magi as shipped (decisions on, the trim on) against
        # torch.compile+frames, T=3 and T=21, each output against fp32
        step t21 python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline torch.compile+frames --variants magi --rounds 3 --hbm-gbps $HBM ;;
    targets)  # issue 18's targets with magi as shipped (decisions on, the trim on): torch.compile
        # (baseline), torch.compile+frames and magi, T=3 and T=21, each output against fp32,
        # each variant profiled per further frame with its kernels' origins
        step targets python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --variants torch.compile+frames,magi --rounds 3 --profile --profile-rounds 1 \
            --profile-top 20 --hbm-gbps $HBM ;;
    nnframes)  # torch.nn modules reached from code dynamo runs eagerly get frames of their own
        # (the upsamplers' per-frame conv2d was eager, 5.2 ms a further frame in `targets`): magi
        # against torch.compile+frames (both isolated the new way), T=3 and T=21, decisions off
        step nnframes env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline torch.compile+frames \
            --variants magi --rounds 3 --hbm-gbps $HBM ;;
    nnprof)  # next session: magi (decisions off) profiled per further frame after the torch.nn
        # frames fix: do the upsamplers' two conv2d launches a frame now run in a graph, and at
        # what rate (they ran eagerly at ~164 TFLOP/s, 3.76 ms a frame, in `targets`)
        step nnprof env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi --variants magi \
            --rounds 3 --profile --profile-rounds 1 --profile-top 20 --hbm-gbps $HBM ;;
    clconv2d)  # those conv2d graphs channels-last (channels_last_conv2d_graphs) against magi,
        # T=3 and T=21, decisions off; session 22's 1.000x predates their graphs, but in fake
        # CUDA Inductor's own layout optimisation already makes them channels-last
        # (tools/probes/upsampler_conv_layout.py): expect ~1.00x, run only if nnprof says so
        step clconv2d env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi \
            --variants magi-cl-conv2d --rounds 3 --hbm-gbps $HBM ;;
    zoo_tests)  # the zoo's never-slower tests of the video VAEs and the Wan decode's gain
        step zoo_tests python -m pytest -p no:cacheprovider -q -rA --magi-perf \
            tests/test_zoo_gpu.py -k "video_vae or wan_decode_holds" ;;
    holds)  # the Wan decode's zoo test as shipped (decisions on): magi >= 1.5x over torch.compile
        step holds python -m pytest -p no:cacheprovider -q -rA --magi-perf tests/test_zoo_gpu.py \
            -k wan_decode_holds ;;
    zoo_right)  # magi as shipped decodes T=3 then T=5 through one copy (the path that was wrong)
        step zoo_right python -m pytest -p no:cacheprovider -q -rA --magi-perf \
            tests/test_zoo_gpu.py -k wan_decode_is_right_after_another_length ;;
    esac
done
echo done >"$LOGS/ALL.done"
