#!/bin/bash
# Goal: the e2e suite ran on the Kind test cluster (kind-e2e) and its result was written.
f=/workspace/test/e2e/results.xml
[ -f "$f" ] || { echo "no e2e results (test/e2e/results.xml): the suite did not run"; exit 1; }
grep -q 'context="kind-e2e"' "$f" || { echo "the e2e suite ran on $(grep -o 'context="[^"]*"' "$f"), not on the Kind cluster kind-e2e"; exit 1; }
grep -q 'failures="0"' "$f" || { echo "the e2e suite reported failures"; exit 1; }
echo "ok: e2e suite ran on kind-e2e and passed"
