"""What a visitor sees on the public pages, in Chromium."""

import pytest
from playwright.sync_api import expect

from catalog.tests.factories import PartFactory
from tests.e2e.conftest import shot

PUBLIC = ["/", "/allparts", "/blogs", "/myportfolio", "/login", "/signup"]


@pytest.mark.parametrize("path", PUBLIC)
def test_public_pages_load_without_react(site, path):
    errors = []
    site.on("pageerror", lambda exc: errors.append(str(exc)))
    site.goto(path)
    expect(site.get_by_role("link", name="All Parts").first).to_be_visible()
    scripts = site.eval_on_selector_all("script[type=module]", "els => els.map(e => e.src)")
    # The site script, and on /allparts the bike picker's (no React either).
    assert all(("/static/dist/site-" in s or "/static/dist/bike-picker-" in s) for s in scripts)
    assert not errors
    shot(site, f"public{path.replace('/', '-') or '-home'}")


def test_unknown_path_shows_the_404_page(site):
    response = site.goto("/no/such/page")
    assert response.status == 404
    expect(site.get_by_text("WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND")).to_be_visible()
    site.get_by_role("link", name="Go to Home").click()
    expect(site).to_have_url(f"{site.base_url}/")
    shot(site, "404")


def test_visitor_sees_login_not_dashboard(site):
    site.goto("/")
    nav = site.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Login")).to_be_visible()
    expect(nav.get_by_role("link", name="Dashboard")).to_have_count(0)


@pytest.mark.parametrize(
    "path", ["/dashboard", "/dashboard/myorder", "/dashboard/users", "/purchaseintent/1"]
)
def test_guarded_pages_send_visitors_to_login(site, path):
    site.goto(path)
    expect(site).to_have_url(f"{site.base_url}/login?next={path}")


def test_parts_link_to_their_purchase_page(site):
    part = PartFactory(name="Racing chain 520")
    site.goto("/allparts")
    expect(site.get_by_role("heading", name="Motor Bike Parts")).to_be_visible()
    card = site.locator("article, .card").filter(has_text="Racing chain 520").first
    card.get_by_role("link", name="Purchase Now").click()
    expect(site).to_have_url(f"{site.base_url}/login?next=/purchaseintent/{part.pk}")
