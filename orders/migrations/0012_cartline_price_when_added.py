"""A cart line remembers its part's price when it was added (API.md "Checking out at the price
you saw"). Lines already in carts get their part's price now: nothing has changed for them yet."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def price_now(apps, schema_editor):
    CartLine = apps.get_model("orders", "CartLine")
    Part = apps.get_model("catalog", "Part")
    price = Part.objects.filter(pk=OuterRef("part_id")).values("price")[:1]
    CartLine.objects.update(price_when_added=Subquery(price))


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0007_garagebike"),
        ("orders", "0011_booking_is_its_lines"),
    ]

    operations = [
        migrations.AddField(
            model_name="cartline",
            name="price_when_added",
            field=models.DecimalField(decimal_places=2, max_digits=10, null=True),
        ),
        migrations.RunPython(price_now, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="cartline",
            name="price_when_added",
            field=models.DecimalField(decimal_places=2, max_digits=10),
        ),
    ]
