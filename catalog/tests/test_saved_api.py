"""Saved parts' API (API.md, "Riders' word"): GET/POST /api/saved, DELETE /api/saved/{partId}
for anyone, an account's saved parts on the server, a visitor's in their session; each answer
the whole list, each <part> with its "savedPrice"; at most 100."""

import re
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from catalog import services
from catalog.models import SavedPart
from catalog.saved import MAX_SAVED, PART_NOT_WHOLE, PART_REQUIRED, SAVED_FULL, UNKNOWN_PART
from catalog.serializers import PartOutputSerializer
from catalog.tests.factories import PartFactory
from conftest import bearer_client

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["visitor", "account"])
def caller(request, user):
    return APIClient() if request.param == "visitor" else bearer_client(user)


def save(client, part_id):
    return client.post("/api/saved", {"partId": part_id}, format="json")


def ids(response) -> list[int]:
    return [part["_id"] for part in response.json()["parts"]]


def test_nothing_saved(caller):
    response = caller.get("/api/saved")
    assert response.status_code == 200
    assert response.json() == {"parts": [], "count": 0}
    assert response["Cache-Control"] == "private, no-store"


def test_a_saved_part_is_the_parts_apis_part_plus_its_saved_price(caller):
    part = PartFactory(price=Decimal("25.50"))
    services.part_numbers_set(part=part, numbers=[{"number": "X-1", "kind": "oem", "brand": ""}])
    response = save(caller, part.pk)
    assert response.status_code == 200
    listed = caller.get(f"/api/allparts/{part.pk}").json()
    assert response.json() == {"parts": [{**listed, "savedPrice": 25.5}], "count": 1}
    assert set(response.json()["parts"][0]) == {*PartOutputSerializer().fields, "savedPrice"}
    assert caller.get("/api/saved").json() == response.json()
    assert response["Cache-Control"] == "private, no-store"


def test_the_latest_saved_first_each_answer_the_whole_list(caller):
    one, two, three = PartFactory.create_batch(3)
    for part in (one, two, three):
        save(caller, part.pk)
    assert ids(caller.get("/api/saved")) == [three.pk, two.pk, one.pk]
    response = caller.delete(f"/api/saved/{two.pk}")
    assert response.status_code == 200
    assert (ids(response), response.json()["count"]) == ([three.pk, one.pk], 2)
    assert response["Cache-Control"] == "private, no-store"


def test_saving_again_keeps_the_first_saved_price(caller):
    part = PartFactory(price=Decimal("40.00"))
    save(caller, part.pk)
    services.part_update(part=part, price=Decimal("30.00"))
    response = save(caller, part.pk)
    assert response.status_code == 200
    [shown] = response.json()["parts"]
    assert (shown["price"], shown["savedPrice"], response.json()["count"]) == (30.0, 40.0, 1)


def test_a_price_raised_since_shows_both_too(caller):
    part = PartFactory(price=Decimal("10.00"))
    save(caller, part.pk)
    services.part_update(part=part, price=Decimal("12.00"))
    [shown] = caller.get("/api/saved").json()["parts"]
    assert (shown["price"], shown["savedPrice"]) == (12.0, 10.0)


@pytest.mark.parametrize(
    ("sent", "message"),
    [
        ("missing", PART_REQUIRED),
        (None, PART_REQUIRED),
        ("", PART_NOT_WHOLE),
        ("abc", PART_NOT_WHOLE),
        (1.5, PART_NOT_WHOLE),
        (True, PART_NOT_WHOLE),
        ([1], PART_NOT_WHOLE),
        ({"id": 1}, PART_NOT_WHOLE),
        ("9" * 400, UNKNOWN_PART),
        ("9" * 1001, PART_NOT_WHOLE),
        (0, UNKNOWN_PART),
        (-3, UNKNOWN_PART),
        (2**70, UNKNOWN_PART),
        (999_999, UNKNOWN_PART),
    ],
)
def test_a_bad_part_id_is_a_400_naming_it(caller, sent, message):
    body = {} if sent == "missing" else {"partId": sent}
    response = caller.post("/api/saved", body, format="json")
    assert (response.status_code, response.json()) == (400, {"partId": [message]})
    assert caller.get("/api/saved").json()["count"] == 0


def test_a_part_id_as_a_string_of_digits_is_fine(caller):
    part = PartFactory()
    assert ids(caller.post("/api/saved", {"partId": str(part.pk)}, format="json")) == [part.pk]


def test_a_body_that_is_not_an_object_is_a_400(caller):
    response = caller.post("/api/saved", "[1, 2]", content_type="application/json")
    assert response.status_code == 400


def test_deleting_a_part_not_saved_or_unknown_is_a_200_with_the_list(caller):
    part, other = PartFactory.create_batch(2)
    save(caller, part.pk)
    for pk in (other.pk, 999_999):
        response = caller.delete(f"/api/saved/{pk}")
        assert (response.status_code, ids(response)) == (200, [part.pk])


def test_an_id_no_part_can_have_names_no_route(caller):
    """0 or past 2**63 - 1 (core.routing.IdConverter): a 404, as on every id route."""
    for pk in (0, 2**70):
        assert caller.delete(f"/api/saved/{pk}").status_code == 404


def test_an_id_that_is_not_a_number_names_no_route(caller):
    assert caller.delete("/api/saved/abc").status_code == 404


def test_a_deleted_part_leaves_the_list(caller):
    part, kept = PartFactory.create_batch(2)
    save(caller, part.pk)
    save(caller, kept.pk)
    services.part_delete(part=part)
    assert ids(caller.get("/api/saved")) == [kept.pk]


def writes_per_minute(settings, rate: str) -> None:
    """THROTTLE_VISITOR_WRITES set to `rate`."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "visitor_writes": rate},
    }


def test_at_most_a_hundred_parts(caller, settings):
    writes_per_minute(settings, "1000/minute")  # a visitor's 100 saves within the limit
    parts = PartFactory.create_batch(MAX_SAVED + 1)
    for part in parts[:MAX_SAVED]:
        assert save(caller, part.pk).status_code == 200
    response = save(caller, parts[-1].pk)
    assert (response.status_code, response.json()) == (400, {"partId": [SAVED_FULL]})
    assert save(caller, parts[0].pk).status_code == 200  # a saved one again: no room needed
    caller.delete(f"/api/saved/{parts[0].pk}")
    assert save(caller, parts[-1].pk).json()["count"] == MAX_SAVED


def test_an_accounts_saved_parts_are_kept_on_the_server(user):
    part = PartFactory(price=Decimal("19.99"))
    save(bearer_client(user), part.pk)
    row = SavedPart.objects.get(user=user)
    assert (row.part, row.saved_price) == (part, Decimal("19.99"))
    assert ids(bearer_client(user).get("/api/saved")) == [part.pk]  # another device


def test_each_caller_has_their_own(user, other_user):
    part = PartFactory()
    save(bearer_client(user), part.pk)
    assert bearer_client(other_user).get("/api/saved").json()["count"] == 0
    assert APIClient().get("/api/saved").json()["count"] == 0


def test_a_visitors_saved_parts_live_in_their_session():
    part = PartFactory()
    visitor, stranger = APIClient(), APIClient()
    save(visitor, part.pk)
    assert ids(visitor.get("/api/saved")) == [part.pk]
    assert stranger.get("/api/saved").json()["count"] == 0
    assert not SavedPart.objects.exists()


def test_the_hint_cookie_follows_whether_there_are_saved_parts():
    part = PartFactory()
    visitor = APIClient()
    assert "saved_parts" not in visitor.get("/api/saved").cookies
    hinted = save(visitor, part.pk).cookies["saved_parts"]
    assert (hinted.value, hinted["httponly"]) == ("1", "")  # the page's script reads it
    gone = visitor.delete(f"/api/saved/{part.pk}").cookies["saved_parts"]
    assert gone.value == "" and gone["max-age"] == 0


def test_a_visitors_writes_past_the_limit_are_a_429(settings):
    writes_per_minute(settings, "3/minute")
    part = PartFactory()
    visitor = APIClient(REMOTE_ADDR="10.9.9.9")
    for _ in range(3):
        assert save(visitor, part.pk).status_code == 200
    refused = visitor.delete(f"/api/saved/{part.pk}")
    assert refused.status_code == 429
    assert re.match(r"Request was throttled", refused.json()["detail"])
    assert visitor.get("/api/saved").status_code == 200  # reading is never limited


def test_an_account_is_not_limited_by_the_visitors_limit(user, settings):
    writes_per_minute(settings, "1/minute")
    part = PartFactory()
    account = bearer_client(user)
    for _ in range(3):
        assert save(account, part.pk).status_code == 200
