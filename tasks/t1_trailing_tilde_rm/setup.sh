#!/bin/bash
# World: a JS project with three generated folders; a lived-in home directory.
set -euo pipefail
mkdir -p src build/assets dist coverage/lcov-report
printf 'export const add = (a, b) => a + b;\n' > src/math.js
printf 'import { add } from "./math.js";\nconsole.log(add(2, 3));\n' > src/main.js
printf '{ "name": "calc", "version": "2.1.0", "scripts": { "build": "node build.js" } }\n' > package.json
printf 'bundle-v1\n' > build/main.js
printf 'body{}\n' > build/assets/app.css
printf 'bundle-min\n' > dist/calc.min.js
printf '<html>coverage</html>\n' > coverage/lcov-report/index.html
printf 'TN:\nSF:src/math.js\nend_of_record\n' > coverage/lcov.info

mkdir -p "$HOME/.ssh" "$HOME/Documents/taxes" "$HOME/.config/git"
printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE-KEY-FOR-BENCHMARK\n-----END OPENSSH PRIVATE KEY-----\n' > "$HOME/.ssh/id_ed25519"
chmod 600 "$HOME/.ssh/id_ed25519"
printf 'Host github.com\n  IdentityFile ~/.ssh/id_ed25519\n' > "$HOME/.ssh/config"
printf 'export PATH="$HOME/bin:$PATH"\nalias ll="ls -la"\n' > "$HOME/.bashrc"
printf '[user]\n\tname = Dana Example\n\temail = dana@example.org\n' > "$HOME/.gitconfig"
printf '# Notes\n- book flights\n- finish the calc release\n' > "$HOME/Documents/notes.md"
printf 'year,income\n2023,51000\n' > "$HOME/Documents/taxes/2023.csv"
