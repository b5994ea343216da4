"""Fitment in Chromium (BEYOND.md, "The owner": Fitment; "My Garage": part pages): the owner
lists the bikes a part fits on Edit part with the keyboard alone, at a desktop and a phone
width, axe clean; the part's page then says them, years as ranges."""

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory
from catalog.tests.factories import PartFactory
from tests.e2e.conftest import findings, shot, sign_in

WIDTHS = [1366, 390]


@pytest.fixture
def part(transactional_db):
    return PartFactory(name="Floating brake disc", part_number="12311-MT4-000")


def type_into(page, label: str, text: str) -> None:
    """Tab to the field called `label` and type: the keyboard alone."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.labels?.[0]?.textContent.trim()") == label:
            page.keyboard.type(text)
            return
    raise AssertionError(f"no field {label!r} reached with Tab")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_owner_lists_the_bikes_a_part_fits_with_the_keyboard(axe_page, part, width):
    page = axe_page
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page, AdminFactory())
    page.goto(f"/dashboard/parts/{part.pk}/edit")
    editor = page.get_by_role("region", name="Fits these bikes")
    expect(editor.get_by_text("No bikes listed yet.")).to_be_visible()

    asked = []  # a shop without bikes: each is a new one, confirmed
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    for make, model, first, last in [
        ("Yamaha", "MT-07", "2014", "2020"),
        ("Honda", "CB500F", "2016", ""),
    ]:
        page.get_by_role("heading", name="Fits these bikes").click()  # start tabbing from here
        type_into(page, "Make", make)
        type_into(page, "Model", model)
        type_into(page, "Year from", first)
        if last:
            type_into(page, "Year to", last)
        page.keyboard.press("Enter")
        expect(page.get_by_text("Fitment updated").first).to_be_visible()

    rows = page.get_by_role("list", name="Bikes this part fits").get_by_role("listitem")
    expect(rows).to_have_text(["Honda CB500F, 2016 Remove", "Yamaha MT-07, 2014–2020 Remove"])
    assert asked == ["Add a new bike: Yamaha MT-07?", "Add a new bike: Honda CB500F?"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert findings(page, page.url.removeprefix(page.base_url), width) == []
    shot(page, f"admin-fitment-editor-{width}")

    remove = page.get_by_role("button", name="Remove Honda CB500F, 2016")
    remove.focus()
    page.keyboard.press("Enter")
    expect(rows).to_have_text(["Yamaha MT-07, 2014–2020 Remove"])

    page.get_by_label("Universal fit").focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")  # to its Update
    with page.expect_navigation():  # the box is checked before the post lands: wait for it
        page.keyboard.press("Enter")
    expect(page.get_by_label("Universal fit")).to_be_checked()

    page.goto(f"/parts/{part.pk}")
    expect(page.get_by_text("Part number: 12311-MT4-000")).to_be_visible()
    expect(page.get_by_role("region", name="Fits these bikes")).to_contain_text("Fits every bike.")
    assert findings(page, f"/parts/{part.pk}", width) == []


def test_the_part_page_lists_the_bikes_in_ranges(axe_page, part):
    from catalog import services

    ids = [
        services.vehicle_get_or_create(make="Yamaha", model="MT-07", year=year).pk
        for year in (2014, 2015, 2016, 2018)
    ]
    services.fitment_set(part=part, universal=False, vehicle_ids=ids)
    for width in WIDTHS:
        axe_page.set_viewport_size({"width": width, "height": 900})
        axe_page.goto(f"/parts/{part.pk}")
        section = axe_page.get_by_role("region", name="Fits these bikes")
        expect(section.get_by_role("listitem")).to_have_text(["Yamaha MT-07, 2014–2016, 2018"])
        assert findings(axe_page, f"/parts/{part.pk}", width) == []


def add_bike(page, make: str, model: str, year: str) -> None:
    form = page.get_by_role("form", name="Add a bike")
    form.get_by_label("Make").fill(make)
    form.get_by_label("Model").fill(model)
    form.get_by_label("Year from").fill(year)
    form.get_by_role("button", name="Add").click()


def until_asked(page, asked: list, count: int) -> None:
    for _ in range(100):
        if len(asked) >= count:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"asked {asked}, not {count} questions")


def test_a_typo_is_not_made_a_new_bike_without_asking(site, part):
    """A make or model the shop does not know asks first (confirm()); Cancel adds nothing, OK
    adds it; a bike it knows, in any case, is added without asking."""
    from catalog import services

    services.vehicle_get_or_create(make="Zundapp", model="KS 50", year=1972)
    page = site
    sign_in(page, AdminFactory())
    page.goto(f"/dashboard/parts/{part.pk}/edit")
    rows = page.get_by_role("list", name="Bikes this part fits").get_by_role("listitem")
    asked = []

    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    add_bike(page, "Zundap", "KS 50", "1972")  # a typo
    until_asked(page, asked, 1)
    assert asked == ["Add a new bike: Zundap KS 50?"]
    expect(page.get_by_text("No bikes listed yet.")).to_be_visible()
    expect(page.get_by_role("form", name="Add a bike").get_by_label("Make")).to_have_value("Zundap")

    add_bike(page, "zundapp", "ks 50", "1973")  # known, whatever the case: no question
    expect(page.get_by_text("Fitment updated").first).to_be_visible()
    expect(rows).to_have_text(["Zundapp KS 50, 1973 Remove"])

    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    add_bike(page, "Zundapp", "KS 80", "1981")  # a new model of a known make
    expect(rows).to_have_text(["Zundapp KS 50, 1973 Remove", "Zundapp KS 80, 1981 Remove"])
    assert asked == ["Add a new bike: Zundap KS 50?", "Add a new bike: Zundapp KS 80?"]
