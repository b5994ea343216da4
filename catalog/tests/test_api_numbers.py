"""A part's brand and other numbers in the API (API.md, "Finding parts", "Bikes and fitment")."""

import pytest

from catalog import services
from catalog.serializers import (
    BRAND_TOO_LONG,
    KIND_UNKNOWN,
    NUMBER_REQUIRED,
    NUMBER_TOO_LONG,
    NUMBERS_NOT_A_LIST,
    NUMBERS_TOO_MANY,
)
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

NUMBERS = [
    {"number": "12311-MT4-000", "kind": "oem", "brand": "Honda"},
    {"number": "12311-MT4-010", "kind": "superseded", "brand": "Honda"},
    {"number": "KR-77", "kind": "aftermarket", "brand": "K&N"},
]


def put(client, part, body):
    return client.put(f"/api/allparts/{part.pk}/numbers", body, format="json")


def test_admins_set_the_numbers_and_every_part_shows_them(as_admin, anon):
    part = PartFactory(brand="EBC")
    response = put(as_admin, part, NUMBERS)
    assert response.status_code == 200
    assert response.json() == NUMBERS

    detail = anon.get(f"/api/allparts/{part.pk}").json()
    assert detail["brand"] == "EBC"
    assert detail["otherNumbers"] == NUMBERS
    (listed,) = anon.get("/api/allparts").json()
    assert listed["otherNumbers"] == NUMBERS
    (found,) = anon.get("/api/allparts?q=kr77&limit=5").json()
    assert found["otherNumbers"] == NUMBERS


def test_a_put_replaces_the_numbers_and_brand_is_optional(as_admin, anon):
    part = PartFactory()
    put(as_admin, part, NUMBERS)
    response = put(as_admin, part, [{"number": "X 1", "kind": "oem"}])
    assert response.json() == [{"number": "X 1", "kind": "oem", "brand": ""}]
    assert anon.get(f"/api/allparts/{part.pk}").json()["otherNumbers"] == response.json()
    assert put(as_admin, part, []).json() == []


def test_a_changed_brand_shows_at_once_in_the_kept_list(as_admin, anon):
    part = PartFactory()
    anon.get("/api/allparts")  # kept
    response = as_admin.patch(f"/api/allparts/{part.pk}", {"brand": "NGK"}, format="json")
    assert response.json()["brand"] == "NGK"
    assert anon.get("/api/allparts").json()[0]["brand"] == "NGK"
    put(as_admin, part, NUMBERS[:1])
    assert anon.get("/api/allparts").json()[0]["otherNumbers"] == NUMBERS[:1]


def test_a_new_part_takes_a_brand(as_admin):
    new = {"name": "Plug", "price": "9", "minimumOrderQuantity": 1, "availableQuantity": 3}
    response = as_admin.post("/api/allparts", {**new, "brand": "NGK"}, format="json")
    assert response.status_code == 201
    assert response.json()["brand"] == "NGK"
    assert response.json()["otherNumbers"] == []


def test_a_brand_over_60_characters_is_a_400(as_admin):
    part = PartFactory()
    response = as_admin.patch(f"/api/allparts/{part.pk}", {"brand": "x" * 61}, format="json")
    assert response.status_code == 400
    assert response.json() == {"brand": [BRAND_TOO_LONG]}


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ([{"number": "A1", "kind": "copy"}], {"kind": [KIND_UNKNOWN]}),
        ([{"number": "A1"}], {"kind": [KIND_UNKNOWN]}),
        ([{"number": "", "kind": "oem"}], {"number": [NUMBER_REQUIRED]}),
        ([{"number": " - ", "kind": "oem"}], {"number": [NUMBER_REQUIRED]}),
        ([{"kind": "oem"}], {"number": [NUMBER_REQUIRED]}),
        ([{"number": "x" * 101, "kind": "oem"}], {"number": [NUMBER_TOO_LONG]}),
        ([{"number": "A1", "kind": "oem", "brand": "b" * 61}], {"brand": [BRAND_TOO_LONG]}),
        (
            [{"number": "12311-MT4", "kind": "oem"}, {"number": "12311 mt4", "kind": "oem"}],
            {"number": ["12311 mt4 is listed twice"]},
        ),
        ({"number": "A1", "kind": "oem"}, {"numbers": [NUMBERS_NOT_A_LIST]}),
        (["A1"], {"numbers": [NUMBERS_NOT_A_LIST]}),
        ([{"number": f"N{i}", "kind": "oem"} for i in range(101)], {"numbers": [NUMBERS_TOO_MANY]}),
    ],
)
def test_bad_numbers_are_a_400_on_that_field_and_change_nothing(as_admin, body, errors):
    part = PartFactory()
    services.part_numbers_set(part=part, numbers=NUMBERS[:1])
    response = put(as_admin, part, body)
    assert response.status_code == 400
    assert response.json() == errors
    assert list(part.other_numbers.values_list("number", flat=True)) == ["12311-MT4-000"]


def test_an_unknown_part_is_a_404(as_admin, db):
    response = as_admin.put("/api/allparts/999999/numbers", NUMBERS, format="json")
    assert response.status_code == 404


def test_only_admins_set_numbers(anon, as_user):
    part = PartFactory()
    assert put(anon, part, NUMBERS).status_code == 401
    assert put(as_user, part, NUMBERS).status_code == 403
    assert not part.other_numbers.exists()


def test_lists_read_other_numbers_without_a_query_per_part(
    anon, as_admin, django_assert_max_num_queries
):
    for part in PartFactory.create_batch(5, available_quantity=0):
        services.part_numbers_set(part=part, numbers=NUMBERS)
    with django_assert_max_num_queries(1):
        listed = anon.get("/api/allparts").json()
    assert all(part["otherNumbers"] == NUMBERS for part in listed)
    # The page and its parts' numbers (count kept), and the vehicles a search's words may
    # name (catalog.bike_words: read once, then kept).
    with django_assert_max_num_queries(3):
        found = anon.get("/api/allparts?q=kr77&limit=3").json()
    assert len(found) == 3 and found[0]["otherNumbers"] == NUMBERS
    low = as_admin.get("/api/stats").json()["lowStock"]
    assert [part["otherNumbers"] for part in low] == [NUMBERS] * 5
