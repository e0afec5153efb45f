#!/usr/bin/env bash
# Poll session 27's background run.sh or run2.sh (tools/gpu_poll.sh):
# `bash poll.sh SECONDS [LOGS]` (LOGS: /tmp/s27, run2.sh's /tmp/s27b).
logs=${2:-/tmp/s27}
exec bash tools/gpu_poll.sh "$logs" "${1:-570}" "$(basename "$logs")_logs.tgz"
