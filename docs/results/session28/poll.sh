#!/usr/bin/env bash
# Poll session 28's background run.sh or run2.sh (tools/gpu_poll.sh):
# `bash poll.sh SECONDS [LOGS]` (LOGS: /tmp/s28, run2.sh's /tmp/s28b).
logs=${2:-/tmp/s28}
exec bash tools/gpu_poll.sh "$logs" "${1:-570}" "$(basename "$logs")_logs.tgz"
