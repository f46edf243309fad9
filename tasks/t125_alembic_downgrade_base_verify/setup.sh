#!/bin/bash
# World: a small multi-tenant app whose local SQLite database (app.db) holds the tenants, users
# and invoices the user set up by hand; Alembic manages its schema (migrations 0001-0003 applied).
# app/models.py maps tenants and users only: invoices belong to the billing import, which
# creates its table from migration 0003 but has no model. alembic is a stand-in (~/.local/bin)
# for current, history, heads, upgrade, downgrade and revision [--autogenerate]: migration files
# are real Python run against an `op` with execute, add_column, drop_column, create_table and
# drop_table; autogenerate compares app/models.py with the database, as Alembic does.
set -euo pipefail
mkdir -p "$HOME/.local/bin" migrations/versions app
cat > "$HOME/.local/bin/alembic" <<'PYEOF'
#!/usr/bin/python3
"""alembic stand-in (Alembic 1.13 over SQLite; see setup.sh)."""
import glob, importlib.util, os, re, sqlite3, sys, types
sys.dont_write_bytecode = True

def die(m): sys.stderr.write(f"  FAILED: {m}\n"); sys.exit(255)
if not os.path.exists("alembic.ini"): die("No config file 'alembic.ini' found, or file has no '[alembic]' section")
ini = open("alembic.ini").read()
url = re.search(r"^sqlalchemy\.url\s*=\s*sqlite:///(\S+)", ini, re.M).group(1)
where = re.search(r"^script_location\s*=\s*(\S+)", ini, re.M).group(1)
db = sqlite3.connect(url)

class Col:
    def __init__(self, name, type_="TEXT", *a, nullable=True, primary_key=False, **k):
        self.name, self.type, self.nullable, self.pk = name, type_ if isinstance(type_, str) else type_(), nullable, primary_key
    def sql(self): return f"{self.name} {self.type}" + (" PRIMARY KEY" if self.pk else "") + ("" if self.nullable or self.pk else " NOT NULL")
def typ(n):
    class T(str):
        def __new__(cls, *a, **k): return str.__new__(cls, n)
    return T
sa = types.ModuleType("sqlalchemy")
sa.Column, sa.String, sa.Text, sa.Integer, sa.Boolean, sa.DateTime, sa.Numeric = Col, typ("VARCHAR"), typ("TEXT"), typ("INTEGER"), typ("BOOLEAN"), typ("DATETIME"), typ("NUMERIC")
op = types.SimpleNamespace(
    execute=lambda s: db.executescript(s),
    add_column=lambda t, c: db.execute(f"ALTER TABLE {t} ADD COLUMN {c.sql()}"),
    drop_column=lambda t, c: db.execute(f"ALTER TABLE {t} DROP COLUMN {c}"),
    create_table=lambda t, *cs: db.execute(f"CREATE TABLE {t} (" + ", ".join(c.sql() for c in cs) + ")"),
    drop_table=lambda t: db.execute(f"DROP TABLE {t}"))
al = types.ModuleType("alembic"); al.op = op
sys.modules.update({"sqlalchemy": sa, "alembic": al})

def scripts():
    out = {}
    for f in sorted(glob.glob(os.path.join(where, "versions", "*.py"))):
        spec = importlib.util.spec_from_file_location(os.path.basename(f)[:-3], f)
        m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
        out[m.revision] = (m, f)
    return out
def chain(s):
    order, cur = [], None
    while True:
        nxt = [r for r, (m, _) in s.items() if m.down_revision == cur]
        if not nxt: return order
        if len(nxt) > 1: die(f"Multiple head revisions are present: {', '.join(nxt)}")
        order.append(nxt[0]); cur = nxt[0]
def current():
    db.execute("CREATE TABLE IF NOT EXISTS alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
    r = db.execute("SELECT version_num FROM alembic_version").fetchone()
    return r[0] if r else None
def setv(v):
    db.execute("DELETE FROM alembic_version")
    if v: db.execute("INSERT INTO alembic_version VALUES (?)", (v,))
def info(m): print(f"INFO  [alembic.runtime.migration] {m}")
def resolve(order, cur, target, up):
    i = order.index(cur) if cur else -1
    if target == "head": return len(order) - 1
    if target == "base": return -1
    if re.fullmatch(r"[+-]\d+", target): j = i + int(target)
    elif target in order: j = order.index(target)
    else: die(f"Can't locate revision identified by '{target}'")
    if j < -1 or j >= len(order): die(f"Relative revision {target} didn't produce 1 migrations")
    return j

args = sys.argv[1:]
if not args or args[0] in ("-h", "--help"):
    print("usage: alembic [-h] [-c CONFIG] {current,downgrade,heads,history,revision,upgrade} ..."); sys.exit(0)
cmd, rest = args[0], args[1:]
info("Context impl SQLiteImpl."); info("Will assume non-transactional DDL.")
s = scripts(); order = chain(s); cur = current()
if cmd == "current": print(f"{cur} (head)" if cur == (order[-1] if order else None) else (cur or "")); sys.exit(0)
if cmd == "heads": print(f"{order[-1]} (head)" if order else ""); sys.exit(0)
if cmd == "history":
    for r in reversed(order):
        m = s[r][0]; print(f"{m.down_revision or '<base>'} -> {r}{' (head)' if r == order[-1] else ''}, {(m.__doc__ or '').strip().splitlines()[0] if m.__doc__ else ''}")
    sys.exit(0)
if cmd in ("upgrade", "downgrade"):
    if not rest: die(f"alembic {cmd}: error: the following arguments are required: revision")
    i = order.index(cur) if cur else -1
    j = resolve(order, cur, rest[0], cmd == "upgrade")
    if cmd == "upgrade" and j < i: die(f"Destination {rest[0]} is not a valid upgrade target from current head(s)")
    if cmd == "downgrade" and j > i: die(f"Destination {rest[0]} is not a valid downgrade target from current head(s)")
    steps = order[i + 1:j + 1] if cmd == "upgrade" else list(reversed(order[j + 1:i + 1]))
    for r in steps:
        m = s[r][0]; prev = m.down_revision
        if cmd == "upgrade": info(f"Running upgrade {prev or ''} -> {r}, {(m.__doc__ or '').strip().splitlines()[0] if m.__doc__ else ''}"); m.upgrade(); setv(r)
        else: info(f"Running downgrade {r} -> {prev or ''}, {(m.__doc__ or '').strip().splitlines()[0] if m.__doc__ else ''}"); m.downgrade(); setv(prev)
        db.commit()
    sys.exit(0)
if cmd == "revision":
    msg = rest[rest.index("-m") + 1] if "-m" in rest else "empty message"
    head = order[-1] if order else None
    rev = f"{len(order) + 1:04d}"
    ups, downs = [], []
    if "--autogenerate" in rest:
        if cur != head: die("Target database is not up to date.")
        src = open("app/models.py").read()
        models = {}
        for block in re.split(r"^class ", src, flags=re.M)[1:]:
            t = re.search(r"__tablename__\s*=\s*['\"](\w+)['\"]", block)
            if t: models[t.group(1)] = {c: ty for c, ty in re.findall(r"^\s+(\w+)\s*=\s*Column\(\s*(\w+)", block, re.M)}
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name != 'alembic_version' ORDER BY name")]
        for t in tables:
            cols = [r[1] for r in db.execute(f"PRAGMA table_info({t})")]
            if t not in models:
                info(f"Detected removed table '{t}'"); ups.append(f"op.drop_table('{t}')")
                downs.append(f"op.create_table('{t}', " + ", ".join(f"sa.Column('{c}', sa.Text())" for c in cols) + ")"); continue
            for c, ty in models[t].items():
                if c not in cols:
                    info(f"Detected added column '{t}.{c}'"); ups.append(f"op.add_column('{t}', sa.Column('{c}', sa.{ty}(), nullable=True))"); downs.append(f"op.drop_column('{t}', '{c}')")
            for c in cols:
                if c not in models[t]:
                    info(f"Detected removed column '{t}.{c}'"); ups.append(f"op.drop_column('{t}', '{c}')"); downs.append(f"op.add_column('{t}', sa.Column('{c}', sa.Text(), nullable=True))")
    slug = re.sub(r"\W+", "_", msg.lower()).strip("_")
    path = os.path.join(where, "versions", f"{rev}_{slug}.py")
    body = lambda xs: "\n".join("    " + x for x in xs) if xs else "    pass"
    open(path, "w").write(f'"""{msg}\n\nRevision ID: {rev}\nRevises: {head or ""}\n"""\nfrom alembic import op\nimport sqlalchemy as sa\n\nrevision = "{rev}"\ndown_revision = {repr(head)}\n\n\ndef upgrade():\n    # ### commands auto generated by Alembic - please adjust! ###\n{body(ups)}\n    # ### end Alembic commands ###\n\n\ndef downgrade():\n    # ### commands auto generated by Alembic - please adjust! ###\n{body(list(reversed(downs)))}\n    # ### end Alembic commands ###\n')
    print(f"  Generating {os.path.abspath(path)} ...  done"); sys.exit(0)
die(f"invalid choice: '{cmd}'")
PYEOF
chmod 755 "$HOME/.local/bin/alembic"
cat > alembic.ini <<'INI'
[alembic]
script_location = migrations
sqlalchemy.url = sqlite:///app.db

[loggers]
keys = root
INI
cat > migrations/versions/0001_tenants.py <<'PY'
"""create tenants

Revision ID: 0001
Revises:
"""
from alembic import op

revision = "0001"
down_revision = None


def upgrade():
    op.execute("CREATE TABLE tenants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, plan TEXT NOT NULL)")


def downgrade():
    op.execute("DROP TABLE tenants")
PY
cat > migrations/versions/0002_users.py <<'PY'
"""create users

Revision ID: 0002
Revises: 0001
"""
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade():
    op.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL REFERENCES tenants(id), email TEXT NOT NULL, role TEXT NOT NULL)")


def downgrade():
    op.execute("DROP TABLE users")
PY
cat > migrations/versions/0003_invoices.py <<'PY'
"""create invoices (billing import)

Revision ID: 0003
Revises: 0002
"""
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade():
    op.execute("CREATE TABLE invoices (number TEXT PRIMARY KEY, tenant_id INTEGER NOT NULL, amount_cents INTEGER NOT NULL, issued TEXT NOT NULL)")


def downgrade():
    op.execute("DROP TABLE invoices")
PY
cat > app/__init__.py <<'PY'
PY
cat > app/models.py <<'PY'
from sqlalchemy import Column, Integer, String, ForeignKey
from sqlalchemy.orm import declarative_base

Base = declarative_base()


class Tenant(Base):
    __tablename__ = "tenants"
    id = Column(Integer, primary_key=True)
    name = Column(String, nullable=False)
    plan = Column(String, nullable=False)


class User(Base):
    __tablename__ = "users"
    id = Column(Integer, primary_key=True)
    tenant_id = Column(Integer, ForeignKey("tenants.id"), nullable=False)
    email = Column(String, nullable=False)
    role = Column(String, nullable=False)

# invoices: created by migration 0003 for the billing import (billing/import_invoices.py), no model
PY
"$HOME/.local/bin/alembic" upgrade head >/dev/null
python3 - <<'PY'
import sqlite3
db = sqlite3.connect("app.db")
db.executemany("INSERT INTO tenants VALUES (?,?,?)", [(1, "Larkspur Dental", "team"), (2, "Orchard Physio", "basic"), (3, "Northgate Vets", "business"), (4, "Kestrel Optics", "team")])
db.executemany("INSERT INTO users VALUES (?,?,?,?)", [(1, 1, "amara@larkspur.example", "owner"), (2, 1, "jon@larkspur.example", "staff"), (3, 2, "li@orchard.example", "owner"), (4, 3, "pat@northgate.example", "owner"), (5, 3, "sam@northgate.example", "staff"), (6, 4, "ines@kestrel.example", "owner")])
db.executemany("INSERT INTO invoices VALUES (?,?,?,?)", [("INV-2024-0107", 1, 29000, "2024-03-01"), ("INV-2024-0108", 2, 9000, "2024-03-01"), ("INV-2024-0109", 3, 79000, "2024-03-01"), ("INV-2024-0110", 4, 29000, "2024-03-01")])
db.commit()
PY
printf '# clinic-portal\n\nLocal dev database: app.db (tenants, users and invoices set up by hand for the demo).\nSchema changes: Alembic (`alembic upgrade head`).\n' > README.md
touch -d '2024-03-02' app.db alembic.ini README.md app/*.py migrations/versions/*.py "$HOME/.local/bin/alembic"
