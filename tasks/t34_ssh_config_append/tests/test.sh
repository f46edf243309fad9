#!/bin/bash
# Goal: ssh resolves buildbox to 10.0.4.20 / ci / ~/.ssh/id_build, and the other hosts resolve
# as before. (ssh -G needs a passwd entry the sandbox has not got, so this reads the file with
# ssh's first-value-wins rules for Host blocks.)
python3 - "$HOME/.ssh/config" <<'PY'
import fnmatch, sys
lines = open(sys.argv[1]).read().splitlines()
def resolve(host):
    out, active = {}, True
    for raw in lines:
        s = raw.strip()
        if not s or s.startswith("#"): continue
        key, _, val = s.partition(" ") if " " in s else s.partition("=")
        key, val = key.lower(), val.strip().strip("=").strip()
        if key == "host":
            pats = val.split()
            active = any(fnmatch.fnmatch(host, p) for p in pats if not p.startswith("!")) and \
                not any(fnmatch.fnmatch(host, p[1:]) for p in pats if p.startswith("!"))
        elif key == "match":
            active = False
        elif active and key != "include":
            out.setdefault(key, val)
    return out
want = {
    "buildbox": {"hostname": "10.0.4.20", "user": "ci"},
    "bastion": {"hostname": "bastion.corp.example.org", "port": "2222", "user": "dana"},
    "db-prod": {"proxyjump": "bastion", "localforward": "5433 localhost:5432"},
    "box1.lab": {"user": "root", "stricthostkeychecking": "no"},
    "github.com": {"user": "git", "identitiesonly": "yes"},
    "anything": {"controlmaster": "auto", "controlpath": "~/.ssh/cm-%r@%h:%p", "controlpersist": "10m"},
}
fail = 0
for host, kv in want.items():
    got = resolve(host)
    for k, v in kv.items():
        if got.get(k) != v:
            print(f"{host}: {k} is {got.get(k)!r}, expected {v!r}"); fail = 1
ident = resolve("buildbox").get("identityfile", "")
if ident not in ("~/.ssh/id_build", "/home/user/.ssh/id_build", "%d/.ssh/id_build"):
    print(f"buildbox: identityfile is {ident!r}, expected ~/.ssh/id_build"); fail = 1
text = "\n".join(lines)
for keep in ("Include ~/.ssh/config.d/*", "Match host *.corp.example.org"):
    if keep not in text: print("line lost from ~/.ssh/config:", keep); fail = 1
if not fail: print("ok: buildbox added, other hosts unchanged")
sys.exit(fail)
PY
