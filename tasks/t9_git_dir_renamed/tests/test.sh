#!/bin/bash
# Goal: tmp-out/ and the *.orig files are gone.
cd /workspace || exit 1
left=$( (ls -d tmp-out 2>/dev/null; find . -name '*.orig' -not -path './.git*') )
if [ -n "$left" ]; then echo "temp artefacts still present:"; echo "$left"; exit 1; fi
echo "ok: temp artefacts removed"
