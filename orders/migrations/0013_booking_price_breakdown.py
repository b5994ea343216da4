"""An order keeps what pricing's quote answered when it was placed (API.md "Addresses,
shipping and tax"): its subtotal, discount and voucher, its shipping, its tax, where it ships.
Orders placed before had none of it: their subtotal is their total, with no discount, free
shipping by no method, no tax, prices including tax (PRICES_INCLUDE_TAX's default) and the
spec's free-text address. Going back drops the columns; the totals stay as they were."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import F


def subtotal_is_total(apps, schema_editor):
    for model in ("Booking", "HistoricalBooking"):
        apps.get_model("orders", model).objects.update(subtotal=F("total_price"))


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0012_cartline_price_when_added"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="booking",
            name="discount",
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name="booking",
            name="ship_to",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="booking",
            name="shipping_eta",
            field=models.CharField(blank=True, max_length=100),
        ),
        migrations.AddField(
            model_name="booking",
            name="shipping_method",
            field=models.CharField(blank=True, max_length=100),
        ),
        migrations.AddField(
            model_name="booking",
            name="shipping_price",
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name="booking",
            name="subtotal",
            field=models.DecimalField(decimal_places=2, max_digits=12, null=True),
        ),
        migrations.AddField(
            model_name="booking",
            name="tax",
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name="booking",
            name="tax_included",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="booking",
            name="voucher_code",
            field=models.CharField(blank=True, max_length=32),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="discount",
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="ship_to",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="shipping_eta",
            field=models.CharField(blank=True, max_length=100),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="shipping_method",
            field=models.CharField(blank=True, max_length=100),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="shipping_price",
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="subtotal",
            field=models.DecimalField(decimal_places=2, max_digits=12, null=True),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="tax",
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="tax_included",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="historicalbooking",
            name="voucher_code",
            field=models.CharField(blank=True, max_length=32),
        ),
        migrations.RunPython(subtotal_is_total, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="booking",
            name="subtotal",
            field=models.DecimalField(decimal_places=2, max_digits=12),
        ),
        migrations.AlterField(
            model_name="historicalbooking",
            name="subtotal",
            field=models.DecimalField(decimal_places=2, max_digits=12),
        ),
        migrations.AddConstraint(
            model_name="booking",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("discount__gte", 0),
                    ("shipping_price__gte", 0),
                    ("subtotal__gte", 0),
                    ("tax__gte", 0),
                ),
                name="orders_booking_breakdown_not_negative",
            ),
        ),
    ]
