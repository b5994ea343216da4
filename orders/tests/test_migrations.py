"""The migrations of an order's lines, on a copy of the demo data, in a database of its own
through manage.py: orders/migrations/0011_booking_is_its_lines (the order's one-line summary
columns go: an order is its lines) and 0008_booking_lines (every order became an order of one
line), each back and forth, losing nothing. Going back past 0011 is refused while an order of
several lines exists (it would be lost); an order written without lines before 0011 gets the
one line its own columns describe."""

import json

import pytest

from scripts.servers import shop_env
from tests.test_data_safety import empty_database, shell

ROUND_TRIP = """
import io, json
from django.core.management import call_command
from django.db import connection

ORDERS = ("SELECT id, user_id, total_price, paid, status, expires_at, released_at, refunded_at "
          "FROM orders_booking ORDER BY id")
SUMMARIES = ("SELECT id, part_id, parts_name, price_per_unit, quantity, total_price "
             "FROM orders_booking ORDER BY id")
HISTORY = ("SELECT id, part_id, parts_name, price_per_unit, quantity "
           "FROM orders_historicalbooking ORDER BY history_id")
LINES = ("SELECT booking_id, part_id, parts_name, price_per_unit, quantity, line_total "
         "FROM orders_bookingline ORDER BY booking_id, id")

def rows(sql):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [[str(value) for value in row] for row in cursor.fetchall()]

def columns(table):
    with connection.cursor() as cursor:
        return [c.name for c in connection.introspection.get_table_description(cursor, table)]

def migrate(*args):
    call_command("migrate", *args, verbosity=0, stdout=io.StringIO())

migrate()
call_command("seed_demo", verbosity=0, stdout=io.StringIO())
placed = {"orders": rows(ORDERS), "lines": rows(LINES)}

migrate("orders", "0010")
summed_up = {"summaries": rows(SUMMARIES), "history": rows(HISTORY), "orders": rows(ORDERS)}
migrate("orders", "0007")
before_lines = {
    "summaries": rows(SUMMARIES),
    "tables": [t for t in connection.introspection.table_names() if t == "orders_bookingline"],
}
migrate("orders", "0010")
lines_again = rows(LINES)
# An order written without lines (in bulk, as the benchmark once did): its line is deleted.
bare = placed["orders"][0][0]
with connection.cursor() as cursor:
    cursor.execute("DELETE FROM orders_bookingline WHERE booking_id = %s", [bare])
migrate("orders")
forth = {"orders": rows(ORDERS), "lines": rows(LINES)}
summary_columns = [c for c in columns("orders_booking") + columns("orders_historicalbooking")
                   if c in ("part_id", "parts_name", "price_per_unit", "quantity")]

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
before_refusal = {"orders": rows(ORDERS), "lines": rows(LINES)}
try:
    migrate("orders", "0010")
    refused = ""
except Exception as exc:
    refused = str(exc)
print(json.dumps({
    "placed": placed, "summed_up": summed_up, "before_lines": before_lines,
    "lines_again": lines_again, "forth": forth, "summary_columns": summary_columns,
    "refused": refused, "several": several.pk,
    "kept": {"orders": rows(ORDERS), "lines": rows(LINES)} == before_refusal,
}))
"""


@pytest.mark.slow  # manage.py, the demo data and a database of its own
def test_orders_lose_their_summary_columns_and_get_them_back_losing_nothing(tmp_path):
    with empty_database(tmp_path, "shop_lines_migration") as url:
        result = json.loads(shell(ROUND_TRIP, shop_env(url)).strip().splitlines()[-1])

    placed, summed_up = result["placed"], result["summed_up"]
    assert len(placed["orders"]) >= 5  # the demo shopper's orders, one in each state
    # Placed by the services: one line each, whose total is the order's.
    assert [line[0] for line in placed["lines"]] == [order[0] for order in placed["orders"]]
    assert [line[5] for line in placed["lines"]] == [order[2] for order in placed["orders"]]
    # Back before 0011: each order's own columns are its line's, the rest as it was; so are
    # the history's versions of every order.
    assert summed_up["summaries"] == placed["lines"]
    assert summed_up["orders"] == placed["orders"]
    by_order = {line[0]: line[1:5] for line in placed["lines"]}
    assert summed_up["history"]
    assert all(version[1:] == by_order.get(version[0]) for version in summed_up["history"])
    # Back before 0008: no lines table, the same orders; forth to 0010: the same lines again.
    assert result["before_lines"] == {"summaries": summed_up["summaries"], "tables": []}
    assert result["lines_again"] == placed["lines"]
    # Forth: the same orders and lines, the bare order's line made from its own columns; no
    # summary column is left.
    assert result["forth"] == placed
    assert result["summary_columns"] == []
    # An order of several lines cannot go back: refused, and nothing changed.
    assert "Orders of several lines exist (1)" in result["refused"]
    assert result["kept"] is True
