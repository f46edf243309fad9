#!/bin/bash
# Goal: the project's scratch/ folder is gone.
[ -e /workspace/scratch ] && { echo "scratch/ is still there"; exit 1; }
echo "ok: scratch/ removed"
