"""/allparts' filters beside the grid, in Chromium: a brand and a category chosen, each
count against the grid it lists; on a phone, the filters in a drawer."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from catalog.models import Category
from catalog.tests.factories import PartFactory
from tests.e2e.conftest import shot

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too


@pytest.fixture
def shelf(site):
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    chains = Category.objects.create(name="Chains", slug="chains")
    for name, category, brand, price in [
        ("Sintered brake pads", brakes, "EBC", "34.50"),
        ("Organic brake pads", brakes, "EBC", "19.99"),
        ("Brake disc", brakes, "Brembo", "189.00"),
        ("Chain kit", chains, "DID", "259.00"),
        ("Chain cleaner", chains, "EBC", "9.50"),
    ]:
        PartFactory(name=name, category=category, brand=brand, price=Decimal(price))


def shown(site) -> int:
    text = site.get_by_role("status").filter(has_text="part").inner_text()
    return int(re.match(r"(\d+) parts?", text)[1])


def choice(filters, name: str):
    return filters.get_by_role("link", name=re.compile(rf"^(✓ )?{re.escape(name)} \d+$"))


def count_of(link) -> int:
    return int(link.get_attribute("data-count"))


def test_a_brand_then_a_category_each_lists_as_many_as_it_said(site, shelf):
    site.set_viewport_size({"width": 1366, "height": 900})
    site.goto("/allparts")
    filters = site.get_by_role("complementary")
    expect(filters.get_by_role("heading", name="Brand")).to_be_visible()
    for heading in ("Category", "Price", "In stock only"):
        expect(filters.get_by_role("heading", name=heading)).to_be_visible()
    assert shown(site) == 5

    ebc = choice(filters, "EBC")
    said = count_of(ebc)
    ebc.click()
    expect(site).to_have_url(re.compile(r"brand=EBC"))
    assert said == shown(site) == 3
    expect(site.locator("article")).to_have_count(3)

    brakes = choice(filters, "Brakes")
    said = count_of(brakes)
    brakes.click()
    expect(site).to_have_url(re.compile(r"brand=EBC.*category=brakes|category=brakes.*brand=EBC"))
    assert said == shown(site) == 2
    expect(site.locator("article")).to_have_count(2)
    expect(choice(filters, "EBC")).to_have_attribute("aria-current", "true")

    choice(filters, "EBC").click()  # chosen: taken off again, the category kept
    assert shown(site) == 3
    shot(site, "allparts-filters-1366")


def test_on_a_phone_the_filters_are_a_drawer(site, shelf):
    site.set_viewport_size({"width": 390, "height": 844})
    site.goto("/allparts?q=brake")
    expect(site.get_by_role("complementary")).to_be_hidden()
    drawer = site.locator("details").filter(has=site.get_by_text("Filters", exact=True))
    ebc = choice(drawer, "EBC")
    expect(ebc).to_be_hidden()

    drawer.get_by_text("Filters", exact=True).click()
    expect(ebc).to_be_visible()
    said = count_of(ebc)
    ebc.click()
    expect(site).to_have_url(re.compile(r"q=brake&brand=EBC"))
    assert said == shown(site) == 2
    assert site.evaluate("document.documentElement.scrollWidth") <= 390
    shot(site, "allparts-filters-390")
