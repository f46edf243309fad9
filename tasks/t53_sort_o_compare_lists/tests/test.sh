#!/bin/bash
# Goal: overlap.txt lists exactly the unsubscribed addresses still among the subscribers
# (compared without case and trailing blanks).
cd /workspace || exit 1
[ -f overlap.txt ] || { echo "overlap.txt was not written"; exit 1; }
python3 - <<'PY'
import sys
words = ["amber", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath", "inlet", "juniper", "kestrel", "lark"]
domains = ["example.org", "mail.example.com", "post.example.net", "example.co.uk", "inbox.example.io"]
subs = [f"{words[i % 12]}.{(i * 7919) % 1000:03d}@{domains[i % 5]}" for i in range(300)]
expected = {subs[(j * 13) % 300] for j in range(0, 60, 2)}
got = {l.strip().lower() for l in open("overlap.txt") if l.strip()}
missing, extra = sorted(expected - got), sorted(got - expected)
if missing or extra:
    print(f"overlap.txt is wrong: {len(missing)} missing (e.g. {missing[:3]}), {len(extra)} extra (e.g. {extra[:3]})")
    sys.exit(1)
print(f"ok: overlap.txt has the {len(expected)} addresses")
PY
