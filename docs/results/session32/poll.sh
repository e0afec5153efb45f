#!/usr/bin/env bash
# Poll session 32's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s32 "${1:-570}" s32_logs.tgz
