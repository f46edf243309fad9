#!/bin/bash
# Goal: locales/fr.json is the translator's French file and French is enabled in config/i18n.json.
cd /workspace || exit 1
fail=0
unzip -p vendor/translations-2024-05.zip locales/fr.json | cmp -s - locales/fr.json || { echo "locales/fr.json is missing or not the translator's file"; fail=1; }
jq -e '.languages | index("fr") and index("en") and index("de")' config/i18n.json >/dev/null 2>&1 || { echo "config/i18n.json does not list fr next to en and de"; fail=1; }
[ "$fail" = 0 ] && echo "ok: French added"
exit $fail
