"""Finding parts by part number and by bike (API.md, "Bikes and fitment": Search)."""

from decimal import Decimal

import pytest

from catalog.models import Category, Fitment
from catalog.search import PartQuery, PartSearch, part_queryset, part_search
from catalog.services import vehicle_get_or_create
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelf(db):
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    mt07 = vehicle_get_or_create(make="Yamaha", model="MT-07", year=2019)
    z900 = vehicle_get_or_create(make="Kawasaki", model="Z900", year=2020)
    parts = {
        "disc": PartFactory(
            name="Brake disc", part_number="12311-MT4-000", category=brakes, price=Decimal("90")
        ),
        "longer": PartFactory(name="Clutch cable", part_number="12311-MT4-0001"),
        "pads": PartFactory(
            name="Brake pads 12311", part_number="FA-252", category=brakes, price=Decimal("30")
        ),
        "bulb": PartFactory(name="H4 bulb", part_number="", universal=True, available_quantity=0),
        "plug": PartFactory(name="Spark plug", part_number="CR9EIX"),
    }
    Fitment.objects.create(part=parts["disc"], vehicle=mt07)
    Fitment.objects.create(part=parts["pads"], vehicle=mt07)
    Fitment.objects.create(part=parts["plug"], vehicle=z900)
    return {**parts, "mt07": mt07, "z900": z900}


def names(response) -> list[str]:
    return [part["name"] for part in response.json()]


@pytest.mark.parametrize(
    "q", ["12311mt4000", "12311-MT4-000", "12311 mt4 000", " 12311-mt4000 ", "12311-Mt4 - 000"]
)
def test_q_finds_a_part_number_whatever_the_case_spaces_and_dashes_exact_first(anon, shelf, q):
    response = anon.get("/api/allparts", {"q": q})
    assert response.status_code == 200
    found = names(response)
    assert found[0] == "Brake disc"  # the exact part number
    assert found[1] == "Clutch cable"  # a part number it begins


def test_an_exact_part_number_ranks_above_words_in_a_name(anon, shelf):
    # "12311" is a word of the pads' name, and the beginning of two part numbers.
    assert names(anon.get("/api/allparts?q=fa252")) == ["Brake pads 12311"]
    assert names(anon.get("/api/allparts?q=cr9eix")) == ["Spark plug"]


def test_a_short_part_number_matches_only_exactly(anon, shelf):
    PartFactory(name="Washer", part_number="A-1")
    PartFactory(name="Bolt", part_number="A-12")
    assert names(anon.get("/api/allparts?q=a1")) == ["Washer"]


def test_part_number_search_combines_with_fits(anon, shelf):
    mt07, z900 = shelf["mt07"], shelf["z900"]
    assert names(anon.get(f"/api/allparts?q=12311mt4000&fits={mt07.pk}")) == ["Brake disc"]
    assert names(anon.get(f"/api/allparts?q=12311mt4000&fits={z900.pk}")) == []
    assert names(anon.get(f"/api/allparts?fits={z900.pk}&sort=name")) == ["H4 bulb", "Spark plug"]


QUERIES = [
    PartQuery(q="12311mt4000"),
    PartQuery(q="12311-MT4", sort="price"),
    PartQuery(q="fa 252 brake"),
    PartQuery(q="a%_1"),
    PartQuery(fits=0),
    PartQuery(q="brake", in_stock=True, sort="relevance"),
    PartQuery(q="12311", category="brakes", max_price=Decimal("100")),
]


@pytest.mark.postgres(
    reason="PartSearch is SQL written for PostgreSQL; SQLite searches by the QuerySet"
)
@pytest.mark.parametrize("query", QUERIES, ids=repr)
def test_the_written_sql_finds_what_the_queryset_finds(shelf, query):
    """PartSearch against part_queryset, for part numbers and bikes (test_search.py's twin)."""
    if query.fits is not None:
        query = PartQuery(q=query.q, fits=shelf["mt07"].pk, sort="name")
    expected = part_queryset(query)
    found = part_search(query)
    assert isinstance(found, PartSearch)
    assert [p.pk for p in found[0:None]] == [p.pk for p in expected]
    assert found.count() == expected.count()
    rows, total = found.read(1, 3, with_total=True)
    assert [p.pk for p in rows] == [p.pk for p in expected[1:3]]
    assert total == (expected.count() if rows else None)


def test_the_page_lists_the_parts_of_a_bike(client, shelf):
    html = client.get(f"/allparts?fits={shelf['mt07'].pk}").content.decode()
    assert "Brake disc" in html
    assert "Brake pads 12311" in html
    assert "H4 bulb" in html
    assert "Spark plug" not in html
    assert "Clutch cable" not in html


def test_the_pages_search_form_and_links_keep_the_bike(client, shelf):
    PartFactory.create_batch(30, universal=True)
    mt07 = shelf["mt07"].pk
    html = client.get(f"/allparts?fits={mt07}&sort=name").content.decode()
    assert f'<input type="hidden" name="fits" value="{mt07}">' in html
    assert f"?fits={mt07}&amp;sort=name&amp;page=2" in html
    assert "33 parts" in html


def test_an_unknown_bike_is_said_on_the_page(client, shelf):
    html = client.get("/allparts?fits=999999").content.decode()
    assert "Choose one of the shop&#x27;s vehicles" in html
