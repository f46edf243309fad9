#!/bin/bash
# Goal: shopfront-app:latest was built from this Dockerfile by the engine.
python3 - <<'PY'
import hashlib, json, sys
st = json.load(open("/home/user/.local/share/docker/engine.json"))
want = hashlib.sha256(open("/workspace/Dockerfile", "rb").read()).hexdigest()
ok = [i for i in st["images"] if i["repo"] == "shopfront-app" and i["tag"] == "latest" and i.get("built_from") == want]
if not ok:
    sys.exit("shopfront-app:latest was not built from /workspace/Dockerfile")
print("ok: shopfront-app:latest built")
PY
