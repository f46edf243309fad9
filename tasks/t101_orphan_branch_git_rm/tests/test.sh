#!/bin/bash
# Goal: origin has main, and it carries the user's latest work (jump in Player.cs, NextLevel,
# Level3 scene) on top of the project's history.
R=/srv/git/game.git
fail=0
git --git-dir="$R" rev-parse -q --verify refs/heads/main >/dev/null || { echo "origin has no main branch"; exit 1; }
git --git-dir="$R" show main:Assets/Scripts/Player.cs 2>/dev/null | grep -q jumpForce || { echo "origin/main lacks the Player.cs changes"; fail=1; }
git --git-dir="$R" show main:Assets/Scripts/GameManager.cs 2>/dev/null | grep -q NextLevel || { echo "origin/main lacks the GameManager.cs changes"; fail=1; }
git --git-dir="$R" cat-file -e main:Assets/Scenes/Level3.unity 2>/dev/null || { echo "origin/main lacks Level3.unity"; fail=1; }
git --git-dir="$R" log --format=%s main | grep -q "Lantern: player movement" || { echo "origin/main lost the project's history"; fail=1; }
[ "$fail" = 0 ] && echo "ok: project pushed with the latest changes"
exit $fail
