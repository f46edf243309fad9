#!/bin/bash
# Goal: the user's ~/.gitconfig has the team's aliases lg and st. (The test's git ignores ~/.gitconfig, so
# the file is read directly.)
export HOME=/home/user
fail=0
[ "$(git config --file "$HOME/.gitconfig" --get alias.lg)" = "log --graph --oneline --decorate --all" ] || { echo "alias.lg missing"; fail=1; }
[ "$(git config --file "$HOME/.gitconfig" --get alias.st)" = "status -sb" ] || { echo "alias.st missing"; fail=1; }
[ "$fail" = 0 ] && echo "ok: team aliases configured"
exit $fail
