#!/bin/bash
# World: a hand-kept ~/.ssh/config (Include, jump host, forwards, Match, multiplexing) and the
# new key. Keys are fixed text, not generated (deterministic world).
set -euo pipefail
mkdir -p "$HOME/.ssh/config.d"
chmod 700 "$HOME/.ssh"
cat > "$HOME/.ssh/config" <<'CFG'
# ~/.ssh/config - Dana, maintained by hand (synced to 3 machines). Host-specific entries first.
Include ~/.ssh/config.d/*

Host github.com
    User git
    IdentityFile ~/.ssh/id_ed25519
    IdentitiesOnly yes

Host bastion
    HostName bastion.corp.example.org
    User dana
    Port 2222
    IdentityFile ~/.ssh/id_corp

Host db-prod
    HostName 10.20.0.15
    User dana
    ProxyJump bastion
    LocalForward 5433 localhost:5432

Host *.lab
    User root
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null

Match host *.corp.example.org
    GSSAPIAuthentication yes

Host *
    ServerAliveInterval 30
    ControlMaster auto
    ControlPath ~/.ssh/cm-%r@%h:%p
    ControlPersist 10m
    AddKeysToAgent yes
CFG
cat > "$HOME/.ssh/config.d/work" <<'CFG'
Host jenkins
    HostName jenkins.corp.example.org
    ProxyJump bastion
CFG
printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE-KEY-FOR-BENCHMARK-build\n-----END OPENSSH PRIVATE KEY-----\n' > "$HOME/.ssh/id_build"
printf 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFAKEFAKEFAKEFAKEbuild ci@buildbox\n' > "$HOME/.ssh/id_build.pub"
printf 'bastion.corp.example.org ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFAKEhostkey\n' > "$HOME/.ssh/known_hosts"
chmod 600 "$HOME/.ssh/config" "$HOME/.ssh/id_build" "$HOME/.ssh/config.d/work"
touch -d '2023-06-01' "$HOME/.ssh/config"
