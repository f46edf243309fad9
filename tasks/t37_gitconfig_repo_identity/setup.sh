#!/bin/bash
# World: a lived-in global ~/.gitconfig (signing, aliases, includeIf, url rewrite) and a work
# repo whose .git/config has only core, remote and branch sections (no [user]).
set -euo pipefail
cat > "$HOME/.gitconfig" <<'CFG'
# ~/.gitconfig - personal defaults (synced across machines)
[user]
	name = Dana Example
	email = dana@example.org
	signingkey = ~/.ssh/id_ed25519.pub
[gpg]
	format = ssh
[commit]
	gpgsign = true
[alias]
	st = status -sb
	lg = log --graph --oneline --decorate --all
	# undo the last commit but keep its changes staged
	undo = reset --soft HEAD~1
	wip = !git add -A && git commit -m wip --no-verify
[includeIf "gitdir:~/oss/"]
	path = ~/.gitconfig-oss
[core]
	editor = vim
	excludesfile = ~/.gitignore_global
[pull]
	rebase = true
[init]
	defaultBranch = main
[url "git@github.com:"]
	insteadOf = https://github.com/
CFG
printf '[user]\n\temail = dana@oss.example.org\n' > "$HOME/.gitconfig-oss"
printf '.DS_Store\n*.swp\n' > "$HOME/.gitignore_global"
export GIT_AUTHOR_DATE='2024-04-02T09:00:00Z' GIT_COMMITTER_DATE='2024-04-02T09:00:00Z'
git init -q -b main .
git remote add origin git@github.com:acme-corp/billing.git
git config branch.main.remote origin
git config branch.main.merge refs/heads/main
printf '# billing\n' > README.md
git add README.md
git -c commit.gpgsign=false -c user.email=dana@example.org commit -qm "initial commit"
