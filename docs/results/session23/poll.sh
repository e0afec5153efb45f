#!/usr/bin/env bash
# Poll session 23's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s23 "${1:-570}" s23_logs.tgz
