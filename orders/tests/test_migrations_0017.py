"""orders/migrations/0017_booking_events, on a copy of the demo data, in a database of its
own through manage.py, back and forth: orders placed before the Timeline get the steps their
own fields tell (placed, paid, shipped, refunded, expired), the same steps and words the
services write today; going back drops them."""

import json

import pytest

from scripts.servers import shop_env
from tests.test_data_safety import empty_database, shell

ROUND_TRIP = """
import io, json
from django.core.management import call_command
from django.db import connection

def migrate(*args):
    call_command("migrate", *args, verbosity=0, stdout=io.StringIO())

def steps():
    from orders.models import Booking
    return {str(pk): [[e["kind"], e["text"]] for e in events]
            for pk, events in Booking.objects.order_by("pk").values_list("pk", "events")}

def has_events():
    with connection.cursor() as cursor:
        table = connection.introspection.get_table_description(cursor, "orders_booking")
    return "events" in {column.name for column in table}

migrate()
call_command("seed_demo", verbosity=0, stdout=io.StringIO())
written = steps()
migrate("orders", "0016")
back = has_events()
migrate("orders")
print(json.dumps({"written": written, "back": back, "told": steps()}))
"""


@pytest.mark.slow  # manage.py, the demo data and a database of its own
def test_orders_placed_before_get_the_steps_their_fields_tell(tmp_path):
    with empty_database(tmp_path, "shop_events_migration") as url:
        result = json.loads(shell(ROUND_TRIP, shop_env(url)).strip().splitlines()[-1])

    assert result["back"] is False
    written = result["written"]
    # The demo has an order in each state: each one's steps, as the services wrote them.
    assert sorted(tuple(kind for kind, _ in steps) for steps in written.values()) == sorted(
        [
            ("placed",),
            ("placed", "paid"),
            ("placed", "paid", "shipped"),
            ("placed", "paid", "refunded"),
            ("placed", "expired"),
        ]
    )
    assert result["told"] == written
