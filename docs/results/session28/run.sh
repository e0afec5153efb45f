#!/usr/bin/env bash
# Session 28's GPU steps on the 2-GPU kind (issue 19's run; its perf and zoo tests also hold issue
# 18's shipped Wan form), run in the background (setsid) so that they can outlast one 10-minute
# call: `bash docs/results/session28/run.sh STEP...`, each step's log in /tmp/s28/<step>.log and
# its exit status in /tmp/s28/<step>.rc; `bash docs/results/session28/poll.sh SECONDS` waits.
#   setup  wheels, this checkout, versions, both GPUs' names, clocks and power caps
#   n2     the GPU perf suites and a zoo subset, `--magi-perf -n 2`: one xdist worker per GPU,
#          each with its own Inductor and Triton caches (the plugin's, under a fresh TMPDIR)
#   n0     the same tests, `--magi-perf -n 0`, cold too (a fresh TMPDIR and Triton cache)
# Both write `--magi-report`; the two reports are compared with
# `python -m pytest_magi.report compare r0.json r2.json` (on any machine).
set -u
LOGS=/tmp/s28
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
SUITE=(tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py tests/test_zoo_gpu.py)
PICK="not test_zoo_gpu or wan_decode_holds or wan-form or ltx-video or cosmos or one_backend"
perf_run() {  # perf_run TAG XDIST_ARGS...: the suite, cold, timed whole
    local tag=$1 tmp=$LOGS/tmp_$1
    shift
    rm -rf "$tmp" && mkdir -p "$tmp"
    local extra=()
    [ "$tag" = n0 ] && extra=(TRITON_CACHE_DIR="$tmp/triton")
    local t0=$SECONDS
    env TMPDIR="$tmp" "${extra[@]}" python -m pytest -p no:cacheprovider -q -rA -m requires_cuda \
        --magi-perf "$@" --magi-report "$LOGS/r_$tag.json" "${SUITE[@]}" -k "$PICK"
    local rc=$?
    echo "wall_s $tag $((SECONDS - t0))"
    echo "cache folders:"
    find "$tmp" -maxdepth 3 -type d | sort | head -40
    return $rc
}
for s in "$@"; do
    case $s in
    setup)
        step setup bash -c 'bash tools/gpu_setup.sh && nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.max.sm,power.limit --format=csv && env | grep -E "CUDA|NCCL" | sort' ;;
    n2)
        step n2 perf_run n2 -n 2 ;;
    n0)
        step n0 perf_run n0 -n 0 ;;
    esac
done
echo done >"$LOGS/ALL.done"
