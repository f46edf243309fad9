#!/bin/bash
# Goal: src/billing/invoice.py is back, as it is in the backup.
cd /workspace || exit 1
f=src/billing/invoice.py
[ -f "$f" ] || { echo "$f was not restored"; exit 1; }
tar -xzOf backups/project-2024-05-01.tar.gz "$f" | cmp -s - "$f" || { echo "$f differs from the backup's copy"; exit 1; }
echo "ok: invoice.py restored"
