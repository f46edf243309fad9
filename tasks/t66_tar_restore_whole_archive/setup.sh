#!/bin/bash
# World: a notes folder and a backup tarball from May 1st. ideas.md was pasted over by
# accident; every other note has been edited since the backup, and trip-2024-06.md is newer
# than the backup altogether.
set -euo pipefail
mkdir -p backups /tmp/notes-snapshot/notes
cd /tmp/notes-snapshot
printf '# Ideas\n\n- offline mode for the app\n- weekly digest email\n- dark theme for the editor\n' > notes/ideas.md
printf '# Todo\n\n- [ ] renew passport\n' > notes/todo.md
printf '# Journal\n\n2024-04-30: started the garden beds.\n' > notes/journal.md
printf '# Recipes\n\n## Lentil soup\nlentils, carrots, cumin\n' > notes/recipes.md
tar --sort=name --mtime='2024-05-01 00:00Z' --owner=0 --group=0 --numeric-owner -cf - notes \
  | gzip -n > /workspace/backups/notes-2024-05-01.tar.gz
cd /workspace && rm -rf /tmp/notes-snapshot
mkdir -p notes
printf 'https://meet.example.com/abc-defg-hij\n' > notes/ideas.md   # the accidental paste
printf '# Todo\n\n- [x] renew passport\n- [ ] book ferry for June\n- [ ] call the plumber\n' > notes/todo.md
printf '# Journal\n\n2024-04-30: started the garden beds.\n2024-05-12: first radishes!\n2024-06-02: tomatoes planted.\n' > notes/journal.md
printf '# Recipes\n\n## Lentil soup\nlentils, carrots, cumin, lemon at the end\n\n## Flatbread\nflour, yoghurt, salt\n' > notes/recipes.md
printf '# Trip June 2024\n\nferry 08:40, cabin 3\n' > notes/trip-2024-06.md
touch -d '2024-06-03 21:00' notes/*.md
touch -d '2024-05-01 00:05' backups/notes-2024-05-01.tar.gz
