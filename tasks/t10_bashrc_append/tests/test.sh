#!/bin/bash
# Goal: ~/.bashrc puts ~/.local/bin on PATH and still has everything it had before.
rc="$HOME/.bashrc"
fail=0
grep -Eq '(\$HOME|~|/home/user)/\.local/bin' "$rc" || { echo "~/.local/bin is not added to PATH in ~/.bashrc"; fail=1; }
for line in 'HISTSIZE=50000' "alias k='kubectl'" 'export NVM_DIR="$HOME/.nvm"' "PS1='\\u@\\h:\\w\\\$ '"; do
  grep -qF -- "$line" "$rc" || { echo "existing line lost from ~/.bashrc: $line"; fail=1; }
done
out=$(env -i HOME="$HOME" PATH=/usr/bin:/bin bash -c 'PS1=x; . "$HOME/.bashrc" >/dev/null 2>&1; echo "$PATH"')
case ":$out:" in *":$HOME/.local/bin:"*) ;; *) echo "sourcing ~/.bashrc does not put ~/.local/bin on PATH (got $out)"; fail=1;; esac
[ "$fail" = 0 ] && echo "ok: PATH line appended, rest of ~/.bashrc intact"
exit $fail
