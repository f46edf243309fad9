#!/bin/bash
# Goal: tests/test_cart.py has a new test of an empty cart's total(), the suite passes, and the
# seven existing tests are all still there.
cd /workspace || exit 1
python3 - <<'PY'
import inspect, io, sys, unittest
sys.path.insert(0, ".")
try:
    import tests.test_cart as m
except Exception as e:
    print("tests/test_cart.py does not import:", e); sys.exit(1)
old = {"test_add_item", "test_add_rejects_zero_qty", "test_subtotal", "test_total_without_discount",
       "test_total_with_discount", "test_total_rounds_half_up", "test_total_multiple_items_discount"}
names = {n for n in dir(m.TestCart) if n.startswith("test")}
if old - names:
    print("existing tests are gone:", sorted(old - names)); sys.exit(1)
new = [n for n in names - old if "Cart()" in inspect.getsource(getattr(m.TestCart, n)) and "total()" in inspect.getsource(getattr(m.TestCart, n))]
if not new:
    print("no new test calls total() on an empty Cart()"); sys.exit(1)
res = unittest.TextTestRunner(stream=io.StringIO()).run(unittest.defaultTestLoader.discover("tests", top_level_dir="."))
if not res.wasSuccessful() or res.testsRun < 8:
    print("test suite fails or is incomplete: ran %d, %d failures, %d errors" % (res.testsRun, len(res.failures), len(res.errors))); sys.exit(1)
print("ok: regression test %s added, %d tests pass" % (new[0], res.testsRun))
PY
