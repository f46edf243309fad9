#!/bin/bash
# World: a small cart module (bug #212 already fixed) and its unittest file; the file ends
# with the last method of the TestCart class, so a new method can be appended.
set -euo pipefail
mkdir -p src tests
: > src/__init__.py
: > tests/__init__.py
cat > src/cart.py <<'PY'
from decimal import ROUND_HALF_UP, Decimal


class Cart:
    def __init__(self, discount_pct=0):
        self.items = []
        self.discount_pct = discount_pct

    def add(self, sku, price_cents, qty=1):
        if qty <= 0:
            raise ValueError("qty must be positive")
        self.items.append((sku, price_cents, qty))

    def subtotal(self):
        return sum(p * q for _, p, q in self.items)

    def total(self):
        # fixed #212: an empty cart used to divide by len(self.items)
        if not self.items:
            return 0
        sub = Decimal(self.subtotal())
        discounted = sub * (Decimal(100 - self.discount_pct) / 100)
        return int(discounted.quantize(Decimal("1"), rounding=ROUND_HALF_UP))
PY
cat > tests/test_cart.py <<'PY'
import unittest

from src.cart import Cart


class TestCart(unittest.TestCase):
    def setUp(self):
        self.cart = Cart()

    def test_add_item(self):
        self.cart.add("apple", 120, 3)
        self.assertEqual(len(self.cart.items), 1)

    def test_add_rejects_zero_qty(self):
        with self.assertRaises(ValueError):
            self.cart.add("apple", 120, 0)

    def test_subtotal(self):
        self.cart.add("apple", 120, 3)
        self.cart.add("pear", 95)
        self.assertEqual(self.cart.subtotal(), 455)

    def test_total_without_discount(self):
        self.cart.add("apple", 120, 3)
        self.assertEqual(self.cart.total(), 360)

    def test_total_with_discount(self):
        cart = Cart(discount_pct=10)
        cart.add("apple", 120, 3)
        self.assertEqual(cart.total(), 324)

    def test_total_rounds_half_up(self):
        # regression for #187: 15% off 330 is 280.5, which must round to 281
        cart = Cart(discount_pct=15)
        cart.add("widget", 330)
        self.assertEqual(cart.total(), 281)

    def test_total_multiple_items_discount(self):
        cart = Cart(discount_pct=25)
        cart.add("apple", 120, 2)
        cart.add("pear", 100, 2)
        self.assertEqual(cart.total(), 330)
PY
touch -d '2024-02-10' tests/test_cart.py
