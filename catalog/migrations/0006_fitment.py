"""Part numbers, universal parts, vehicles and fitment (issue 23)."""

import django.db.models.deletion
import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0005_part_search_vector"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalpart",
            name="part_number",
            field=models.CharField(blank=True, default="", max_length=100),
        ),
        migrations.AddField(
            model_name="historicalpart",
            name="universal",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="part",
            name="part_number",
            field=models.CharField(blank=True, default="", max_length=100),
        ),
        migrations.AddField(
            model_name="part",
            name="part_number_normalised",
            field=models.GeneratedField(
                db_persist=True,
                expression=django.db.models.functions.text.Replace(
                    django.db.models.functions.text.Replace(
                        django.db.models.functions.text.Lower("part_number"), models.Value(" ")
                    ),
                    models.Value("-"),
                ),
                output_field=models.CharField(max_length=100),
            ),
        ),
        migrations.AddField(
            model_name="part",
            name="universal",
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name="Vehicle",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("make", models.CharField(max_length=60)),
                ("model", models.CharField(max_length=100)),
                ("year", models.PositiveSmallIntegerField()),
            ],
            options={
                "ordering": ["make", "model", "year"],
                "indexes": [
                    models.Index(fields=["make", "model", "year"], name="catalog_vehicle_order")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        django.db.models.functions.text.Upper("make"),
                        django.db.models.functions.text.Upper("model"),
                        models.F("year"),
                        name="catalog_vehicle_unique",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("year__gte", 1885), ("year__lte", 2100)),
                        name="catalog_vehicle_year",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Fitment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "part",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        db_index=False,
                        related_name="fitments",
                        to="catalog.part",
                    ),
                ),
                (
                    "vehicle",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        db_index=False,
                        related_name="fitments",
                        to="catalog.vehicle",
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="part",
            name="vehicles",
            field=models.ManyToManyField(
                blank=True, related_name="parts", through="catalog.Fitment", to="catalog.vehicle"
            ),
        ),
        migrations.AddIndex(
            model_name="part",
            index=models.Index(
                condition=models.Q(("universal", True)),
                fields=["id"],
                name="catalog_part_universal",
            ),
        ),
        migrations.AddIndex(
            model_name="part",
            index=models.Index(
                fields=["part_number_normalised"],
                name="catalog_part_number",
                opclasses=["varchar_pattern_ops"],
            ),
        ),
        migrations.AddIndex(
            model_name="fitment",
            index=models.Index(fields=["vehicle", "part"], name="catalog_fitment_vehicle"),
        ),
        migrations.AddConstraint(
            model_name="fitment",
            constraint=models.UniqueConstraint(
                fields=("part", "vehicle"), name="catalog_fitment_unique"
            ),
        ),
    ]
