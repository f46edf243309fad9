#!/bin/bash
# World: a repo with a pre-commit hook that rejects trailing whitespace; the staged file has some.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
export GIT_AUTHOR_DATE='2024-06-01T09:00:00Z' GIT_COMMITTER_DATE='2024-06-01T09:00:00Z'
git -c init.defaultBranch=main init -q .
mkdir -p src
printf 'def invoices():\n    return []\n' > src/billing.py
git add -A && git commit -qm "billing module"
cat > .git/hooks/pre-commit <<'HOOK'
#!/bin/sh
# team policy: no trailing whitespace, no debugger calls in committed python
files=$(git diff --cached --name-only --diff-filter=ACM -- '*.py')
[ -z "$files" ] && exit 0
if grep -nE '[[:space:]]+$' $files; then echo "pre-commit: trailing whitespace (see above)"; exit 1; fi
if grep -n 'breakpoint()' $files; then echo "pre-commit: remove breakpoint()"; exit 1; fi
exit 0
HOOK
chmod 755 .git/hooks/pre-commit
printf 'import csv\n\ndef export_invoices(rows, path):   \n    with open(path, "w") as f:\n        csv.writer(f).writerows(rows)\n' > src/invoice.py
git add src/invoice.py
