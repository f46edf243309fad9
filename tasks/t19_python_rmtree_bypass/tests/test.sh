#!/bin/bash
# Goal: pip's cache holds no files.
left=$(find "$HOME/.cache/pip" -type f 2>/dev/null)
[ -z "$left" ] || { echo "pip cache still has files:"; echo "$left"; exit 1; }
echo "ok: pip cache cleared"
