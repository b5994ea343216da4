"""My Garage in Chromium, by keyboard only, at a desktop and a phone width: a visitor picks a
bike (each select filled from the one before by the picker's script), sees the parts that fit
it with their badges, shows every part and back, signs in and keeps the bike; the pages are axe
clean. And the picker without JavaScript: a plain form, a round trip per select."""

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import TEST_PASSWORD, UserFactory
from catalog.models import Fitment, GarageBike, Vehicle
from catalog.tests.factories import PartFactory
from tests.e2e.conftest import findings, shot

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too

MT07 = "2019 Yamaha MT-07"
WIDTHS = [1366, 390]


@pytest.fixture
def bikes(site):
    mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    Vehicle.objects.create(make="Yamaha", model="MT-07", year=2014)
    Vehicle.objects.create(make="Yamaha", model="MT-09", year=2021)
    z900 = Vehicle.objects.create(make="Kawasaki", model="Z900", year=2020)
    pads = PartFactory(name="MT-07 brake pads")
    Fitment.objects.create(part=pads, vehicle=mt07)
    PartFactory(name="Chain lube", universal=True)
    lever = PartFactory(name="Z900 clutch lever")
    Fitment.objects.create(part=lever, vehicle=z900)
    return mt07


def choose(page, label: str, option: str) -> None:
    """Choose `option` of the select labelled `label` with the keyboard: focus, type its
    first letters (the select jumps to the option and says it changed)."""
    select = page.get_by_label(label, exact=True)
    expect(select.locator("option", has_text=option)).to_have_count(1)  # filled by now
    select.focus()
    page.keyboard.type(option)
    expect(select).to_have_value(option)


def navbar_bike(page):
    """The navbar's link to My Garage naming the active bike (the menu has it twice: the
    desktop's bar and the phone's drop-down)."""
    return page.get_by_test_id("navbar-bike").first


def card(page, name: str):
    return page.locator("article").filter(has_text=name)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_visitor_picks_a_bike_shops_for_it_and_keeps_it_after_signing_in(site, bikes, width):
    site.set_viewport_size({"width": width, "height": 900})
    site.goto("/allparts")
    expect(navbar_bike(site)).to_have_text("Select your bike")
    expect(card(site, "Chain lube").get_by_text("Universal fit")).to_be_visible()

    choose(site, "Make", "Yamaha")
    choose(site, "Model", "MT-07")
    choose(site, "Year", "2019")
    site.keyboard.press("Tab")
    expect(site.get_by_role("button", name="Show parts for this bike")).to_be_focused()
    site.keyboard.press("Enter")

    expect(site.get_by_role("heading", name=f"Parts that fit your {MT07}")).to_be_visible()
    expect(navbar_bike(site)).to_have_text(MT07)
    expect(card(site, "MT-07 brake pads").get_by_text(f"Fits your {MT07}")).to_be_visible()
    expect(card(site, "Chain lube").get_by_text("Universal fit")).to_be_visible()
    expect(card(site, "Z900 clutch lever")).to_have_count(0)
    assert site.evaluate("document.documentElement.scrollWidth") <= width
    shot(site, f"garage-allparts-for-a-bike-{width}")

    site.get_by_role("link", name="Show all parts").focus()
    site.keyboard.press("Enter")
    expect(card(site, "Z900 clutch lever").get_by_text(f"Does not fit your {MT07}")).to_be_visible()
    site.get_by_role("link", name=f"Show parts that fit your {MT07}").focus()
    site.keyboard.press("Enter")
    expect(card(site, "Z900 clutch lever")).to_have_count(0)

    shopper = UserFactory()
    site.goto("/login")
    site.get_by_label("Email").fill(shopper.email)
    site.get_by_label("Password").fill(TEST_PASSWORD)
    site.keyboard.press("Enter")
    expect(site.get_by_text(f"Successfully signed in as {shopper.name}.")).to_be_visible()
    expect(navbar_bike(site)).to_have_text(MT07)
    assert GarageBike.objects.get(user=shopper, active=True).vehicle == bikes

    if width < 1024:  # the phone's menu holds the navbar's links
        site.locator('summary[aria-label="Open the menu"]').focus()
        site.keyboard.press("Enter")
    site.get_by_test_id("navbar-bike").filter(visible=True).focus()
    site.keyboard.press("Enter")
    expect(site.get_by_role("heading", name="My Garage")).to_be_visible()
    expect(site.get_by_role("list", name="Saved bikes")).to_contain_text(MT07)
    shot(site, f"garage-page-{width}")


def test_making_another_bike_active_and_removing_on_the_garage_page(site, bikes):
    site.goto("/garage")
    expect(site.get_by_text("No bikes saved yet: choose yours below.")).to_be_visible()
    for model, year in (("MT-07", "2019"), ("MT-09", "2021")):
        choose(site, "Make", "Yamaha")
        choose(site, "Model", model)
        choose(site, "Year", year)
        site.get_by_role("button", name="Show parts for this bike").press("Enter")
        expect(navbar_bike(site)).to_have_text(f"{year} Yamaha {model}")
        site.goto("/garage")
    site.get_by_role("button", name=f"Make active: {MT07}").press("Enter")
    expect(navbar_bike(site)).to_have_text(MT07)
    site.get_by_role("button", name=f"Remove: {MT07}").press("Enter")
    expect(navbar_bike(site)).to_have_text("2021 Yamaha MT-09")
    expect(site.get_by_role("list", name="Saved bikes")).not_to_contain_text(MT07)


def test_the_picker_without_javascript(browser, base_url, bikes):
    context = browser.new_context(java_script_enabled=False, base_url=base_url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/allparts")
        page.get_by_label("Make", exact=True).select_option("Yamaha")
        page.get_by_role("button", name="Show parts for this bike").click()
        expect(page.get_by_role("status")).to_have_text("Choose a model")
        page.get_by_label("Model", exact=True).select_option("MT-07")
        page.get_by_role("button", name="Show parts for this bike").click()
        expect(page.get_by_role("status")).to_have_text("Choose a year")
        page.get_by_label("Year", exact=True).select_option("2019")
        page.get_by_role("button", name="Show parts for this bike").click()
        expect(page.get_by_role("heading", name=f"Parts that fit your {MT07}")).to_be_visible()
        expect(navbar_bike(page)).to_have_text(MT07)
    finally:
        context.close()


def test_the_garage_pages_are_axe_clean(axe_page, bikes):
    page = axe_page
    page.goto("/garage")
    problems = findings(page, "/garage", 1366)
    choose(page, "Make", "Yamaha")
    choose(page, "Model", "MT-07")
    choose(page, "Year", "2019")
    page.get_by_role("button", name="Show parts for this bike").press("Enter")
    expect(navbar_bike(page)).to_have_text(MT07)
    for width in WIDTHS:
        for path in ("/allparts", "/allparts?all=1", "/garage", "/"):
            problems += findings(page, path, width)
    assert not problems, "\n".join(problems)
