"""The garage's API (API.md, "Bikes and fitment"): an account's garage on the server, a
visitor's in their session; an active bike; at most 10."""

import re

import pytest
from rest_framework.test import APIClient

from catalog.garage import GARAGE_FULL, MAX_BIKES, NOT_SAVED, UNKNOWN_VEHICLE
from catalog.models import GarageBike, Vehicle
from conftest import bearer_client

pytestmark = pytest.mark.django_db


def bike(model="MT-07", year=2019, make="Yamaha") -> Vehicle:
    return Vehicle.objects.get_or_create(make=make, model=model, year=year)[0]


def shape(vehicle: Vehicle) -> dict:
    return {
        "_id": vehicle.pk,
        "make": vehicle.make,
        "model": vehicle.model,
        "year": vehicle.year,
        "name": vehicle.name,
    }


@pytest.fixture(params=["visitor", "account"])
def caller(request, user):
    return APIClient() if request.param == "visitor" else bearer_client(user)


def test_an_empty_garage(caller):
    response = caller.get("/api/garage")
    assert response.status_code == 200
    assert response.json() == {"active": None, "vehicles": []}
    assert response["Cache-Control"] == "private, no-store"


def test_a_saved_bike_is_the_active_one(caller):
    mt07, mt09 = bike(), bike("MT-09", 2021)
    caller.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    response = caller.post("/api/garage", {"vehicle": mt09.pk}, format="json")
    assert response.status_code == 200
    assert response.json() == {"active": shape(mt09), "vehicles": [shape(mt07), shape(mt09)]}
    assert caller.get("/api/garage").json() == response.json()
    assert response["Cache-Control"] == "private, no-store"


def test_saving_a_saved_bike_again_makes_it_active(caller):
    mt07, mt09 = bike(), bike("MT-09", 2021)
    caller.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    caller.post("/api/garage", {"vehicle": mt09.pk}, format="json")
    body = caller.post("/api/garage", {"vehicle": str(mt07.pk)}, format="json").json()
    assert body == {"active": shape(mt07), "vehicles": [shape(mt07), shape(mt09)]}


@pytest.mark.parametrize("sent", [999_999, "abc", None, 0, -3, 2**70])
def test_an_unknown_vehicle_is_refused(caller, sent):
    response = caller.post("/api/garage", {"vehicle": sent}, format="json")
    assert response.status_code == 400
    assert response.json() == {"vehicle": [UNKNOWN_VEHICLE]}


def test_a_vehicle_is_required(caller):
    response = caller.post("/api/garage", {}, format="json")
    assert (response.status_code, response.json()) == (
        400,
        {"vehicle": ["This field is required."]},
    )


def test_at_most_ten_bikes(caller):
    bikes = [bike(year=2010 + n) for n in range(MAX_BIKES + 1)]
    for vehicle in bikes[:MAX_BIKES]:
        assert caller.post("/api/garage", {"vehicle": vehicle.pk}, format="json").status_code == 200
    response = caller.post("/api/garage", {"vehicle": bikes[-1].pk}, format="json")
    assert response.status_code == 400
    assert response.json() == {"vehicle": [GARAGE_FULL]}
    garage = caller.get("/api/garage").json()
    assert len(garage["vehicles"]) == MAX_BIKES
    assert garage["active"] == shape(bikes[MAX_BIKES - 1])
    # A bike already saved may still be made active by saving it again.
    again = caller.post("/api/garage", {"vehicle": bikes[0].pk}, format="json")
    assert again.json()["active"] == shape(bikes[0])


def test_put_makes_a_saved_bike_active(caller):
    mt07, mt09 = bike(), bike("MT-09", 2021)
    caller.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    caller.post("/api/garage", {"vehicle": mt09.pk}, format="json")
    response = caller.put("/api/garage", {"active": mt07.pk}, format="json")
    assert response.status_code == 200
    assert response.json()["active"] == shape(mt07)
    assert caller.get("/api/garage").json()["active"] == shape(mt07)


@pytest.mark.parametrize("sent", ["saved elsewhere", "unknown", "abc", None])
def test_put_refuses_a_bike_that_is_not_saved(caller, sent):
    mt07, other = bike(), bike("MT-09", 2021)
    caller.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    value = {"saved elsewhere": other.pk, "unknown": 999_999}.get(sent, sent)
    response = caller.put("/api/garage", {"active": value}, format="json")
    assert response.status_code == 400
    assert response.json() == {"active": [NOT_SAVED]}
    assert caller.get("/api/garage").json()["active"] == shape(mt07)


def test_delete_the_active_bike_makes_the_latest_other_one_active(caller):
    mt07, mt09, tracer = bike(), bike("MT-09", 2021), bike("Tracer 9", 2022)
    for vehicle in (mt07, mt09, tracer):
        caller.post("/api/garage", {"vehicle": vehicle.pk}, format="json")
    response = caller.delete(f"/api/garage/{tracer.pk}")
    assert response.status_code == 200
    assert response.json() == {"active": shape(mt09), "vehicles": [shape(mt07), shape(mt09)]}
    assert response["Cache-Control"] == "private, no-store"


def test_delete_another_bike_keeps_the_active_one(caller):
    mt07, mt09 = bike(), bike("MT-09", 2021)
    caller.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    caller.post("/api/garage", {"vehicle": mt09.pk}, format="json")
    body = caller.delete(f"/api/garage/{mt07.pk}").json()
    assert body == {"active": shape(mt09), "vehicles": [shape(mt09)]}


def test_delete_the_last_bike_leaves_none_active(caller):
    mt07 = bike()
    caller.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    assert caller.delete(f"/api/garage/{mt07.pk}/").json() == {"active": None, "vehicles": []}


def test_delete_a_bike_that_is_not_saved_changes_nothing(caller):
    mt07 = bike()
    caller.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    response = caller.delete("/api/garage/999999")
    assert response.status_code == 200
    assert response.json() == {"active": shape(mt07), "vehicles": [shape(mt07)]}


def test_a_deleted_vehicle_leaves_every_garage(caller):
    mt07, mt09 = bike(), bike("MT-09", 2021)
    caller.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    caller.post("/api/garage", {"vehicle": mt09.pk}, format="json")
    mt09.delete()
    assert caller.get("/api/garage").json()["vehicles"] == [shape(mt07)]


def test_an_accounts_garage_is_kept_on_the_server(user):
    mt07 = bike()
    bearer_client(user).post("/api/garage", {"vehicle": mt07.pk}, format="json")
    assert list(GarageBike.objects.values_list("user", "vehicle", "active")) == [
        (user.pk, mt07.pk, True)
    ]
    # Another device of the same account sees it.
    assert bearer_client(user).get("/api/garage").json()["active"] == shape(mt07)


def test_each_caller_has_their_own_garage(user, other_user):
    mt07 = bike()
    bearer_client(user).post("/api/garage", {"vehicle": mt07.pk}, format="json")
    assert bearer_client(other_user).get("/api/garage").json()["vehicles"] == []
    assert APIClient().get("/api/garage").json()["vehicles"] == []


def test_a_visitors_garage_lives_in_their_session():
    mt07 = bike()
    visitor = APIClient()
    visitor.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    assert visitor.get("/api/garage").json()["active"] == shape(mt07)
    assert GarageBike.objects.count() == 0
    assert APIClient().get("/api/garage").json() == {"active": None, "vehicles": []}


# --- Visitors' writes are limited per client address (THROTTLE_VISITOR_WRITES) ----------------

THROTTLED = re.compile(r"^Request was throttled\. Expected available in \d+ seconds?\.$")
VISITOR_WRITES = 60  # the default: 60/minute


def test_a_visitors_61st_garage_write_in_a_minute_is_a_429_of_any_kind(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["visitor_writes"] == "60/minute"
    mt07, mt09 = bike(), bike("MT-09", 2021)
    visitor = APIClient()
    visitor.post("/api/garage", {"vehicle": mt07.pk}, format="json")
    visitor.post("/api/garage", {"vehicle": mt09.pk}, format="json")
    for _ in range(VISITOR_WRITES - 3):
        assert visitor.put("/api/garage", {"active": mt07.pk}, format="json").status_code == 200
    assert visitor.delete(f"/api/garage/{mt09.pk}").status_code == 200

    for refused in (
        visitor.post("/api/garage", {"vehicle": mt09.pk}, format="json"),
        visitor.put("/api/garage", {"active": mt07.pk}, format="json"),
        visitor.delete(f"/api/garage/{mt07.pk}"),
    ):
        assert refused.status_code == 429
        assert THROTTLED.match(refused.json()["detail"])

    assert visitor.get("/api/garage").json()["vehicles"] == [shape(mt07)]  # reading is free
    elsewhere = APIClient(REMOTE_ADDR="203.0.113.9")
    assert elsewhere.post("/api/garage", {"vehicle": mt09.pk}, format="json").status_code == 200


def test_an_account_is_not_limited_by_the_visitors_limit(user):
    mt07 = bike()
    account = bearer_client(user)
    for _ in range(VISITOR_WRITES + 5):
        assert account.post("/api/garage", {"vehicle": mt07.pk}, format="json").status_code == 200
