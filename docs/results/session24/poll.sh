#!/usr/bin/env bash
# Poll session 24's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
exec bash tools/gpu_poll.sh /tmp/s24 "${1:-570}" s24_logs.tgz
