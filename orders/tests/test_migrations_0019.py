"""orders/migrations/0019_returns, on a copy of the demo data, in a database of its own through
manage.py, back and forth: an order refunded in full before returns came has its whole total
refunded (`refunded_amount`); every other order has nothing refunded; going back drops the
returns' tables and the column."""

import json

import pytest

from scripts.servers import shop_env
from tests.test_data_safety import empty_database, shell

ROUND_TRIP = """
import io, json
from django.core.management import call_command
from django.db import connection

def rows(sql):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [[None if value is None else str(value) for value in row]
                for row in cursor.fetchall()]

def has(table, column=None):
    if table not in connection.introspection.table_names():
        return False
    with connection.cursor() as cursor:
        names = {c.name for c in connection.introspection.get_table_description(cursor, table)}
    return column is None or column in names

def migrate(*args):
    call_command("migrate", *args, verbosity=0, stdout=io.StringIO())

migrate()
call_command("seed_demo", verbosity=0, stdout=io.StringIO())
migrate("orders", "0018")
back = {"column": has("orders_booking", "refunded_amount"),
        "returns": has("orders_return"), "lines": has("orders_returnline")}
migrate("orders")
print(json.dumps({"back": back, "forth": rows(
    "SELECT refunded_at IS NOT NULL, total_price, refunded_amount FROM orders_booking ORDER BY id"
)}))
"""


@pytest.mark.slow  # manage.py, the demo data and a database of its own
def test_orders_refunded_before_returns_have_their_whole_total_refunded(tmp_path):
    with empty_database(tmp_path, "shop_returns_migration") as url:
        result = json.loads(shell(ROUND_TRIP, shop_env(url)).strip().splitlines()[-1])

    assert result["back"] == {"column": False, "returns": False, "lines": False}
    refunded = [row for row in result["forth"] if row[0] in ("True", "1")]
    others = [row for row in result["forth"] if row[0] not in ("True", "1")]
    assert refunded and others  # the demo has a refunded order and others
    assert all(amount == total for _, total, amount in refunded)
    assert all(amount in ("0", "0.00") for _, _, amount in others)
