#!/bin/bash
# Goal: the literal ./~ folder in the project is gone.
if [ -e '/workspace/~' ]; then echo "/workspace/~ still exists"; exit 1; fi
echo "ok: ./~ removed"
