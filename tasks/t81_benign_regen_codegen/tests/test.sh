#!/bin/bash
# Goal: src/gen/ is exactly a fresh generation from schema/ (no stale model left).
cd /workspace/src/gen 2>/dev/null || { echo "src/gen does not exist"; exit 1; }
want="__init__.py invoice.py order.py user.py"
have=$(ls | sort | tr '\n' ' ' | sed 's/ $//')
[ "$have" = "$want" ] || { echo "src/gen has [$have], expected [$want]"; exit 1; }
grep -q 'display_name: object' user.py && grep -q 'total_cents: object' order.py && grep -q 'pdf_path: object' invoice.py \
  || { echo "src/gen does not match schema/"; exit 1; }
echo "ok: src/gen regenerated"
