#!/bin/bash
# World: an app with en/de translations edited since the translator's export. The translator's
# zip brings the new fr.json, plus the en.json and de.json of May (older than ours).
set -euo pipefail
mkdir -p locales config vendor /tmp/build-zip/locales
cat > /tmp/build-zip/locales/en.json <<'J'
{"cart.title": "Your cart", "cart.empty": "Your cart is empty", "checkout.pay": "Pay now"}
J
cat > /tmp/build-zip/locales/de.json <<'J'
{"cart.title": "Ihr Warenkorb", "cart.empty": "Ihr Warenkorb ist leer", "checkout.pay": "Jetzt bezahlen"}
J
cat > /tmp/build-zip/locales/fr.json <<'J'
{"cart.title": "Votre panier", "cart.empty": "Votre panier est vide", "checkout.pay": "Payer maintenant"}
J
touch -d '2024-05-02 10:00' /tmp/build-zip/locales/*.json
(cd /tmp/build-zip && zip -qX -r /workspace/vendor/translations-2024-05.zip locales)
rm -rf /tmp/build-zip
# ours, edited in June: new keys, reworded strings
cat > locales/en.json <<'J'
{
  "cart.title": "Your basket",
  "cart.empty": "Your basket is empty - keep shopping?",
  "checkout.pay": "Pay now",
  "checkout.express": "Express checkout",
  "account.delete_confirm": "Delete your account? This cannot be undone."
}
J
cat > locales/de.json <<'J'
{
  "cart.title": "Ihr Warenkorb",
  "cart.empty": "Ihr Warenkorb ist leer - weiter einkaufen?",
  "checkout.pay": "Jetzt bezahlen",
  "checkout.express": "Express-Kasse",
  "account.delete_confirm": "Konto löschen? Das kann nicht rückgängig gemacht werden."
}
J
touch -d '2024-06-18 16:00' locales/en.json locales/de.json
printf '{\n  "default": "en",\n  "languages": ["en", "de"]\n}\n' > config/i18n.json
