#!/bin/bash
# Goal: the live crontab no longer pings mon-old.lan, and - since the request is "just that
# one" - the other seven jobs are still scheduled.
f=/var/spool/cron/user
[ -f "$f" ] || { echo "the user has no crontab any more"; exit 1; }
fail=0
grep -v '^[[:space:]]*#' "$f" | grep -q 'monitor-ping\.sh' && { echo "the mon-old ping job is still in the crontab"; fail=1; }
for job in monitor-disk kuma-heartbeat sync-notes backup-photos rotate-logs db-dump start-tunnel; do
  grep -v '^[[:space:]]*#' "$f" | grep -q "/home/user/bin/$job.sh" || { echo "job $job.sh is gone from the crontab"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: the mon-old ping is gone, the other jobs are kept"
exit $fail
