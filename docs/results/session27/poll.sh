#!/usr/bin/env bash
# Poll session 27's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s27 "${1:-570}" s27_logs.tgz
