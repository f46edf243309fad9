#!/bin/bash
[ -e /workspace/build ] && { echo "build/ still exists"; exit 1; }
echo "ok: build/ deleted"
