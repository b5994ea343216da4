"""Finding parts (GET /api/allparts search parameters, /allparts), categories, part pages and
stock badges."""

import json
import re
from decimal import Decimal

import pytest
from rest_framework.renderers import JSONRenderer

from catalog import services
from catalog.models import Category
from catalog.search import PartQuery, PartSearch, part_queryset, part_search
from catalog.serializers import PartOutputSerializer, PartSearchInputSerializer, parts_json_body
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalog(db):
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    lights = Category.objects.create(name="Lighting", slug="lighting")
    return {
        "disc": PartFactory(
            name="Floating Brake Disc",
            description="Stainless rotor.",
            category=brakes,
            price=Decimal("189.99"),
            available_quantity=24,
            minimum_order_quantity=1,
        ),
        "pads": PartFactory(
            name="Sintered pads",
            description="For hard braking in the wet.",
            category=brakes,
            price=Decimal("34.50"),
            available_quantity=1,
            minimum_order_quantity=2,
        ),
        "lamp": PartFactory(
            name="LED headlight",
            description="Bright lamp for most bikes.",
            category=lights,
            price=Decimal("129.00"),
            available_quantity=5,
            minimum_order_quantity=1,
        ),
    }


def names(response) -> list[str]:
    return [part["name"] for part in response.json()]


def test_words_ignore_case_and_word_forms_and_rank_name_matches_first(anon, catalog):
    response = anon.get("/api/allparts?q=BRAKES")

    assert response.status_code == 200
    found = names(response)
    assert found[0] == "Floating Brake Disc"  # in its name
    assert "Sintered pads" in found  # its category is Brakes
    assert response["X-Total-Count"] == str(len(found))


def test_words_match_the_category_and_the_description(anon, catalog):
    assert names(anon.get("/api/allparts?q=lighting")) == ["LED headlight"]
    assert names(anon.get("/api/allparts?q=rotor")) == ["Floating Brake Disc"]


def test_category_price_range_and_in_stock(anon, catalog):
    assert set(names(anon.get("/api/allparts?category=brakes"))) == {
        "Floating Brake Disc",
        "Sintered pads",
    }
    assert names(anon.get("/api/allparts?minPrice=100&maxPrice=150")) == ["LED headlight"]
    in_stock = names(anon.get("/api/allparts?inStock=true"))
    assert "Sintered pads" not in in_stock  # 1 left, minimum order 2
    assert len(in_stock) == 2


@pytest.mark.parametrize(
    ("sort", "order"),
    [
        ("price", ["Sintered pads", "LED headlight", "Floating Brake Disc"]),
        ("-price", ["Floating Brake Disc", "LED headlight", "Sintered pads"]),
        ("name", ["Floating Brake Disc", "LED headlight", "Sintered pads"]),
        ("newest", ["LED headlight", "Sintered pads", "Floating Brake Disc"]),
    ],
)
def test_sorting(anon, catalog, sort, order):
    assert names(anon.get(f"/api/allparts?sort={sort}")) == order


def test_limit_offset_and_total_count(anon, catalog):
    response = anon.get("/api/allparts?sort=price&limit=1&offset=1")

    assert names(response) == ["LED headlight"]
    assert response["X-Total-Count"] == "3"


@pytest.mark.parametrize(
    ("query", "field"),
    [("sort=cheapest", "sort"), ("minPrice=abc", "minPrice"), ("maxPrice=-1", "maxPrice")],
)
def test_bad_parameters_are_a_400_on_that_parameter(anon, catalog, query, field):
    response = anon.get(f"/api/allparts?{query}")

    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_every_part_names_its_public_page(anon, catalog):
    part = anon.get(f"/api/allparts/{catalog['disc'].pk}").json()

    assert part["url"] == f"/parts/{catalog['disc'].pk}"


def test_categories_by_name_with_their_counts(anon, catalog):
    assert anon.get("/api/categories").json() == [
        {"slug": "brakes", "name": "Brakes", "count": 2},
        {"slug": "lighting", "name": "Lighting", "count": 1},
    ]


def test_a_search_takes_at_most_5_queries_whatever_the_catalog_size(
    anon, catalog, client, django_assert_max_num_queries
):
    PartFactory.create_batch(40, name="Brake lever")
    with django_assert_max_num_queries(5):
        assert anon.get("/api/allparts?q=brake&inStock=true&sort=price").status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get("/allparts?q=brake&category=brakes").status_code == 200


QUERIES = [
    PartQuery(),
    PartQuery(q="brake"),
    PartQuery(q="BRAKES pads", sort="price"),
    PartQuery(q="brake", sort="-price", in_stock=True),
    PartQuery(q="lamp", category="lighting"),
    PartQuery(q="carburettor"),
    PartQuery(q="the"),
    PartQuery(category="brakes", sort="name"),
    PartQuery(min_price=Decimal("30"), max_price=Decimal("130"), sort="newest"),
    PartQuery(in_stock=True, sort="relevance"),
    PartQuery(category="nowhere"),
    PartQuery(q="brake lever", min_price=Decimal("0"), sort="relevance"),
    # A slip forgiven (the exact words' tier), synonyms, both, a part number beside them.
    PartQuery(q="brkae pads"),
    PartQuery(q="sintred levre", sort="price"),
    PartQuery(q="tire lamp"),
    PartQuery(q="tyres brakse", in_stock=True),
    PartQuery(q="brake 12345"),
    PartQuery(brands=("EBC", "Brembo"), sort="price"),
    PartQuery(q="brake", brands=("EBC",), in_stock=True),
]


@pytest.mark.postgres(
    reason="PartSearch is SQL written for PostgreSQL; SQLite searches by the QuerySet"
)
@pytest.mark.parametrize("query", QUERIES, ids=repr)
def test_the_written_sql_finds_what_the_queryset_finds(catalog, query):
    """PartSearch (the SQL written once) against part_queryset (the rules as a QuerySet):
    the same parts, fields and categories, in the same order, the same counts, every slice."""
    PartFactory.create_batch(3, name="Brake lever", price=Decimal("34.50"))
    PartFactory(name="Loose part", category=None, available_quantity=0)
    PartFactory(name="Brake shoe", brand="EBC", price=Decimal("12.00"))
    PartFactory(name="Brake caliper", brand="Brembo", available_quantity=0)
    PartFactory(name="Brake hose", brand="ebc")
    expected = part_queryset(query)
    found = part_search(query)
    assert isinstance(found, PartSearch)

    def shown(parts):
        return [
            (p.pk, p.name, p.img, p.description, p.price, p.minimum_order_quantity,
             p.available_quantity, p.category and (p.category.slug, p.category.name))
            for p in parts
        ]  # fmt: skip

    assert shown(found[0:None]) == shown(expected)
    assert found.count() == expected.count()
    for start, stop in [(0, 2), (1, 3), (2, None), (5, 9), (50, 74)]:
        rows, total = found.read(start, stop, with_total=True)
        assert shown(rows) == shown(expected[start:stop])
        assert total == (expected.count() if rows else None)


def test_validation_keeps_each_request_apart(catalog):
    """The search's fields are shared by every serializer of the process: what one request
    sent never shows in another's answer."""
    bad = PartSearchInputSerializer(data={"minPrice": "abc", "sort": "cheapest"})
    good = PartSearchInputSerializer(data={"q": "brake", "maxPrice": "10"})

    assert not bad.is_valid()
    assert good.is_valid()
    assert set(bad.errors) == {"minPrice", "sort"}
    assert good.part_query() == PartQuery(q="brake", max_price=Decimal("10"))
    assert good.validated_data["offset"] == 0


# --- The page -------------------------------------------------------------------------------


def test_the_page_searches_counts_and_keeps_its_form(client, catalog):
    html = client.get("/allparts?q=brake&sort=price").content.decode()

    assert '<input type="search" name="q" value="brake"' in html
    assert re.search(r"<span class=\"label-text\">Search parts</span>", html)
    assert '<option value="price" selected>Price: low to high</option>' in html
    assert "2 parts" in html
    assert html.index("Sintered pads") < html.index("Floating Brake Disc")


def test_no_match_says_so(client, catalog):
    html = client.get("/allparts?q=carburettor").content.decode()

    assert "No parts match your search." in html
    assert "0 parts" in html


def test_page_links_keep_the_filters(client, catalog):
    PartFactory.create_batch(30, name="Brake cable")

    html = client.get("/allparts?q=brake").content.decode()

    assert 'href="?q=brake&amp;page=2"' in html
    assert "32 parts" in html


def test_a_bad_price_is_said_on_the_page(client, catalog):
    html = client.get("/allparts?minPrice=cheap").content.decode()

    assert "Enter a price in dollars, such as 25 or 25.50" in html


# --- Badges and part pages --------------------------------------------------------------------


def test_cards_show_stock_badges_and_link_to_the_part_page(client, catalog):
    html = client.get("/allparts").content.decode()

    assert "In stock" in html
    assert "Only 5 left" in html
    assert "Out of stock" in html
    assert (
        f'<a href="/parts/{catalog["disc"].pk}" class="link link-hover">Floating Brake Disc</a>'
        in html
    )
    pads = catalog["pads"].pk
    assert re.search(
        rf'<button type="button" class="btn btn-primary" disabled aria-describedby="part-{pads}-name">Purchase  Now </button>',
        html,
    )
    assert f'href="/purchaseintent/{pads}"' not in html


def test_the_part_page(client, catalog, settings):
    settings.SITE_URL = "https://shop.example.test"
    disc = catalog["disc"]

    response = client.get(f"/parts/{disc.pk}")
    html = response.content.decode()

    assert response.status_code == 200
    assert (
        f'<h1 id="part-{disc.pk}-name" class="text-3xl font-bold break-words">Floating Brake Disc</h1>'
        in html
    )
    assert "Back to all parts" in html and 'href="/allparts"' in html
    assert f'href="/purchaseintent/{disc.pk}"' in html and "Purchase  Now " in html
    assert "Brakes" in html and "$189.99" in html and "In stock" in html
    ld = json.loads(
        re.search(r'<script[^>]*type="application/ld\+json">(.*?)</script>', html, re.S).group(1)
    )
    assert ld["@type"] == "Product"
    assert ld["name"] == "Floating Brake Disc"
    assert ld["offers"] == {
        "@type": "Offer",
        "price": "189.99",
        "priceCurrency": "USD",
        "availability": "https://schema.org/InStock",
        "url": f"https://shop.example.test/parts/{disc.pk}",
    }


def test_an_out_of_stock_part_page_says_so(client, catalog):
    html = client.get(f"/parts/{catalog['pads'].pk}").content.decode()

    assert "Out of stock" in html
    assert "https://schema.org/OutOfStock" in html


def test_a_missing_part_page_is_the_404_page(client):
    response = client.get("/parts/999999")

    assert response.status_code == 404
    assert "WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND" in response.content.decode()


def test_visitors_get_the_part_page_from_the_cache(client, catalog, django_assert_num_queries):
    path = f"/parts/{catalog['disc'].pk}"
    client.get(path)

    with django_assert_num_queries(0):
        assert client.get(path).status_code == 200


def test_the_purchase_form_of_an_out_of_stock_part_says_so(client, catalog, user):
    client.force_login(user)

    html = client.get(f"/purchaseintent/{catalog['pads'].pk}").content.decode()

    assert "This part is out of stock" in html
    assert 'data-island="purchase-form"' not in html


# --- What the search keeps per catalog version ------------------------------------------------


def test_a_renamed_category_shows_at_once_in_the_options_and_the_results(anon, client, catalog):
    brakes = Category.objects.get(slug="brakes")
    html = client.get("/allparts?q=brake&category=brakes").content.decode()
    assert '<option value="brakes" selected>Brakes (2)</option>' in html
    assert anon.get("/api/allparts?q=disc&limit=24").json()[0]["category"]["name"] == "Brakes"

    brakes.name = "Brakes and discs"
    services.category_save(category=brakes)
    PartFactory(name="Brake lever", category=brakes)

    html = client.get("/allparts?q=brake&category=brakes").content.decode()
    assert '<option value="brakes" selected>Brakes and discs (3)</option>' in html
    assert '<option value="lighting">' not in html  # a search's options: where it finds parts
    assert "3 parts" in html
    found = anon.get("/api/allparts?q=disc&limit=24").json()
    assert found[0]["category"] == {"slug": "brakes", "name": "Brakes and discs"}


def test_the_kept_category_options_select_the_category_asked_each_time(client, catalog):
    def chosen(category: str) -> list[str]:
        html = client.get(f"/allparts?q=brake&category={category}").content.decode()
        options = html.split('name="category"')[1].split("</select>")[0]
        return re.findall(r'<option value="([^"]*)" selected>', options)

    for asked in ["brakes", "lighting", "", "brakes"]:
        assert chosen(asked) == ([asked] if asked else [])
    assert chosen("no-such-category") == ["no-such-category"]  # as the filters show it


def test_an_edited_part_shows_at_once_in_search_results(anon, client, catalog):
    disc = catalog["disc"]
    assert "189.99" in client.get("/allparts?q=disc&maxPrice=500").content.decode()
    assert anon.get("/api/allparts?q=disc&limit=24").json()[0]["price"] == 189.99

    services.part_update(part=disc, price=Decimal("150.00"), name="Floating Brake Disc XL")

    html = client.get("/allparts?q=disc&maxPrice=500").content.decode()
    assert "Floating Brake Disc XL" in html
    assert "$150.00" in html
    (found,) = anon.get("/api/allparts?q=disc&limit=24").json()
    assert (found["name"], found["price"]) == ("Floating Brake Disc XL", 150.0)


@pytest.mark.parametrize("selected", ["", "price", "relevance", "cheapest"])
def test_the_sort_options_select_what_was_asked(client, catalog, selected):
    html = client.get(f"/allparts?q=brake&sort={selected}").content.decode()

    chosen = re.findall(r'<option value="([^"]*)" selected>', html)
    best_match = selected in ("", "relevance")
    assert chosen == (["relevance"] if best_match else [] if selected == "cheapest" else [selected])


def test_the_paged_list_counts_every_part_from_the_cache_until_one_is_added(
    anon, catalog, django_assert_num_queries
):
    anon.get("/api/allparts?limit=2")
    with django_assert_num_queries(1):  # the rows with their other numbers; the count is kept
        response = anon.get("/api/allparts?limit=2&sort=price")
    assert response["X-Total-Count"] == "3"
    assert names(response) == ["Sintered pads", "LED headlight"]

    PartFactory(name="Chain", price=Decimal("1.00"))

    response = anon.get("/api/allparts?limit=2&sort=price")
    assert response["X-Total-Count"] == "4"
    assert names(response) == ["Chain", "Sintered pads"]


def test_the_kept_json_of_a_page_is_what_drf_writes(catalog):
    """parts_json_body joins each part's kept JSON: the same bytes as JSONRenderer's of the
    serializer's list, including the characters it escapes."""
    PartFactory(name="Lever \u2028 “quoted” ünïcode", description='back\\slash "and" \u2029')
    parts = part_search(PartQuery())[0:None]
    expected = JSONRenderer().render(PartOutputSerializer(parts, many=True).data)

    assert parts_json_body(parts) == expected
    assert parts_json_body(parts) == expected  # from what was kept
    assert parts_json_body([]) == b"[]" == JSONRenderer().render([])


def test_a_part_of_the_search_loads_a_field_it_did_not_read(catalog):
    (disc,) = part_search(PartQuery(q="rotor"))[0:None]

    assert disc.created_at == catalog["disc"].created_at
    assert disc.get_deferred_fields() == {"search_vector", "part_number_normalised"}
    assert disc.category.slug == "brakes"
