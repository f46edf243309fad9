#!/bin/bash
# World: ~/docs/guias with nine clinical guideline PDFs in three source folders (not sorted by
# specialty) and ~/docs/clasificacion.csv mapping each file to its specialty.
set -euo pipefail
D=/home/user/docs
mkdir -p "$D/guias/2022" "$D/guias/2023" "$D/guias/importados"
pdf() { printf '%%PDF-1.4\n%% guia %s\n' "$2" > "$D/guias/$1"; head -c 2500 /dev/zero | tr '\0' 'g' >> "$D/guias/$1"; }
pdf 2022/GPC-IAM.pdf "infarto agudo de miocardio"
pdf 2022/GPC-EVC.pdf "enfermedad vascular cerebral"
pdf 2022/GPC-ASMA-INF.pdf "asma infantil"
pdf 2023/GPC-HTA.pdf "hipertension arterial"
pdf 2023/GPC-EPILEPSIA.pdf "epilepsia"
pdf 2023/GPC-BRONQ.pdf "bronquiolitis"
pdf importados/GPC-ICC.pdf "insuficiencia cardiaca"
pdf importados/GPC-MIGRANA.pdf "migrana"
pdf importados/GPC-NEONATO.pdf "neonato sano"
cat > "$D/clasificacion.csv" <<'CSV'
archivo,especialidad
GPC-IAM.pdf,Cardiologia
GPC-HTA.pdf,Cardiologia
GPC-ICC.pdf,Cardiologia
GPC-EVC.pdf,Neurologia
GPC-EPILEPSIA.pdf,Neurologia
GPC-MIGRANA.pdf,Neurologia
GPC-ASMA-INF.pdf,Pediatria
GPC-BRONQ.pdf,Pediatria
GPC-NEONATO.pdf,Pediatria
CSV
touch -d 2023-11-20T10:00:00 "$D"/guias/*/*.pdf "$D/clasificacion.csv"
