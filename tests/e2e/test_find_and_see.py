"""Finding a part and seeing it, in Chromium at a desktop and a phone width."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from catalog.models import Category
from catalog.tests.factories import PartFactory
from tests.e2e.conftest import shot


@pytest.fixture
def parts(site):
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    disc = PartFactory(name="Floating Brake Disc", category=brakes, price=Decimal("1249.00"))
    PartFactory(
        name="Sintered pads", category=brakes, available_quantity=1, minimum_order_quantity=2
    )
    PartFactory(name="LED headlight", available_quantity=4)
    return disc


@pytest.mark.parametrize("width", [1366, 390])
def test_search_filter_and_open_a_part(site, parts, width):
    site.set_viewport_size({"width": width, "height": 900})
    site.goto("/allparts")

    site.get_by_label("Search parts").fill("brakes")
    site.get_by_label("In stock only").check()
    site.get_by_role("button", name="Search").click()

    expect(site.get_by_role("status").filter(has_text="part")).to_have_text("1 part")
    expect(site.get_by_role("heading", name="Floating Brake Disc")).to_be_visible()
    expect(site.get_by_role("heading", name="Sintered pads")).to_have_count(0)
    assert site.evaluate("document.documentElement.scrollWidth") <= width
    shot(site, f"allparts-search-{width}")

    site.get_by_role("link", name="Floating Brake Disc").click()
    expect(site).to_have_url(f"{site.base_url}/parts/{parts.pk}")
    expect(site.get_by_role("heading", level=1)).to_have_text("Floating Brake Disc")
    expect(site.get_by_text("$1,249.00")).to_be_visible()
    expect(site.get_by_role("link", name="Purchase  Now ")).to_have_attribute(
        "href", f"/purchaseintent/{parts.pk}"
    )
    expect(site.get_by_role("link", name="Back to all parts")).to_be_visible()
    shot(site, f"part-page-{width}")


def test_no_match_and_an_out_of_stock_part(site, parts):
    site.goto("/allparts?q=carburettor")
    expect(site.get_by_text("No parts match your search.")).to_be_visible()

    site.goto("/allparts")
    card = site.locator("article").filter(has_text="Sintered pads")
    expect(card.get_by_text("Out of stock")).to_be_visible()
    expect(card.get_by_role("button", name="Purchase  Now ")).to_be_disabled()
    headlight = site.locator("article").filter(has_text="LED headlight")
    expect(headlight.get_by_text("Only 4 left")).to_be_visible()
