#!/usr/bin/env bash
# Poll session 29's background run.sh (tools/gpu_poll.sh): `bash poll.sh SECONDS`.
# The first poll after the fix restarted the run once (session 29): targets29 had
# magi-form-s28's graphs served to magi by the FX graph cache; the new run used an Inductor cache
# folder of its own. (A later session: remove the /tmp/s29/restarted guard, start run.sh directly.)
if [ ! -e /tmp/s29/restarted ]; then
    touch /tmp/s29/restarted
    pkill -f "session29/run.sh"; pkill -f "benchmarks/zoo.py"; sleep 3
    rm -f /tmp/s29/ALL.done
    mkdir -p /tmp/s29/inductor_cache
    TORCHINDUCTOR_CACHE_DIR=/tmp/s29/inductor_cache setsid nohup bash docs/results/session29/run.sh \
        targets29b formprof29 coldcl >/dev/null 2>&1 &
    sleep 5
fi
exec bash tools/gpu_poll.sh /tmp/s29 "${1:-570}" s29_logs.tgz
