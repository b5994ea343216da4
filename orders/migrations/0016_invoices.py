"""Invoices (API.md "After the sale"): a paid order has an invoice number, given at payment
from one sequence with no gaps, "INV-" the year of payment "-" the number (six digits or
more). Orders paid before get theirs here, in the order they were paid (then by id), so the
sequence starts with them; the counter's one row starts after the last. A payment refunded
at once because its order's stock was gone (paid, its stock still released) sold nothing and
gets none. Their history's earlier versions stay without one. Going back drops the numbers."""

from django.db import migrations, models
from django.db.models import F
from django.utils import timezone

BATCH = 1000


def number_paid_orders(apps, schema_editor):
    Booking = apps.get_model("orders", "Booking")
    InvoiceCounter = apps.get_model("orders", "InvoiceCounter")
    sold = Booking.objects.filter(paid=True, released_at__isnull=True, invoice_number=None)
    ordered = sold.order_by(F("paid_at").asc(nulls_first=True), "id").only("paid_at", "created_at")
    number, batch = 0, []
    for booking in ordered.iterator(chunk_size=BATCH):
        number += 1
        year = timezone.localtime(booking.paid_at or booking.created_at).year
        booking.invoice_number = f"INV-{year}-{number:06d}"
        batch.append(booking)
        if len(batch) == BATCH:
            Booking.objects.bulk_update(batch, ["invoice_number"])
            batch = []
    Booking.objects.bulk_update(batch, ["invoice_number"])
    InvoiceCounter.objects.create(pk=1, last=number)


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0015_booking_shipment"),
    ]

    operations = [
        migrations.CreateModel(
            name="InvoiceCounter",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("last", models.PositiveBigIntegerField(default=0)),
            ],
        ),
        migrations.AddField(
            model_name="booking",
            name="invoice_number",
            field=models.CharField(
                blank=True, editable=False, max_length=32, null=True, unique=True
            ),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="invoice_number",
            field=models.CharField(
                blank=True, db_index=True, editable=False, max_length=32, null=True
            ),
        ),
        migrations.RunPython(number_paid_orders, migrations.RunPython.noop),
    ]
