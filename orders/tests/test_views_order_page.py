"""The order page /dashboard/orders/{id}, and Pay offered only where it applies."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from catalog.tests.factories import PartFactory
from core.tests.islands import island_props, page_text
from core.tests.pages import toasts
from orders import services
from orders.models import Booking
from orders.serializers import NOTE_REQUIRED
from orders.tests.factories import BookingFactory
from orders.views import NOTE_ADDED

pytestmark = pytest.mark.django_db


def url(booking) -> str:
    return f"/dashboard/orders/{booking.pk}"


@pytest.fixture
def order(user):
    return BookingFactory(
        user=user,
        parts_name="Chain kit",
        quantity=2,
        total_price="1298.00",
        address="7 Fell Road",
        phone="5550100",
        expires_at=timezone.now() + timedelta(minutes=29, seconds=30),
    )


def test_the_owner_sees_the_order_with_the_time_to_pay(client, stripe_on, user, order):
    client.force_login(user)
    response = client.get(url(order))
    assert response.status_code == 200
    text = page_text(response)
    for shown in (f"Order #{order.pk}", "Chain kit", "$1,298.00", "7 Fell Road", "5550100"):
        assert shown in text
    assert "Unpaid" in text
    assert "Pay within 30 minutes" in text
    props = island_props(response, "order-actions")
    assert props["payUrl"] == f"/dashboard/payment/{order.pk}"
    assert props["order"]["url"] == url(order)


def test_the_page_shows_the_breakdown(client, user, order):
    Booking.objects.filter(pk=order.pk).update(
        subtotal="1300.00",
        discount="16.99",
        voucher_code="WINTER",
        shipping_method="Express",
        shipping_price="14.99",
        tax="207.55",
    )
    client.force_login(user)
    text = page_text(client.get(url(order)))
    for shown in (
        "Subtotal $1,300.00",
        "Discount (WINTER) -$16.99",
        "Shipping Express: $14.99",
        "Tax Includes $207.55 tax",
        "Total $1,298.00",
    ):
        assert shown in text


def test_free_shipping_and_tax_added_read_so(client, user, order):
    Booking.objects.filter(pk=order.pk).update(
        shipping_method="Standard", tax="12.00", tax_included=False
    )
    client.force_login(user)
    text = page_text(client.get(url(order)))
    assert "Shipping Standard: Free" in text
    assert "Tax $12.00" in text
    assert "Discount" not in text


def test_an_admin_sees_it_without_a_pay_button(client, stripe_on, admin_user, order):
    client.force_login(admin_user)
    response = client.get(url(order))
    assert response.status_code == 200
    assert island_props(response, "order-actions")["payUrl"] is None


@pytest.mark.parametrize("whose", ["other", "missing"])
def test_others_and_missing_orders_are_the_404_page(client, other_user, order, whose):
    client.force_login(other_user)
    target = url(order) if whose == "other" else "/dashboard/orders/987654"
    response = client.get(target)
    assert response.status_code == 404
    assert "Chain kit" not in response.content.decode()


def test_visitors_go_to_login(client, order):
    response = client.get(url(order))
    assert (response.status_code, response["Location"]) == (302, f"/login?next={url(order)}")


def test_an_expired_order_says_so_and_offers_no_pay(client, stripe_on, user, order):
    Booking.objects.filter(pk=order.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(user)
    response = client.get(url(order))
    text = page_text(response)
    assert "Expired" in text
    assert "Pay within" not in text
    props = island_props(response, "order-actions")
    assert (props["order"]["state"], props["payUrl"]) == ("expired", None)
    assert island_props(client.get("/dashboard/myorder"), "my-orders")["payUrls"] == {}


@pytest.mark.parametrize(("kind", "label"), [("paid_order", "Pending"), ("shipped", "Shipped")])
def test_paid_orders_show_their_state_and_no_time_to_pay(client, user, kind, label):
    booking = BookingFactory(user=user, **{kind: True})
    client.force_login(user)
    text = page_text(client.get(url(booking)))
    assert label in text
    assert "Pay within" not in text


def test_without_card_payments_no_pay_button_is_offered(client, settings, user, order):
    settings.STRIPE_SECRET_KEY = settings.STRIPE_PUBLISHABLE_KEY = ""
    client.force_login(user)
    assert island_props(client.get(url(order)), "order-actions")["payUrl"] is None
    assert island_props(client.get("/dashboard/myorder"), "my-orders")["payUrls"] == {}


def test_my_order_offers_pay_when_card_payments_are_on(client, stripe_on, user, order):
    client.force_login(user)
    paid = BookingFactory(user=user, paid_order=True)
    props = island_props(client.get("/dashboard/myorder"), "my-orders")
    assert props["payUrls"] == {str(order.pk): f"/dashboard/payment/{order.pk}"}
    assert [o["_id"] for o in props["orders"]] == [paid.pk, order.pk]
    assert props["orders"][1]["url"] == url(order)


def test_a_shipped_order_shows_its_carrier_and_tracking_link(client, user):
    booking = BookingFactory(user=user, paid_order=True)
    services.booking_approve(booking=booking, carrier="fedex", tracking_number="123456789012")
    client.force_login(user)

    response = client.get(url(booking))

    assert "Shipped with FedEx, tracking 123456789012" in page_text(response)
    assert 'href="https://www.fedex.com/fedextrack/?trknbr=123456789012"' in (
        response.content.decode()
    )


NEXT = "What happens next We are packing your order. We will e-mail you when it ships."


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"paid_order": True}, True),
        ({"shipped": True}, False),
        ({"paid_order": True, "refunded_at": timezone.now()}, False),
        ({}, False),  # unpaid
    ],
)
def test_a_paid_order_not_yet_shipped_says_what_happens_next(client, user, fields, said):
    booking = BookingFactory(user=user, **fields)
    client.force_login(user)
    assert (NEXT in page_text(client.get(url(booking)))) is said


def test_the_order_page_shows_its_timeline_and_no_internal_note_to_its_owner(
    client, user, admin_user
):
    booking = services.booking_place(
        user=user,
        part=PartFactory(price=Decimal("15.00"), minimum_order_quantity=1),
        quantity=1,
        address="a",
        phone="12345",
    )
    services.booking_note_add(booking=booking, text="Ships Monday.", internal=False, by=admin_user)
    services.booking_note_add(booking=booking, text="Fraud check OK", internal=True, by=admin_user)
    client.force_login(user)
    text = page_text(client.get(url(booking)))
    assert "Timeline" in text
    assert "Order placed ($15.00)" in text
    assert "Note from the shop: Ships Monday." in text
    assert "Fraud check OK" not in text
    assert "Add note" not in text


def test_an_admin_adds_a_note_from_the_order_page(client, user, admin_user):
    booking = BookingFactory(user=user)
    client.force_login(admin_user)
    assert "Add note" in page_text(client.get(url(booking)))
    response = client.post(f"{url(booking)}/notes", {"text": "Fraud check OK", "internal": "true"})
    assert (response.status_code, response["Location"]) == (302, url(booking))
    page = client.get(url(booking))
    assert toasts(page) == [NOTE_ADDED] == ["Note added."]
    assert "Internal Fraud check OK" in page_text(page)
    client.force_login(user)
    assert "Fraud check OK" not in page_text(client.get(url(booking)))


def test_an_empty_note_is_refused_with_its_message(client, admin_user):
    booking = BookingFactory()
    client.force_login(admin_user)
    response = client.post(f"{url(booking)}/notes", {"text": "  "}, follow=True)
    assert toasts(response) == [NOTE_REQUIRED] == ["Write the note"]
    assert Booking.objects.get(pk=booking.pk).events == []
