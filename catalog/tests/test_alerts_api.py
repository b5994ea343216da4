"""POST /api/allparts/{id}/alerts: "Email me when it's back" through the API."""

import pytest
from post_office.models import Email
from rest_framework.test import APIClient

from catalog import alerts
from catalog.models import StockAlert
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

STARTED = {"detail": "We will e-mail you when it is back."}


@pytest.fixture
def sold_out():
    return PartFactory(available_quantity=0)


def ask(client, part_id, body=None):
    return client.post(f"/api/allparts/{part_id}/alerts", body or {}, format="json")


def test_a_signed_in_rider_asks_without_an_email(as_user, user, sold_out):
    response = ask(as_user, sold_out.pk)

    assert (response.status_code, response.json()) == (201, STARTED)
    alert = StockAlert.objects.get()
    assert (alert.email, alert.is_live) == (user.email, True)


def test_a_visitor_asks_for_an_email_and_gets_the_link(anon, sold_out):
    response = ask(anon, sold_out.pk, {"email": "Visitor@example.com"})

    assert (response.status_code, response.json()) == (201, STARTED)
    alert = StockAlert.objects.get()
    assert (alert.email, alert.is_live) == ("visitor@example.com", False)
    assert Email.objects.get().to == ["visitor@example.com"]


def test_asking_twice_is_one_alert(anon, sold_out):
    for _ in range(2):
        assert ask(anon, sold_out.pk, {"email": "v@example.com"}).status_code == 201
    assert StockAlert.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "This field is required."),
        ({"email": ""}, "This field may not be blank."),
        ({"email": "not an address"}, "Enter a valid email address."),
        ({"email": ["a@example.com"]}, "Enter a valid email address."),
        ({"email": "a" * 250 + "@example.com"}, "Ensure this field has no more than 254"),
    ],
)
def test_a_visitors_bad_email_is_a_400_on_email(anon, sold_out, body, message):
    response = ask(anon, sold_out.pk, body)

    assert response.status_code == 400
    assert list(response.json()) == ["email"]
    assert response.json()["email"][0].startswith(message)
    assert not StockAlert.objects.exists()


def test_a_part_in_stock_is_a_409(as_user):
    part = PartFactory(available_quantity=5, minimum_order_quantity=2)

    response = ask(as_user, part.pk)

    assert (response.status_code, response.json()) == (409, {"detail": alerts.IN_STOCK})


@pytest.mark.parametrize("part_id", [987654, 2**70])
def test_an_unknown_part_is_a_404(anon, part_id):
    assert ask(anon, part_id, {"email": "v@example.com"}).status_code == 404


def test_the_twenty_first_alert_of_an_address_is_a_400_on_email(settings, anon):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "alerts": "100/hour", "visitor_writes": "100/hour"},
    }
    parts = [PartFactory(available_quantity=0) for _ in range(21)]
    for part in parts[:20]:
        assert ask(anon, part.pk, {"email": "v@example.com"}).status_code == 201

    response = ask(anon, parts[20].pk, {"email": "v@example.com"})

    assert (response.status_code, response.json()) == (400, {"email": [alerts.TOO_MANY]})


@pytest.mark.parametrize("signed_in", [False, True])
def test_throttle_alerts_limits_alerts_asked_per_client_address(
    settings, sold_out, user, signed_in
):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "alerts": "2/hour"},
    }
    client = APIClient()
    if signed_in:
        client.force_authenticate(user)
    for _ in range(2):
        assert ask(client, sold_out.pk, {"email": "v@example.com"}).status_code == 201

    response = ask(client, sold_out.pk, {"email": "v@example.com"})

    assert response.status_code == 429
    assert "Retry-After" in response


def test_the_default_rate_is_twenty_an_hour(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["alerts"] == "20/hour"
