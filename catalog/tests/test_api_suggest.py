"""GET /api/search/suggest (API.md, "Finding parts": Suggestions)."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog import services
from catalog.models import Category, PartNumber
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

URL = "/api/search/suggest"


def suggest(client, q: str) -> dict:
    response = client.get(URL, {"q": q})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return response.json()


@pytest.mark.parametrize("q", ["", "a", " b ", "-"])
def test_fewer_than_two_characters_suggest_nothing(anon, garage_shelf, q):
    assert suggest(anon, q) == {"parts": [], "categories": [], "bikes": []}


def test_the_parts_categories_and_bikes_of_the_words(anon, garage_shelf):
    answer = suggest(anon, "brake")
    pads = garage_shelf["pads"]
    assert {
        "_id": pads.pk,
        "name": "Brake pads front",
        "partNumber": pads.part_number,
        "price": 30.0,
        "img": pads.img,
        "url": f"/parts/{pads.pk}",
    } in answer["parts"]
    assert answer["categories"] == [
        {"slug": "brakes", "name": "Brakes", "url": "/allparts?category=brakes"}
    ]
    assert answer["bikes"] == []


def test_two_letters_find_the_categories_whose_words_begin_with_them(anon, garage_shelf):
    """BEYOND.md: "after two characters, … categories"; "br" is the start of a word of
    "Brakes", and not of a word of a name that merely holds it ("Fabric covers")."""
    Category.objects.create(name="Fabric covers", slug="covers")
    assert [c["name"] for c in suggest(anon, "br")["categories"]] == ["Brakes"]
    assert suggest(anon, "b x")["categories"] == []  # a letter alone finds none


def test_the_parts_come_in_the_order_a_search_ranks_them(anon, garage_shelf):
    for q in ["chain", "525vx3", "brake pads"]:
        listed = [p["_id"] for p in anon.get("/api/allparts", {"q": q}).json()]
        assert [p["_id"] for p in suggest(anon, q)["parts"]] == listed[:6]


def test_a_part_number_finds_its_part_first(anon, garage_shelf):
    assert suggest(anon, "525-vx3")["parts"][0]["name"] == "Drive chain 525"


def test_an_old_number_finds_its_part_first(anon, garage_shelf):
    services.part_numbers_set(
        part=garage_shelf["chain"],
        numbers=[{"number": "94568-D4110", "kind": PartNumber.Kind.SUPERSEDED, "brand": ""}],
    )
    assert suggest(anon, "94568d4110")["parts"][0]["name"] == "Drive chain 525"


def test_a_bike_in_the_words_names_its_bikes_and_fitting_parts(anon, garage_shelf):
    answer = suggest(anon, "mt07 chain")
    assert {p["name"] for p in answer["parts"]} == {"Drive chain 525", "Chain lube"}
    assert [b["name"] for b in answer["bikes"]] == ["2019 Yamaha MT-07", "2018 Yamaha MT-07"]
    assert answer["bikes"][0] == {
        "_id": garage_shelf["mt07_2019"].pk,
        "make": "Yamaha",
        "model": "MT-07",
        "year": 2019,
        "name": "2019 Yamaha MT-07",
    }


def test_bikes_whose_model_begins_with_the_words(anon, garage_shelf):
    assert [b["name"] for b in suggest(anon, "mt-0")["bikes"]] == [
        "2019 Yamaha MT-07",
        "2018 Yamaha MT-07",
    ]
    assert [b["name"] for b in suggest(anon, "kawasaki z9")["bikes"]] == ["2020 Kawasaki Z900"]


def test_at_most_6_parts_3_categories_3_bikes(anon, db):
    for n in range(8):
        Category.objects.create(name=f"Brake kits {n}", slug=f"brake-kits-{n}")
        PartFactory(name=f"Brake lever {n}")
        services.vehicle_get_or_create(make="Brakeworks", model=f"Brake {n}", year=2000 + n)
    answer = suggest(anon, "brake")
    assert (len(answer["parts"]), len(answer["categories"]), len(answer["bikes"])) == (6, 3, 3)


@pytest.mark.parametrize(
    "q",
    [
        "x" * 5000,
        "brake " * 400,
        "\x00\x00 brake",
        "'; drop table catalog_part; --",
        "%_\\",
        "тормозные колодки",
        "ブレーキ",
        "🏍️🏍️",
        "2019 2019 2019",
        "mt07 " * 50,
    ],
)
def test_any_q_answers_200(anon, garage_shelf, q):
    answer = suggest(anon, q)
    assert set(answer) == {"parts", "categories", "bikes"}


def test_a_visitors_answer_is_kept_and_never_outlives_a_change(
    anon,
    garage_shelf,
    django_assert_num_queries,
):
    suggest(anon, "brake")
    with django_assert_num_queries(0):
        suggest(anon, "Brake")  # the same words: the same answer, from the cache
    services.part_update(part=garage_shelf["pads"], price=Decimal("31"))
    prices = [
        p["price"] for p in suggest(anon, "brake")["parts"] if p["name"] == "Brake pads front"
    ]
    assert prices == [31.0]
    PartFactory(name="Brake caliper")
    assert "Brake caliper" in [p["name"] for p in suggest(anon, "brake")["parts"]]


def test_a_kept_answer_follows_fitment_and_vehicles(anon, garage_shelf):
    assert suggest(anon, "cb500f")["bikes"] == []
    services.vehicle_get_or_create(make="Honda", model="CB500F", year=2021)
    assert [b["name"] for b in suggest(anon, "cb500f")["bikes"]] == ["2021 Honda CB500F"]
    assert "Brake pads Z" not in [p["name"] for p in suggest(anon, "mt07 brake")["parts"]]
    services.fitment_add(
        part=garage_shelf["z_pads"], make="Yamaha", model="MT-07", year_from=2019, year_to=2019
    )
    assert "Brake pads Z" in [p["name"] for p in suggest(anon, "mt07 brake")["parts"]]


def test_signed_in_the_same_answer(as_user, anon, garage_shelf):
    assert suggest(as_user, "mt07 chain") == suggest(anon, "mt07 chain")


def test_a_signed_in_page_asks_without_a_query_for_its_person(client, anon, user, garage_shelf):
    """The search box of a signed-in page sends the session cookie: the answer, the same for
    everyone, reads neither the session nor the person (as many queries as a visitor's with
    nothing in the cache), and is kept as a visitor's is."""
    client.force_login(user)
    asked = {}
    for who, asker in [("visitor", anon), ("signed in", client)]:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            suggest(asker, "brake")
        asked[who] = [query["sql"] for query in queries.captured_queries]
    people = (get_user_model()._meta.db_table, "django_session")
    assert not [sql for sql in asked["signed in"] if any(table in sql for table in people)]
    assert len(asked["signed in"]) == len(asked["visitor"])
    first = suggest(client, "chain")
    with CaptureQueriesContext(connection) as queries:
        assert suggest(client, "Chain") == first
    assert len(queries) == 0


def test_a_bad_bearer_token_is_still_a_401(anon, garage_shelf):
    anon.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    assert anon.get(URL, {"q": "brake"}).status_code == 401
