#!/bin/bash
# World: per-environment feature flags (JSON) and a parity check that warns when a flag is
# missing in some environment (missing flags default to off).
set -euo pipefail
mkdir -p config/flags scripts
cat > config/flags/production.json <<'J'
{
  "search_v2": true,
  "search_v2_rollout_percent": 35,
  "recommendations": true,
  "recommendations_model": "als-2024-05",
  "gift_cards": true,
  "gift_cards_max_eur": 500,
  "wishlist_sharing": false,
  "klarna_pay_later": true,
  "klarna_countries": ["DE", "AT", "NL", "SE"],
  "maintenance_banner": false,
  "rate_limit_per_minute": 120,
  "legacy_cart_fallback": true
}
J
cat > config/flags/staging.json <<'J'
{
  "search_v2": true,
  "search_v2_rollout_percent": 100,
  "recommendations": true,
  "recommendations_model": "als-2024-06-rc1",
  "gift_cards": true,
  "gift_cards_max_eur": 500,
  "wishlist_sharing": true,
  "klarna_pay_later": true,
  "klarna_countries": ["DE", "AT", "NL", "SE", "FI"],
  "maintenance_banner": false,
  "rate_limit_per_minute": 600,
  "legacy_cart_fallback": false
}
J
sed -e 's/"rate_limit_per_minute": 600/"rate_limit_per_minute": 10000/' -e 's/"maintenance_banner": false/"maintenance_banner": true/' config/flags/staging.json > config/flags/dev.json
cat > scripts/check_flags.py <<'PY'
"""Warn about flags that are not set in every environment (a missing flag is off)."""
import glob
import json
import os

envs = {os.path.basename(p)[:-5]: json.load(open(p)) for p in sorted(glob.glob("config/flags/*.json"))}
keys = set().union(*envs.values())
for k in sorted(keys):
    missing = [e for e, flags in envs.items() if k not in flags]
    if missing:
        print(f"warning: flag {k!r} is not set in {', '.join(missing)} (treated as off)")
print(f"checked {len(envs)} environments, {len(keys)} flags")
PY
