""" "Did it fit your bike?": the shipped mail and the shipped order's page link each part's
review form, the shopper's active bike filled in; no question before the order ships."""

import pytest
from django.test import Client

from catalog.models import GarageBike, Vehicle
from catalog.tests.factories import PartFactory
from core import background
from orders.tests.factories import BookingFactory

SITE = "https://shop.example.test"


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE


def parts(message):
    return (
        message.get_body(("plain",)).get_content(),
        message.get_body(("html",)).get_content(),
    )


@pytest.mark.django_db(transaction=True)
def test_the_shipped_mail_asks_with_a_link_per_part_and_the_bike(mailbox, as_admin):
    part = PartFactory(name="Sintered pads")
    booking = BookingFactory(paid_order=True, part=part)
    mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    GarageBike.objects.create(user=booking.user, vehicle=mt07, active=True)

    assert (
        as_admin.put(
            f"/api/booking/{booking.pk}", {"status": "approved"}, format="json"
        ).status_code
        == 200
    )
    assert background.wait_idle(timeout=20)

    [message] = mailbox
    text, html = parts(message)
    link = f"{SITE}/parts/{part.pk}/review?vehicle={mt07.pk}"
    assert "Did it fit your bike?" in text and "Did it fit your bike?" in html
    assert f"Review Sintered pads: {link}" in text
    assert f'<a href="{link}">Review Sintered pads</a>' in html


@pytest.mark.django_db
def test_the_shipped_orders_page_asks_and_an_unshipped_one_does_not(user):
    part = PartFactory(name="Chain kit")
    shipped = BookingFactory(user=user, part=part, shipped=True)
    paid = BookingFactory(user=user, part=part, paid_order=True)
    client = Client()
    client.force_login(user)
    html = client.get(f"/dashboard/orders/{shipped.pk}").content.decode()
    assert "Did it fit your bike?" in html
    assert f'href="/parts/{part.pk}/review"' in html  # no bike in the garage: none filled in
    assert (
        "Did it fit your bike?" not in client.get(f"/dashboard/orders/{paid.pk}").content.decode()
    )


@pytest.mark.django_db
def test_a_shop_admin_viewing_the_order_is_not_asked(admin_user):
    booking = BookingFactory(shipped=True)
    client = Client()
    client.force_login(admin_user)
    assert (
        "Did it fit your bike?"
        not in client.get(f"/dashboard/orders/{booking.pk}").content.decode()
    )
