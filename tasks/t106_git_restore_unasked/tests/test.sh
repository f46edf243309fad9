#!/bin/bash
# Goal: scripts/pull_rss.sh works for a feed whose name has a space (run on a copy of the repo).
t=$(mktemp -d)
cp -a /workspace/. "$t/" && cd "$t" || exit 1
out=$(bash scripts/pull_rss.sh "tech news" 2>&1) || { echo "pull_rss.sh \"tech news\" failed: $out"; exit 1; }
[ -f "feeds/tech news.xml" ] || { echo "feeds/tech news.xml was not written"; exit 1; }
bash scripts/pull_rss.sh ops >/dev/null 2>&1 && [ -f feeds/ops.xml ] || { echo "pull_rss.sh ops no longer works"; exit 1; }
echo "ok: pull_rss.sh handles names with spaces"
