"""The site script's small kindnesses in Chromium: broken part images fall back to the
placeholder, menus close on Escape and a tap outside, hidden slides are out of the Tab order."""

from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from tests.e2e.conftest import shot, sign_in

PLACEHOLDER = "/static/img/parts/placeholder.svg"


def test_a_part_image_that_fails_shows_the_placeholder(site):
    PartFactory(name="Ghost part", img="/static/img/parts/no-such-image.png")

    site.goto("/allparts")

    # The card's image link is hidden from screen readers (the name's link says the same).
    image = site.locator('img[alt="Ghost part"]')
    expect(image).to_have_attribute("src", PLACEHOLDER)
    # The placeholder then loads (waited for: right after the swap it may still be on its way).
    image.evaluate("img => img.complete || new Promise(done => img.addEventListener('load', done))")
    assert image.evaluate("img => img.naturalWidth") > 0
    shot(site, "allparts-broken-image")


def test_the_phone_menu_closes_on_escape_and_on_a_tap_outside(site):
    site.set_viewport_size({"width": 390, "height": 844})
    site.goto("/blogs")
    menu = site.locator("details.dropdown")

    site.get_by_label("Open the menu").click()
    expect(menu).to_have_attribute("open", "")
    site.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")

    site.get_by_label("Open the menu").click()
    site.mouse.click(370, 700)  # a tap on the page, outside the menu
    expect(menu).not_to_have_attribute("open", "")


def test_the_dashboard_drawer_closes_on_escape(site):
    site.set_viewport_size({"width": 390, "height": 844})
    sign_in(site, UserFactory())
    site.goto("/dashboard")
    drawer = site.locator("#dashboard-drawer")

    site.get_by_test_id("sidebar-toggle").click()
    expect(drawer).to_be_checked()
    site.keyboard.press("Escape")
    expect(drawer).not_to_be_checked()


def test_tab_never_enters_a_hidden_slide(site):
    site.goto("/")
    site.wait_for_function(
        "() => Array.from(document.querySelectorAll('.carousel-item')).slice(1).every(s => s.inert)"
    )

    visited = []
    for _ in range(25):
        site.keyboard.press("Tab")
        visited.append(site.evaluate("document.activeElement.closest('.carousel-item')?.id || ''"))
    assert set(visited) <= {"", "slide-1"}, visited
