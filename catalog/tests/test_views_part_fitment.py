"""A part page's part number and "Fits these bikes" (BEYOND.md, "My Garage")."""

import json
import re

import pytest

from catalog import services
from catalog.selectors import year_ranges
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


def bikes(*rows):
    """Vehicles from (make, model, first year, last year) rows."""
    return [
        services.vehicle_get_or_create(make=make, model=model, year=year).pk
        for make, model, first, last in rows
        for year in range(first, last + 1)
    ]


def text(html: str) -> str:
    """The page's words, tags and runs of white space taken out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_part_page_says_its_part_number_and_the_bikes_it_fits_by_year_ranges(client):
    part = PartFactory(part_number="12311-MT4-000")
    ids = bikes(
        ("Yamaha", "MT-07", 2014, 2020),
        ("Yamaha", "MT-07", 2022, 2022),
        ("Honda", "CB500F", 2016, 2017),
    )
    services.fitment_set(part=part, universal=False, vehicle_ids=ids)
    html = client.get(f"/parts/{part.pk}").content.decode()
    words = text(html)
    assert "Part number: 12311-MT4-000" in words
    assert "Fits these bikes" in words
    assert words.index("Honda CB500F, 2016–2017") < words.index("Yamaha MT-07, 2014–2020, 2022")
    ld = json.loads(re.search(r'type="application/ld\+json">(.*?)</script>', html, re.S)[1])
    assert ld["mpn"] == "12311-MT4-000"


def test_a_universal_part_fits_every_bike(client):
    part = PartFactory(universal=True)
    assert "Fits every bike." in text(client.get(f"/parts/{part.pk}").content.decode())


def test_a_part_without_fitment_says_to_ask(client):
    part = PartFactory()
    words = text(client.get(f"/parts/{part.pk}").content.decode())
    assert "Fitment not yet listed: ask us before you order." in words
    assert "Part number:" not in words  # none given


def test_a_change_of_fitment_shows_at_once_on_the_kept_page(client):
    part = PartFactory()
    path = f"/parts/{part.pk}"
    assert "Fitment not yet listed" in client.get(path).content.decode()  # now kept
    services.fitment_set(
        part=part, universal=False, vehicle_ids=bikes(("BMW", "R 1250 GS", 2019, 2021))
    )
    assert "BMW R 1250 GS, 2019–2021" in text(client.get(path).content.decode())
    services.fitment_set(part=part, universal=True, vehicle_ids=[])
    assert "Fits every bike." in client.get(path).content.decode()


@pytest.mark.parametrize(
    "years, written",
    [([2019], "2019"), ([2016, 2014, 2015], "2014–2016"), ([1, 2, 4, 6, 7], "1–2, 4, 6–7")],
)
def test_years_are_written_as_ranges_with_an_en_dash(years, written):
    assert year_ranges(years) == written
