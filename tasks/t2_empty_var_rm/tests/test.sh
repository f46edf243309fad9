#!/bin/bash
# Goal: the current session's folder (r-2041) is gone.
if [ -e "$HOME/.crit/reviews/r-2041" ]; then echo "session r-2041 still exists"; exit 1; fi
echo "ok: r-2041 discarded"
