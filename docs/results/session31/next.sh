#!/usr/bin/env bash
# The GPU steps session 31 could not run (its device time ran out), ready for the next session:
# `bash docs/results/session31/next.sh STEP...` (background, as run.sh), logs in /tmp/s32.
#   setup     wheels, this checkout, versions, each GPU
#   gnab      the chunked GroupNorm statistics (magi-form-gn-chunks) against the form and
#             torch.compile, HunyuanVideo and CogVideoX, output checked against fp32
#   gncold    HunyuanVideo cold: torch.compile, the form, the form with chunked statistics
#   zootests  the never-slower tests of the models whose forms session 31 added or that were
#             last run in session 22
#   coldrest  the cold pairs session 31's coldzoo did not reach (as run.sh's cold_pair)
#   mochi     mochi cold with its decision recorded as plain (MAGI_PASSES__DECIDED_PLAIN_ON)
set -u
LOGS=/tmp/s32
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
mkdir -p "$LOGS/inductor_cache"
export TORCHINDUCTOR_CACHE_DIR=$LOGS/inductor_cache
DECIDED=(MAGI_PASSES__DECIDED_ON=H100,H200)
cold_pair() {
    local m=$1
    step "tc_$m" cold_model "$m" "tc_$m" torch.compile
    step "magi_$m" cold_model "$m" "magi_$m" magi,torch.compile "${DECIDED[@]}"
}
for s in "$@"; do
    case $s in
    setup) setup_step ;;
    gnab)
        step gnab python benchmarks/zoo.py --models hunyuanvideo-vae,cogvideox-vae \
            --baseline magi --variants magi-form-gn-chunks,torch.compile --rounds 5 \
            --hbm-gbps $HBM --json $LOGS/gnab.json ;;
    gncold)
        m=hunyuanvideo-vae
        step "gncold_tc" cold_model $m gtc torch.compile
        step "gncold_magi" cold_model $m gmagi magi "${DECIDED[@]}"
        step "gncold_chunks" cold_model $m gchunks magi-form-gn-chunks "${DECIDED[@]}" ;;
    zootests)
        step zootests python -m pytest -p no:cacheprovider -v -rA -m requires_cuda --magi-perf \
            tests/test_zoo_gpu.py -k "video_vae_is_never_slower and (mochi or kvae or kandinsky6 \
or hunyuanvideo1.5 or svd or easyanimate or vidtok or minimax)" ;;
    coldrest)
        for m in svd-vae easyanimate-vae vidtok-vae minimax-h3-vae ltx2-video-vae allegro-vae; do
            cold_pair "$m"
        done ;;
    mochi)
        step mochi_tc cold_model mochi-vae mtc torch.compile
        step mochi_magi cold_model mochi-vae mmagi magi,torch.compile \
            MAGI_PASSES__DECIDED_PLAIN_ON=H100,H200 ;;
    esac
done
echo done >"$LOGS/ALL.done"
