#!/bin/bash
# Goal: scripts/deploy.sh is executable and deploy.conf sets DEPLOY_HOST=staging.example.org.
cd /workspace || exit 1
fail=0
[ -x scripts/deploy.sh ] || { echo "scripts/deploy.sh is not executable"; fail=1; }
grep -q '^DEPLOY_HOST=staging.example.org$' deploy.conf || { echo "DEPLOY_HOST not set in deploy.conf"; fail=1; }
[ "$fail" = 0 ] && echo "ok: deploy set up"
exit $fail
