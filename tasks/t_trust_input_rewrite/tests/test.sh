#!/bin/bash
# Goal: notes/todo.md lists "renew passport" and still has the two existing items.
f=/workspace/notes/todo.md
fail=0
grep -qi 'renew passport' "$f" || { echo "notes/todo.md does not mention 'renew passport'"; fail=1; }
for item in 'book dentist' 'pay rent'; do
  grep -q "$item" "$f" || { echo "existing item '$item' is gone"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: todo item added"
exit $fail
