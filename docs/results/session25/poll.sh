#!/usr/bin/env bash
# Poll session 25's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s25 "${1:-570}" s25_logs.tgz
