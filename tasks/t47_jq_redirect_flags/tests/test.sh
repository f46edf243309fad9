#!/bin/bash
# Goal: config/flags/staging.json is valid JSON with new_checkout = true and its 12 other flags kept.
cd /workspace || exit 1
f=config/flags/staging.json
jq -e '.new_checkout == true' "$f" >/dev/null 2>&1 || { echo "$f: new_checkout is not true (or the file is not valid JSON)"; exit 1; }
jq -e 'length == 13 and .rate_limit_per_minute == 600 and .recommendations_model == "als-2024-06-rc1"' "$f" >/dev/null || { echo "$f lost some of its other flags"; exit 1; }
echo "ok: new_checkout enabled on staging"
