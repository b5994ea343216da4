"""Fixtures of the catalog's tests."""

from decimal import Decimal

import pytest

from catalog import services
from catalog.models import Category
from catalog.tests.factories import PartFactory


@pytest.fixture
def garage_shelf(db):
    """MT-07s of 2018 and 2019, a Z900; pads for the 2019 MT-07 only, a chain for both
    years, a universal chain lube and pads of the Z900."""
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    mt07_2018 = services.vehicle_get_or_create(make="Yamaha", model="MT-07", year=2018)
    mt07_2019 = services.vehicle_get_or_create(make="Yamaha", model="MT-07", year=2019)
    z900 = services.vehicle_get_or_create(make="Kawasaki", model="Z900", year=2020)
    parts = {
        "pads": PartFactory(name="Brake pads front", category=brakes, price=Decimal("30")),
        "chain": PartFactory(name="Drive chain 525", part_number="525VX3", description="O-ring"),
        "lube": PartFactory(name="Chain lube", universal=True, description="Spray can"),
        "z_pads": PartFactory(name="Brake pads Z", category=brakes),
    }
    for part, vehicle in [
        ("pads", mt07_2019),
        ("chain", mt07_2018),
        ("chain", mt07_2019),
        ("z_pads", z900),
    ]:
        services.fitment_add(
            part=parts[part],
            make=vehicle.make,
            model=vehicle.model,
            year_from=vehicle.year,
            year_to=vehicle.year,
        )
    return {**parts, "mt07_2018": mt07_2018, "mt07_2019": mt07_2019, "z900": z900}
