#!/usr/bin/env bash
# Session 27's GPU steps, run in the background on the device machine (setsid) so that they can
# outlast one 10-minute call: `bash docs/results/session27/run.sh STEP...`, each step's log in
# /tmp/s27/<step>.log, and /tmp/s27/<step>.rc when it ends; `bash poll.sh SECONDS` (beside this
# file) waits for ALL.done or SECONDS, prints the ended steps and tars the logs into $OUT. Issue
# each poll call right after the last returns: the machine goes back after 30 s idle.
# Session 26's steps (docs/results/session26/run.sh) kept with their records there; this
# session: `setup tests wanholds formlevers` (the GPU suites after session 26's pass changes; the
# Wan zoo test with its candidate in the Wan decoder's form; the fake-CUDA census's levers,
# parameters channels-last and pads through the cache concat, against the form).
set -u
LOGS=/tmp/s27
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
    profgpu)  # the profiler's GPU tests (the kernels' origins, the runtime-activity fallback)
        step profgpu python -m pytest -p no:cacheprovider -q -rA -m requires_cuda \
            tests/test_profiling.py ;;
    fixright)  # the static form decodes T=3 then T=5 right, reusing its 3 chunk graphs
        step fixright python -m pytest -p no:cacheprovider -q -rA tests/test_zoo_gpu.py \
            -k static_form_is_right ;;
    coldfix)  # cold compile (fresh Inductor, Triton and decision caches, a process each):
        # torch.compile as users write it against the fix with static shapes
        step cold_tc cold torch.compile tc
        step cold_fixstatic cold magi-dynamo-fix-static fixstatic ;;
    fixstatic)  # the opt-in dynamo fix with static shapes and contiguous inputs (the steady
        # chunk a static graph, measured by the decisions, reused at T=21) against magi as
        # shipped and the fix alone, T=3 and T=21
        step fixstatic python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline torch.compile+frames \
            --variants magi,magi-dynamo-fix,magi-dynamo-fix-static --rounds 3 --hbm-gbps $HBM ;;
    cmp)  # where the static one-graph chunk (magi-dynamo-fix-static: 71.14 ms a further frame
        # in fixstatic.log against magi's 66.38) loses, class by class, beside magi with
        # contiguous inputs alone (T=21 1.3x over frames isolated needs ~1.5%); decisions off on
        # every side, so the passes' static rules are what is compared
        step cmp env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py --models wan2.2-vae \
            --frames 3 --wan-frames 3,21 --baseline magi \
            --variants magi-dynamo-fix-static,magi-contiguous --rounds 3 --profile \
            --profile-rounds 1 --profile-top 20 --hbm-gbps $HBM ;;
    clnorm)  # the static one-graph form with the up blocks' norm inputs pinned channels-last
        # (PassConfig.channels_last_norm_inputs), against the form without it; decisions off
        step clnorm env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi-dynamo-fix-static \
            --variants magi-dynamo-fix-static-cl-norm --rounds 3 --hbm-gbps $HBM ;;
    targets26)  # issue 18's targets for the pinned static form, decisions on, in one run
        step targets26 python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --variants torch.compile+frames,magi,magi-dynamo-fix-static-cl-norm --rounds 3 \
            --hbm-gbps $HBM ;;
    coldcl)  # the pinned static form's cold compile, beside torch.compile's (cold_tc above)
        step cold_cl cold magi-dynamo-fix-static-cl-norm cl ;;
    clsplit)  # the pin on magi as shipped (one frame per module instance), decisions on, beside
        # torch.compile+frames: what shipping the pin by default would give
        step clsplit python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline torch.compile+frames --variants magi,magi-cl-norm --rounds 3 \
            --hbm-gbps $HBM ;;
    clprof)  # the pinned static form profiled per further frame (decisions on)
        step clprof python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline magi-dynamo-fix-static-cl-norm --variants magi-dynamo-fix-static-cl-norm \
            --rounds 3 --profile --profile-rounds 1 --profile-top 20 --hbm-gbps $HBM ;;
    wanholds)  # the Wan decode's zoo test, its candidate now compiled in the Wan decoder's form
        step wanholds python -m pytest -p no:cacheprovider -q -rA --magi-perf \
            tests/test_zoo_gpu.py -k wan_decode_holds ;;
    formlevers)  # the fake-CUDA census's levers on the form's steady chunk (cache transposes,
        # per-call weight conversions), each against the form itself, decisions on
        step formlevers python benchmarks/zoo.py --models wan2.2-vae --frames 3 \
            --wan-frames 3,21 --baseline magi \
            --variants magi-form-cl-params-pad-cat,magi-form-cl-params,magi-form-pad-cat \
            --rounds 3 \
            --hbm-gbps $HBM ;;
    formprof)  # the form (magi_compile's Wan default) profiled per further frame
        step formprof python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --baseline magi --variants magi --rounds 3 --profile --profile-rounds 1 \
            --profile-top 20 --hbm-gbps $HBM ;;
    zoo_pin)  # the never-slower tests of the zoo models the pin fires on (hunyuanvideo1.5,
        # kandinsky6-sr; wan2.2's gain) with the pin on, as a default would have it
        step zoo_pin env MAGI_PASSES__CHANNELS_LAST_NORM_INPUTS=1 \
            TORCHINDUCTOR_CACHE_DIR=$LOGS/cache_zoo_pin python -m pytest -p no:cacheprovider \
            -q -rA --magi-perf tests/test_zoo_gpu.py -k "hunyuanvideo1 or kandinsky6 or wan_decode_holds" ;;
    zoo_a)  # the first seven video VAEs' never-slower tests (a fresh Inductor cache: no graph
        # served without its passes running, which `pair.fired` cannot see through)
        step zoo_a env TORCHINDUCTOR_CACHE_DIR=$LOGS/cache_zoo_a python -m pytest \
            -p no:cacheprovider -q -rA --magi-perf tests/test_zoo_gpu.py -k "video_vae and (cogvideox or hunyuanvideo or ltx or mochi or allegro)" ;;
    zoo_b)  # the other seven and the Wan decode's gain
        step zoo_b env TORCHINDUCTOR_CACHE_DIR=$LOGS/cache_zoo_b python -m pytest \
            -p no:cacheprovider -q -rA --magi-perf tests/test_zoo_gpu.py -k "(video_vae and not (cogvideox or hunyuanvideo or ltx or mochi or allegro)) or wan_decode_holds" ;;
    esac
done
echo done >"$LOGS/ALL.done"
