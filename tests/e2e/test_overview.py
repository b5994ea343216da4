"""The owner's Overview in Chromium: SVG charts with their figures as text, a period switch."""

from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory
from catalog.models import MissedSearch
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from tests.e2e.conftest import shot, sign_in


@pytest.fixture
def shop_with_sales(site):
    chain = PartFactory(name="Chain kit", price=Decimal("149.00"))
    BookingFactory(part=chain, quantity=2, total_price=Decimal("298.00"), paid_order=True)
    BookingFactory(part=chain, quantity=1, total_price=Decimal("149.00"))
    PartFactory(name="Spark plug", available_quantity=1, minimum_order_quantity=4)
    sign_in(site, AdminFactory())


@pytest.mark.parametrize("width", [1366, 390])
def test_overview_draws_the_figures_and_reads_them_as_text(site, shop_with_sales, width):
    site.set_viewport_size({"width": width, "height": 900})
    site.goto("/dashboard/overview")

    caption = "Revenue per day: $298.00 from 1 paid order"  # one order, in the singular
    expect(site.get_by_text(caption, exact=True)).to_be_visible()
    bars = site.locator("figure").first.locator("svg rect")
    assert bars.count() == 30
    chart = site.locator("figure").first.locator("svg").bounding_box()
    today_bar = bars.last.bounding_box()  # paid today: the last bar, drawn on the right edge
    assert today_bar["height"] > 100
    assert today_bar["x"] + today_bar["width"] >= chart["x"] + chart["width"] - 2
    table = site.get_by_role("table", name="Revenue per day")
    today = timezone.localdate().isoformat()
    expect(table.get_by_role("row", name=f"{today} $298.00 1")).to_have_count(1)
    expect(site.get_by_text("Spark plug: 1 left, minimum order 4")).to_be_visible()
    expect(site.get_by_text("$298.00 (2 units)", exact=True)).to_be_visible()
    assert site.evaluate("document.documentElement.scrollWidth") <= width
    shot(site, f"overview-{width}")


def test_choosing_a_period_reloads_the_figures(site, shop_with_sales):
    site.goto("/dashboard/overview")

    with site.expect_response(lambda r: "/api/stats?days=7" in r.url) as answer:
        site.get_by_label("Period").select_option("7")

    assert answer.value.status == 200
    expect(site.get_by_role("table", name="Revenue per day").locator("tbody tr")).to_have_count(7)


def test_one_unit_sold_is_one_unit(site, shop_with_sales):
    lever = PartFactory(name="Brake lever", price=Decimal("25.00"))
    BookingFactory(part=lever, quantity=1, total_price=Decimal("25.00"), paid_order=True)
    site.goto("/dashboard/overview")

    expect(site.get_by_text("$25.00 (1 unit)", exact=True)).to_be_visible()
    caption = "Revenue per day: $323.00 from 2 paid orders"
    expect(site.get_by_text(caption, exact=True)).to_be_visible()


def test_searches_with_no_results_list_the_most_frequent(site, shop_with_sales):
    for n in range(12):
        MissedSearch.objects.create(
            words=f"sidecar {n:02}", day=timezone.localdate(), count=30 - n, last_at=timezone.now()
        )
    site.goto("/dashboard/overview")

    box = site.locator("section").filter(
        has=site.get_by_role("heading", name="Searches with no results")
    )
    rows = box.get_by_role("listitem")
    expect(rows).to_have_count(10)
    expect(rows.first).to_have_text("sidecar 00 30 times")
    expect(rows.last).to_have_text("sidecar 09 21 times")
