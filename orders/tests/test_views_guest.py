"""A guest's order's pages (BEYOND.md "After the sale", "Guest orders"): /orders/{id}/{key}
shows the order and pays it, its invoice; nothing of it without its key, on every page; and
"Find my order" (/orders/find), which answers one sentence whatever matched."""

import pytest
from post_office.models import Email

from core.tests.islands import island_props, page_text
from orders import payments
from orders.guest_views import FIND_ANSWER
from orders.models import Booking
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def order(db):
    return BookingFactory(guest=True, parts_name="Chain kit", address="7 Fell Road")


def page(order, key=None) -> str:
    return f"/orders/{order.pk}/{key or order.guest_key}"


def private(response) -> bool:
    cache = {item.strip() for item in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= cache


def test_its_page_shows_the_order_and_its_card_form(client, stripe_on, order):
    response = client.get(page(order))
    assert response.status_code == 200
    text = page_text(response)
    for shown in (f"Order #{order.pk}", "Chain kit", "7 Fell Road", "Unpaid", "Pay within"):
        assert shown in text
    props = island_props(response, "payment")
    assert props["guestKey"] == order.guest_key
    assert props["embedded"] is True
    assert props["booking"]["guestUrl"] == page(order)
    assert props["user"] == {"name": "Ann Rider", "email": "ann@example.com"}
    assert "Back to My Order" not in text  # a guest has no account's pages
    assert private(response)
    # Stripe.js may load here, as on the payment page.
    policy = response["Content-Security-Policy"]
    assert stripe_on.js_url.split("/")[2] in policy.split("script-src")[1].split(";")[0]


def test_without_card_payments_the_page_says_so(client, order):
    response = client.get(page(order))
    assert 'data-island="payment"' not in response.content.decode()
    assert payments.NOT_CONFIGURED in page_text(response)


def test_a_paid_order_shows_its_invoice_link_and_no_card_form(client, stripe_on):
    order = BookingFactory(guest=True, paid_order=True)
    response = client.get(page(order))
    assert 'data-island="payment"' not in response.content.decode()
    assert f'href="{page(order)}/invoice"' in response.content.decode()
    invoice = client.get(f"{page(order)}/invoice")
    assert invoice.status_code == 200
    assert order.invoice_number in page_text(invoice)
    assert private(invoice)


@pytest.mark.parametrize("suffix", ["", "/invoice"])
def test_a_wrong_key_or_another_order_is_a_404(client, suffix):
    order = BookingFactory(guest=True, paid_order=True)
    other = BookingFactory(guest=True, paid_order=True, email="bob@example.com")
    account_order = BookingFactory(paid_order=True)
    key = order.guest_key
    for path in (
        f"/orders/{order.pk}/{key[:-1]}",
        f"/orders/{order.pk}/{key}x",
        f"/orders/{order.pk}/{other.guest_key}",
        f"/orders/{other.pk}/{key}",
        f"/orders/{account_order.pk}/{key}",
        f"/orders/{account_order.pk}/None",
        f"/orders/999999/{key}",
    ):
        assert client.get(path + suffix).status_code == 404, path


def test_an_unpaid_orders_invoice_is_a_404(client, order):
    assert client.get(f"{page(order)}/invoice").status_code == 404


def test_the_account_pages_of_its_order_show_nothing_without_the_key(client, order, other_user):
    order.paid = True
    # The dashboard's routes: a visitor is sent to sign in; another account gets 404.
    for path in (
        f"/dashboard/orders/{order.pk}",
        f"/dashboard/payment/{order.pk}",
        f"/dashboard/orders/{order.pk}/invoice",
    ):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/login")
    client.force_login(other_user)
    for path in (f"/dashboard/orders/{order.pk}", f"/dashboard/payment/{order.pk}"):
        assert client.get(path).status_code == 404, path


def test_a_shop_admins_order_page_shows_it_without_the_key(client, admin_user, order):
    client.force_login(admin_user)
    response = client.get(f"/dashboard/orders/{order.pk}")
    assert response.status_code == 200
    assert order.guest_key not in response.content.decode()


# Find my order


def find(client, **data):
    return client.post("/orders/find", {"order": "", "email": "", **data})


def test_find_my_order_is_linked_from_the_footer_and_the_sign_in_page(client):
    assert 'href="/orders/find"' in client.get("/login").content.decode()
    assert 'href="/orders/find"' in client.get("/cart").content.decode()
    form = client.get("/orders/find")
    assert form.status_code == 200
    assert "Order number" in page_text(form) and "E-mail" in page_text(form)


def test_a_match_mails_its_link_again(client, order):
    response = find(client, order=f"#{order.pk}", email=" ANN@example.com")
    assert response.status_code == 200
    assert FIND_ANSWER in page_text(response)
    [mail] = Email.objects.filter(subject=f"Order #{order.pk}: your link to it")
    assert mail.to == ["ann@example.com"]
    assert page(order) in mail.message and page(order) in mail.html_message


@pytest.mark.parametrize("wrong", ["number", "email", "account"])
def test_no_match_answers_the_same_sentence_and_mails_nothing(client, order, wrong):
    account_order = BookingFactory()
    number, email = order.pk, "ann@example.com"
    if wrong == "number":
        number = 999_999
    elif wrong == "email":
        email = "bob@example.com"
    else:  # an account's order has no guest's link
        number, email = account_order.pk, account_order.email
    matched = find(client, order=str(order.pk), email="ann@example.com")
    Email.objects.all().delete()
    response = find(client, order=str(number), email=email)
    assert response.status_code == 200
    assert page_text(response) == page_text(matched)
    assert not Email.objects.exists()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"email": "ann@example.com"}, "order"),
        ({"order": "abc", "email": "ann@example.com"}, "order"),
        ({"order": "99999999999999999999", "email": "ann@example.com"}, "order"),
        ({"order": "1"}, "email"),
        ({"order": "1", "email": "nope"}, "email"),
    ],
)
def test_bad_input_is_a_400_with_its_fields_message(client, data, field):
    response = find(client, **data)
    assert response.status_code == 400
    html = response.content.decode()
    assert f'id="find-{field}-error"' in html
    assert FIND_ANSWER not in page_text(response)
    assert not Email.objects.exists()


def test_find_my_order_is_limited_per_client_address(client, settings, order):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "guest_orders": "2/hour"},
    }
    for _ in range(2):
        assert find(client, order=str(order.pk), email="ann@example.com").status_code == 200
    refused = find(client, order=str(order.pk), email="ann@example.com")
    assert refused.status_code == 429
    assert "Retry-After" in refused
    assert Email.objects.count() == 2
    assert Booking.objects.count() == 1


def test_its_page_and_its_key_show_the_timeline_without_internal_notes(client, order, admin_user):
    from orders import services

    services.booking_note_add(booking=order, text="Packed with care", internal=False, by=admin_user)
    services.booking_note_add(booking=order, text="Ask about fraud", internal=True, by=admin_user)
    text = page_text(client.get(page(order)))
    assert "Timeline" in text and "Packed with care" in text
    assert "Ask about fraud" not in text
    answer = client.get(f"/api/booking/{order.pk}?key={order.guest_key}").content.decode()
    assert "Packed with care" in answer and "Ask about fraud" not in answer
