"""orders/migrations/0016_invoices, on a copy of the demo data, in a database of its own
through manage.py, back and forth: orders paid before invoices came get their numbers in the
order they were paid (then by id), with the year each was paid, and the counter starts after
the last; a payment refunded at once because its stock was gone (paid, its stock released)
gets none; unpaid orders get none. Going back drops the numbers and the counter."""

import json
import re

import pytest

from scripts.servers import shop_env
from tests.test_data_safety import empty_database, shell

ROUND_TRIP = """
import io, json
from django.core.management import call_command
from django.db import connection

NUMBERS = "SELECT id, invoice_number FROM orders_booking ORDER BY id"

def rows(sql):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [[None if value is None else str(value) for value in row]
                for row in cursor.fetchall()]

def write(sql):
    with connection.cursor() as cursor:
        cursor.execute(sql)

def migrate(*args):
    call_command("migrate", *args, verbosity=0, stdout=io.StringIO())

def has(table, column=None):
    if table not in connection.introspection.table_names():
        return False
    with connection.cursor() as cursor:
        names = {c.name for c in connection.introspection.get_table_description(cursor, table)}
    return column is None or column in names

migrate()
call_command("seed_demo", verbosity=0, stdout=io.StringIO())
given = rows(NUMBERS)
migrate("orders", "0015")
back = {"column": has("orders_booking", "invoice_number"),
        "history": has("orders_historicalbooking", "invoice_number"),
        "counter": has("orders_invoicecounter")}
# Before invoices: the demo's refunded order was paid first, a year earlier, and its expired
# order was paid after its hold lapsed with its stock gone (refunded at once, stock released).
write("UPDATE orders_booking SET paid_at = paid_at - INTERVAL '1 year' WHERE refunded_at IS NOT NULL"
      if connection.vendor == "postgresql" else
      "UPDATE orders_booking SET paid_at = datetime(paid_at, '-1 year') WHERE refunded_at IS NOT NULL")
write("UPDATE orders_booking SET paid = true, paid_at = released_at, refunded_at = released_at, "
      "transaction_id = 'pi_late' WHERE paid = false AND released_at IS NOT NULL")
states = rows("SELECT id, paid, released_at IS NOT NULL, refunded_at IS NOT NULL, paid_at "
              "FROM orders_booking ORDER BY id")
migrate("orders")
print(json.dumps({"given": given, "back": back, "states": states, "forth": rows(NUMBERS),
                  "counter": rows("SELECT id, last FROM orders_invoicecounter")}))
"""

NUMBER = re.compile(r"INV-(\d{4})-(\d{6})")


@pytest.mark.slow  # manage.py, the demo data and a database of its own
def test_orders_paid_before_get_numbers_in_the_order_they_were_paid(tmp_path):
    with empty_database(tmp_path, "shop_invoices_migration") as url:
        result = json.loads(shell(ROUND_TRIP, shop_env(url)).strip().splitlines()[-1])

    # The demo's paid orders (pending, shipped, refunded) were numbered at payment, 1 to 3.
    given = {int(pk): number for pk, number in result["given"] if number}
    assert sorted(int(NUMBER.fullmatch(n)[2]) for n in given.values()) == [1, 2, 3]
    assert result["back"] == {"column": False, "history": False, "counter": False}

    forth = {int(pk): number for pk, number in result["forth"]}
    paid, late, refunded_first = set(), set(), None
    for pk, is_paid, released, refunded, paid_at in result["states"]:
        if is_paid in ("True", "1") and released in ("True", "1"):
            late.add(int(pk))
        elif is_paid in ("True", "1"):
            paid.add(int(pk))
            if refunded in ("True", "1"):
                refunded_first = (int(pk), paid_at)
    assert late and refunded_first
    assert {pk for pk, number in forth.items() if number} == paid == set(given)
    # Numbered in the order they were paid: the refunded order, paid a year earlier, is first.
    pk, paid_at = refunded_first
    assert NUMBER.fullmatch(forth[pk]).groups() == (paid_at[:4], "000001")
    others = sorted(paid - {pk})
    assert [NUMBER.fullmatch(forth[o])[2] for o in others] == ["000002", "000003"]
    assert result["counter"] == [["1", "3"]]
