"""orders/migrations/0013_booking_price_breakdown, on a copy of the demo data, in a database
of its own through manage.py, back and forth: an order placed before it had no breakdown, so
it gets its total as its subtotal, no discount or voucher, free shipping by no method, no tax,
prices including tax and no ship-to copy (the spec's free-text address); its history's
versions too. Going back drops the columns and loses nothing else."""

import json
from decimal import Decimal

import pytest

from scripts.servers import shop_env
from tests.test_data_safety import empty_database, shell

ROUND_TRIP = """
import io, json
from django.core.management import call_command
from django.db import connection

ORDERS = ("SELECT id, user_id, total_price, address, paid, status, expires_at, refunded_at "
          "FROM orders_booking ORDER BY id")
BREAKDOWN = ("SELECT id, total_price, subtotal, discount, voucher_code, shipping_method, "
             "shipping_price, shipping_eta, tax, tax_included, ship_to "
             "FROM orders_booking ORDER BY id")
HISTORY = "SELECT id, total_price, subtotal FROM orders_historicalbooking ORDER BY history_id"
BREAKDOWN_COLUMNS = {"subtotal", "discount", "voucher_code", "shipping_method",
                     "shipping_price", "shipping_eta", "tax", "tax_included", "ship_to"}

def rows(sql):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [[None if value is None else str(value) for value in row]
                for row in cursor.fetchall()]

def columns(table):
    with connection.cursor() as cursor:
        names = {c.name for c in connection.introspection.get_table_description(cursor, table)}
    return sorted(names & BREAKDOWN_COLUMNS)

def migrate(*args):
    call_command("migrate", *args, verbosity=0, stdout=io.StringIO())

migrate()
call_command("seed_demo", verbosity=0, stdout=io.StringIO())
placed = rows(ORDERS)
migrate("orders", "0012")
back = {"orders": rows(ORDERS),
        "columns": columns("orders_booking") + columns("orders_historicalbooking")}
migrate("orders")
print(json.dumps({"placed": placed, "back": back, "forth": rows(ORDERS),
                  "breakdown": rows(BREAKDOWN), "history": rows(HISTORY)}))
"""


@pytest.mark.slow  # manage.py, the demo data and a database of its own
def test_orders_placed_before_get_their_total_as_subtotal_and_go_back_losing_nothing(tmp_path):
    with empty_database(tmp_path, "shop_breakdown_migration") as url:
        result = json.loads(shell(ROUND_TRIP, shop_env(url)).strip().splitlines()[-1])

    placed = result["placed"]
    assert len(placed) >= 5  # the demo shopper's orders, one in each state
    # Back: the columns are gone, the orders as they were.
    assert result["back"] == {"orders": placed, "columns": []}
    # Forth: the same orders, each with the breakdown of an order placed before pricing.
    assert result["forth"] == placed
    for _, total, subtotal, discount, code, method, price, eta, tax, included, ship_to in result[
        "breakdown"
    ]:
        assert Decimal(subtotal) == Decimal(total)
        assert Decimal(discount) == Decimal(price) == Decimal(tax) == 0
        assert (code, method, eta, ship_to) == ("", "", "", None)
        assert included in ("True", "1")  # PRICES_INCLUDE_TAX's default (SQLite: 1)
    assert result["history"]
    assert all(subtotal == total for _, total, subtotal in result["history"])
