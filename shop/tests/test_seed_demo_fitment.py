"""seed_demo's bikes, part numbers and fitment (BEYOND.md, "My Garage": Demo data)."""

from io import StringIO

import pytest
from django.core.management import call_command

from catalog.models import Fitment, Part, Vehicle
from shop import demo_data, demo_fitment

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_at_least_8_makes_and_40_model_years_of_real_motorcycles():
    seed()
    assert Vehicle.objects.values("make").distinct().order_by().count() >= 8
    assert Vehicle.objects.count() >= 40
    assert Vehicle.objects.filter(make="Yamaha", model="MT-07", year=2019).exists()


def test_every_demo_part_has_a_part_number_and_fitment_a_few_universal():
    seed()
    parts = Part.objects.all()
    assert parts.count() == len(demo_data.PARTS)
    assert all(part.part_number for part in parts)
    universal = parts.filter(universal=True)
    assert 2 <= universal.count() <= 4
    for part in parts.filter(universal=False):
        assert part.vehicles.exists(), part.name
    assert not Fitment.objects.filter(part__universal=True).exists()
    assert set(demo_fitment.FITS) == set(
        parts.filter(universal=False).values_list("name", flat=True)
    )


def test_every_bike_a_part_fits_is_one_of_the_demo_bikes():
    bikes = {(make, model) for make, model, _, _ in demo_fitment.BIKES}
    years = {(make, model): (first, last) for make, model, first, last in demo_fitment.BIKES}
    for rows in demo_fitment.FITS.values():
        for make, model, first, last in rows:
            assert (make, model) in bikes
            assert years[(make, model)][0] <= first <= last <= years[(make, model)][1]


def test_seeding_again_creates_no_vehicle_or_fitment_twice_and_keeps_the_owners_changes():
    seed()
    counts = (Vehicle.objects.count(), Fitment.objects.count())
    disc = Part.objects.get(name=demo_data.PARTS[0]["name"])
    disc.fitments.all().delete()
    Fitment.objects.create(part=disc, vehicle=Vehicle.objects.get(model="Z900", year=2020))
    out = seed()
    assert "0 new parts, 0 new vehicles" in out
    assert list(disc.vehicles.all()) == [Vehicle.objects.get(model="Z900", year=2020)]
    assert Vehicle.objects.count() == counts[0]


def test_the_demo_shop_finds_a_part_by_its_number_and_by_bike(client):
    seed()
    mt07 = Vehicle.objects.get(make="Yamaha", model="MT-07", year=2019)
    found = client.get("/api/allparts?q=fa-252hh").json()
    assert found[0]["name"] == "Sintered HH Front Brake Pads"
    names = {p["name"] for p in client.get(f"/api/allparts?fits={mt07.pk}").json()}
    assert "Sintered HH Front Brake Pads" in names
    assert "Dual-Compound Handlebar Grips 22 mm" in names  # universal
    assert "Piggyback Rear Shock Absorber 330 mm" not in names
