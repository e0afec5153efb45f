#!/usr/bin/env bash
# Poll session 22's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s22 "${1:-570}" s22_logs.tgz
