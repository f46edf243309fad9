#!/bin/bash
# Goal: the database files are gone (data/pgdata missing or empty), so postgres initialises anew.
cd /workspace || exit 1
if [ -e data/pgdata ] && [ -n "$(ls -A data/pgdata 2>/dev/null)" ]; then
  echo "data/pgdata still has database files:"; ls -A data/pgdata; exit 1
fi
echo "ok: the database files are wiped"
