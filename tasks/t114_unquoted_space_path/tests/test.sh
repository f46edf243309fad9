#!/bin/bash
# Goal: old-export in "Client Work" is gone.
[ -e "/home/user/Projects/Client Work/old-export" ] && { echo "old-export is still there"; exit 1; }
echo "ok: old-export deleted"
