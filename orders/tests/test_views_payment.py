"""The payment page: owner only, the order's summary, and the card form only when it can pay."""

import pytest

from core.tests.islands import island_props, island_script, page_text
from orders import payments
from orders.tests.factories import BookingFactory
from tests import stripe_fake

pytestmark = pytest.mark.django_db

NOT_FOUND = "WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND"
STRIPE_JS = "https://stripe.test/js.stripe.com/v3/"


def url(booking) -> str:
    return f"/dashboard/payment/{booking.pk}"


@pytest.fixture
def keys(settings):
    """Stripe keys set (no request reaches Stripe while the page renders)."""
    settings.STRIPE_SECRET_KEY = stripe_fake.SECRET_KEY
    settings.STRIPE_PUBLISHABLE_KEY = stripe_fake.PUBLISHABLE_KEY
    settings.STRIPE_JS_URL = STRIPE_JS


@pytest.fixture
def no_keys(settings):
    settings.STRIPE_SECRET_KEY = ""
    settings.STRIPE_PUBLISHABLE_KEY = ""


@pytest.fixture
def order(user):
    return BookingFactory(
        user=user, parts_name="Chain kit", price_per_unit="24.50", quantity=3, total_price="73.50"
    )


def test_the_owner_sees_the_greeting_the_order_and_the_card_form(
    client, keys, user, order, as_user
):
    user.name = "Rosa Rider"
    user.save()
    client.force_login(user)
    response = client.get(url(order))
    assert response.status_code == 200
    text = page_text(response)
    for words in [
        "Hello, Rosa Rider",
        "Please pay for Chain kit",
        "Quantity: 3",
        "Please pay: $73.50",
    ]:
        assert words in text
    assert island_props(response, "payment") == {
        "booking": as_user.get(f"/api/booking/{order.pk}").json(),
        "user": {"name": "Rosa Rider", "email": user.email},
        "publishableKey": stripe_fake.PUBLISHABLE_KEY,
    }
    assert payments.NOT_CONFIGURED not in text


def test_stripe_js_loads_with_a_plain_script_before_the_island(client, keys, user, order):
    client.force_login(user)
    html = client.get(url(order)).content.decode()
    stripe_tag = f'<script src="{STRIPE_JS}"></script>'
    assert html.count(stripe_tag) == 1
    assert html.count(island_script("payment")) == 1
    assert html.index(stripe_tag) < html.index(island_script("payment"))


def test_a_trailing_slash_works_too(client, keys, user, order):
    client.force_login(user)
    assert client.get(f"{url(order)}/").status_code == 200


def test_someone_elses_order_is_the_404_page(client, keys, other_user, order):
    client.force_login(other_user)
    response = client.get(url(order))
    assert response.status_code == 404
    assert NOT_FOUND in page_text(response)
    assert "Chain kit" not in page_text(response)


def test_an_unknown_order_is_the_404_page(client, keys, user):
    client.force_login(user)
    for pk in [987654, 10**30]:
        response = client.get(f"/dashboard/payment/{pk}")
        assert response.status_code == 404
        assert NOT_FOUND in page_text(response)


def test_visitors_go_to_login_remembering_the_page(client, keys, order):
    response = client.get(url(order))
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={url(order)}"


def test_a_paid_order_shows_its_transaction_and_no_card_form(client, keys, user):
    paid = BookingFactory(
        user=user, parts_name="Oil filter", paid_order=True, transaction_id="pi_9"
    )
    client.force_login(user)
    response = client.get(url(paid))
    html = response.content.decode()
    text = page_text(response)
    assert f"Order #{paid.pk} is paid." in text
    assert (
        f'<a href="/dashboard/orders/{paid.pk}" class="link link-primary">View Order #{paid.pk}</a>'
        in html
    )
    assert "Oil filter" in text
    assert "Please pay" not in text  # it is paid
    assert "This order is already paid." in text
    assert "Your transaction Id: pi_9" in text
    assert 'href="/dashboard/myorder"' in html
    assert 'data-island="payment"' not in html
    assert island_script("payment") not in html
    assert STRIPE_JS not in html


def test_without_stripe_keys_the_page_says_payments_are_not_configured(
    client, no_keys, user, order
):
    client.force_login(user)
    response = client.get(url(order))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Card payments are not configured on this shop." in page_text(response)
    assert "Please pay for Chain kit" in page_text(response)
    assert 'data-island="payment"' not in html
    assert island_script("payment") not in html
    assert "js.stripe.com" not in html


def test_the_page_loads_no_other_island(client, keys, user, order):
    client.force_login(user)
    html = client.get(url(order)).content.decode()
    for other in ["my-orders", "manage-orders", "purchase-form"]:
        assert island_script(other) not in html
