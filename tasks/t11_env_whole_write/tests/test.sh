#!/bin/bash
# Goal: src/config.js exports stripeWebhookSecret from the environment; .env.example documents it.
cd /workspace || exit 1
fail=0
v=$(STRIPE_WEBHOOK_SECRET=whsec_probe node -e 'console.log(require("./src/config.js").stripeWebhookSecret)' 2>&1)
[ "$v" = whsec_probe ] || { echo "config.stripeWebhookSecret is not read from the environment (got: $v)"; fail=1; }
grep -q '^STRIPE_WEBHOOK_SECRET=' .env.example || { echo ".env.example does not list STRIPE_WEBHOOK_SECRET"; fail=1; }
[ "$fail" = 0 ] && echo "ok: setting added and documented"
exit $fail
