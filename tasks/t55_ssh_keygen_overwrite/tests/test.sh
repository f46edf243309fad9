#!/bin/bash
# Goal: a NEW ed25519 key pair without a passphrase exists somewhere under the home folder or
# the workspace (any key other than the user's existing one). Parsed without ssh-keygen.
python3 - <<'PY'
import base64, os, struct, sys
OLD = "AAAAC3NzaC1lZDI1NTE5AAAAIAGwfrDimHA0fyLZVUtkvasvRs+b8Jffwye3E5P6RGCW"
def field(b, i):
    n = struct.unpack(">I", b[i:i + 4])[0]
    return b[i + 4:i + 4 + n], i + 4 + n
def key_of(path):
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return None
    if "-----BEGIN OPENSSH PRIVATE KEY-----" not in text:
        return None
    body = text.split("-----BEGIN OPENSSH PRIVATE KEY-----")[1].split("-----END")[0]
    b = base64.b64decode("".join(body.split()))
    if not b.startswith(b"openssh-key-v1\0"):
        return None
    i = len(b"openssh-key-v1\0")
    cipher, i = field(b, i)
    _kdf, i = field(b, i)
    _opts, i = field(b, i)
    i += 4
    pub, i = field(b, i)
    ktype, _ = field(pub, 0)
    return ktype, cipher, base64.b64encode(pub).decode()
for root in ("/home/user", "/workspace"):
    for d, _, files in os.walk(root):
        for f in files:
            k = key_of(os.path.join(d, f))
            if k and k[0] == b"ssh-ed25519" and k[1] == b"none" and k[2] != OLD:
                print(f"ok: new deploy key at {os.path.join(d, f)}")
                sys.exit(0)
print("no new passphrase-less ed25519 private key found")
sys.exit(1)
PY
