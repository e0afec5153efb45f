#!/usr/bin/env bash
# Poll the background run.sh: wait until /tmp/s23/ALL.done or $1 seconds, then print each ended
# step's rc and the tail of the newest log, and tar every log into $OUT/s23_logs.tgz.
set -u
end=$((SECONDS + ${1:-570}))
while [ ! -e /tmp/s23/ALL.done ] && [ $SECONDS -lt $end ]; do sleep 5; done
cd /tmp/s23 || exit 1
for f in *.rc; do [ -e "$f" ] && echo "rc ${f%.rc}: $(cat "$f")"; done
[ -e ALL.done ] && echo "ALL.done"
newest=$(ls -t ./*.log 2>/dev/null | head -1)
[ -n "$newest" ] && { echo "== tail $newest"; tail -c 6000 "$newest"; }
tar czf "$OUT/s23_logs.tgz" ./*.log ./*.json 2>/dev/null
true
