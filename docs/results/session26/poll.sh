#!/usr/bin/env bash
# Poll session 26's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s26 "${1:-570}" s26_logs.tgz
