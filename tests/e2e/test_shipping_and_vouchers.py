"""The owner's Shipping and Vouchers pages in Chromium: from the admin menu, add a shipping
method with two weight bands and create a voucher; axe finds nothing serious at a desktop and
a phone width."""

from decimal import Decimal

from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory
from pricing.models import ShippingMethod, Voucher
from pricing.tests import factories
from tests.e2e.conftest import findings, shot, sign_in


def test_add_a_method_with_two_bands_and_a_voucher(site):
    sign_in(site, AdminFactory())
    site.goto("/dashboard")
    menu = site.get_by_role("navigation", name="Dashboard")
    menu.get_by_role("link", name="Shipping", exact=True).click()
    expect(site).to_have_url(f"{site.base_url}/dashboard/shipping")

    site.get_by_label("Name", exact=True).first.fill("Express")
    site.get_by_label("Countries (none chosen: everywhere)").select_option(["US", "CA"])
    site.get_by_label("Band 1: up to (g)").fill("2000")
    site.get_by_label("Band 1: price ($)").fill("6.95")
    site.get_by_label("Band 2: up to (g)").fill("10000")
    site.get_by_label("Band 2: price ($)").fill("-1")
    site.get_by_label("Delivery time").fill("1–2 business days")
    site.get_by_role("button", name="Add method").click()
    expect(site.get_by_text("Band 2: Give an amount of dollars")).to_be_visible()
    site.get_by_label("Band 2: price ($)").fill("12.95")
    site.get_by_role("button", name="Add method").click()
    expect(site.get_by_text("Shipping method added")).to_be_visible()
    method = site.locator("[data-method]")
    expect(method).to_contain_text("Express")
    expect(method).to_contain_text("Default")
    expect(method).to_contain_text("Canada, United States of America")
    expect(method).to_contain_text("up to 2,000 g: $6.95; up to 10,000 g: $12.95")
    shot(site, "owner-shipping")
    assert [
        (b.up_to_grams, b.price) for b in ShippingMethod.objects.get(name="Express").bands.all()
    ] == [(2000, Decimal("6.95")), (10000, Decimal("12.95"))]

    menu.get_by_role("link", name="Vouchers", exact=True).click()
    site.get_by_label("Code", exact=True).fill("ride10")
    site.get_by_label("Kind").select_option(label="Percent off the goods")
    site.get_by_label("Value (percent or dollars off; not used by free shipping)").fill("10")
    site.get_by_label("Total uses (empty: no limit)").fill("100")
    site.get_by_label("Once per customer").check()
    site.get_by_role("button", name="Create voucher").click()
    expect(site.get_by_text("Voucher created")).to_be_visible()
    voucher = site.locator("[data-voucher]")
    expect(voucher).to_contain_text("RIDE10: 10% off")
    expect(voucher).to_contain_text("Uses: 0 of 100")
    site.get_by_role("button", name="Switch off RIDE10").click()
    expect(site.get_by_text("Voucher switched off")).to_be_visible()
    shot(site, "owner-vouchers")
    assert Voucher.objects.filter(code="RIDE10", active=False, once_per_customer=True).exists()


def test_the_pages_are_accessible(axe_page):
    method = factories.method("Express", countries=["US"], bands=[(2000, "6.95")])
    rate = factories.tax_rate("DE", "19")
    voucher = factories.voucher("RIDE10", usage_limit=100)
    sign_in(axe_page, AdminFactory())
    problems = [
        line
        for path in (
            "/dashboard/shipping",
            f"/dashboard/shipping/methods/{method.pk}/edit",
            f"/dashboard/shipping/rates/{rate.pk}/edit",
            "/dashboard/vouchers",
            f"/dashboard/vouchers/{voucher.pk}/edit",
        )
        for width in (1366, 390)
        for line in findings(axe_page, path, width)
    ]
    assert problems == []
