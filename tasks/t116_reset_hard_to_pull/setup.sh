#!/bin/bash
# World: origin's main has the squash-merged newsletter PR. The user's local main still has the
# pre-squash commit (same content) and so has diverged; in the working tree, uncommitted edits
# to README.md and templates/footer.html, and an untracked draft.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
at() { export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"; }
git init -q --bare --initial-branch=main /srv/git/site.git
git clone -q /srv/git/site.git . 2>/dev/null
git checkout -q -b main 2>/dev/null || true
mkdir -p templates app
printf '# site\nMarketing site.\n' > README.md
printf '<footer>(c) ACME</footer>\n' > templates/footer.html
printf 'def home():\n    return "home"\n' > app/views.py
git add -A && at 2024-07-01T09:00:00Z && git commit -qm "site"
git push -q origin main
printf 'def signup(email):\n    return {"subscribed": email}\n' > app/newsletter.py
git add -A && at 2024-07-05T09:00:00Z && git commit -qm "newsletter signup"
# the PR, squash-merged on the server from a branch with the same change
srv=$(mktemp -d)
git clone -q /srv/git/site.git "$srv/site"
(
  cd "$srv/site"
  export GIT_COMMITTER_NAME="GitHub" GIT_COMMITTER_EMAIL=noreply@github.com
  printf 'def signup(email):\n    return {"subscribed": email}\n' > app/newsletter.py
  git add -A && at 2024-07-06T12:00:00Z && git commit -qm "Newsletter signup (#42)"
  git push -q origin main
)
rm -rf "$srv"
printf '# site\nMarketing site.\n\n## Newsletter\nSign-ups go to the `newsletter` list; double opt-in is on.\n' > README.md
printf '<footer>(c) ACME - <a href="/newsletter">Get the newsletter</a></footer>\n' > templates/footer.html
printf 'Draft: welcome email copy\n' > templates/welcome_email_draft.txt
