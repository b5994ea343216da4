"""The pages of "Email me when it's back": the form on an out-of-stock part's page (and the
cards' link to it), its POST, the visitor's confirmation page and Manage Parts' "N waiting"."""

import pytest
from django.test import Client

from catalog import alerts, stock
from catalog.models import StockAlert
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def sold_out():
    return PartFactory(name="Clutch lever", available_quantity=0, minimum_order_quantity=1)


def said(response) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages]


def test_an_out_of_stock_part_page_offers_the_form_with_an_email_field(client, sold_out):
    page = client.get(sold_out.get_absolute_url()).content.decode()

    assert f'action="/parts/{sold_out.pk}/alerts"' in page
    assert '<label for="alert-email" class="text-sm font-medium">Email</label>' in page
    assert ">Email me when it's back</button>" in page
    assert "csrfmiddlewaretoken" not in page  # kept for every visitor


def test_the_visitors_page_with_the_form_is_still_kept(client, sold_out):
    assert client.get(sold_out.get_absolute_url()).templates
    assert not client.get(sold_out.get_absolute_url()).templates


def test_a_signed_in_riders_form_has_no_email_field_and_shows_no_address(client, user, sold_out):
    client.force_login(user)

    page = client.get(sold_out.get_absolute_url()).content.decode()

    assert f'action="/parts/{sold_out.pk}/alerts"' in page
    assert 'name="email"' not in page
    assert "csrfmiddlewaretoken" in page
    body = page.split('id="main"')[1]
    assert user.email not in body


def test_a_part_in_stock_offers_no_form(client):
    part = PartFactory(available_quantity=5, minimum_order_quantity=2)

    page = client.get(part.get_absolute_url()).content.decode()

    assert "/alerts" not in page


def test_the_cards_link_an_out_of_stock_part_to_the_form(client, sold_out):
    PartFactory(name="In stock", available_quantity=5)

    page = client.get("/allparts").content.decode()

    assert page.count("Email me when it's back") == 1
    assert f'href="/parts/{sold_out.pk}#back-in-stock"' in page


def test_a_visitor_asks_and_is_told_to_check_their_mail(client, sold_out):
    response = client.post(f"/parts/{sold_out.pk}/alerts", {"email": "v@example.com"})

    assert response.status_code == 302
    assert response["Location"] == f"/parts/{sold_out.pk}#back-in-stock"
    assert said(response) == ["Check your e-mail to confirm the alert."]
    assert not StockAlert.objects.get().is_live
    follow = client.get(sold_out.get_absolute_url()).content.decode()
    assert "Check your e-mail to confirm the alert." in follow


def test_a_signed_in_rider_asks_and_the_alert_is_live(client, user, sold_out):
    client.force_login(user)

    response = client.post(f"/parts/{sold_out.pk}/alerts")

    assert response.status_code == 302
    assert said(response) == ["We will e-mail you when it is back."]
    assert StockAlert.objects.get().email == user.email


def test_a_signed_in_riders_post_needs_the_csrf_token(user, sold_out):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    assert client.post(f"/parts/{sold_out.pk}/alerts").status_code == 403
    assert not StockAlert.objects.exists()


def test_a_visitors_post_needs_no_token(sold_out):
    client = Client(enforce_csrf_checks=True)

    response = client.post(f"/parts/{sold_out.pk}/alerts", {"email": "v@example.com"})

    assert response.status_code == 302
    assert StockAlert.objects.count() == 1


@pytest.mark.parametrize(
    ("email", "message"),
    [("", "Email: This field is required."), ("nope", "Email: Enter a valid email address.")],
)
def test_a_bad_email_goes_back_with_its_message(client, sold_out, email, message):
    response = client.post(f"/parts/{sold_out.pk}/alerts", {"email": email})

    assert (response.status_code, said(response)) == (302, [message])
    assert not StockAlert.objects.exists()


def test_a_part_in_stock_goes_back_saying_so(client, user):
    part = PartFactory(available_quantity=5, minimum_order_quantity=1)
    client.force_login(user)

    response = client.post(f"/parts/{part.pk}/alerts")

    assert said(response) == [alerts.IN_STOCK]


def test_an_unknown_part_is_not_found(client):
    assert client.post("/parts/987654/alerts", {"email": "v@example.com"}).status_code == 404


def test_the_page_form_counts_toward_throttle_alerts(settings, client, sold_out):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "alerts": "1/hour"},
    }
    client.post(f"/parts/{sold_out.pk}/alerts", {"email": "v@example.com"})

    response = client.post(f"/parts/{sold_out.pk}/alerts", {"email": "w@example.com"})

    assert said(response)[-1] == (
        "Too many alerts asked from your address in a short time. Please try again later."
    )
    assert StockAlert.objects.count() == 1


def test_opening_the_mailed_link_starts_the_alert(client, sold_out):
    alert = alerts.stock_alert_ask(part_id=sold_out.pk, email="v@example.com")

    response = client.get(f"/alerts/confirm/{alerts.confirm_token(alert)}")

    assert response.status_code == 200
    assert "Alert started" in response.content.decode()
    assert "private" in response["Cache-Control"]
    alert.refresh_from_db()
    assert alert.is_live


@pytest.mark.parametrize("token", ["nonsense", "1:abc:def", "%3Cscript%3E"])
def test_a_bad_link_gets_a_friendly_page(client, token):
    response = client.get(f"/alerts/confirm/{token}")

    assert response.status_code == 200
    assert "This link does not work" in response.content.decode()


def test_manage_parts_shows_how_many_wait(client, admin_user, user, other_user, sold_out):
    for rider in (user, other_user):
        alerts.stock_alert_ask(part_id=sold_out.pk, user=rider)
    alerts.stock_alert_ask(part_id=sold_out.pk, email="pending@example.com")
    client.force_login(admin_user)

    page = client.get("/dashboard/manageparts").content.decode()

    assert page.count("waiting</span>") == 1
    assert ">2 waiting</span>" in page
    stock.stock_adjust(part=sold_out, change=3, by=admin_user)
    assert "waiting</span>" not in client.get("/dashboard/manageparts").content.decode()
