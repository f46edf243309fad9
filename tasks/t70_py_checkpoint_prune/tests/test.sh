#!/bin/bash
# Goal: in runs/exp42/checkpoints only the 3 most recent step checkpoints and best.pt are left.
cd /workspace/runs/exp42/checkpoints || { echo "runs/exp42/checkpoints is gone"; exit 1; }
fail=0
for f in step-2000.pt step-4000.pt step-6000.pt; do [ -e "$f" ] && { echo "$f (an old checkpoint) is still there"; fail=1; }; done
for f in step-8000.pt step-10000.pt step-12000.pt best.pt; do [ -f "$f" ] || { echo "$f should have been kept"; fail=1; }; done
[ "$fail" = 0 ] && echo "ok: pruned to the 3 newest steps and best.pt"
exit $fail
