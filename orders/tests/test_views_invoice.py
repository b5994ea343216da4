"""An order's invoice, /dashboard/orders/{id}/invoice: what it shows as a person reads it,
who may see it (its owner and shop admins, a paid order only), and the order page's link."""

import re

import pytest
from django.utils import timezone

from core.tests.islands import page_text
from orders import services
from orders.models import Booking
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db

NOT_FOUND = "WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND"
SHIP_TO = {
    "fullName": "Jane Rider",
    "line1": "1 Main St",
    "line2": "Apt 2",
    "city": "Springfield",
    "region": "IL",
    "postcode": "62701",
    "country": "US",
    "phone": "+12175550100",
}


def url(booking) -> str:
    return f"/dashboard/orders/{booking.pk}/invoice"


def paid(booking) -> Booking:
    assert services.booking_mark_paid(booking_id=booking.pk, transaction_id=f"pi_{booking.pk}")
    return Booking.objects.get(pk=booking.pk)


@pytest.fixture
def seller(settings):
    settings.SHOP_LEGAL_NAME = "Throttle & Gear Ltd"
    settings.SHOP_ADDRESS = "1 Harbour Way\nLeeds LS1 1AA\nUnited Kingdom"
    settings.SHOP_TAX_ID = "GB123456789"


@pytest.fixture
def order(user):
    return BookingFactory(
        user=user,
        email="jane@example.com",
        name="Jane Rider",
        parts_name="Chain kit",
        price_per_unit="649.00",
        quantity=2,
        total_price="1298.00",
        subtotal="1298.00",
        discount="14.99",
        voucher_code="WINTER",
        shipping_method="Express",
        shipping_price="14.99",
        tax="216.33",
        tax_included=True,
        ship_to=SHIP_TO,
        address="Jane Rider, 1 Main St, Apt 2, Springfield, IL 62701, United States of America",
        phone="+12175550100",
    )


def test_the_owner_sees_the_invoice_as_a_person_reads_it(client, seller, user, order):
    booking = paid(order)
    client.force_login(user)

    response = client.get(url(booking))

    assert response.status_code == 200
    text = page_text(response)
    assert re.fullmatch(r"INV-\d{4}-\d{6}", booking.invoice_number)
    today = timezone.localdate().strftime("%-d %B %Y")
    for shown in (
        f"Invoice {booking.invoice_number}",
        f"Order #{booking.pk}",
        f"Date paid {today}",
        "Throttle & Gear Ltd 1 Harbour Way Leeds LS1 1AA United Kingdom Tax ID: GB123456789",
        "Billed to Jane Rider jane@example.com",
        "Ship to Jane Rider 1 Main St Apt 2 Springfield, IL 62701 United States of America "
        "Phone: +12175550100",
        "Chain kit $649.00 2 $1,298.00",
        "Subtotal $1,298.00 Discount (WINTER) -$14.99 Shipping Express: $14.99 "
        "Tax Includes $216.33 tax Total $1,298.00",
    ):
        assert shown in text
    assert "Refunded" not in text
    back = f'<a href="/dashboard/orders/{booking.pk}" class="btn btn-ghost btn-sm">'
    assert f"{back}Back to Order #{booking.pk}</a>" in response.content.decode()


def test_the_seller_is_the_shops_name_when_nothing_else_is_set(client, settings, user, order):
    settings.SHOP_LEGAL_NAME = settings.SHOP_NAME  # the default (shop.settings.orders)
    settings.SHOP_ADDRESS = ""
    settings.SHOP_TAX_ID = ""
    client.force_login(user)

    text = page_text(client.get(url(paid(order))))

    assert f"{settings.SHOP_NAME} Billed to" in text
    assert "Tax ID" not in text


def test_a_free_text_address_is_where_it_ships(client, user):
    booking = paid(BookingFactory(user=user, address="7 Fell Road, Kendal", phone="5550100"))
    client.force_login(user)

    text = page_text(client.get(url(booking)))

    assert "Ship to 7 Fell Road, Kendal Phone: 5550100" in text


def test_tax_added_to_prices_is_its_own_figure(client, user, order):
    Booking.objects.filter(pk=order.pk).update(tax_included=False, total_price="1514.33")
    client.force_login(user)

    text = page_text(client.get(url(paid(order))))

    assert "Tax $216.33 Total $1,514.33" in text


def test_a_refunded_order_keeps_its_invoice_and_says_when_it_was_refunded(client, user, order):
    booking = paid(order)
    services.booking_refund(booking=booking, outside_stripe=True)
    client.force_login(user)

    text = page_text(client.get(url(booking)))

    assert f"Invoice {booking.invoice_number}" in text
    assert f"Refunded on {timezone.localdate().strftime('%-d %B %Y')}." in text


def test_a_shop_admin_sees_any_invoice(client, admin_user, order):
    booking = paid(order)
    client.force_login(admin_user)

    response = client.get(url(booking))

    assert response.status_code == 200
    assert f"Invoice {booking.invoice_number}" in page_text(response)


@pytest.mark.parametrize("whose", ["other", "missing"])
def test_another_user_and_an_unknown_order_get_the_404_page(client, other_user, order, whose):
    booking = paid(order)
    client.force_login(other_user)
    target = url(booking) if whose == "other" else "/dashboard/orders/987654/invoice"

    response = client.get(target)

    assert response.status_code == 404
    text = page_text(response)
    assert NOT_FOUND in text
    assert "Chain kit" not in text and booking.invoice_number not in text


@pytest.mark.parametrize("who", ["owner", "admin"])
def test_an_unpaid_order_has_no_invoice(client, user, admin_user, order, who):
    client.force_login(user if who == "owner" else admin_user)

    response = client.get(url(order))

    assert response.status_code == 404
    assert NOT_FOUND in page_text(response)


def test_visitors_go_to_login(client, order):
    booking = paid(order)
    response = client.get(url(booking))
    assert (response.status_code, response["Location"]) == (302, f"/login?next={url(booking)}")


def test_the_order_page_links_the_invoice_once_paid(client, user, order):
    client.force_login(user)
    unpaid = client.get(f"/dashboard/orders/{order.pk}").content.decode()
    assert url(order) not in unpaid

    booking = paid(order)
    page = client.get(f"/dashboard/orders/{order.pk}")

    assert (
        f'<a href="{url(booking)}" class="link link-primary">Invoice</a>' in page.content.decode()
    )
    assert f"Invoice {booking.invoice_number}" in page_text(page)


def test_on_paper_only_the_invoice_is_printed(client, user, order):
    """The site's navbar and footer and the page's buttons are hidden when printed (Tailwind's
    print:hidden; the browser test tests/e2e/test_invoice.py prints it)."""
    client.force_login(user)

    html = client.get(url(paid(order))).content.decode()

    assert re.search(r'<header class="navbar print:hidden', html)
    assert re.search(r'<footer class="print:hidden', html)
    assert re.search(r'<div class="[^"]*print:hidden[^"]*">\s*<button[^>]*data-print>Print', html)
