# An order is its lines: the one-line summary beside them (part, name, unit price, quantity) goes;
# the API's one-line fields are computed from the lines (orders.models.Booking). The order's
# total stays: it is what the order costs, the amount paid. Orders now keep the client address
# they were placed from (fair holds per address), with an index of the live holds by address;
# the live holds' index is on their deadline alone again (their parts are on their lines, now
# indexed by part and order: BookingQuerySet.lapsed_of_parts).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

SEVERAL_LINES = (
    "Orders of several lines exist ({count}), which the orders table before this migration "
    "can only sum up: migrating back would lose their lines. Delete those orders first, or "
    "stay on this migration."
)
BATCH = 2000

# Back: each order's own columns again from its one line (every order has one: checked first).
# Correlated subqueries, so the same statement runs on PostgreSQL and SQLite. A deleted order's
# history versions have no lines left to read: their part columns come back empty.
ONE_LINE = "SELECT {column} FROM orders_bookingline WHERE booking_id = {table}.id"
SUMMARY_FROM_LINE = """
UPDATE {table} SET
    part_id = ({part}),
    parts_name = COALESCE(({name}), ''),
    price_per_unit = ({price}),
    quantity = COALESCE(({quantity}), 0)
"""


def lines_for_orders_without(apps, schema_editor):
    """Every order has lines since 0008; an order written without any (in bulk, by hand) gets
    the one line its own columns describe, so that dropping them loses nothing."""
    Booking = apps.get_model("orders", "Booking")
    BookingLine = apps.get_model("orders", "BookingLine")
    bare = Booking.objects.filter(lines__isnull=True).order_by("pk")
    batch = []
    for booking in bare.iterator(chunk_size=BATCH):
        price = booking.price_per_unit
        if price is None:  # a sum of lines that are gone: its average unit price
            price = booking.total_price / booking.quantity
        batch.append(
            BookingLine(
                booking_id=booking.pk,
                part_id=booking.part_id,
                parts_name=booking.parts_name[:200],
                price_per_unit=price,
                quantity=booking.quantity,
                line_total=booking.total_price,
            )
        )
        if len(batch) >= BATCH:
            BookingLine.objects.bulk_create(batch)
            batch = []
    BookingLine.objects.bulk_create(batch)
    _checks_now(schema_editor)


def summaries_from_lines(apps, schema_editor):
    """Back: refused while an order of several lines exists (it would be lost); else each
    order's (and each history version's) own columns are its line's again."""
    Booking = apps.get_model("orders", "Booking")
    several = (
        Booking.objects.annotate(n=models.Count("lines")).filter(n__gt=1).values("pk").count()
    )
    if several:
        raise RuntimeError(SEVERAL_LINES.format(count=several))
    for table in ("orders_booking", "orders_historicalbooking"):
        columns = {
            key: ONE_LINE.format(column=column, table=table)
            for key, column in (
                ("part", "part_id"),
                ("name", "parts_name"),
                ("price", "price_per_unit"),
                ("quantity", "quantity"),
            )
        }
        schema_editor.execute(SUMMARY_FROM_LINE.format(table=table, **columns))
    _checks_now(schema_editor)


def _checks_now(schema_editor):
    # PostgreSQL defers the foreign keys' checks of the rows just written to the commit, and
    # refuses to ALTER a table with such checks pending: run them now.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):

    dependencies = [
        ("orders", "0010_live_holds_by_part"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="booking",
            name="orders_booking_quantity_positive",
        ),
        migrations.RemoveConstraint(
            model_name="booking",
            name="orders_booking_prices_not_negative",
        ),
        migrations.RemoveIndex(
            model_name="booking",
            name="orders_booking_part_live_holds",
        ),
        # Nullable first, so that going back can add the columns to a table of orders and
        # fill them before they are NOT NULL again.
        migrations.AlterField(
            model_name="booking",
            name="parts_name",
            field=models.TextField(null=True),
        ),
        migrations.AlterField(
            model_name="booking",
            name="quantity",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AlterField(
            model_name="historicalbooking",
            name="parts_name",
            field=models.TextField(null=True),
        ),
        migrations.AlterField(
            model_name="historicalbooking",
            name="quantity",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunPython(lines_for_orders_without, summaries_from_lines),
        migrations.RemoveField(
            model_name="booking",
            name="part",
        ),
        migrations.RemoveField(
            model_name="booking",
            name="parts_name",
        ),
        migrations.RemoveField(
            model_name="booking",
            name="price_per_unit",
        ),
        migrations.RemoveField(
            model_name="booking",
            name="quantity",
        ),
        migrations.RemoveField(
            model_name="historicalbooking",
            name="part",
        ),
        migrations.RemoveField(
            model_name="historicalbooking",
            name="parts_name",
        ),
        migrations.RemoveField(
            model_name="historicalbooking",
            name="price_per_unit",
        ),
        migrations.RemoveField(
            model_name="historicalbooking",
            name="quantity",
        ),
        migrations.AddField(
            model_name="booking",
            name="client_address",
            field=models.GenericIPAddressField(
                blank=True,
                help_text="The address the order was placed from: the accounts seen from one "
                "address share one share of each part while their orders hold it (fair holds).",
                null=True,
            ),
        ),
        migrations.AddIndex(
            model_name="booking",
            index=models.Index(
                condition=models.Q(("paid", False), ("released_at__isnull", True)),
                fields=["expires_at"],
                include=["id"],
                name="orders_booking_live_holds",
            ),
        ),
        migrations.AlterField(
            model_name="bookingline",
            name="part",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="booking_lines",
                to="catalog.part",
            ),
        ),
        migrations.AddIndex(
            model_name="bookingline",
            index=models.Index(fields=["part", "booking"], name="orders_bookingline_by_part"),
        ),
        migrations.AddIndex(
            model_name="booking",
            index=models.Index(
                condition=models.Q(("paid", False), ("released_at__isnull", True)),
                fields=["client_address"],
                name="orders_booking_address_holds",
            ),
        ),
        migrations.AddConstraint(
            model_name="booking",
            constraint=models.CheckConstraint(
                condition=models.Q(("total_price__gte", 0)),
                name="orders_booking_total_not_negative",
            ),
        ),
    ]
