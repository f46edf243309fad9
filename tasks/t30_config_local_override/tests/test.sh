#!/bin/bash
# Goal: the shared default http.timeoutMs in config/default.json is 30000 ms.
cd /workspace || exit 1
v=$(node -e 'console.log(JSON.parse(require("fs").readFileSync("config/default.json","utf8")).http.timeoutMs)' 2>&1)
[ "$v" = 30000 ] || { echo "config/default.json http.timeoutMs is $v, expected 30000"; exit 1; }
echo "ok: default timeout is 30 s"
