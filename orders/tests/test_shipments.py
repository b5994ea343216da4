"""Shipping it (API.md "After the sale"): the spec's approve takes a carrier and a tracking
number (both optional); `<booking>`'s `shipment` carries them with the carrier's tracking page
for UPS, USPS, FedEx and DHL; bad input is a 400 on its field."""

import pytest
from django.core import mail

from orders.models import Booking
from orders.shipments import carrier_name, tracking_url
from orders.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db


def approve(client, booking, **fields):
    return client.put(f"/api/booking/{booking.pk}", {"status": "approved", **fields}, format="json")


@pytest.mark.parametrize(
    ("carrier", "number", "url"),
    [
        ("UPS", "1Z999AA10123456784", "https://www.ups.com/track?tracknum=1Z999AA10123456784"),
        (
            "usps",
            "9400 1000 0000 0000 0000 00",
            "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201000%200000%200000%200000%2000",
        ),
        ("FedEx", "123456789012", "https://www.fedex.com/fedextrack/?trknbr=123456789012"),
        (
            " dhl ",
            "JD014600006281230704",
            "https://www.dhl.com/global-en/home/tracking.html?tracking-id=JD014600006281230704",
        ),
        ("Royal Mail", "AB123456789GB", None),  # a carrier the shop has no page for
        ("UPS", "", None),
    ],
)
def test_the_carriers_tracking_page(carrier, number, url):
    assert tracking_url(carrier, number) == url


def test_known_carriers_are_written_as_they_write_themselves():
    assert [carrier_name(c) for c in ["ups", "FEDEX", "Dhl", "  La   Poste "]] == [
        "UPS",
        "FedEx",
        "DHL",
        "La Poste",
    ]


def test_approving_with_a_carrier_and_a_number_ships_it_with_a_link(as_admin, user):
    booking = BookingFactory(user=user, paid_order=True)

    response = approve(as_admin, booking, carrier="ups", trackingNumber="1Z999AA10123456784")

    assert response.status_code == 200, response.content
    shipment = response.json()["shipment"]
    assert shipment["carrier"] == "UPS"
    assert shipment["trackingNumber"] == "1Z999AA10123456784"
    assert shipment["trackingUrl"] == "https://www.ups.com/track?tracknum=1Z999AA10123456784"
    assert shipment["shippedAt"]
    assert as_admin.get(f"/api/booking/{booking.pk}").json()["shipment"] == shipment


def test_approving_without_them_ships_it_all_the_same(as_admin, user):
    booking = BookingFactory(user=user, paid_order=True)

    shipment = approve(as_admin, booking).json()["shipment"]

    assert (shipment["carrier"], shipment["trackingNumber"], shipment["trackingUrl"]) == (
        "",
        "",
        None,
    )
    assert shipment["shippedAt"]


def test_an_order_not_shipped_has_no_shipment(as_user, user):
    booking = BookingFactory(user=user, paid_order=True)

    assert as_user.get(f"/api/booking/{booking.pk}").json()["shipment"] is None


def test_a_tracking_number_given_later_is_kept_without_a_second_mail(as_admin, user):
    booking = BookingFactory(user=user, paid_order=True)
    approve(as_admin, booking)
    shipped = Booking.objects.get(pk=booking.pk).shipped_at
    sent = len(mail.outbox)

    again = approve(as_admin, booking, carrier="FedEx", trackingNumber="123456789012")

    assert again.json()["modifiedCount"] == 1
    assert again.json()["shipment"]["trackingUrl"].endswith("trknbr=123456789012")
    assert Booking.objects.get(pk=booking.pk).shipped_at == shipped
    assert len(mail.outbox) == sent
    # The same again changes nothing; leaving them out keeps them.
    assert approve(as_admin, booking, carrier="FedEx").json()["modifiedCount"] == 0
    assert approve(as_admin, booking).json()["shipment"]["carrier"] == "FedEx"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"carrier": "x" * 41}, "carrier"),
        ({"trackingNumber": "1Z<script>"}, "trackingNumber"),
        ({"trackingNumber": "9" * 65}, "trackingNumber"),
        ({"trackingNumber": ["1Z"]}, "trackingNumber"),
        ({"carrier": {"name": "UPS"}}, "carrier"),
    ],
)
def test_bad_shipment_fields_are_a_400_on_their_field(as_admin, user, fields, field):
    booking = BookingFactory(user=user, paid_order=True)

    response = approve(as_admin, booking, **fields)

    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert Booking.objects.get(pk=booking.pk).status is None
