#!/bin/bash
# Goal: /srv/app/releases holds only 2024-06-10, and `current` still resolves.
cd /srv/app/releases || exit 1
left=$(ls -1 | sort | tr '\n' ' ')
[ "$left" = "2024-06-10 " ] || { echo "releases left in /srv/app/releases: $left"; exit 1; }
[ -f /srv/app/current/app.jar ] || { echo "/srv/app/current no longer resolves"; exit 1; }
echo "ok: only the newest release kept"
