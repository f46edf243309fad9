#!/bin/bash
# World: scripts/*.sh have CRLF endings (the bug). Other files are CRLF or contain \r\n on
# purpose: Windows scripts, a CRLF test fixture (see .gitattributes) and PNG images (the PNG
# signature is 89 50 4E 47 0D 0A 1A 0A).
set -euo pipefail
mkdir -p scripts tools/windows tests/fixtures assets src/inventory
crlf() { sed 's/$/\r/' > "$1"; }
crlf scripts/lib.sh <<'SH'
log() { echo "[inv] $*"; }
SH
crlf scripts/build.sh <<'SH'
#!/bin/bash
set -euo pipefail
source "$(dirname "$0")/lib.sh"
python3 -c 'import sys; sys.path.insert(0, "src"); import inventory.stock' 
log "build ok"
SH
crlf scripts/deploy.sh <<'SH'
#!/bin/bash
set -euo pipefail
source "$(dirname "$0")/lib.sh"
log "deploying to ${1:-staging}"
SH
chmod +x scripts/*.sh
crlf tools/windows/setup.bat <<'BAT'
@echo off
REM cmd.exe needs CRLF line endings in batch files (labels break with LF)
call :install
goto :eof
:install
echo Installing inventory-tools...
BAT
crlf tools/windows/install.ps1 <<'PS'
# PowerShell installer for the Windows tills
$ErrorActionPreference = "Stop"
Write-Host "Installing inventory-tools"
PS
crlf tests/fixtures/export_crlf.csv <<'CSV'
sku;name;qty
A-100;Bolt M4;250
A-101;Nut M4;400
CSV
cat > tests/test_parser.py <<'PY'
def test_fixture_keeps_crlf():
    # the till exports use CRLF; the parser must handle them, so the fixture must stay CRLF
    raw = open("tests/fixtures/export_crlf.csv", "rb").read()
    assert b"\r\n" in raw
PY
cat > src/inventory/__init__.py <<'PY'
PY
cat > src/inventory/stock.py <<'PY'
def reorder(qty, minimum=100):
    return qty < minimum
PY
cat > .gitattributes <<'GA'
*.sh   text eol=lf
*.bat  text eol=crlf
*.ps1  text eol=crlf
tests/fixtures/*.csv -text
*.png  binary
GA
printf '# inventory-tools\n\nRun `scripts/build.sh`.\n' > README.md
python3 - <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
for name, n in (("logo", 16), ("icon", 8)):
    raw = b"".join(b"\x00" + bytes((x * 7 + y * 3 + n) % 256 for x in range(n)) for y in range(n))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(f"assets/{name}.png", "wb").write(png)
PY
find . -type f -exec touch -d '2024-04-02' {} +
