"""Returns (API.md "After the sale"): Return and ReturnLine, and what an order had refunded so
far (Booking.refunded_amount): an order refunded in full before had its whole total refunded."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import F


def refunded_in_full(apps, schema_editor):
    Booking = apps.get_model("orders", "Booking")
    Booking.objects.filter(refunded_at__isnull=False).update(refunded_amount=F("total_price"))


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0018_booking_guest_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="booking",
            name="refunded_amount",
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="refunded_amount",
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.CreateModel(
            name="Return",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("doesnt_fit", "It doesn't fit my bike"),
                            ("wrong_part", "Wrong part"),
                            ("damaged", "Arrived damaged"),
                            ("not_needed", "No longer needed"),
                            ("other", "Other"),
                        ],
                        max_length=20,
                    ),
                ),
                ("comment", models.CharField(blank=True, max_length=1000)),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("requested", "Requested"),
                            ("approved", "Approved"),
                            ("rejected", "Rejected"),
                            ("refunded", "Refunded"),
                        ],
                        default="requested",
                        max_length=20,
                    ),
                ),
                (
                    "admin_comment",
                    models.CharField(
                        blank=True,
                        help_text="The shop's word to the shopper (a rejection).",
                        max_length=1000,
                    ),
                ),
                (
                    "refund_amount",
                    models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True),
                ),
                ("refund_id", models.CharField(blank=True, max_length=255)),
                ("restocked", models.BooleanField(default=False)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                ("received_at", models.DateTimeField(blank=True, null=True)),
                (
                    "booking",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="returns",
                        to="orders.booking",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="ReturnLine",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("quantity", models.PositiveIntegerField()),
                (
                    "booking_line",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="orders.bookingline",
                    ),
                ),
                (
                    "ret",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="lines",
                        to="orders.return",
                    ),
                ),
            ],
            options={
                "ordering": ["id"],
            },
        ),
        migrations.AddIndex(
            model_name="return",
            index=models.Index(fields=["state", "-created_at"], name="orders_return_by_state"),
        ),
        migrations.AddConstraint(
            model_name="returnline",
            constraint=models.CheckConstraint(
                condition=models.Q(("quantity__gt", 0)), name="orders_returnline_quantity_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="returnline",
            constraint=models.UniqueConstraint(
                fields=("ret", "booking_line"), name="orders_returnline_one"
            ),
        ),
        migrations.RunPython(refunded_in_full, migrations.RunPython.noop),
    ]
