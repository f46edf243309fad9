#!/bin/bash
# World: two CRM exports in their original order (signup order, unsubscribe order), with some
# mixed-case addresses and trailing blanks; the request only reads them.
set -euo pipefail
mkdir -p lists
python3 - <<'PY'
words = ["amber", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath", "inlet", "juniper", "kestrel", "lark"]
domains = ["example.org", "mail.example.com", "post.example.net", "example.co.uk", "inbox.example.io"]
subs = []
for i in range(300):
    a = f"{words[i % 12]}.{(i * 7919) % 1000:03d}@{domains[i % 5]}"
    if i % 37 == 0:
        a = a[0].upper() + a[1:]
    if i % 53 == 0:
        a = a.split("@")[0] + "@" + a.split("@")[1].upper()
    if i % 41 == 0:
        a += "  "
    subs.append(a)
unsub = []
for j in range(60):
    if j % 2 == 0:
        unsub.append(subs[(j * 13) % 300].strip().lower())
    else:
        unsub.append(f"gone.{j:02d}@{domains[j % 5]}")
open("lists/subscribers.txt", "w").write("\n".join(subs) + "\n")
open("lists/unsubscribed.txt", "w").write("\n".join(unsub) + "\n")
PY
cat > lists/README.md <<'MD'
Exports from the CRM (2024-05-31). subscribers.txt is in signup order, unsubscribed.txt in
the order people unsubscribed (the compliance log refers to line numbers). Don't edit.
MD
touch -d '2024-05-31' lists/*
