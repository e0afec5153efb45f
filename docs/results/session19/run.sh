#!/usr/bin/env bash
# Session 19's GPU steps, run in the background on the device machine (setsid) so that they can
# outlast one 10-minute call: `bash docs/results/session19/run.sh STEP...`, each step's log in
# /tmp/s19/<step>.log, and /tmp/s19/<step>.rc when it ends. The poll calls copy them to $OUT.
# wheels/old18 (carried, git-ignored): magi_passes, pytest_magi and benchmarks as of commit
# 2ae8aa2 (session 18), for the rerun of session 18's wrong output on its own code
# (`mkdir -p wheels/old18 && git archive 2ae8aa2 magi_passes pytest_magi benchmarks | tar -x -C
# wheels/old18`). Ran this session: setup, locate_old, locate_new (logs beside this file); the
# machine went back before probe, targets and tests ran (see docs/benchmarks.md, "Session 19").
set -u
mkdir -p /tmp/s19
rm -f /tmp/s19/ALL.done  # this invocation's end marker, not an earlier one's
export PYTHONUNBUFFERED=1
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
*H100*) HBM=3350 ;;  # H100 SXM HBM3
*) HBM=4800 ;;       # H200 HBM3e
esac
step() {
    local name=$1
    shift
    echo "== $(date -u +%T) $name: $*" >"/tmp/s19/$name.log"
    ("$@") >>"/tmp/s19/$name.log" 2>&1
    echo $? >"/tmp/s19/$name.rc"
}
# session 18's wrong T=21 decode (magi, conv pad fold off, decisions off, after T=3 decodes)
LOCATE=(--models wan2.2-vae --frames 21 --locate --locate-backend magi
    --locate-before-frames 3,3 --locate-fp32 --locate-budget 240)
for s in "$@"; do
    case $s in
    setup)
        step setup bash -c 'bash tools/gpu_setup.sh && nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv' ;;
    probe)  # the weight conversion forms, side by side, on the decoder's real weight shapes
        step probe python tools/probes/weight_batch_ab.py --rounds 15 ;;
    locate_old)  # session 18's code, beside the fake-CUDA tests (CPU only: no timing runs meanwhile)
        step locate_old env MAGI_PASSES__MEASURE_DECISIONS=0 MAGI_PASSES__ENABLE_CONV_PAD_FOLD=0 \
            PYTHONPATH=wheels/old18 python wheels/old18/benchmarks/zoo_numerics.py "${LOCATE[@]}" &
        step cputests python -m pytest -p no:cacheprovider -q tests/test_channels_last.py
        step snapshots bash -c 'python -m pytest -p no:cacheprovider -q \
            tests/test_snapshot_suite.py -k static-magi --snapshot-update; rc=$?;
            tar czf /tmp/s19/snap211.tgz tests/__snapshots__/torch-2.11; exit $rc'
        wait ;;
    locate_new)  # the same on this session's code, with the budget for the cures, beside the
        # fake-CUDA tests and the torch-2.11 snapshots (CPU only)
        step locate_new env MAGI_PASSES__MEASURE_DECISIONS=0 MAGI_PASSES__ENABLE_CONV_PAD_FOLD=0 \
            python benchmarks/zoo_numerics.py "${LOCATE[@]}" --locate-budget 400 &
        step cputests python -m pytest -p no:cacheprovider -q tests/test_channels_last.py
        step snapshots bash -c 'python -m pytest -p no:cacheprovider -q \
            tests/test_snapshot_suite.py -k static-magi --snapshot-update; rc=$?;
            tar czf /tmp/s19/snap211.tgz tests/__snapshots__/torch-2.11; exit $rc'
        wait ;;
    g35)  # graph 35's three kernels, each with every config, on the decode's inputs (~1 min)
        step g35 python tools/probes/graph35_configs.py ;;
    sweep)  # the cached producers' configs: right or wrong, and how fast (the 38%-of-HBM kernel)
        step sweep512 python tools/probes/kernel_sweep.py --model wan-resblock --channels 512 \
            --height 136 --width 240 --extra
        step sweep1024 python tools/probes/kernel_sweep.py --model wan-resblock --channels 1024 \
            --height 34 --width 60 --pattern cat --extra ;;
    catab)  # the opt-in channels_last_through_cat, and the conv2d upsampler graphs channels-last,
        # each against magi on the whole decode, decisions off
        step catab env MAGI_PASSES__MEASURE_DECISIONS=0 python benchmarks/zoo.py \
            --models wan2.2-vae --frames 3 --wan-frames 3,21 --baseline magi \
            --variants magi-cl-cat,magi-cl-conv2d --rounds 5 --hbm-gbps $HBM ;;
    targets)  # issue 18's targets, magi as shipped (decisions on), T=3 and T=21, profiled
        step targets python benchmarks/zoo.py --models wan2.2-vae --frames 3 --wan-frames 3,21 \
            --variants torch.compile,torch.compile+frames,magi --rounds 3 --profile \
            --profile-rounds 2 --profile-top 14 --hbm-gbps $HBM ;;
    tests)  # the GPU tests of the passes and the zoo's never-slower tests of the video VAEs
        step tests python -m pytest -p no:cacheprovider -q -m requires_cuda --magi-perf \
            tests/test_perf_gpu.py examples/vae
        step zoo_tests python -m pytest -p no:cacheprovider -q --magi-perf tests/test_zoo_gpu.py \
            -k "video_vae or wan_decode" ;;  # wan_decode_is_right_after_another_length included
    esac
done
echo done >/tmp/s19/ALL.done
