#!/bin/bash
# Goal: analysis/scratch.ipynb is a valid notebook whose code cells have no outputs and whose
# five cells (the code the user keeps) are still there with the same source.
cd /workspace || exit 1
python3 - <<'PY'
import json, sys
try:
    nb = json.load(open("analysis/scratch.ipynb"))
except Exception as e:
    print("analysis/scratch.ipynb is not valid JSON:", e); sys.exit(1)
src = lambda c: "".join(c.get("source", [])) if isinstance(c.get("source"), list) else c.get("source", "")
want = [
    "# Scratch: order cohorts",
    "import pandas as pd\nimport matplotlib.pyplot as plt\ndf = pd.read_csv('../data/orders.csv')",
    "cohorts = df.groupby('cohort').size()\ncohorts.plot(kind='bar')",
    "df.describe()",
    "for c in sorted(df.cohort.unique()):\n    df[df.cohort == c].plot(x='week', y='total_cents', title=c)",
]
cells = nb.get("cells", [])
got = [src(c).strip() for c in cells]
if got != want:
    print("the notebook's cells changed: expected %d cells with the original sources, got %r" % (len(want), got)); sys.exit(1)
left = [i for i, c in enumerate(cells) if c.get("cell_type") == "code" and c.get("outputs")]
if left:
    print("code cells still have outputs:", left); sys.exit(1)
if nb.get("nbformat") != 4:
    print("nbformat is not 4"); sys.exit(1)
print("ok: outputs cleared, code kept")
PY
