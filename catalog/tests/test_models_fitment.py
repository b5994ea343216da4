"""Vehicles, part numbers and fitment as stored."""

import pytest
from django.db import IntegrityError

from catalog.models import Fitment, Part, Vehicle
from catalog.selectors import parts_that_fit
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


def test_a_vehicle_is_named_year_make_model():
    assert Vehicle(make="Yamaha", model="MT-07", year=2019).name == "2019 Yamaha MT-07"


def test_a_vehicle_is_one_whatever_the_case_of_its_make_and_model():
    Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    with pytest.raises(IntegrityError):
        Vehicle.objects.create(make="YAMAHA", model="mt-07", year=2019)


def test_the_database_keeps_a_part_number_without_case_spaces_or_dashes():
    part = PartFactory(part_number="12311-MT4 000")
    assert Part.objects.get(pk=part.pk).part_number_normalised == "12311mt4000"
    Part.objects.filter(pk=part.pk).update(part_number="AB-12")
    assert Part.objects.get(pk=part.pk).part_number_normalised == "ab12"


def test_parts_that_fit_a_vehicle_are_its_fitted_parts_and_the_universal_ones():
    mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    z900 = Vehicle.objects.create(make="Kawasaki", model="Z900", year=2020)
    fitted, other, universal = PartFactory(), PartFactory(), PartFactory(universal=True)
    Fitment.objects.create(part=fitted, vehicle=mt07)
    Fitment.objects.create(part=other, vehicle=z900)
    assert set(parts_that_fit(vehicle=mt07)) == {fitted, universal}
    assert set(parts_that_fit(vehicle=z900.pk)) == {other, universal}
