"""GET/POST /api/addresses and PUT/DELETE /api/addresses/{id} (API.md "Addresses, shipping and
tax"): the `<address>` shape, the default first, 400 per field, the limit, 404 for another
account's address, 401 for a visitor."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.addresses import MAX_ADDRESSES, TOO_MANY_ADDRESSES, address_create
from accounts.models import Address
from accounts.serializers import ADDRESS_REQUIRED, COUNTRY_INVALID
from accounts.validators import POSTCODE_INVALID, US_POSTCODE_INVALID
from core.phones import PHONE_INVALID, PHONE_REQUIRED

pytestmark = pytest.mark.django_db

BODY = {
    "fullName": "Jane Rider",
    "line1": "1 Main St",
    "line2": "Apt 2",
    "city": "Springfield",
    "region": "IL",
    "postcode": "62701",
    "country": "US",
    "phone": "+12175550100",
}
FIELDS = {*BODY, "_id", "isDefault"}
STORED = {
    "full_name": "Ola Nordmann",
    "line1": "Storgata 1",
    "city": "Oslo",
    "postcode": "0155",
    "country": "NO",
    "phone": "+4722000000",
}


def saved(owner, **fields) -> Address:
    return address_create(owner=owner, **{**STORED, **fields})


def test_a_visitor_gets_401_everywhere(anon, user):
    address = saved(user)

    assert anon.get("/api/addresses").status_code == 401
    assert anon.post("/api/addresses", BODY, format="json").status_code == 401
    assert anon.put(f"/api/addresses/{address.pk}", BODY, format="json").status_code == 401
    assert anon.delete(f"/api/addresses/{address.pk}").status_code == 401
    assert Address.objects.get().city == "Oslo"


def test_post_answers_201_with_the_address_the_first_being_the_default(as_user, user):
    response = as_user.post("/api/addresses", BODY, format="json")

    assert response.status_code == 201
    body = response.json()
    assert set(body) == FIELDS
    assert body == {**BODY, "_id": Address.objects.get().pk, "isDefault": True}
    second = as_user.post("/api/addresses/", {**BODY, "line1": "2 Side St"}, format="json")
    assert second.status_code == 201 and second.json()["isDefault"] is False


def test_line2_region_and_is_default_are_optional_and_the_country_is_upper_cased(as_user):
    body = {k: v for k, v in BODY.items() if k not in ("line2", "region")}

    response = as_user.post("/api/addresses", {**body, "country": "us"}, format="json")

    assert response.status_code == 201
    assert (response.json()["line2"], response.json()["region"]) == ("", "")
    assert response.json()["country"] == "US"


def test_get_lists_the_callers_addresses_the_default_first(as_user, user, other_user):
    first = saved(user, city="First")
    second = saved(user, city="Second")
    third = saved(user, city="Third")
    saved(other_user, city="Not mine")
    as_user.put(f"/api/addresses/{second.pk}", {**BODY, "isDefault": True}, format="json")

    response = as_user.get("/api/addresses")

    assert response.status_code == 200
    assert [a["_id"] for a in response.json()] == [second.pk, third.pk, first.pk]
    assert [a["isDefault"] for a in response.json()] == [True, False, False]


@pytest.mark.parametrize("field", ["fullName", "line1", "city", "postcode", "country"])
@pytest.mark.parametrize("given", ["missing", "", "  ", None])
def test_each_required_field_says_so(as_user, field, given):
    body = {k: v for k, v in BODY.items() if k != field}
    if given != "missing":
        body[field] = given

    response = as_user.post("/api/addresses", body, format="json")

    assert response.status_code == 400
    assert response.json() == {field: [ADDRESS_REQUIRED[field]]}


@pytest.mark.parametrize(
    ("change", "errors"),
    [
        ({"phone": ""}, {"phone": [PHONE_REQUIRED]}),
        ({"phone": "call me"}, {"phone": [PHONE_INVALID]}),
        ({"postcode": "6270"}, {"postcode": [US_POSTCODE_INVALID]}),
        ({"postcode": "62701-12"}, {"postcode": [US_POSTCODE_INVALID]}),
        ({"postcode": "SW1A 1AA", "country": "GB", "phone": "x"}, {"phone": [PHONE_INVALID]}),
        ({"postcode": "S", "country": "GB"}, {"postcode": [POSTCODE_INVALID]}),
        ({"postcode": "1234567890123", "country": "GB"}, {"postcode": [POSTCODE_INVALID]}),
        ({"postcode": "<b>1</b>", "country": "GB"}, {"postcode": [POSTCODE_INVALID]}),
        ({"country": "XX"}, {"country": [COUNTRY_INVALID]}),
        ({"country": "USA"}, {"country": [COUNTRY_INVALID]}),
        ({"country": "United States"}, {"country": [COUNTRY_INVALID]}),
        ({"country": ["US"]}, {"country": [COUNTRY_INVALID]}),
        ({"country": 1}, {"country": [COUNTRY_INVALID]}),
    ],
)
def test_bad_fields_answer_400_with_their_message(as_user, change, errors):
    response = as_user.post("/api/addresses", {**BODY, **change}, format="json")

    assert response.status_code == 400
    assert response.json() == errors
    assert not Address.objects.exists()


def test_too_long_fields_answer_400_not_500(as_user):
    long = "x" * 201
    body = {**BODY, "fullName": long, "line1": long, "line2": long, "city": long, "region": long}

    response = as_user.post("/api/addresses", body, format="json")

    assert response.status_code == 400
    assert set(response.json()) == {"fullName", "line1", "line2", "city", "region"}


def test_past_twenty_addresses_answers_non_field_errors(as_user, user):
    for n in range(MAX_ADDRESSES):
        saved(user, line1=f"{n} Storgata")

    response = as_user.post("/api/addresses", BODY, format="json")

    assert response.status_code == 400
    assert response.json() == {"non_field_errors": [TOO_MANY_ADDRESSES]}
    assert Address.objects.filter(owner=user).count() == MAX_ADDRESSES


def test_put_changes_the_owners_address(as_user, user):
    address = saved(user)

    response = as_user.put(f"/api/addresses/{address.pk}", BODY, format="json")

    assert response.status_code == 200
    assert response.json() == {**BODY, "_id": address.pk, "isDefault": True}
    address.refresh_from_db()
    assert (address.city, address.country.code) == ("Springfield", "US")


def test_put_checks_the_fields_too(as_user, user):
    address = saved(user)

    response = as_user.put(f"/api/addresses/{address.pk}", {**BODY, "postcode": "1"}, format="json")

    assert response.status_code == 400
    assert response.json() == {"postcode": [POSTCODE_INVALID]}
    address.refresh_from_db()
    assert address.city == "Oslo"


def test_put_with_is_default_moves_the_default(as_user, user):
    first, second = saved(user), saved(user, city="Bergen")

    response = as_user.put(
        f"/api/addresses/{second.pk}", {**BODY, "isDefault": True}, format="json"
    )

    assert response.json()["isDefault"] is True
    first.refresh_from_db()
    assert first.is_default is False


def test_another_accounts_address_is_404_and_unchanged(as_other, user):
    address = saved(user)

    put = as_other.put(f"/api/addresses/{address.pk}", BODY, format="json")
    delete = as_other.delete(f"/api/addresses/{address.pk}")

    assert (put.status_code, delete.status_code) == (404, 404)
    address.refresh_from_db()
    assert address.city == "Oslo"


@pytest.mark.parametrize("pk", [0, 999999, 2**63])
def test_unknown_ids_are_404(as_user, pk):
    assert as_user.put(f"/api/addresses/{pk}", BODY, format="json").status_code == 404
    assert as_user.delete(f"/api/addresses/{pk}").status_code == 404


def test_delete_answers_deleted_count_and_moves_the_default_to_the_newest(as_user, user):
    default = saved(user, city="Default")
    older = saved(user, city="Older")
    newer = saved(user, city="Newer")

    response = as_user.delete(f"/api/addresses/{default.pk}")

    assert response.status_code == 200
    assert response.json() == {"deletedCount": 1}
    listed = as_user.get("/api/addresses").json()
    assert [(a["_id"], a["isDefault"]) for a in listed] == [(newer.pk, True), (older.pk, False)]


def test_the_list_costs_the_same_queries_for_one_address_or_twenty(
    as_user, user, django_assert_num_queries
):
    saved(user)
    with CaptureQueriesContext(connection) as one:
        as_user.get("/api/addresses")
    for n in range(MAX_ADDRESSES - 1):
        saved(user, line1=f"{n} Storgata")

    with django_assert_num_queries(len(one.captured_queries)):
        response = as_user.get("/api/addresses")

    assert len(response.json()) == MAX_ADDRESSES
