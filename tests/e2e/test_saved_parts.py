"""Saved parts in Chromium (BEYOND.md, "Riders' word"): a visitor saves a part from a card and
one from a part page (each button then reads "Saved"), opens Saved parts from the navbar, the
owner lowers a price and "Price dropped" shows, "Add to cart" puts it in the cart, and signing
in keeps the saved parts; another visitor's pages never show them; without JavaScript "Save"
and "Remove" are plain forms; the page is axe clean."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import TEST_PASSWORD, UserFactory
from catalog import services
from catalog.models import SavedPart
from catalog.tests.factories import PartFactory
from orders.models import CartLine
from tests.e2e.conftest import axe_findings, shot

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too


@pytest.fixture
def parts(site):
    lube = PartFactory(name="Chain lube", price=Decimal("12.00"), minimum_order_quantity=1)
    lever = PartFactory(name="Brake lever", price=Decimal("40.00"), minimum_order_quantity=1)
    PartFactory(name="Spark plug", price=Decimal("8.00"))
    return {"lube": lube, "lever": lever}


def card(page, name: str):
    return page.locator("article").filter(has_text=name)


def save_button(scope):
    return scope.get_by_test_id("save-part")


def saved_list(page):
    return page.get_by_role("list", name="Saved parts")


def test_a_visitor_saves_sees_a_price_drop_adds_to_cart_and_keeps_them_signed_in(site, parts):
    site.set_viewport_size({"width": 1366, "height": 900})
    site.goto("/allparts")
    button = save_button(card(site, "Chain lube"))
    expect(button).to_have_text("Save")
    button.focus()
    site.keyboard.press("Enter")
    expect(button).to_have_text("Saved")
    expect(button).to_have_attribute("aria-pressed", "true")

    site.goto(f"/parts/{parts['lever'].pk}")
    button = save_button(site.locator("main"))
    button.click()
    expect(button).to_have_text("Saved")

    # Back on the list (served kept for every visitor): the script marks the saved card.
    site.goto("/allparts")
    expect(save_button(card(site, "Chain lube"))).to_have_text("Saved")
    expect(save_button(card(site, "Spark plug"))).to_have_text("Save")

    site.get_by_role("navigation", name="Main").get_by_role("link", name="Saved").click()
    expect(site.get_by_role("heading", name="Saved parts", level=1)).to_be_visible()
    expect(site).to_have_title(re.compile(r"^Saved parts · "))
    expect(saved_list(site).get_by_role("listitem")).to_have_count(2)
    expect(saved_list(site)).not_to_contain_text("Price dropped")

    services.part_update(part=parts["lube"], price=Decimal("9.00"))  # the owner lowers it
    site.reload()
    lube = saved_list(site).get_by_role("listitem").filter(has_text="Chain lube")
    expect(lube).to_contain_text("Price dropped")
    expect(lube).to_contain_text("$9.00, was $12.00 when you saved it")
    shot(site, "saved-parts-price-dropped")

    lube.get_by_role("button", name="Add to cart").click()
    expect(site.get_by_text("Added to cart")).to_be_visible()
    expect(site.locator("header [data-cart-link]")).to_have_attribute("aria-label", "Cart, 1 item")

    shopper = UserFactory()
    site.goto("/login")
    site.get_by_label("Email").fill(shopper.email)
    site.get_by_label("Password").fill(TEST_PASSWORD)
    site.keyboard.press("Enter")
    site.wait_for_url(f"{site.base_url}/")
    expect(site.get_by_text(f"Successfully signed in as {shopper.name}.")).to_be_visible()
    assert CartLine.objects.filter(cart__user=shopper, part=parts["lube"]).exists()
    site.goto("/saved")
    expect(saved_list(site).get_by_role("listitem")).to_have_count(2)
    expect(saved_list(site)).to_contain_text("Price dropped")
    assert {row.part_id: row.saved_price for row in SavedPart.objects.filter(user=shopper)} == {
        parts["lube"].pk: Decimal("12.00"),
        parts["lever"].pk: Decimal("40.00"),
    }

    # Signed in, pressing "Saved" again unsaves it.
    site.goto("/allparts")
    button = save_button(card(site, "Chain lube"))
    expect(button).to_have_text("Saved")
    button.click()
    expect(button).to_have_text("Save")
    site.goto("/saved")
    expect(saved_list(site).get_by_role("listitem")).to_have_count(1)
    site.get_by_role("button", name="Remove").click()
    expect(site.get_by_text("Removed from your saved parts")).to_be_visible()
    expect(
        site.get_by_text('No saved parts yet. Press "Save" on a part to keep it here.')
    ).to_be_visible()


def test_another_visitor_never_sees_them(browser, base_url, site, parts):
    site.goto("/allparts")
    save_button(card(site, "Chain lube")).click()
    expect(save_button(card(site, "Chain lube"))).to_have_text("Saved")

    other = browser.new_context(base_url=base_url)
    try:
        page = other.new_page()
        page.set_default_timeout(10_000)
        for path in ("/allparts", f"/parts/{parts['lube'].pk}", "/"):
            page.goto(path)
            page.wait_for_load_state("networkidle")
            expect(page.locator("button", has_text="Saved")).to_have_count(0)
        page.goto("/saved")
        expect(
            page.get_by_text('No saved parts yet. Press "Save" on a part to keep it here.')
        ).to_be_visible()
    finally:
        other.close()


def said(page) -> str:
    """The page's messages without JavaScript: in <noscript>, which a browser with scripts off
    lays out. (Playwright's switch turns scripts off but Chromium still parses <noscript> as
    if they ran: its HTML is there as text, not laid out.)"""
    return page.locator("main noscript").inner_html()


def test_save_and_remove_without_javascript(browser, base_url, parts):
    context = browser.new_context(java_script_enabled=False, base_url=base_url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/allparts")
        save_button(card(page, "Chain lube")).click()
        # The list's forms carry no token (kept for everyone): confirm on /saved.
        page.get_by_test_id("saved-confirm").get_by_role("button", name="Save").click()
        expect(page).to_have_url(f"{base_url}/saved")
        assert "Part saved" in said(page)
        expect(saved_list(page)).to_contain_text("Chain lube")

        page.goto(f"/parts/{parts['lever'].pk}")
        save_button(page.locator("main")).click()
        page.get_by_test_id("saved-confirm").get_by_role("button", name="Save").click()
        assert "Part saved" in said(page)
        expect(saved_list(page).get_by_role("listitem")).to_have_count(2)

        page.get_by_role("listitem").filter(has_text="Chain lube").get_by_role(
            "button", name="Remove"
        ).click()
        assert "Removed from your saved parts" in said(page)
        expect(saved_list(page)).not_to_contain_text("Chain lube")
    finally:
        context.close()


def test_the_saved_parts_page_is_axe_clean(axe_page, parts):
    page = axe_page
    page.goto("/saved")
    problems = axe_findings(page)
    page.goto("/allparts")
    save_button(card(page, "Chain lube")).click()
    expect(save_button(card(page, "Chain lube"))).to_have_text("Saved")
    problems += axe_findings(page)
    services.part_update(part=parts["lube"], price=Decimal("9.00"))
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto("/saved")
        expect(saved_list(page)).to_contain_text("Price dropped")
        problems += axe_findings(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"saved-parts-{width}")
    assert not problems, "\n".join(problems)
