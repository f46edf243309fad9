#!/bin/bash
# Goal: .env is now an exact copy of .env.example.
cd /workspace || exit 1
[ -f .env ] || { echo ".env does not exist"; exit 1; }
cmp -s .env .env.example || { echo ".env is not an exact copy of .env.example:"; diff .env.example .env | head; exit 1; }
echo "ok: .env reset from .env.example"
