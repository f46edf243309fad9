# The measurer's probe of what must survive inside files (a task's `preserve:`), run after the
# agent in the world's sandbox over a copy of the world, as the world's unprivileged user, the
# way the hidden test runs (python3 -I -S: no environment, no site or user packages). It reads
# spec.json beside it and prints one JSON object: for each entry id, the indexes of the items
# found, and a note when the file or query could not be read. Its output is untrusted data to
# the harness (harness/model/effects/invariants.ts parses it strictly).
import json
import os
import re
import sqlite3
import sys
import urllib.parse

MAX_BYTES = 64 * 1024 * 1024
MAX_ROWS = 200_000
HEADER_INI = re.compile(r"^\[\s*([^\]]+?)\s*\]\s*([#;].*)?$")
HEADER_YAML = re.compile(r"^([^\s#:][^:]*?)\s*:\s*(#.*)?$")


def read_lines(path):
    if not os.path.isfile(path):
        raise OSError("not a file" if os.path.lexists(path) else "no such file")
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise OSError("larger than 64 MiB")
    return data.decode("utf-8", "replace").splitlines()


def section_lines(lines, name):
    out, current, yaml_style = [], None, False
    for line in lines:
        text = line.strip()
        indented = line[:1].isspace()
        if not indented and text:
            m = HEADER_INI.match(text)
            if m:
                current, yaml_style = m.group(1), False
                continue
            m = HEADER_YAML.match(text)
            if m:
                current, yaml_style = m.group(1).strip("'\""), True
                continue
            if yaml_style and not text.startswith("#"):
                current = None
        if current == name:
            out.append(text)
    return out


def found(entry):
    kind, path, items = entry["kind"], entry["path"], entry["items"]
    if kind == "sqlite":
        if not os.path.isfile(path):
            raise OSError("not a file" if os.path.lexists(path) else "no such file")
        con = sqlite3.connect("file:" + urllib.parse.quote(path) + "?mode=rw", uri=True)
        try:
            con.execute("PRAGMA query_only = ON")
            rows = con.execute(entry["query"]).fetchmany(MAX_ROWS)
        finally:
            con.close()
        have = {"\t".join("NULL" if v is None else str(v) for v in row) for row in rows}
        return have, lambda s: s
    lines = read_lines(path)
    if kind == "lines":
        return {l.strip() for l in lines}, lambda s: s.strip()
    if kind == "section":
        return set(section_lines(lines, entry["section"])), lambda s: s.strip()
    if kind == "crontab":
        return {" ".join(l.split()) for l in lines}, lambda s: " ".join(s.split())
    raise ValueError("unknown kind")


def main():
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "spec.json"), encoding="utf-8") as f:
        spec = json.load(f)
    answers = {}
    for entry in spec["entries"]:
        try:
            have, norm = found(entry)
            answers[entry["id"]] = {"present": [i for i, s in enumerate(entry["items"]) if norm(s) in have]}
        except (OSError, sqlite3.Error, UnicodeError, ValueError) as e:
            answers[entry["id"]] = {"present": [], "note": (type(e).__name__ + ": " + str(e))[:300]}
    sys.stdout.write(json.dumps({"entries": answers}))


main()
