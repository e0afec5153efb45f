#!/usr/bin/env bash
# Session 22's GPU steps, run in the background on the device machine (setsid) so that they can
# outlast one 10-minute call: `bash docs/results/session22/run.sh STEP...`, each step's log in
# /tmp/s22/<step>.log, and /tmp/s22/<step>.rc when it ends; `bash poll.sh SECONDS` (beside this
# file) waits for ALL.done or SECONDS, prints the ended steps and tars the logs into $OUT. Issue
# each poll call right after the last returns: the machine goes back after 30 s idle.
# Phase 1: `setup zoo_right tests state22` (session 21's product changes, first time on a GPU:
# the dynamic-cat stand-down in place of max_tiles=1, and the config sweep's candidates): all
# passed; T=3 magi 155.36 ms. Phase 2: `setup ab22` (magi-static 1.042x at T=3, 1.006x at
# T=21; the conv2d upsamplers channels-last 1.000x). Phase 3: `setup profgpu ns` (2 passed;
# six video VAEs 0.998-1.321x). Phase 4: `setup holds` (1.802x, passed).
# Next session: `setup trim`, and if the trim wins with correct output, zoo_right and tests with
# MAGI_PASSES__ENABLE_CAUSAL_PAD_TRIM=1 before it goes on by default.
set -u
LOGS=/tmp/s22
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh  # step NAME CMD..., setup_step, cold VARIANT TAG, HBM (the harness this script first held)
for s in "$@"; do
    case $s in
    setup)
        setup_step ;;
    probe)  # the weight conversion forms, side by side, on the decoder's real weight shapes
        step probe python tools/probes/weight_batch_ab.py --rounds 15 ;;
    g35)  # graph 35's three kernels, each with every config, on the decode's inputs (~1 min)
        step g35 python tools/probes/graph35_configs.py ;;
    g35min)  # graph 35's producer edited one feature at a time, each under its configs (~1 min)
        step g35min python tools/probes/graph35_minimize.py ;;
    sweep)  # the cached producers' configs: right or wrong, and how fast (the 38%-of-HBM kernel)
        step sweep512 python tools/probes/kernel_sweep.py --model wan-resblock --channels 512 \
            --height 136 --width 240 --extra
        step sweep1024 python tools/probes/kernel_sweep.py --model wan-resblock --channels 1024 \
            --height 34 --width 60 --pattern cat --extra ;;
    catab)  # magi without channels_last_through_cat, with the conv2d upsampler graphs
        # channels-last, and with the causal state handed over channels-last (the cache
        # transposes, in fake CUDA unnamed `triton_poi_fused` kernels like the batched weights:
        # that pattern is 2.8 ms a further frame at 55% of HBM, would become copies), each
        # against magi on the whole decode, decisions off
        step catab env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi \
            --variants magi-no-cl-cat,magi-cl-conv2d,magi-cl-state --rounds 5 --hbm-gbps $HBM ;;
    targets)  # issue 18's targets, magi as shipped (decisions on), T=3 and T=21, profiled, with
        # the opt-in channels_last_through_cat beside it (its A/B against magi)
        step targets python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --variants torch.compile,torch.compile+frames,magi,magi-no-cl-cat --rounds 3 --profile \
            --profile-rounds 2 --profile-top 14 --hbm-gbps $HBM ;;
    sweeptest)  # config_sweep on Inductor's own kernels (failed in phase 1, fixed since)
        step sweeptest python -m pytest -p no:cacheprovider -q -rA -m requires_cuda \
            tests/test_config_sweep.py ;;
    state21)  # magi (baseline) against magi-cl-state and torch.compile+frames, T=3 and T=21,
        # profiled per further frame; decisions off on both magi sides
        step state21 env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi \
            --variants magi,magi-cl-state,torch.compile+frames --rounds 3 --profile \
            --profile-rounds 1 --profile-top 12 --hbm-gbps $HBM ;;
    tests)  # the GPU tests of the passes, of the downstream example and of the config sweep
        step tests python -m pytest -p no:cacheprovider -q -rA -m requires_cuda --magi-perf \
            tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py \
            tests/test_workarounds.py tests/test_channels_last.py ;;
    state22)  # torch.compile (baseline), torch.compile+frames and magi (decisions off), T=3 and
        # T=21, profiled per further frame: is the dynamic-cat graphs' 101 ms kernel gone?
        step state22 env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline torch.compile \
            --variants torch.compile+frames,magi --rounds 3 --profile \
            --profile-rounds 1 --profile-top 14 --hbm-gbps $HBM ;;
    ab22)  # magi (baseline) against magi compiled static (the dynamic-cat graphs then keep
        # channels-last and 2-D tiles) and against magi with the per-frame conv2d upsampler
        # graphs channels-last (cuDNN's nchwToNhwc/nhwcToNchw, ~0.8 ms a further frame in
        # state22), T=3 and T=21, decisions off on every side
        step ab22 env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi \
            --variants magi-static,magi-cl-conv2d --rounds 3 --hbm-gbps $HBM ;;
    profgpu)  # the profiler's GPU tests (the located launch gaps, new this session)
        step profgpu python -m pytest -p no:cacheprovider -q -rA -m requires_cuda \
            tests/test_profiling.py ;;
    ns)  # never slower on the zoo's video VAEs nearest 0.98x in session 6 first (decisions on,
        # cold decision cache), one JSON row per model as it ends
        step ns python benchmarks/never_slower.py --keep-fx-cache --rounds 8 \
            --models ltx-video-vae,hunyuanvideo-vae,minimax-h3-vae,mochi-vae,cosmos-vae,cogvideox-vae \
            --json /tmp/s22/never_slower.json ;;
    holds)  # the Wan decode's zoo test as shipped (decisions on): magi >= 1.5x over torch.compile
        # at T=3, magi's output right, torch.compile's miscompiled (pytorch#194281)
        step holds python -m pytest -p no:cacheprovider -q -rA --magi-perf tests/test_zoo_gpu.py \
            -k wan_decode_holds ;;
    trim)  # next session: the opt-in CausalPadTrimPass against magi (the first chunks' zero
        # frame taps dropped), T=3 and T=21, decisions off on both sides; then zoo_right with it
        step trim env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi \
            --variants magi-pad-trim,magi-static --rounds 3 --hbm-gbps $HBM ;;
    zoo_right)  # magi as shipped decodes T=3 then T=5 through one copy (the path that was wrong)
        step zoo_right python -m pytest -p no:cacheprovider -q -rA --magi-perf \
            tests/test_zoo_gpu.py -k wan_decode_is_right_after_another_length ;;
    zoo_tests)  # the zoo's never-slower tests of the video VAEs and the Wan decode's gain
        step zoo_tests python -m pytest -p no:cacheprovider -q -rA --magi-perf tests/test_zoo_gpu.py \
            -k "video_vae or wan_decode_holds" ;;
    esac
done
echo done >"$LOGS/ALL.done"
