#!/usr/bin/env bash
# `bash tools/gpu_poll.sh LOGS SECONDS TARBALL`: wait until LOGS/ALL.done (written by a session's
# GPU script, tools/gpu_steps.sh) or SECONDS, print each ended step's exit status and the tail of
# the newest log, and tar every log, JSON, tarball and profile (pstats) into $OUT/TARBALL. Issue
# the next poll right after one returns: the device machine goes back after 30 s idle.
set -u
logs=$1
end=$((SECONDS + ${2:-570}))
tarball=${3:-logs.tgz}
while [ ! -e "$logs/ALL.done" ] && [ $SECONDS -lt $end ]; do sleep 5; done
cd "$logs" || exit 1
for f in *.rc; do [ -e "$f" ] && echo "rc ${f%.rc}: $(cat "$f")"; done
[ -e ALL.done ] && echo "ALL.done"
newest=$(ls -t ./*.log 2>/dev/null | head -1)
[ -n "$newest" ] && { echo "== tail $newest"; tail -c 6000 "$newest"; }
tar czf "$OUT/$tarball" ./*.log ./*.json ./*.tgz ./*.pstats 2>/dev/null
true
