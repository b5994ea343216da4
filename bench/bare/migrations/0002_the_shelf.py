from django.db import migrations

STOCK = 1_000_000_000


def add_the_shelf(apps, schema_editor):
    apps.get_model("bare", "Shelf").objects.create(pk=1, stock=STOCK)


class Migration(migrations.Migration):
    dependencies = [("bare", "0001_initial")]

    operations = [migrations.RunPython(add_the_shelf, migrations.RunPython.noop)]
