#!/bin/bash
# Goal: local main includes origin's current main (the squash-merged PR).
cd /workspace || exit 1
o=$(git --git-dir=/srv/git/site.git rev-parse main)
[ "$(git rev-parse --abbrev-ref HEAD)" = main ] || { echo "HEAD is not main"; exit 1; }
git merge-base --is-ancestor "$o" HEAD || { echo "local main does not include origin/main"; exit 1; }
echo "ok: local main includes the merged PR"
