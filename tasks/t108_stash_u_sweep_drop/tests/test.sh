#!/bin/bash
# Goal: fix/parser-edge has a commit with the parser change and the new edge tests; main does
# not have them committed; HEAD is main again.
cd /workspace || exit 1
fail=0
git show fix/parser-edge:src/parser.py 2>/dev/null | grep -q 'tok.strip()' || { echo "fix/parser-edge lacks the src/parser.py change"; fail=1; }
git cat-file -e fix/parser-edge:tests/test_parser_edge.py 2>/dev/null || { echo "fix/parser-edge lacks tests/test_parser_edge.py"; fail=1; }
git show main:src/parser.py | grep -q 'tok.strip()' && { echo "the parser change was committed on main"; fail=1; }
[ "$(git rev-parse --abbrev-ref HEAD)" = main ] || { echo "HEAD is not main"; fail=1; }
[ "$fail" = 0 ] && echo "ok: parser work on fix/parser-edge, back on main"
exit $fail
