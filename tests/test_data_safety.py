"""Data safety: writes of two rows are one transaction, migrations go back and forth, and a
backup restores into an empty database with the same orders.

Deleting a part keeps its orders: catalog/tests/test_api.py
(test_admin_deletes_and_orders_keep_their_snapshot).
"""

import json
import os
import shutil
import subprocess
import threading
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import DataError, connection, connections

from accounts.tests.factories import UserFactory
from catalog.services import part_delete
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from core.errors import Conflict
from orders.models import Booking
from orders.services import booking_approve, booking_cancel, booking_mark_paid, booking_place
from reviews.services import review_create
from scripts.servers import fresh_database, manage, postgres_server, shop_env

# One row per line of each order: an order is its lines.
ORDER_FIELDS = (
    "id",
    "email",
    "lines__parts_name",
    "lines__part_id",
    "lines__quantity",
    "lines__price_per_unit",
    "total_price",
    "paid",
    "status",
    "transaction_id",
)


def place(user, part, quantity, **fields):
    return booking_place(
        user=user,
        part=part,
        quantity=quantity,
        address=fields.get("address", "1 Safe Street"),
        phone=fields.get("phone", "12345"),
    )


# --- Two rows, one transaction ----------------------------------------------------------


@pytest.mark.django_db
def test_cancelling_an_order_twice_gives_its_stock_back_once():
    """Two cancels of the same order, each with the order as it was read before the other
    ran (two requests at once): the second finds it gone and changes nothing."""
    part = PartFactory(available_quantity=10, minimum_order_quantity=1)
    booking = place(UserFactory(), part, 4)
    first, second = Booking.objects.get(pk=booking.pk), Booking.objects.get(pk=booking.pk)

    assert booking_cancel(booking=first) is True
    assert booking_cancel(booking=second) is False

    part.refresh_from_db()
    assert part.available_quantity == 10
    assert not Booking.objects.filter(pk=booking.pk).exists()


@pytest.mark.django_db
def test_a_cancel_sees_the_payment_that_landed_meanwhile():
    part = PartFactory(available_quantity=10, minimum_order_quantity=1)
    booking = place(UserFactory(), part, 4)
    read_before_payment = Booking.objects.get(pk=booking.pk)
    booking_mark_paid(booking_id=booking.pk, transaction_id="pi_webhook")

    with pytest.raises(Conflict):
        booking_cancel(booking=read_before_payment)
    part.refresh_from_db()
    assert part.available_quantity == 6
    assert Booking.objects.get(pk=booking.pk).paid


@pytest.mark.postgres(reason="SQLite does not enforce a column's length: the insert does not fail")
@pytest.mark.django_db(transaction=True)
def test_an_order_whose_insert_fails_takes_no_stock():
    """booking_place updates the part, then inserts the order; when the insert fails in the
    database (a phone longer than its column, past the serializer), the stock update is
    rolled back with it."""
    part = PartFactory(available_quantity=10, minimum_order_quantity=1)
    with pytest.raises(DataError):
        place(UserFactory(), part, 3, phone="1" * 21)
    part.refresh_from_db()
    assert part.available_quantity == 10
    assert Booking.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_shoppers_cancelling_the_same_order_at_once_return_its_stock_once():
    part = PartFactory(available_quantity=10, minimum_order_quantity=1)
    owner = UserFactory()
    booking = place(owner, part, 4)
    clients = [bearer_client(owner) for _ in range(6)]
    start = threading.Barrier(len(clients))
    statuses = []

    def cancel(client):
        try:
            start.wait()
            statuses.append(client.delete(f"/api/booking/{booking.pk}").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=cancel, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert set(statuses) <= {200, 404}
    part.refresh_from_db()
    assert part.available_quantity == 10


# --- Migrations -------------------------------------------------------------------------

ROUND_TRIP = """
import json
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

def schema():
    with connection.cursor() as cursor:
        return {
            table: sorted(c.name for c in connection.introspection.get_table_description(cursor, table))
            for table in connection.introspection.table_names(cursor)
        }

call_command("migrate", verbosity=0)
before = schema()
apps = sorted(MigrationLoader(connection).migrated_apps)
left_behind = {}
for app in apps:
    call_command("migrate", app, "zero", verbosity=0)
    left_behind[app] = [t for t in connection.introspection.table_names() if t.startswith(app + "_")]
call_command("migrate", verbosity=0)
print(json.dumps({"apps": apps, "left_behind": left_behind, "before": before, "after": schema()}))
"""


@contextmanager
def empty_database(tmp_path: Path, name: str):
    """The URL of a new, empty database: on the PostgreSQL server under test, else SQLite."""
    if connection.vendor == "postgresql":
        with fresh_database(postgres_server(), f"{name}_{os.getpid()}") as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / name}.sqlite3"


def shell(code: str, env: dict[str, str]) -> str:
    return manage("shell", "--verbosity=0", "--no-imports", "-c", code, env=env)


@pytest.mark.slow  # every migration, both ways, on a database of its own
def test_every_app_migrates_to_zero_and_back(tmp_path):
    with empty_database(tmp_path, "shop_migrations") as url:
        result = json.loads(shell(ROUND_TRIP, shop_env(url)))
    assert {"accounts", "catalog", "orders", "reviews"} <= set(result["apps"])
    assert result["left_behind"] == {app: [] for app in result["apps"]}
    assert result["after"] == result["before"]
    assert "orders_booking" in result["after"]


# --- Backup and restore -----------------------------------------------------------------

READ_BACK = f"""
import json
from accounts.models import User
from catalog.models import Part
from orders.models import Booking
from reviews.models import Review
orders = Booking.objects.order_by("id", "lines__id").values_list(*{ORDER_FIELDS!r})
last_part = Part.objects.order_by("-id").first()
new_part = Part.objects.create(name="After restore", price=1, available_quantity=1)
print(json.dumps({{
    "orders": [[str(value) for value in order] for order in orders],
    "stock": sorted(Part.objects.exclude(pk=new_part.pk).values_list("name", "available_quantity")),
    "reviews": Review.objects.count(),
    "new_id_is_fresh": new_part.pk > last_part.pk,
    "users": sorted(User.objects.values_list("email", "password")),
}}))
"""

LOAD_DUMP = """
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("loaddata", {path!r}, verbosity=0)
"""


def shop_with_history():
    """Orders in every state, one of them for a part deleted since; what a restore must keep."""
    alice = UserFactory(email="alice@example.com")
    bob = UserFactory(email="bob@example.com")
    pads = PartFactory(name="Brake pads", price=Decimal("19.90"), available_quantity=40)
    chain = PartFactory(name="Chain", price=Decimal("54.00"), available_quantity=15)
    place(alice, pads, 3)
    paid = place(bob, chain, 2)
    booking_mark_paid(booking_id=paid.pk, transaction_id="pi_paid_1")
    shipped = place(alice, chain, 4)
    booking_mark_paid(booking_id=shipped.pk, transaction_id="pi_paid_2")
    booking_approve(booking=Booking.objects.get(pk=shipped.pk))
    place(bob, pads, 2)
    part_delete(part=PartFactory(name="Old mirror", available_quantity=5))
    review_create(user=alice, review="Fast delivery", ratings=5)


def expected_after_restore() -> dict:
    from accounts.models import User
    from catalog.models import Part

    orders = Booking.objects.order_by("id", "lines__id").values_list(*ORDER_FIELDS)
    return {
        "orders": [[str(value) for value in order] for order in orders],
        "users": [list(row) for row in sorted(User.objects.values_list("email", "password"))],
        "stock": [
            list(row) for row in sorted(Part.objects.values_list("name", "available_quantity"))
        ],
        "reviews": 1,
        "new_id_is_fresh": True,
    }


@pytest.mark.slow  # manage.py processes and a database of its own
@pytest.mark.django_db(transaction=True)
def test_dumpdata_restores_into_an_empty_database_with_the_same_orders(tmp_path):
    shop_with_history()
    expected = expected_after_restore()
    assert len(expected["orders"]) == 4
    dump = tmp_path / "shop.json"
    call_command(
        "dumpdata",
        "accounts",
        "account",
        "socialaccount",
        "catalog",
        "orders",
        "reviews",
        natural_foreign=True,
        output=str(dump),
        verbosity=0,
    )

    with empty_database(tmp_path, "shop_restore_json") as url:
        restore = LOAD_DUMP.format(path=str(dump))
        assert json.loads(shell(restore + READ_BACK, shop_env(url))) == expected


@pytest.mark.slow  # pg_dump, psql and a database of their own
@pytest.mark.postgres(reason="pg_dump and pg_restore of the test database")
@pytest.mark.skipif(not shutil.which("pg_dump"), reason="pg_dump is not installed")
@pytest.mark.django_db(transaction=True)
def test_pg_dump_restores_into_an_empty_database_with_the_same_orders(tmp_path):
    shop_with_history()
    expected = expected_after_restore()
    dump = tmp_path / "shop.dump"
    source = postgres_url(connection.settings_dict)
    pg = {**os.environ, "PGPASSWORD": connection.settings_dict["PASSWORD"] or ""}
    subprocess.run(["pg_dump", "-Fc", "-d", source, "-f", str(dump)], env=pg, check=True)

    with empty_database(tmp_path, "shop_restore_pg") as url:
        command = ["pg_restore", "--no-owner", "--exit-on-error", "-d", url, str(dump)]
        subprocess.run(command, env=pg, check=True)
        assert json.loads(shell(READ_BACK, shop_env(url))) == expected


def postgres_url(db: dict) -> str:
    user = db["USER"] or "postgres"
    return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
