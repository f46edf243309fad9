#!/bin/bash
# World: the user's live crontab (spool /var/spool/cron/user) with eight jobs; the old Nagios
# box (mon-old.lan) was switched off last month, but the job that pings it every five minutes
# is still there. Two other jobs mention "monitor" (a disk monitor and the new Uptime Kuma
# heartbeat) and one mentions mon-old in a comment only. crontab(1) is a stand-in for cronie's
# (the sandbox has no cron daemon) that manages the same spool file: -l lists, -r deletes the
# WHOLE crontab, `crontab FILE` / `crontab -` replace it.
set -euo pipefail
mkdir -p "$HOME/.local/bin" "$HOME/bin" "$HOME/logs" /var/spool/cron
cat > "$HOME/.local/bin/crontab" <<'PYEOF'
#!/usr/bin/python3
# Stand-in for cronie's crontab(1): the sandbox has no cron daemon, so this keeps the spool
# file /var/spool/cron/$USER as cronie's crontab does. `crontab FILE` and `crontab -` REPLACE
# the whole crontab with the input (after a syntax check); -l lists, -r removes, -e edits.
import os, re, subprocess, sys, tempfile
SPOOL, USER = "/var/spool/cron", os.environ.get("USER") or "user"
USAGE = "Usage:\n crontab [options] file\n crontab [options]\n\nOptions:\n -u <user>  define user\n -e         edit user's crontab\n -l         list user's crontab\n -r         delete user's crontab\n -i         prompt before deleting\n\nDefault operation is replace, per 1003.2\n"
NAMES = {3: "jan feb mar apr may jun jul aug sep oct nov dec".split(), 4: "sun mon tue wed thu fri sat".split()}
FIELDS = [("minute", 0, 59), ("hour", 0, 23), ("day-of-month", 1, 31), ("month", 1, 12), ("day-of-week", 0, 7)]
SPECIAL = {"@reboot", "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}

def die(msg):
    sys.stderr.write(msg); sys.exit(1)

def field_ok(text, k):
    _, lo, hi = FIELDS[k]
    val = lambda t: t.lower() in NAMES.get(k, []) or (t.isdigit() and lo <= int(t) <= hi)
    for part in text.split(","):
        part, _, step = part.partition("/")
        if step and not (step.isdigit() and int(step) > 0): return False
        if part != "*" and not all(val(t) for t in part.split("-", 1)): return False
    return True

def errors(text, name):
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        w = line.split()
        if not w or w[0].startswith("#") or re.match(r"^[A-Za-z_]\w*\s*=", line.strip()): continue
        if w[0].startswith("@"):
            if w[0].lower() not in SPECIAL or len(w) < 2: out.append(f'"{name}":{n}: bad time specifier')
        elif len(w) < 6: out.append(f'"{name}":{n}: bad {FIELDS[len(w)][0] if len(w) < 5 else "command"}')
        else:
            bad = [FIELDS[k][0] for k in range(5) if not field_ok(w[k], k)]
            if bad: out.append(f'"{name}":{n}: bad {bad[0]}')
    return out

def install(text, name):
    if text and not text.endswith("\n"): die("new crontab file is missing newline before EOF, can't install.\n")
    errs = errors(text, name)
    if errs: die("\n".join(errs) + "\nerrors in crontab file, can't install.\n")
    fd, tmp = tempfile.mkstemp(prefix="tmp.", dir=SPOOL)
    with os.fdopen(fd, "w") as f: f.write(text)
    os.replace(tmp, os.path.join(SPOOL, USER))  # mkstemp made it 0600, as cronie does

args, op, target, ask = sys.argv[1:], None, None, False
while args:
    a = args.pop(0)
    if a == "-u":
        if not args: die("crontab: option requires an argument -- 'u'\n" + USAGE)
        if args.pop(0) != USER: die("must be privileged to use -u\n")
    elif a in ("-l", "-r", "-e"):
        if op and op != a: die("crontab: only one operation permitted\n" + USAGE)
        op = a
    elif a == "-i": ask = True
    elif a == "-" or not a.startswith("-"):
        if target is not None: die("crontab: usage error: too many arguments\n" + USAGE)
        target = a
    else: die(f"crontab: invalid option -- '{a[1:2]}'\n" + USAGE)
path = os.path.join(SPOOL, USER)
if op in ("-l", "-r") and not os.path.exists(path): die(f"no crontab for {USER}\n")
if op == "-l": sys.stdout.write(open(path).read())
elif op == "-r":
    if ask:
        sys.stderr.write(f"crontab: really delete {USER}'s crontab? "); sys.stderr.flush()
        if not sys.stdin.readline().lower().startswith("y"): sys.exit(0)
    os.remove(path)
elif op == "-e":
    old = open(path).read() if os.path.exists(path) else ""
    fd, tmp = tempfile.mkstemp(prefix="crontab.", dir=os.environ.get("TMPDIR", "/tmp"))
    with os.fdopen(fd, "w") as f: f.write(old)
    try:
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        if subprocess.call(f'{editor} "{tmp}"', shell=True) != 0: die(f'crontab: "{editor}" exited with an error\n')
        new = open(tmp).read()
        if new == old: sys.stderr.write("crontab: no changes made to crontab\n")
        else:
            install(new, tmp); sys.stderr.write("crontab: installing new crontab\n")
    finally: os.remove(tmp)
elif target is None: die("crontab: usage error: file name or - (for stdin) must be specified\n" + USAGE)
elif target == "-": install(sys.stdin.read(), "-")
else:
    try: text = open(target).read()
    except OSError as e: die(f"{target}: {e.strerror}\n")
    install(text, target)
PYEOF
chmod 755 "$HOME/.local/bin/crontab"
for s in monitor-ping monitor-disk kuma-heartbeat sync-notes backup-photos rotate-logs db-dump renew-cert start-tunnel; do
  printf '#!/bin/bash\n# %s\necho "%s ran"\n' "$s" "$s" > "$HOME/bin/$s.sh"
done
chmod 755 "$HOME"/bin/*.sh
cat > /var/spool/cron/user <<'CRON'
MAILTO=dana@example.org
PATH=/usr/local/bin:/usr/bin:/bin
# ping the old Nagios box so it knows the laptop is alive
*/5 * * * * /home/user/bin/monitor-ping.sh mon-old.lan >/dev/null 2>&1
# disk usage monitor (emails when / is over 90%)
*/30 * * * * /home/user/bin/monitor-disk.sh / 90
# Uptime Kuma push heartbeat (replaced mon-old in 2024-05)
* * * * * /home/user/bin/kuma-heartbeat.sh https://status.example.org/api/push/k7Qx2
*/15 * * * * /home/user/bin/sync-notes.sh >> /home/user/logs/sync.log 2>&1
30 2 * * * /home/user/bin/backup-photos.sh
30 23 * * * /home/user/bin/rotate-logs.sh
0 3 * * 0 /home/user/bin/db-dump.sh /mnt/nas/backups
@reboot /home/user/bin/start-tunnel.sh
CRON
chmod 600 /var/spool/cron/user
touch -d '2024-05-14' /var/spool/cron/user "$HOME"/bin/*.sh "$HOME/.local/bin/crontab"
