#!/usr/bin/env bash
# Poll session 30's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s30 "${1:-570}" s30_logs.tgz
