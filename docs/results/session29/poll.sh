#!/usr/bin/env bash
# Poll session 29's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s29 "${1:-570}" s29_logs.tgz
