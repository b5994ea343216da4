"""/allparts' filters beside the grid: "Category", "Brand", "Price" and "In stock only", each
choice a link with its count that keeps the rest of the search; the counts are the grid's."""

import re
from decimal import Decimal
from html import unescape

import pytest

from catalog.models import Category
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

CHOICE = re.compile(
    r'<a class="link[^"]*" href="(?P<url>[^"]+)"(?P<chosen> aria-current="true")?'
    r' data-count="(?P<count>\d+)"><span class="min-w-0">(?:✓ )?(?P<label>[^<]+)</span>'
)


@pytest.fixture
def shelf(db):
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    chains = Category.objects.create(name="Chains", slug="chains")
    for name, category, brand, price, units in [
        ("Brake pads", brakes, "EBC", "19.99", 5),
        ("Brake disc", brakes, "Brembo", "149.00", 0),
        ("Brake lever", brakes, "Brembo", "45.00", 3),
        ("Chain kit", chains, "DID", "259.00", 2),
        ("Chain lube", chains, "Motul", "12.50", 8),
        ("Brake fluid", None, "Motul", "9.00", 4),
    ]:
        PartFactory(
            name=name,
            category=category,
            brand=brand,
            price=Decimal(price),
            available_quantity=units,
            minimum_order_quantity=1,
        )


def the_filters(html: str) -> str:
    """The column of filters (the drawer holds the same links)."""
    return html[html.index('id="filters-heading"') : html.index('<div class="flex-1 min-w-0">')]


def choices(html: str) -> dict[str, dict]:
    """Each filter's choices by label: url, count, chosen."""
    found = {}
    for match in CHOICE.finditer(the_filters(html)):
        found[unescape(match["label"])] = {
            "url": unescape(match["url"]),
            "count": int(match["count"]),
            "chosen": bool(match["chosen"]),
        }
    return found


def shown_count(client, url: str) -> int:
    html = client.get(url).content.decode()
    return int(re.search(r'role="status">(\d+) parts?<', html)[1])


def test_the_filters_have_their_headings_and_counts(client, shelf):
    html = client.get("/allparts").content.decode()
    column = the_filters(html)

    for heading in ("Category", "Brand", "Price", "In stock only"):
        assert f'<h3 class="font-semibold mb-1">{heading}</h3>' in column
    found = choices(html)
    assert {label: c["count"] for label, c in found.items()} == {
        "Brakes": 3,
        "Chains": 2,
        "Brembo": 2,
        "Motul": 2,
        "DID": 1,
        "EBC": 1,
        "$0.00 – $24.99": 3,
        "$25.00 – $49.99": 1,
        "$100.00 – $249.99": 1,
        "$250.00 and up": 1,  # $50.00 – $99.99 has none: left out
        "In stock": 5,
    }
    assert html.count('data-count="3"') == 2 * column.count('data-count="3"')  # the drawer's


def test_price_links_use_the_ranges_ends(client, shelf):
    found = choices(client.get("/allparts").content.decode())
    assert found["$0.00 – $24.99"]["url"] == "/allparts?minPrice=0&maxPrice=24.99"
    assert found["$250.00 and up"]["url"] == "/allparts?minPrice=250"


@pytest.mark.parametrize(
    "asked",
    [
        "/allparts",
        "/allparts?q=brake",
        "/allparts?q=brake&brand=Brembo&inStock=true",
        "/allparts?category=chains&sort=price",
        "/allparts?brand=Motul&brand=EBC&minPrice=10&priceMax=30",
        "/allparts?q=brake&page=2",
    ],
)
def test_every_choice_keeps_the_rest_and_lists_as_many_as_it_says(client, shelf, asked):
    """A brand's link adds it to the brands chosen (any of them): it lists its own count more."""
    html = client.get(asked).content.decode()
    found = choices(html)
    brands = {"EBC", "Brembo", "DID", "Motul"}
    chosen_brands = sum(c["count"] for label, c in found.items() if label in brands and c["chosen"])
    for label, choice in found.items():
        url = choice["url"]
        assert "page=" not in url, label
        if "q=brake" in asked:
            assert "q=brake" in url, label
        if "sort=price" in asked:
            assert "sort=price" in url, label
        if not choice["chosen"]:
            more = chosen_brands if label in brands else 0
            assert shown_count(client, url) == choice["count"] + more, (label, url)


def test_a_chosen_choice_takes_its_filter_off(client, shelf):
    found = choices(client.get("/allparts?q=brake&brand=Brembo&category=brakes").content.decode())

    assert found["Brembo"]["chosen"] and found["Brakes"]["chosen"]
    assert found["Brembo"]["url"] == "/allparts?q=brake&category=brakes"
    assert found["Brakes"]["url"] == "/allparts?q=brake&brand=Brembo"
    assert found["EBC"]["url"] == "/allparts?q=brake&brand=Brembo&brand=EBC&category=brakes"


def test_a_chosen_brand_with_nothing_left_is_still_shown(client, shelf):
    found = choices(client.get("/allparts?brand=DID&category=brakes").content.decode())
    assert found["DID"] == {"url": "/allparts?category=brakes", "count": 0, "chosen": True}


def test_the_search_form_keeps_the_brands_and_shows_the_price_asked(client, shelf):
    html = client.get("/allparts?brand=EBC&brand=DID&priceMin=5&priceMax=30").content.decode()

    assert '<input type="hidden" name="brand" value="EBC">' in html
    assert '<input type="hidden" name="brand" value="DID">' in html
    assert 'name="minPrice" min="0" step="0.01" inputmode="decimal" value="5"' in html
    assert 'name="maxPrice" min="0" step="0.01" inputmode="decimal" value="30"' in html
    assert 'role="status">1 part<' in html


def test_a_bad_price_of_the_filters_is_said_not_a_500(client, shelf):
    response = client.get("/allparts?priceMin=cheap&brand=" + "x" * 100)
    assert response.status_code == 200
    alert = re.search(r'role="alert">(.*?)</ul>', response.content.decode(), re.S).group(1)
    assert re.findall(r"<li>(.*?)</li>", alert) == [
        "Brand can be at most 60 characters",
        "Enter a price in dollars, such as 25 or 25.50",
    ]


def test_the_drawer_holds_the_filters_on_phones(client, shelf):
    html = client.get("/allparts").content.decode()
    start = html.index('<details class="md:hidden')
    drawer = html[start : html.index("</details>", start)]
    assert "<summary" in drawer and ">Filters</summary>" in drawer
    assert 'href="/allparts?category=brakes"' in drawer


def test_a_brand_is_shown_as_text_never_as_markup(client, shelf):
    PartFactory(name="Brake hose", brand='<img src=x onerror="alert(1)">', price=Decimal("30"))
    html = client.get("/allparts?q=brake").content.decode()

    assert '<img src=x onerror="alert(1)">' not in html
    assert '<img src=x onerror="alert(1)">' in choices(html)
