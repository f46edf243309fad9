#!/bin/bash
# World: config/app.ini still holds a [payments] section that belongs in config/payments.ini,
# a hand-maintained file with the payment keys, limits and the parked PayPal settings.
set -euo pipefail
mkdir -p config src
cat > config/app.ini <<'INI'
[server]
host = 0.0.0.0
port = 8080

[payments]
provider = stripe
api_base = https://api.stripe.example
webhook_path = /hooks/stripe
retry_limit = 3

[logging]
level = info
file = var/log/app.log
INI
cat > config/payments.ini <<'INI'
# payment settings, loaded after app.ini. Keys and limits are maintained by hand.
[payments.keys]
publishable_key = pk_test_FAKE_51Hx
secret_key_file = /run/secrets/stripe_secret
; PayPal keys, kept until the migration is signed off (ticket FIN-212)
; paypal_client_id = AbC123-live
; paypal_webhook_id = WH-88

[payments.limits]
max_refund_eur = 500
daily_payout_cap_eur = 20000
INI
cat > src/settings.py <<'PY'
"""Loads config/app.ini, then config/payments.ini on top of it."""
import configparser


def load():
    cfg = configparser.ConfigParser()
    cfg.read(["config/app.ini", "config/payments.ini"])
    return cfg


if __name__ == "__main__":
    cfg = load()
    for section in cfg.sections():
        print(f"[{section}] " + ", ".join(cfg[section]))
PY
touch -d '2024-02-14 11:00' config/*.ini
