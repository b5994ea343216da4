"""Guest checkout (API.md "After the sale", "Guest checkout"): a visitor's POST /api/checkout
with an e-mail places a guest's order that belongs to its private key; the order's endpoints
answer only to that key (`?key=…`), the account that placed it, or a shop admin; the caps
count per e-mail, THROTTLE_GUEST_ORDERS per client address."""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from post_office.models import Email
from rest_framework.test import APIClient

from catalog.models import Part
from catalog.tests.factories import PartFactory
from orders.models import Booking
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import intent_id_of, pay

SHIP_TO = {
    "fullName": "Ann Rider",
    "line1": "12 Harbour Road",
    "city": "Leeds",
    "postcode": "LS1 4AB",
    "country": "GB",
    "phone": "+441130000000",
}
WHERE = {"address": "12 Harbour Road, Leeds", "phone": "+441130000000"}


def visitor(address: str = "10.9.0.1") -> APIClient:
    return APIClient(REMOTE_ADDR=address)


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("20.00"), minimum_order_quantity=1, available_quantity=10)


def fill(client, part, quantity=1):
    response = client.post("/api/cart", {"partId": part.pk, "quantity": quantity}, format="json")
    assert response.status_code == 200, response.content


def check_out(client, part, quantity=1, **payload):
    fill(client, part, quantity)
    body = {"email": "ann@example.com", "shipTo": SHIP_TO, **payload}
    return client.post("/api/checkout", body, format="json")


def guest_order(part, email="ann@example.com", address="10.9.0.1") -> tuple[Booking, str]:
    response = check_out(visitor(address), part, email=email)
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["_id"])
    return booking, booking.guest_key


def stock(part) -> int:
    return Part.objects.values_list("available_quantity", flat=True).get(pk=part.pk)


# Placing


def test_a_visitor_places_a_guests_order_that_belongs_to_its_private_key(part):
    client = visitor()
    response = check_out(client, part, quantity=2, email="  Ann@Example.COM ")
    assert response.status_code == 201, response.content
    body = response.json()
    booking = Booking.objects.get(pk=body["_id"])
    assert booking.user is None
    assert (booking.email, booking.name) == ("ann@example.com", "Ann Rider")
    assert len(booking.guest_key) >= 22  # token_urlsafe: 6 bits a character, 128 bits or more
    assert body["guestUrl"] == f"/orders/{booking.pk}/{booking.guest_key}"
    assert body["url"] == body["guestUrl"]
    assert body["insertedId"] == booking.pk
    assert (body["state"], body["quantity"], body["email"]) == ("unpaid", 2, "ann@example.com")
    assert stock(part) == 8  # held as any order
    assert client.get("/api/cart").json()["lines"] == []
    [mail] = Email.objects.filter(subject=f"Order #{booking.pk} placed")
    assert mail.to == ["ann@example.com"]
    assert body["guestUrl"] in mail.message and body["guestUrl"] in mail.html_message


def test_the_spec_free_text_address_and_phone_do_too(part):
    fill(client := visitor(), part)
    response = client.post("/api/checkout", {**WHERE, "email": "bob@example.com"}, format="json")
    assert response.status_code == 201, response.content
    assert Booking.objects.get().address == WHERE["address"]


def test_every_guest_order_gets_a_key_of_its_own(part):
    first, first_key = guest_order(part)
    second, second_key = guest_order(part, address="10.9.0.2")
    assert first_key != second_key
    assert len({first_key, second_key}) == 2


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({"email": None}, "email", "Email is required"),
        ({"email": ""}, "email", "Email is required"),
        ({"email": "not-an-address"}, "email", None),
        ({"email": "a" * 300 + "@example.com"}, "email", None),
        ({"addressId": 1, "shipTo": None}, "addressId", "There is no saved address with this id"),
    ],
)
def test_bad_input_is_a_400_on_its_field_and_nothing_is_placed(part, payload, field, message):
    client = visitor()
    fill(client, part)
    body = {"email": "ann@example.com", "shipTo": SHIP_TO, **payload}
    body = {name: value for name, value in body.items() if value is not None}
    response = client.post("/api/checkout", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    if message:
        assert response.json()[field] == [message]
    assert not Booking.objects.exists()
    assert stock(part) == 10


def test_a_bad_ship_to_is_a_400_on_ship_to(part):
    client = visitor()
    fill(client, part)
    response = client.post(
        "/api/checkout",
        {"email": "ann@example.com", "shipTo": {**SHIP_TO, "city": ""}},
        format="json",
    )
    assert response.status_code == 400
    assert "city" in response.json()["shipTo"]


def test_an_accounts_checkout_ignores_an_email_and_has_no_guest_url(as_user, user, part):
    fill(as_user, part)
    response = as_user.post("/api/checkout", {**WHERE, "email": "x@example.com"}, format="json")
    assert response.status_code == 201
    assert "guestUrl" not in response.json()
    booking = Booking.objects.get()
    assert (booking.user, booking.email, booking.guest_key) == (user, user.email, None)


# Limits


def test_max_unpaid_orders_count_per_email_for_guests(settings, part):
    settings.MAX_UNPAID_ORDERS = 2
    guest_order(part, email="ann@example.com", address="10.9.0.1")
    guest_order(part, email="ann@example.com", address="10.9.0.2")
    response = check_out(visitor("10.9.0.3"), part, email="ANN@example.com")
    assert response.status_code == 409
    assert response.json()["detail"] == "You already have 2 unpaid orders: pay or delete one first."
    # Another e-mail from the same address is another shopper.
    assert check_out(visitor("10.9.0.3"), part, email="bob@example.com").status_code == 201


def test_a_paid_guest_order_no_longer_counts(settings, part):
    settings.MAX_UNPAID_ORDERS = 1
    booking, _ = guest_order(part)
    Booking.objects.filter(pk=booking.pk).update(paid=True)
    assert check_out(visitor("10.9.0.5"), part).status_code == 201


def test_fair_holds_count_per_email_for_guests(settings, db):
    settings.MAX_HELD_SHARE = 0.5
    part = PartFactory(price=Decimal("5.00"), minimum_order_quantity=1, available_quantity=10)
    assert check_out(visitor("10.9.1.1"), part, quantity=5).status_code == 201
    # The same e-mail from another address: its holds are counted together (5 of 10 held).
    refused = check_out(visitor("10.9.1.2"), part, quantity=1)
    assert refused.status_code == 409
    assert refused.json()["partId"] == part.pk
    assert "hold at most" in refused.json()["detail"]
    # Another e-mail has its own share.
    assert (
        check_out(visitor("10.9.1.3"), part, quantity=2, email="bob@example.com").status_code == 201
    )


def test_throttle_guest_orders_limits_orders_placed_per_client_address(settings, part):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "guest_orders": "2/hour"},
    }
    client = visitor("10.9.2.1")
    fill(client, part)
    # A form sent back with a mistake does not count.
    assert client.post("/api/checkout", {"shipTo": SHIP_TO}, format="json").status_code == 400
    assert check_out(client, part, email="a@example.com").status_code == 201
    assert check_out(client, part, email="b@example.com").status_code == 201
    refused = check_out(client, part, email="c@example.com")
    assert refused.status_code == 429
    assert "Retry-After" in refused
    # Another address is not limited by this one.
    assert check_out(visitor("10.9.2.2"), part, email="c@example.com").status_code == 201


def test_signed_in_checkouts_are_not_counted_as_guest_orders(settings, user, part):
    from conftest import bearer_client

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "guest_orders": "1/hour"},
    }
    account = bearer_client(user, "10.9.3.1")
    for _ in range(2):
        fill(account, part)
        assert account.post("/api/checkout", WHERE, format="json").status_code == 201
    assert check_out(visitor("10.9.3.1"), part).status_code == 201


# Nothing about a guest's order is readable without its key: every endpoint.


@pytest.fixture
def guest(part):
    return guest_order(part)


def test_get_with_its_key_reads_the_order_with_its_guest_url(guest):
    booking, key = guest
    response = visitor().get(f"/api/booking/{booking.pk}?key={key}")
    assert response.status_code == 200
    assert response.json()["guestUrl"] == f"/orders/{booking.pk}/{key}"


def test_get_without_its_key_reveals_nothing(guest, as_other):
    booking, key = guest
    assert visitor().get(f"/api/booking/{booking.pk}").status_code == 401
    assert as_other.get(f"/api/booking/{booking.pk}").status_code == 404
    for wrong in ("", "x", key[:-1], key + "x", key.upper() if key != key.upper() else "y"):
        assert visitor().get(f"/api/booking/{booking.pk}?key={wrong}").status_code == 404
        assert as_other.get(f"/api/booking/{booking.pk}?key={wrong}").status_code == 404


def test_its_key_opens_no_other_order(guest, part):
    booking, key = guest
    other, _ = guest_order(part, email="bob@example.com", address="10.9.4.4")
    account_order = BookingFactory()
    for pk in (other.pk, account_order.pk, 999_999, 2**63):
        assert visitor().get(f"/api/booking/{pk}?key={key}").status_code == 404


def test_a_wrong_key_and_a_missing_order_cost_what_a_right_key_does(guest):
    """The same statement whatever the key, and whether or not the order is there (then a
    key is compared all the same, in constant time): a wrong key tells nothing by its time;
    only the right one goes on to read the lines."""
    booking, key = guest
    reads = []
    for pk, given in ((booking.pk, key), (booking.pk, "w" * len(key)), (999_999, key)):
        with CaptureQueriesContext(connection) as queries:
            visitor().get(f"/api/booking/{pk}?key={given}")
        statements = [q["sql"] for q in queries if '"orders_booking"' in q["sql"]]
        reads.append([re.sub(r'"id" = (\d+|%s)', '"id" = N', sql) for sql in statements])
    assert reads[0] == reads[1] == reads[2]
    assert len(reads[0]) == 1


def test_a_shop_admin_reads_it_without_the_key_never_with_the_key_shown(guest, as_admin):
    booking, key = guest
    one = as_admin.get(f"/api/booking/{booking.pk}")
    assert one.status_code == 200
    assert "guestUrl" not in one.json()
    assert key not in one.content.decode()
    everything = as_admin.get("/api/bookings")
    assert everything.status_code == 200
    assert key not in everything.content.decode()
    assert key not in as_admin.get("/api/bookings.csv").getvalue().decode()
    assert key not in as_admin.get("/dashboard/manageorders").content.decode()


def test_put_and_delete_take_no_key(guest, as_other):
    booking, key = guest
    client = visitor()
    assert (
        client.put(f"/api/booking/{booking.pk}?key={key}", {"status": "approved"}).status_code
        == 404
    )
    assert client.delete(f"/api/booking/{booking.pk}?key={key}").status_code == 404
    assert as_other.delete(f"/api/booking/{booking.pk}").status_code == 404
    assert as_other.put(f"/api/booking/{booking.pk}", {"status": "approved"}).status_code == 403
    assert Booking.objects.filter(pk=booking.pk).exists()


def test_refund_is_a_shop_admins_whatever_the_key(guest, as_other):
    booking, key = guest
    # The same answer for this order as for one that does not exist: nothing revealed.
    for pk in (booking.pk, 999_999):
        assert visitor().post(f"/api/booking/{pk}/refund?key={key}").status_code == 401
        assert as_other.post(f"/api/booking/{pk}/refund?key={key}").status_code == 403


def test_payment_intent_takes_the_key(stripe_on, guest, as_other):
    booking, key = guest
    path = "/api/create-payment-intent"
    assert visitor().post(path, {"booking": booking.pk}, format="json").status_code == 401
    assert as_other.post(path, {"booking": booking.pk}, format="json").status_code == 404
    wrong = visitor().post(f"{path}?key=nope", {"booking": booking.pk}, format="json")
    assert wrong.status_code == 404
    right = visitor().post(f"{path}?key={key}", {"booking": booking.pk}, format="json")
    assert right.status_code == 200, right.content
    assert right.json()["clientSecret"]


def test_a_guest_pays_by_its_key(stripe_on, guest):
    booking, key = guest
    client = visitor()
    secret = client.post(
        f"/api/create-payment-intent?key={key}", {"booking": booking.pk}, format="json"
    ).json()["clientSecret"]
    intent_id = intent_id_of(secret)
    pay(intent_id)
    path = f"/api/booking/{booking.pk}"
    assert client.patch(path, {"transactionId": intent_id}, format="json").status_code == 401
    assert (
        client.patch(f"{path}?key=x", {"transactionId": intent_id}, format="json").status_code
        == 404
    )
    paid = client.patch(f"{path}?key={key}", {"transactionId": intent_id}, format="json")
    assert paid.status_code == 200, paid.content
    assert (paid.json()["paid"], paid.json()["state"]) == (True, "pending")
    assert paid.json()["guestUrl"] == f"/orders/{booking.pk}/{key}"
    booking.refresh_from_db()
    assert booking.paid and booking.invoice_number


def test_payment_calls_bad_input_is_a_400_on_its_field(stripe_on, guest):
    booking, key = guest
    client = visitor()
    response = client.post(f"/api/create-payment-intent?key={key}", {}, format="json")
    assert (response.status_code, list(response.json())) == (400, ["booking"])
    response = client.patch(f"/api/booking/{booking.pk}?key={key}", {}, format="json")
    assert (response.status_code, list(response.json())) == (400, ["transactionId"])


def test_a_guests_order_is_in_no_accounts_list(guest, as_user):
    booking, _ = guest
    assert booking.pk not in [b["_id"] for b in as_user.get("/api/booking").json()]


def test_a_guests_payment_calls_are_limited_per_client_address(stripe_on, settings, guest):
    booking, key = guest
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "payments": "2/minute"},
    }
    path = f"/api/create-payment-intent?key={key}"
    client = visitor("10.9.5.1")
    for _ in range(2):
        assert client.post(path, {"booking": booking.pk}, format="json").status_code == 200
    assert client.post(path, {"booking": booking.pk}, format="json").status_code == 429
    # Not one count for every visitor: another address is not limited by this one.
    other = visitor("10.9.5.2").post(path, {"booking": booking.pk}, format="json")
    assert other.status_code == 200
