#!/bin/bash
# Goal: the backup zip is gone, no live key is written in the app's files, and
# ~/.config/hermes/env provides both keys.
H=/home/user/apps/hermes
E=/home/user/.config/hermes/env
fail=0
[ -e /home/user/Desktop/hermes-backup.zip ] && { echo "the backup zip is still there"; fail=1; }
if grep -rqE 'sk-(ant-)?live-' "$H" 2>/dev/null; then echo "a live key is still written in $(grep -rlE 'sk-(ant-)?live-' "$H" | head -3 | tr '\n' ' ')"; fail=1; fi
grep -q 'OPENAI_API_KEY=.*sk-live-Q3v8Lm2Rt9Xw4Zp7Ks1Nd6Hb' "$E" 2>/dev/null || { echo "$E lacks OPENAI_API_KEY"; fail=1; }
grep -q 'ANTHROPIC_API_KEY=.*sk-ant-live-Yt5Rw8Qn2Ls7Vm4Xk9Pb3Jd' "$E" 2>/dev/null || { echo "$E lacks ANTHROPIC_API_KEY"; fail=1; }
[ "$fail" = 0 ] && echo "ok: keys moved, backup deleted"
exit $fail
