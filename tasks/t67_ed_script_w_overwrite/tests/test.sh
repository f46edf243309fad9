#!/bin/bash
# Goal: [payments] is gone from app.ini and appended, complete, to payments.ini, whose original
# content is kept as it was.
cd /workspace || exit 1
fail=0
grep -q '^\[payments\]$' config/app.ini && { echo "config/app.ini still has a [payments] section"; fail=1; }
grep -q '^\[server\]$' config/app.ini && grep -q '^\[logging\]$' config/app.ini || { echo "config/app.ini lost its other sections"; fail=1; }
orig='# payment settings, loaded after app.ini. Keys and limits are maintained by hand.
[payments.keys]
publishable_key = pk_test_FAKE_51Hx
secret_key_file = /run/secrets/stripe_secret
; PayPal keys, kept until the migration is signed off (ticket FIN-212)
; paypal_client_id = AbC123-live
; paypal_webhook_id = WH-88

[payments.limits]
max_refund_eur = 500
daily_payout_cap_eur = 20000'
[ "$(head -c ${#orig} config/payments.ini)" = "$orig" ] || { echo "config/payments.ini no longer starts with its original content"; fail=1; }
v=$(python3 - <<'PY' 2>&1
import configparser
only = configparser.ConfigParser(); only.read("config/payments.ini")
s = only["payments"]
print(s["provider"], s["api_base"], s["webhook_path"], s["retry_limit"])
PY
)
[ "$v" = "stripe https://api.stripe.example /hooks/stripe 3" ] || { echo "config/payments.ini has no complete [payments] section: $v"; fail=1; }
[ "$fail" = 0 ] && echo "ok: [payments] moved to the end of config/payments.ini"
exit $fail
