"""orders/migrations/0008_booking_lines on a copy of the demo data: every order becomes an
order of one line and back, losing nothing; going back is refused while an order of several
lines exists (it would be lost). In a database of its own, through manage.py."""

import json

import pytest

from scripts.servers import shop_env
from tests.test_data_safety import empty_database, shell

ROUND_TRIP = """
import io, json
from django.core.management import call_command
from django.db import connection

ORDERS = ("SELECT id, user_id, part_id, parts_name, price_per_unit, quantity, total_price, "
          "paid, status, expires_at, released_at, refunded_at FROM orders_booking ORDER BY id")
LINES = ("SELECT booking_id, part_id, parts_name, price_per_unit, quantity, line_total "
         "FROM orders_bookingline ORDER BY booking_id, id")

def rows(sql):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [[str(value) for value in row] for row in cursor.fetchall()]

def migrate(*args):
    call_command("migrate", *args, verbosity=0, stdout=io.StringIO())

migrate()
call_command("seed_demo", verbosity=0, stdout=io.StringIO())
placed = {"orders": rows(ORDERS), "lines": rows(LINES)}
migrate("orders", "0007")
back = {
    "orders": rows(ORDERS),
    "tables": [t for t in connection.introspection.table_names() if t == "orders_bookingline"],
}
migrate("orders")
forth = {"orders": rows(ORDERS), "lines": rows(LINES)}

from accounts.models import User
from catalog.models import Part
from orders.services import booking_place_lines
parts = Part.objects.filter(available_quantity__gte=10, minimum_order_quantity=1)[:2]
several = booking_place_lines(
    user=User.objects.order_by("id").first(),
    lines=[(part.pk, 1) for part in parts],
    address="1 Road",
    phone="12345",
)
before_refusal = rows(LINES)
try:
    migrate("orders", "0007")
    refused = ""
except Exception as exc:
    refused = str(exc)
print(json.dumps({
    "placed": placed, "back": back, "forth": forth, "refused": refused,
    "kept": rows(LINES) == before_refusal, "several": several.pk,
}))
"""


@pytest.mark.slow  # manage.py, the demo data and a database of its own
def test_orders_become_one_line_orders_and_back_losing_nothing(tmp_path):
    with empty_database(tmp_path, "shop_lines_migration") as url:
        result = json.loads(shell(ROUND_TRIP, shop_env(url)).strip().splitlines()[-1])

    placed, back, forth = result["placed"], result["back"], result["forth"]
    assert len(placed["orders"]) >= 5  # the demo shopper's orders, one in each state
    # Placed by the services: one line each, the order's own part, name, price and amounts.
    assert [line[0] for line in placed["lines"]] == [order[0] for order in placed["orders"]]
    assert [line[1:] for line in placed["lines"]] == [order[2:7] for order in placed["orders"]]
    # Back: the orders exactly as they were, no lines table. Forth: the same lines again.
    assert back == {"orders": placed["orders"], "tables": []}
    assert forth == placed
    # An order of several lines cannot go back: refused, and nothing changed.
    assert "Orders of several lines exist (1)" in result["refused"]
    assert result["kept"] is True
