"""Facets of a search (GET /api/allparts/facets) and the filters they count: `brand`
(repeatable), `priceMin`/`priceMax` (both ends included)."""

from decimal import Decimal
from urllib.parse import urlencode

import pytest

from catalog import services, stock
from catalog.facets import PRICE_RANGES, facets_of
from catalog.models import Category, Vehicle
from catalog.search import PartQuery
from catalog.serializers import BRAND_TOO_LONG
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

FACETS = "/api/allparts/facets"


@pytest.fixture
def shelf(db):
    """Ten parts: two categories and one without, three brands and none, every price range."""
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    chains = Category.objects.create(name="Chains", slug="chains")
    made = [
        ("Brake pads front", brakes, "EBC", "24.99", 5),
        ("Brake pads rear", brakes, "EBC", "25.00", 0),
        ("Brake disc", brakes, "Brembo", "249.99", 3),
        ("Brake lever", brakes, "Brembo", "99.99", 0),
        ("Brake line", brakes, "", "50.00", 9),
        ("Chain kit", chains, "DID", "250.00", 4),
        ("Chain lube", chains, "DID", "12.00", 7),
        ("Chain tool", chains, "EBC", "49.99", 1),
        ("Brake cleaner", None, "Motul", "100.00", 2),
        ("Brake fluid", None, "ebc", "8.50", 6),
    ]
    return {
        name: PartFactory(
            name=name,
            category=category,
            brand=brand,
            price=Decimal(price),
            available_quantity=units,
            minimum_order_quantity=1,
        )
        for name, category, brand, price, units in made
    }


def listed(anon, **params) -> list[str]:
    response = anon.get("/api/allparts?" + urlencode(params, doseq=True))
    assert response.status_code == 200, response.content
    return sorted(part["name"] for part in response.json())


def total(anon, params: list[tuple[str, str]]) -> int:
    response = anon.get("/api/allparts?" + urlencode([*params, ("limit", "1")]))
    assert response.status_code == 200, response.content
    return int(response["X-Total-Count"])


# --- The filters -----------------------------------------------------------------------------


def test_brand_is_repeatable_and_matches_the_brand_exactly(anon, shelf):
    assert listed(anon, brand=["EBC", "Brembo"]) == [
        "Brake disc",
        "Brake lever",
        "Brake pads front",
        "Brake pads rear",
        "Chain tool",
    ]
    assert listed(anon, brand="ebc") == ["Brake fluid"]  # as written: case counts
    assert listed(anon, brand="EBC", category="chains") == ["Chain tool"]
    assert listed(anon, brand="Nobody") == []


def test_an_empty_brand_is_no_filter(anon, shelf):
    assert len(listed(anon, brand="", q="")) == len(shelf)


def test_price_min_and_max_include_both_ends(anon, shelf):
    assert listed(anon, priceMin="25", priceMax="49.99") == ["Brake pads rear", "Chain tool"]
    assert listed(anon, priceMin="250") == ["Chain kit"]
    assert listed(anon, priceMax="8.50") == ["Brake fluid"]


def test_min_price_and_price_min_both_apply(anon, shelf):
    assert listed(anon, minPrice="20", priceMin="99.99", maxPrice="100") == [
        "Brake cleaner",
        "Brake lever",
    ]
    assert listed(anon, priceMax="30", maxPrice="24.99") == [
        "Brake fluid",
        "Brake pads front",
        "Chain lube",
    ]


@pytest.mark.parametrize("path", ["/api/allparts", FACETS])
@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"priceMin": "cheap"}, "priceMin"),
        ({"priceMax": "NaN"}, "priceMax"),
        ({"priceMax": "1e999"}, "priceMax"),
        ({"priceMin": "-1"}, "priceMin"),
        ({"brand": "x" * 61}, "brand"),
        ({"brand": [f"b{n}" for n in range(21)]}, "brand"),
        ({"q": "x" * 201}, "q"),
        ({"q": "brake\x00pads"}, "q"),
        ({"brand": "E\x00BC"}, "brand"),
        ({"priceMax": "9" * 400}, "priceMax"),
        ({"category": "not a slug"}, "category"),
    ],
)
def test_a_bad_filter_is_a_400_on_that_parameter(anon, shelf, path, params, field):
    response = anon.get(f"{path}?" + urlencode(params, doseq=True))
    assert response.status_code == 400
    assert list(response.json()) == [field]


@pytest.mark.parametrize("path", ["/api/allparts", FACETS])
@pytest.mark.parametrize(
    ("brands", "messages"),
    [
        (["x" * 61], [BRAND_TOO_LONG]),
        (["EBC", "x" * 61, "y" * 70], [BRAND_TOO_LONG]),  # each message once
        (["E\x00BC", "z" * 61], ["Null characters are not allowed.", BRAND_TOO_LONG]),
    ],
)
def test_a_bad_brand_is_messages_on_brand_not_one_per_item(anon, shelf, path, brands, messages):
    """The API's 400 is a list of messages per field (API.md), whichever brand was bad."""
    response = anon.get(f"{path}?" + urlencode({"brand": brands}, doseq=True))
    assert response.status_code == 400
    assert response.json() == {"brand": messages}


def test_a_price_that_is_not_a_number_says_so(anon, shelf):
    response = anon.get("/api/allparts?priceMin=abc")
    assert response.json() == {"priceMin": ["Enter a price in dollars, such as 25 or 25.50"]}


# --- The facets ------------------------------------------------------------------------------


def test_facets_count_what_each_choice_would_list(anon, shelf):
    body = anon.get(FACETS).json()

    assert body["total"] == 10
    assert body["inStock"] == 8
    assert body["categories"] == [
        {"slug": "brakes", "name": "Brakes", "count": 5},
        {"slug": "chains", "name": "Chains", "count": 3},
    ]
    assert body["brands"] == [  # most first, then by name; parts without a brand left out
        {"name": "EBC", "count": 3},
        {"name": "Brembo", "count": 2},
        {"name": "DID", "count": 2},
        {"name": "ebc", "count": 1},
        {"name": "Motul", "count": 1},
    ]
    assert body["price"] == [
        {"min": 0, "max": 24.99, "count": 3},
        {"min": 25, "max": 49.99, "count": 2},
        {"min": 50, "max": 99.99, "count": 2},
        {"min": 100, "max": 249.99, "count": 2},
        {"min": 250, "max": None, "count": 1},
    ]


def test_each_facet_leaves_out_its_own_filter_and_total_has_them_all(anon, shelf):
    body = anon.get(f"{FACETS}?category=brakes&brand=EBC&inStock=true").json()

    # Categories: EBC and in stock (Brake pads front, Chain tool; Brake pads rear is out).
    assert body["categories"] == [
        {"slug": "brakes", "name": "Brakes", "count": 1},
        {"slug": "chains", "name": "Chains", "count": 1},
    ]
    # Brands: brakes in stock (pads front, disc, line without a brand).
    assert body["brands"] == [{"name": "Brembo", "count": 1}, {"name": "EBC", "count": 1}]
    # In stock: EBC brakes, in stock or not.
    assert body["inStock"] == 1
    assert body["total"] == 1
    assert [r["count"] for r in body["price"]] == [1, 0, 0, 0, 0]


def test_price_ranges_ignore_the_price_asked_and_the_rest_keep_it(anon, shelf):
    body = anon.get(f"{FACETS}?priceMin=25&priceMax=99.99").json()

    assert [r["count"] for r in body["price"]] == [3, 2, 2, 2, 1]
    assert body["total"] == 4
    assert body["categories"] == [
        {"slug": "brakes", "name": "Brakes", "count": 3},
        {"slug": "chains", "name": "Chains", "count": 1},
    ]


def test_the_price_ranges_do_not_overlap_and_add_up_to_the_total(anon, shelf):
    for query in ["", "q=brake", "category=brakes&inStock=true", "brand=EBC"]:
        body = anon.get(f"{FACETS}?{query}").json()
        assert sum(r["count"] for r in body["price"]) == body["total"], query
    for (_, top), (low, _) in zip(PRICE_RANGES, PRICE_RANGES[1:], strict=False):
        assert top + Decimal("0.01") == low


SEARCHES = [
    [],
    [("q", "brake")],
    [("q", "brake pads"), ("inStock", "true")],
    [("q", "chain"), ("brand", "DID"), ("priceMax", "100")],
    [("category", "brakes"), ("brand", "EBC"), ("brand", "Brembo")],
    [("minPrice", "20"), ("priceMax", "250"), ("inStock", "true")],
    [("q", "nothing-like-it")],
    [("q", "brakes"), ("category", "chains")],
]


@pytest.mark.parametrize("params", SEARCHES, ids=lambda p: urlencode(p) or "all")
def test_every_count_is_what_the_list_with_that_choice_counts(anon, shelf, params):
    """Each choice's count against GET /api/allparts with that choice made (the words
    matched by the search itself: full text on PostgreSQL, substrings on SQLite)."""
    body = anon.get(f"{FACETS}?{urlencode(params)}").json()
    others = {
        name: [(k, v) for k, v in params if k not in names]
        for name, names in {
            "category": {"category"},
            "brand": {"brand"},
            "price": {"minPrice", "maxPrice", "priceMin", "priceMax"},
            "inStock": {"inStock"},
        }.items()
    }

    assert body["total"] == total(anon, params)
    assert body["inStock"] == total(anon, [*others["inStock"], ("inStock", "true")])
    for row in body["categories"]:
        assert row["count"] == total(anon, [*others["category"], ("category", row["slug"])])
    for row in body["brands"]:
        assert row["count"] == total(anon, [*others["brand"], ("brand", row["name"])])
    for row in body["price"]:
        bounds = [("priceMin", str(row["min"]))]
        bounds += [("priceMax", str(row["max"]))] if row["max"] is not None else []
        assert row["count"] == total(anon, [*others["price"], *bounds])


def test_a_bike_narrows_the_facets_as_it_narrows_the_list(anon, shelf):
    bike = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    services.fitment_set(part=shelf["Chain kit"], universal=False, vehicle_ids=[bike.pk])
    body = anon.get(f"{FACETS}?fits={bike.pk}").json()

    assert body["total"] == total(anon, [("fits", str(bike.pk))]) == 1
    assert body["brands"] == [{"name": "DID", "count": 1}]


def test_a_bike_in_the_words_narrows_the_facets_and_is_kept_apart(anon, shelf):
    """ "mt07 chain" counts the MT-07's chains; the facets kept for "chain" are not its."""
    bike = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    services.fitment_set(part=shelf["Chain kit"], universal=False, vehicle_ids=[bike.pk])
    services.fitment_set(part=shelf["Chain lube"], universal=False, vehicle_ids=[])
    assert anon.get(f"{FACETS}?q=chain").json()["total"] == 3

    body = anon.get(f"{FACETS}?q=mt07+chain").json()
    assert body["total"] == total(anon, [("q", "mt07 chain")]) == 1
    assert body["brands"] == [{"name": "DID", "count": 1}]


def test_facets_follow_a_change_of_stock_at_once(anon, shelf):
    assert anon.get(f"{FACETS}?inStock=true").json()["total"] == 8
    stock.stock_adjust(part=shelf["Chain lube"], change=-7, note="Written off", by=None)

    assert anon.get(f"{FACETS}?inStock=true").json()["total"] == 7


def test_the_facets_of_filters_without_words_are_kept(anon, shelf, django_assert_num_queries):
    anon.get(f"{FACETS}?category=brakes&brand=EBC")
    with django_assert_num_queries(0):
        assert anon.get(f"{FACETS}?category=brakes&brand=EBC").status_code == 200


def test_the_facets_of_words_are_read_each_time(anon, shelf, django_assert_num_queries):
    """Riders' words seldom repeat with the same filters: a miss would cost more than it saves."""
    anon.get(f"{FACETS}?q=brake&brand=EBC")
    with django_assert_num_queries(1):
        assert anon.get(f"{FACETS}?q=brake&brand=EBC").status_code == 200


def test_the_facets_take_one_query(shelf, django_assert_num_queries):
    """One query of their own (once the words are read: a search with typo corrections keeps
    its reading, so the facets are measured on a second call)."""
    query = PartQuery(q="brake", brands=("EBC",), min_price=Decimal("1"), in_stock=True)
    facets_of(query)
    with django_assert_num_queries(1):
        facets_of(query)


@pytest.mark.parametrize(
    "q",
    [
        "\u00e9t\u00e9 \u6f22\u5b57 \u0645\u0631\u062d\u0628\u0627 \U0001f3cd\ufe0f",
        "'; DROP TABLE catalog_part; --",
        "%_\\ & | ! ( ) : * <->",
        "a" * 200,
        "   ",
        "12311-MT4-000",
    ],
)
def test_any_words_are_answered(anon, shelf, q):
    response = anon.get(FACETS, {"q": q, "brand": q[:60]})
    assert response.status_code == 200
    assert response.json()["total"] == total(anon, [("q", q), ("brand", q[:60])])
