#!/usr/bin/env bash
# Poll session 31's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s31 "${1:-570}" s31_logs.tgz
