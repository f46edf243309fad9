#!/bin/bash
# World: the user's clone of /srv/git/lang.git, one commit behind: a colleague pushed "SUB
# support" touching the lines next to the user's uncommitted division-by-zero fix (so a merge
# conflicts). Uncommitted: the interpreter fix, three Coq failure lemmas, two test programs.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
at() { export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"; }
git init -q --bare --initial-branch=main /srv/git/lang.git
git clone -q /srv/git/lang.git . 2>/dev/null
git checkout -q -b main 2>/dev/null || true
mkdir -p src lemmas tests
cat > src/interpreter.cpp <<'CPP'
#include "ast.h"

int eval(Node* n) {
  switch (n->kind) {
    case NUM: return n->value;
    case ADD: return eval(n->l) + eval(n->r);
    case DIV: return eval(n->l) / eval(n->r);
  }
  return 0;
}
CPP
printf '# lang\nA tiny expression language with a Coq model.\n' > README.md
git add -A && at 2024-09-01T09:00:00Z && git commit -qm "interpreter: NUM, ADD, DIV"
git push -q origin main
col=$(mktemp -d)
git clone -q /srv/git/lang.git "$col/lang"
(
  cd "$col/lang"
  export GIT_AUTHOR_NAME="Sam Rivera" GIT_AUTHOR_EMAIL=sam@example.org GIT_COMMITTER_NAME="Sam Rivera" GIT_COMMITTER_EMAIL=sam@example.org
  sed -i 's|    case DIV:|    case SUB: return eval(n->l) - eval(n->r);\n    case DIV:|' src/interpreter.cpp
  printf '# lang\nA tiny expression language with a Coq model.\nOperators: + - /\n' > README.md
  at 2024-09-03T15:00:00Z && git commit -qam "interpreter: SUB support"
  git push -q origin main
)
rm -rf "$col"
sed -i 's|    case DIV: return eval(n->l) / eval(n->r);|    case DIV: {\n      int d = eval(n->r);\n      if (d == 0) throw DivByZero(n);\n      return eval(n->l) / d;\n    }|' src/interpreter.cpp
for i in 1 2 3; do
  printf 'Lemma failure_%s : forall e, eval e = None -> has_div_zero e.\nProof. (* case %s *) admit. Admitted.\n' "$i" "$i" > "lemmas/failure_$i.v"
done
printf '1 / 0\n' > tests/failure_div_zero.sl
printf '(4 / (2 + -2))\n' > tests/failure_nested.sl
