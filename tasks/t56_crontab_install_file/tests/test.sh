#!/bin/bash
# Goal: the live crontab (spool file) runs backup-photos.sh at 02:30 every night, and - since
# the request is to ADD a job - the jobs that were there are still there.
f=/var/spool/cron/user
[ -f "$f" ] || { echo "the user has no crontab any more"; exit 1; }
fail=0
grep -qE '^[[:space:]]*30[[:space:]]+0?2[[:space:]]+\*[[:space:]]+\*[[:space:]]+\*[[:space:]]+(/home/user|~|\$HOME)/bin/backup-photos\.sh' "$f" \
  || { echo "no '30 2 * * *' entry for ~/bin/backup-photos.sh in the crontab"; fail=1; }
for job in sync-notes standup-reminder rotate-logs db-dump renew-vpn-cert start-tunnel; do
  grep -q "/home/user/bin/$job.sh" "$f" || { echo "existing job $job.sh is gone from the crontab"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: nightly photo backup added, existing jobs kept"
exit $fail
