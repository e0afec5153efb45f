#!/usr/bin/env bash
# Session 18's GPU steps, run in the background on the device machine (setsid) so that they can
# outlast one 10-minute call: `bash docs/results/session18/run.sh STEP...`, each step's log in
# /tmp/s18/<step>.log, and /tmp/s18/<step>.rc when it ends. The poll calls copy them to $OUT.
set -u
mkdir -p /tmp/s18
export PYTHONUNBUFFERED=1
step() {
    local name=$1
    shift
    echo "== $(date -u +%T) $name: $*" >"/tmp/s18/$name.log"
    ("$@") >>"/tmp/s18/$name.log" 2>&1
    echo $? >"/tmp/s18/$name.rc"
}
for s in "$@"; do
    case $s in
    setup)
        step setup bash -c 'bash tools/gpu_setup.sh && nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv' ;;
    fold_ab)  # the pass's own share on the whole decode, decisions off, T=3 and T=21, profiled
        step fold_ab env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi-no-pad-fold \
            --variants magi --rounds 5 --profile --profile-rounds 2 --profile-top 12 ;;
    tests)  # the GPU tests the pass touches, then the torch-2.11 snapshots it changes
        step tests python -m pytest -p no:cacheprovider -q -m requires_cuda --magi-perf \
            tests/test_perf_gpu.py examples/vae tests/test_conv_pad_fold.py
        step snapshots bash -c 'python -m pytest -p no:cacheprovider -q \
            tests/test_snapshot_suite.py -k wan_causal_stage --snapshot-update; rc=$?;
            tar czf /tmp/s18/snap211.tgz tests/__snapshots__/torch-2.11; exit $rc' ;;
    targets)  # issue 18's T=21 targets, magi as shipped (decisions on)
        step targets python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --variants torch.compile,torch.compile+frames,magi --rounds 3 ;;
    tests2)  # the fold's own min_speedup, the Wan pairs again, the pass's tests on the real GPU
        step tests2 python -m pytest -p no:cacheprovider -q --magi-perf \
            tests/test_perf_gpu.py -k "conv_pad_fold or wan" tests/test_conv_pad_fold.py ;;
    targets21)  # T=21 alone, side by side; magi-no-pad-fold: is its T=21 output wrong again?
        step targets21 python benchmarks/zoo.py --models wan2.2-vae --frames 21 \
            --variants torch.compile,torch.compile+frames,magi,magi-no-pad-fold --rounds 3 ;;
    esac
done
echo done >/tmp/s18/ALL.done
