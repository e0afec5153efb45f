#!/usr/bin/env bash
# Sourced by a session's GPU script (docs/results/session*/run.sh), with LOGS set to its log
# folder on the device machine: makes the folder, clears the end marker of an earlier run, sets
# HBM (the GPU's HBM bandwidth in GB/s, for --hbm-gbps) and defines
#   step NAME CMD...   run CMD, its output in $LOGS/NAME.log and its exit status in $LOGS/NAME.rc.
# The script ends with `echo done >"$LOGS/ALL.done"`; tools/gpu_poll.sh waits for that marker.
: "${LOGS:?set LOGS to the log folder before sourcing tools/gpu_steps.sh}"
mkdir -p "$LOGS"
rm -f "$LOGS/ALL.done"
export PYTHONUNBUFFERED=1
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
*H100*) HBM=3350 ;;  # H100 SXM HBM3
*) HBM=4800 ;;       # H200 HBM3e
esac
step() {
    local name=$1
    shift
    echo "== $(date -u +%T) $name: $*" >"$LOGS/$name.log"
    ("$@") >>"$LOGS/$name.log" 2>&1
    echo $? >"$LOGS/$name.rc"
}
