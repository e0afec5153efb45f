#!/usr/bin/env bash
# Session 40's GPU steps (issue 18: compile <= torch.compile's on every zoo model), for the
# two-GPU kind. `bash docs/results/session40/next.sh STEP...` in the background (setsid), logs in
# /tmp/s40, `bash tools/gpu_poll.sh /tmp/s40 540 s40_logs.tgz` to wait. The cold compiles run as
# `cold_both`: one side cold on each GPU at the same time (the host's contention falls on both),
# then the GPUs swapped; each process times the variants after its first against it, so every
# round also gives speed ratios measured side by side.
#   setup     wheels, this checkout, versions, the GPUs
#   allegro1/allegro2  Allegro's decoder: torch.compile cold (then the chunked form timed against
#             it) beside the chunked form cold (`magi-form-cl-params-gn-chunks`: weights in
#             place, GroupNorm statistics chunked; then magi, the session 38 form, timed
#             against it). In fake CUDA (session 39) the chunked form makes 1077 launches
#             against the form's 1413 and Inductor's 1179, fuses in 12.5 s against 16.6 and
#             autotunes 190 configs against 343; on the H100 (session 39) magi compiled in
#             1.245x torch.compile's time
#   ea1/ea2   EasyAnimate's decoder the same (magi 1.024x torch.compile's compile in session 38;
#             the chunked form 571 launches in fake CUDA against 689 and Inductor's 603)
#   suite     the GPU suites, one xdist worker per GPU (the passes changed since session 38's
#             run: ProducerRecomputePass, opt-in, in the pass order)
#   gputest   tests/test_kernel_configs.py on the GPU (the fixed-config fix after the chunked
#             forms' crash in allegro1/ea1: a persistent chunk reduction keeps Inductor's config)
#   small     sd-vae, resnet50, efficientnet_b0 and MiniMax-H3: torch.compile and magi cold at
#             once, one round (never compiled cold side by side)
# Session 40 ran `setup allegro1 ea1 suite allegro2 ea2 small`, then `setup gputest allegro1`
# after the fix (its budget ended during allegro1's timed pairs). For the next machine:
#   allegroform1/allegroform2  Allegro's new form (magi: weights in place, chunked statistics)
#             cold beside torch.compile cold, then magi-form-s39 (the form before) timed
#             against it: the whole cold compile where the form is decided (an H100's) and the
#             speed the two levers cost, in pairs of many rounds
#   ea1/ea2   again: EasyAnimate's chunked form crashed before the fix (in fake CUDA, torch 2.11:
#             583 launches, 1028 scheduler operations, against the form's 691 and 1288 and
#             Inductor's 606 and 1038)
#   zooallegro  the zoo's never-slower test on Allegro's new form
#   smallswap the small models' second round, the GPUs swapped (ResNet-50 1.284x and MiniMax-H3
#             1.016x in the first)
set -u
LOGS=/tmp/s40
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
export COLD_ROUNDS=5
CHUNKS=magi-form-cl-params-gn-chunks
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    allegro[12])
        BOTH_ROUNDS=${s#allegro} cold_both allegro-vae "torch.compile,$CHUNKS" "$CHUNKS,magi" \
            allegro ;;
    ea[12])
        BOTH_ROUNDS=${s#ea} cold_both easyanimate-vae "torch.compile,$CHUNKS" "$CHUNKS,magi" ea ;;
    suite) suite_step suite ;;
    allegroform[12])
        BOTH_ROUNDS=${s#allegroform} cold_both allegro-vae torch.compile,magi magi,magi-form-s39 \
            allegro_form ;;
    zooallegro)
        step zoo_allegro python -m pytest -p no:cacheprovider -v -rA -n 0 --magi-perf \
            --magi-report "$LOGS/r_zoo_allegro.json" tests/test_zoo_gpu.py \
            -k "video_vae_is_never_slower and allegro" ;;
    smallswap)
        for m in resnet50 minimax-h3-vae sd-vae efficientnet_b0; do
            BOTH_ROUNDS=2 cold_both "$m" torch.compile magi "${m%-vae}"
        done ;;
    gputest)
        step gputest python -m pytest -p no:cacheprovider -v -rA -n 0 -m requires_cuda \
            tests/test_kernel_configs.py ;;
    small)
        for m in sd-vae resnet50 efficientnet_b0 minimax-h3-vae; do
            BOTH_ROUNDS=1 cold_both "$m" torch.compile magi "${m%-vae}"
        done ;;
    esac
done
echo done >"$LOGS/ALL.done"
