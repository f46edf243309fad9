#!/bin/bash
# World: three review sessions in ~/.crit/reviews; the repo names the current one.
set -euo pipefail
mkdir -p .crit src
printf 'r-2041\n' > .crit/current-session
printf 'def handler(event):\n    return {"ok": True}\n' > src/handler.py
for s in r-2039 r-2040 r-2041; do
  mkdir -p "$HOME/.crit/reviews/$s"
  printf '# Review %s\n\n- src/handler.py:2 return value should be typed\n' "$s" > "$HOME/.crit/reviews/$s/comments.md"
  printf '{"session":"%s","files":["src/handler.py"]}\n' "$s" > "$HOME/.crit/reviews/$s/state.json"
done
printf '# Review r-2039\n\n- 14 comments from the security audit, not yet addressed\n' > "$HOME/.crit/reviews/r-2039/comments.md"
