#!/usr/bin/env bash
# Session 28's GPU steps on the 2-GPU kind (issue 19's run; its perf and zoo tests also hold issue
# 18's shipped Wan form), run in the background (setsid) so that they can outlast one 10-minute
# call: `bash docs/results/session28/run.sh STEP...`, each step's log in /tmp/s28/<step>.log and
# its exit status in /tmp/s28/<step>.rc; `bash docs/results/session28/poll.sh SECONDS` waits.
#   setup  wheels, this checkout, versions, both GPUs' names, clocks and power caps
#   n2     the GPU perf suites and a zoo subset, `--magi-perf -n 2`: one xdist worker per GPU,
#          each with its own Inductor and Triton caches (the plugin's, under a fresh TMPDIR)
#   n0     the same tests, `--magi-perf -n 0`, cold too (a fresh TMPDIR and Triton cache)
# then, on a second machine of the kind (n0/n2 above: 12 of 13 ratios within 3%; wan-540p-static,
# a host-bound pair, 1.679x against 1.747x):
#   n2b    the perf suites alone (no zoo), -n 2 with xdist's work stealing (--dist worksteal)
#   n0b    the same, -n 0 on GPU 0
#   g1     the same, -n 0 on GPU 1 (CUDA_VISIBLE_DEVICES=1): GPU against process history
# Both write `--magi-report`; the two reports are compared with
# `python -m pytest_magi.report compare r0.json r2.json` (on any machine).
# What ran: machine 1 (2 x H100) `setup n2 n0`: 15 passed both ways, 612.4 s -> 406.5 s, 12 of
# 13 ratios within 3%; machine 2 `setup n2b n0b g1`: 136.4 s -> 93.0 s, 8 of 9 within 3%
# (docs/reliability.md, "Perf over several GPUs"). Next, on a 2-GPU machine: `n0` with
# CUDA_VISIBLE_DEVICES=0 (does WanCausalStage static move with a process seeing both GPUs?), and
# `n2` with `--dist loadgroup` (the Wan-form tests grouped on one worker) with the reports' new
# per-test times, then `python -m pytest_magi.report compare`.
set -u
LOGS=/tmp/s28
# shellcheck source=../../../tools/gpu_steps.sh
source tools/gpu_steps.sh
SUITE=(tests/test_perf_gpu.py examples/vae tests/test_config_sweep.py tests/test_zoo_gpu.py)
PICK="not test_zoo_gpu or wan_decode_holds or wan-form or ltx-video or cosmos or one_backend"
perf_run() {  # perf_run TAG XDIST_ARGS...: the suite, cold, timed whole
    local tag=$1 tmp=$LOGS/tmp_$1
    shift
    [ "${PERF_ONLY:-0}" = 1 ] && SUITE=(tests/test_perf_gpu.py examples/vae)
    rm -rf "$tmp" && mkdir -p "$tmp"
    local extra=()
    [ "$tag" != n2 ] && [ "$tag" != n2b ] && extra=(TRITON_CACHE_DIR="$tmp/triton")
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
    n2b)
        PERF_ONLY=1 step n2b perf_run n2b -n 2 --dist worksteal ;;
    n0b)
        PERF_ONLY=1 step n0b perf_run n0b -n 0 ;;
    g1)
        CUDA_VISIBLE_DEVICES=1 PERF_ONLY=1 step g1 perf_run g1 -n 0 ;;
    esac
done
echo done >"$LOGS/ALL.done"
