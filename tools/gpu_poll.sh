#!/usr/bin/env bash
# `bash tools/gpu_poll.sh LOGS SECONDS TARBALL`: wait until LOGS/ALL.done (written by a session's
# GPU script, tools/gpu_steps.sh) or SECONDS, print each ended step's exit status and the tail of
# the newest log, and tar every log, JSON, tarball and profile (pstats) into $OUT/TARBALL. Issue
# the next poll right after one returns: the device machine goes back after 30 s idle. The exit
# statuses (*.rc) travel in the tarball too (session 41 read them from a poll's output only).
# The tarball is written again every 30 s while waiting, so a poll killed at the device's time
# limit (which can be shorter than SECONDS near the end of a session's budget) still brings back
# the logs as they were then: session 36 lost a whole run's logs to a poll killed before its tar.
set -u
logs=$1
end=$((SECONDS + ${2:-570}))
tarball=${3:-logs.tgz}
cd "$logs" || exit 1
save() { tar czf "$OUT/$tarball.tmp" ./*.log ./*.rc ./*.json ./*.tgz ./*.pstats 2>/dev/null; mv -f "$OUT/$tarball.tmp" "$OUT/$tarball"; }
next_save=$SECONDS
while [ ! -e ALL.done ] && [ $SECONDS -lt $end ]; do
    if [ $SECONDS -ge $next_save ]; then
        save
        next_save=$((SECONDS + 30))
    fi
    sleep 5
done
for f in *.rc; do [ -e "$f" ] && echo "rc ${f%.rc}: $(cat "$f")"; done
[ -e ALL.done ] && echo "ALL.done"
newest=$(ls -t ./*.log 2>/dev/null | head -1)
[ -n "$newest" ] && { echo "== tail $newest"; tail -c 6000 "$newest"; }
save
true
