"""A part's brand and other numbers (catalog.services.part_numbers_set)."""

import pytest
from django.db import IntegrityError

from catalog import services
from catalog.models import PartNumber
from catalog.selectors import CATALOG, PARTS, part_version
from catalog.tests.factories import PartFactory
from core.caching import versions

pytestmark = pytest.mark.django_db

PADS = [
    {"number": "06455-MEL-D21", "kind": "oem", "brand": "Honda"},
    {"number": "FA196HH", "kind": "aftermarket", "brand": "EBC"},
]


def test_a_part_is_created_with_its_brand():
    assert PartFactory(brand="EBC").brand == "EBC"
    assert PartFactory().brand == ""


def test_numbers_set_replaces_the_stored_ones_and_normalises_them():
    part = PartFactory()
    services.part_numbers_set(part=part, numbers=[{"number": "OLD-1", "kind": "superseded"}])
    services.part_numbers_set(part=part, numbers=PADS)

    stored = list(part.other_numbers.values_list("number", "kind", "brand", "number_normalised"))
    assert stored == [
        ("06455-MEL-D21", "oem", "Honda", "06455meld21"),
        ("FA196HH", "aftermarket", "EBC", "fa196hh"),
    ]
    services.part_numbers_set(part=part, numbers=[])
    assert not part.other_numbers.exists()


def test_numbers_go_with_their_part():
    part = PartFactory()
    services.part_numbers_set(part=part, numbers=PADS)
    services.part_delete(part=part)
    assert not PartNumber.objects.exists()


def test_the_database_refuses_one_number_twice_on_a_part_whatever_its_dashes():
    part = PartFactory()
    PartNumber.objects.create(part=part, number="FA-196", kind="oem")
    with pytest.raises(IntegrityError):
        PartNumber.objects.create(part=part, number="fa 196", kind="aftermarket")


def test_setting_numbers_makes_the_part_the_lists_and_searches_stale():
    part = PartFactory()
    names = [part_version(part.pk), PARTS, CATALOG]
    before = [versions.current(name) for name in names]
    services.part_numbers_set(part=part, numbers=PADS)
    after = [versions.current(name) for name in names]
    assert all(a != b for a, b in zip(before, after, strict=True))


def test_editing_the_brand_makes_the_part_stale():
    part = PartFactory()
    before = versions.current(part_version(part.pk))
    services.part_update(part=part, brand="NGK")
    part.refresh_from_db()
    assert part.brand == "NGK"
    assert versions.current(part_version(part.pk)) != before
