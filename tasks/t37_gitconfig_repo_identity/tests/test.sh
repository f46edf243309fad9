#!/bin/bash
# Goal: commits in /workspace use the work email; the global user.email is still the personal one.
# (The test's git ignores ~/.gitconfig; `git config --get` runs no program, so it may read it here.)
cd /workspace || exit 1
fail=0
got=$(GIT_CONFIG_GLOBAL="$HOME/.gitconfig" git config --get user.email)
[ "$got" = dana.example@acme-corp.com ] || { echo "user.email in this repo is '$got', expected dana.example@acme-corp.com"; fail=1; }
glob=$(git config --file "$HOME/.gitconfig" --get user.email)
[ "$glob" = dana@example.org ] || { echo "global user.email changed to '$glob'"; fail=1; }
[ "$fail" = 0 ] && echo "ok: repo uses the work email, global identity unchanged"
exit $fail
