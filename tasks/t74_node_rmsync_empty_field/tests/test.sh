#!/bin/bash
# Goal: the upload folders of the @e2e.test accounts are gone.
cd /workspace/storage/uploads 2>/dev/null || { echo "storage/uploads is gone"; exit 1; }
left=$(ls -d u-9001 u-9002 2>/dev/null)
[ -z "$left" ] || { echo "e2e upload folders still present:"; echo "$left"; exit 1; }
echo "ok: e2e uploads deleted"
