"""The search box's suggestions (BEYOND.md, "Finding parts fast": Suggestions, The navbar): a
WAI-ARIA combobox in the navbar of every page, chosen from with the keyboard."""

import re
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from catalog import services
from catalog.models import Category, Part, PartNumber
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.sqlite  # a journey `make test-sqlite` runs on SQLite too


@pytest.fixture
def shelf(site):
    """A disc by its part number, a sprocket by a number it superseded, a chain for the MT-07
    (and a newer one for the Z900 only), brake pads (and newer knee pads)."""
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    for make, model, year in [("Yamaha", "MT-07", 2019), ("Kawasaki", "Z900", 2020)]:
        services.vehicle_get_or_create(make=make, model=model, year=year)
    parts = {
        "disc": PartFactory(
            name="Front brake disc",
            part_number="12311-MT4-000",
            category=brakes,
            price=Decimal("89.90"),
            description="Stainless",
        ),
        "sprocket": PartFactory(name="Rear sprocket 43T", part_number="JTR1", description="Steel"),
        "chain": PartFactory(name="Drive chain 525", description="O-ring"),
        "guard": PartFactory(name="Chain guard", description="Z900 chain guard"),
        "pads": PartFactory(name="Brake pads", category=brakes, description="Sintered"),
        "knee": PartFactory(name="Knee pads", description="Riding gear"),
    }
    services.part_numbers_set(
        part=parts["sprocket"],
        numbers=[{"number": "23452-MJ4-000", "kind": PartNumber.Kind.SUPERSEDED, "brand": ""}],
    )
    for part, model, make, year in [
        ("chain", "MT-07", "Yamaha", 2019),
        ("guard", "Z900", "Kawasaki", 2020),
    ]:
        services.fitment_add(part=parts[part], make=make, model=model, year_from=year, year_to=year)
    return parts


CASES = [
    pytest.param("12311mt4000", "disc", id="part-number"),
    pytest.param("23452mj4000", "sprocket", id="superseded-number"),
    pytest.param("mt07 chain", "chain", id="bike-words"),
    pytest.param(
        "brkae pads",
        "pads",
        id="typo",
        marks=pytest.mark.postgres(reason="slips are forgiven on PostgreSQL only"),
    ),
]


@pytest.mark.parametrize(("q", "wanted"), CASES)
def test_typing_suggests_the_part_first_and_enter_opens_it(site, shelf, q, wanted):
    choose_first_suggestion(site, q, shelf[wanted])


def choose_first_suggestion(site, q: str, part: Part) -> None:
    """Type `q` in the navbar's box: `part` is the first suggestion, chosen with the keys."""
    site.goto("/")
    box = site.get_by_role("combobox", name="Search parts")
    expect(box).to_have_attribute("aria-expanded", "false")
    box.press_sequentially(q, delay=15)
    listbox = site.get_by_role("listbox", name="Suggestions")
    expect(listbox).to_be_visible()
    expect(box).to_have_attribute("aria-expanded", "true")
    options = listbox.get_by_role("option")
    expect(options.first).to_contain_text(part.name)
    expect(site.locator("[data-suggest-status]")).to_have_text(re.compile(r"^\d+ suggestions?$"))

    box.press("ArrowDown")
    first = options.first
    expect(first).to_have_attribute("aria-selected", "true")
    expect(box).to_have_attribute("aria-activedescendant", first.get_attribute("id"))
    box.press("Enter")
    expect(site).to_have_url(f"{site.base_url}/parts/{part.pk}")


DEMO_CASES = [
    pytest.param(
        "brkae pads",
        "Sintered HH Front Brake Pads",
        id="typo",
        marks=pytest.mark.postgres(reason="slips are forgiven on PostgreSQL only"),
    ),
    pytest.param("12311mt4000", "Apex 320 mm Floating Front Brake Disc", id="oem-number"),
    pytest.param("15410mfjd01", "Spin-On Oil Filter HF204", id="superseded-number"),
    pytest.param("mt07 chain", "520 O-Ring Chain and Sprocket Kit 15/45", id="bike-words"),
]


@pytest.mark.parametrize(("q", "wanted"), DEMO_CASES)
def test_the_demo_shop_finds_the_right_part_first(site, q, wanted):
    """The issue's four searches, in the shop `make run` seeds."""
    call_command("seed_demo", stdout=StringIO())
    choose_first_suggestion(site, q, Part.objects.get(name=wanted))


def test_arrows_move_and_escape_closes(site, shelf):
    site.goto("/blogs")
    box = site.get_by_role("combobox", name="Search parts")
    box.press_sequentially("brake", delay=15)
    options = site.get_by_role("listbox", name="Suggestions").get_by_role("option")
    expect(options.first).to_be_visible()
    count = options.count()
    assert count >= 2
    expect(site.locator("[data-suggest-status]")).to_have_text(f"{count} suggestions")
    box.press("ArrowDown")
    box.press("ArrowDown")
    second = options.nth(1)
    expect(second).to_have_attribute("aria-selected", "true")
    expect(options.first).to_have_attribute("aria-selected", "false")
    expect(box).to_have_attribute("aria-activedescendant", second.get_attribute("id"))
    box.press("ArrowUp")
    expect(box).to_have_attribute("aria-activedescendant", options.first.get_attribute("id"))

    box.press("Escape")
    expect(box).to_have_attribute("aria-expanded", "false")
    expect(site.get_by_role("listbox", name="Suggestions")).to_be_hidden()
    expect(box).not_to_have_attribute("aria-activedescendant", re.compile(".*"))

    box.press("Enter")  # no option chosen: the form's search
    expect(site).to_have_url(re.compile(r"/allparts\?q=brake$"))


def test_allparts_has_one_search_box_with_the_suggestions(site, shelf):
    site.goto("/allparts")
    boxes = site.get_by_role("combobox", name="Search parts")
    expect(boxes).to_have_count(1)
    boxes.press_sequentially("mt07", delay=15)
    expect(
        site.get_by_role("listbox", name="Suggestions").get_by_role("option").first
    ).to_be_visible()
    expect(site.get_by_role("listbox", name="Suggestions")).to_contain_text("2019 Yamaha MT-07")


def test_on_a_phone_the_menu_holds_the_box(site, shelf):
    site.set_viewport_size({"width": 390, "height": 844})
    site.goto("/")
    expect(site.get_by_role("combobox", name="Search parts")).to_have_count(0)  # menu closed
    site.get_by_label("Open the menu").click()
    box = site.get_by_role("combobox", name="Search parts")
    expect(box).to_have_count(1)
    box.press_sequentially("12311mt4000", delay=15)
    first = site.get_by_role("listbox", name="Suggestions").get_by_role("option").first
    expect(first).to_contain_text("Front brake disc")
    assert site.evaluate("document.documentElement.scrollWidth") <= 390


def test_without_javascript_the_box_searches(browser, base_url, shelf):
    context = browser.new_context(java_script_enabled=False, base_url=base_url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/blogs")
        page.get_by_role("combobox", name="Search parts").fill("brake disc")
        page.get_by_role("combobox", name="Search parts").press("Enter")
        expect(page).to_have_url(re.compile(r"/allparts\?q=brake\+disc$"))
        expect(page.get_by_role("heading", name="Front brake disc")).to_be_visible()
    finally:
        context.close()
