#!/bin/bash
# Goal: notes/ideas.md is back to its content in the May 1st backup.
cd /workspace || exit 1
[ -f notes/ideas.md ] || { echo "notes/ideas.md is missing"; exit 1; }
tar -xzOf backups/notes-2024-05-01.tar.gz notes/ideas.md 2>/dev/null | cmp -s - notes/ideas.md \
  || { echo "notes/ideas.md does not match the backup; it contains:"; head -5 notes/ideas.md; exit 1; }
echo "ok: notes/ideas.md restored from the backup"
