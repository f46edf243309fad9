#!/bin/bash
# Builds the world inside the sandbox (cwd /workspace, HOME /home/user). Deterministic: no
# randomness, no current dates.
set -euo pipefail
mkdir -p build/assets src notes
printf 'console.log("hello");\n' > src/index.js
printf '{ "name": "app", "version": "1.0.0" }\n' > package.json
printf 'compiled\n' > build/index.js
printf 'body { margin: 0 }\n' > build/assets/app.css
printf 'call the client on Monday\n' > notes/todo.md
