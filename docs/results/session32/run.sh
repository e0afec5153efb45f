#!/usr/bin/env bash
# Session 32's GPU steps (issue 18), run in the background (setsid) so that they can outlast one
# 10-minute call: `bash docs/results/session32/run.sh STEP...`, each step's log in
# /tmp/s32/<step>.log and its exit status in /tmp/s32/<step>.rc;
# `bash docs/results/session32/poll.sh SECONDS` waits. Written for the 2-GPU kind.
#   setup   wheels, this checkout, versions, each GPU's name, clock and power cap
#   suite   the GPU suites (perf pairs, examples, config sweep, workarounds, channels-last, norm
#           inputs, bounds, the Wan zoo tests) after sessions 31-32's changes, `--magi-perf -n 2
#           --dist loadgroup`: one xdist worker per GPU
#   lanes   two lanes at once, one per GPU:
#           0: `gnab` (HunyuanVideo and CogVideoX: the chunked GroupNorm statistics,
#              magi-form-gn-chunks, against the form and torch.compile, output checked against
#              fp32), `clab_*` (Kandinsky-6 SR and KVAE-3D: the form with the conv weights
#              channels-last in place, magi-form-cl-params, and with it the norm-input pin or
#              the chunked GroupNorm statistics, against the form and torch.compile),
#              then the zoo's never-slower tests of the models last run in session 22 or
#              given a form in session 31 (`-v`)
#           1: cold compiles, each variant alone in a process with empty caches: HunyuanVideo
#              (torch.compile, the form, the form with chunked statistics), Kandinsky-6 SR and
#              KVAE-3D (torch.compile, the form, the form with the conv weights channels-last in
#              place and the norm-input pin or the chunked statistics), mochi (torch.compile, the
#              form: decided plain)
set -u
LOGS=/tmp/s32
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
mkdir -p "$LOGS/inductor_cache"
export TORCHINDUCTOR_CACHE_DIR=$LOGS/inductor_cache
# the decided forms name the kind they were measured on; either kind takes them here (mochi's
# decision is plain: its own variable, a name in both lists is refused)
DECIDED=(MAGI_PASSES__DECIDED_ON=H100,H200)
SUITE=(tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py tests/test_workarounds.py
    tests/test_channels_last.py tests/test_norm_inputs.py tests/test_bounds.py tests/test_zoo_gpu.py)
ZOO_K="video_vae_is_never_slower and (svd or easyanimate or vidtok or minimax or kvae or \
kandinsky6 or hunyuanvideo1.5 or mochi)"
lane0() {
    export CUDA_VISIBLE_DEVICES=0
    step gnab env "${DECIDED[@]}" python benchmarks/zoo.py --models hunyuanvideo-vae,cogvideox-vae \
        --baseline magi --variants magi-form-gn-chunks,torch.compile --rounds 5 \
        --hbm-gbps $HBM --json $LOGS/gnab.json
    step clab_k6 env "${DECIDED[@]}" python benchmarks/zoo.py --models kandinsky6-sr-vae \
        --baseline magi --variants magi-form-cl-params,magi-form-cl-params-norm,torch.compile \
        --rounds 5 --hbm-gbps $HBM --json $LOGS/clab_k6.json
    step clab_kvae env "${DECIDED[@]}" python benchmarks/zoo.py --models kvae-3d-vae \
        --baseline magi --variants magi-form-cl-params,magi-form-cl-params-gn-chunks,torch.compile \
        --rounds 5 --hbm-gbps $HBM --json $LOGS/clab_kvae.json
    step zootests python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
        tests/test_zoo_gpu.py -k "$ZOO_K"
}
lane1() {
    export CUDA_VISIBLE_DEVICES=1
    local m v
    for m in hunyuanvideo-vae kandinsky6-sr-vae kvae-3d-vae mochi-vae; do
        case $m in
        hunyuanvideo-vae) extra=magi-form-gn-chunks ;;
        kandinsky6-sr-vae) extra=magi-form-cl-params-norm ;;
        kvae-3d-vae) extra=magi-form-cl-params-gn-chunks ;;
        *) extra="" ;;
        esac
        for v in torch.compile magi $extra; do
            if [ $m = mochi-vae ]; then
                step "cold_${m}_$v" cold_model "$m" "${m}_$v" "$v" MAGI_PASSES__DECIDED_PLAIN_ON=H100,H200
            else
                step "cold_${m}_$v" cold_model "$m" "${m}_$v" "$v" "${DECIDED[@]}"
            fi
        done
    done
}
for s in "$@"; do
    case $s in
    setup)
        step setup bash -c 'bash tools/gpu_setup.sh && nvidia-smi --query-gpu=index,name,clocks.max.sm,power.limit --format=csv && nproc' ;;
    suite)
        step suite python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
            -n 2 --dist loadgroup --magi-report "$LOGS/r_suite.json" "${SUITE[@]}" \
            -k "not test_zoo_gpu or wan_decode_holds or wan-form" ;;
    lanes)
        lane0 &
        lane1 &
        wait ;;
    esac
done
echo done >"$LOGS/ALL.done"
