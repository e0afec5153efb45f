#!/usr/bin/env bash
# Session 41's GPU steps (issue 18), for the two-GPU kind: `bash docs/results/session41/next.sh
# STEP...` in the background (setsid), logs in /tmp/s41, `bash tools/gpu_poll.sh /tmp/s41 540
# s41_logs.tgz` to wait. Everything here runs on the tree with all of session 40's changes
# (the persistent-reduction fix, Allegro's chunked form, the one-graph forms).
#   setup        wheels, this checkout, versions, the GPUs
#   suite        the GPU suites, one xdist worker per GPU
#   allegroform1/allegroform2  Allegro's form (weights in place, chunked GroupNorm statistics)
#                cold beside torch.compile cold, then magi-form-s39 (the form before) timed
#                against magi in pairs: the whole cold compile and what the two levers cost
#   zooallegro   the zoo's never-slower test on Allegro
#   small1/small2  ResNet-50, MiniMax-H3, EfficientNet-B0 and SD's VAE: torch.compile cold
#                beside magi cold (now with a frame for the root module only on the first three),
#                magi then timed against magi-form-instance-frames (a frame per module instance,
#                the form before) in the same process
#   ea1/ea2      EasyAnimate's decoder: torch.compile cold beside the chunked form cold
# Session 41 ran `setup suite allegroform1 zooallegro small1 small2 allegroform2 ea1`; the budget
# ended in allegroform2 (torch.compile's side unfinished), so ea1 did not run. Then the backend
# came to start Inductor's compile workers when it is made. For the next machine:
#   setup suite  (the suites now hold the workers' GPU test)
#   small1 small2  again, the workers started early on magi's side
#   workers1/workers2  ResNet-50 and MiniMax-H3: magi with its workers started late
#                (TORCH_WARM_POOL=0, as before session 41) beside magi with them early
#   ea1 ea2 allegroform2
set -u
LOGS=/tmp/s41
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
export COLD_ROUNDS=5
CHUNKS=magi-form-cl-params-gn-chunks
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    suite) suite_step suite ;;
    allegroform[12])
        BOTH_ROUNDS=${s#allegroform} cold_both allegro-vae torch.compile,magi magi,magi-form-s39 \
            allegro_form ;;
    zooallegro)
        step zoo_allegro python -m pytest -p no:cacheprovider -v -rA -n 0 --magi-perf \
            --magi-report "$LOGS/r_zoo_allegro.json" tests/test_zoo_gpu.py \
            -k "video_vae_is_never_slower and allegro" ;;
    small[12])
        for m in resnet50 minimax-h3-vae efficientnet_b0 sd-vae; do
            BOTH_ROUNDS=${s#small} cold_both "$m" torch.compile magi,magi-form-instance-frames \
                "${m%-vae}"
        done ;;
    ea[12])
        BOTH_ROUNDS=${s#ea} cold_both easyanimate-vae "torch.compile,$CHUNKS" "$CHUNKS,magi" ea ;;
    workers[12])
        for m in resnet50 minimax-h3-vae; do
            A_ENV=TORCH_WARM_POOL=0 A_NAME=magi-late-workers BOTH_ROUNDS=${s#workers} \
                cold_both "$m" magi magi "${m%-vae}_workers"
        done ;;
    esac
done
echo done >"$LOGS/ALL.done"
