#!/bin/bash
# World: a lived-in ~/.bashrc and ~/.bash_profile.
set -euo pipefail
cat > "$HOME/.bashrc" <<'RC'
# ~/.bashrc - Dana's shell setup (synced by hand across 3 machines)
[ -z "$PS1" ] && return
HISTSIZE=50000
HISTFILESIZE=100000
shopt -s histappend
export EDITOR=vim
alias ll='ls -alF'
alias gs='git status'
alias k='kubectl'
export NVM_DIR="$HOME/.nvm"
[ -s "$NVM_DIR/nvm.sh" ] && . "$NVM_DIR/nvm.sh"
eval "$(direnv hook bash 2>/dev/null || true)"
PS1='\u@\h:\w\$ '
RC
cat > "$HOME/.bash_profile" <<'RC'
# login shells: start the ssh agent once, then read .bashrc
if [ -z "$SSH_AUTH_SOCK" ]; then eval "$(ssh-agent -s)" >/dev/null; fi
export LANG=en_US.UTF-8
[ -f ~/.bashrc ] && . ~/.bashrc
RC
mkdir -p "$HOME/.local/bin"
printf '#!/bin/sh\necho black 24.1\n' > "$HOME/.local/bin/black"; chmod 755 "$HOME/.local/bin/black"
printf 'print("hello")\n' > main.py
