"""What reads an order of several lines: <booking> and its "lines", My Order and Manage Orders
(one row: the names, the units, the total), the order page (every line), the CSV (a row per
line), GET /api/stats (units and revenue per part), the mails and Django admin."""

import json
from decimal import Decimal

import pytest
from django.utils import timezone
from post_office.models import Email
from rest_framework.renderers import JSONRenderer

from catalog.tests.factories import PartFactory
from core.outbox import outbox_send
from core.tests.islands import island_props, page_text
from orders import emails, selectors, services
from orders.models import Booking
from orders.serializers import BookingOutputSerializer, booking_json
from orders.tests.factories import BookingFactory
from orders.tests.test_selectors_manage_orders import csv_rows
from orders.tests.test_services_placing_lines import place_lines

pytestmark = pytest.mark.django_db


@pytest.fixture
def pads():
    return PartFactory(
        name="Brake pads", price=Decimal("12.50"), available_quantity=20, minimum_order_quantity=1
    )


@pytest.fixture
def rotor():
    return PartFactory(
        name="Rotor", price=Decimal("80.00"), available_quantity=5, minimum_order_quantity=1
    )


@pytest.fixture
def order(user, pads, rotor) -> Booking:
    """An order of 2 pads and 1 rotor (pads first: placed in part id order)."""
    assert pads.pk < rotor.pk
    return place_lines(user, (pads, 2), (rotor, 1))


def test_booking_of_several_lines(as_user, order, pads, rotor):
    body = as_user.get(f"/api/booking/{order.pk}").json()

    assert body["partId"] is None
    assert body["pricePerUnit"] is None
    assert body["partsName"] == "Brake pads, Rotor"
    assert body["quantity"] == 3
    assert body["totalPrice"] == 105.0
    assert body["lines"] == [
        {
            "partId": pads.pk,
            "partsName": "Brake pads",
            "quantity": 2,
            "pricePerUnit": 12.5,
            "lineTotal": 25.0,
        },
        {
            "partId": rotor.pk,
            "partsName": "Rotor",
            "quantity": 1,
            "pricePerUnit": 80.0,
            "lineTotal": 80.0,
        },
    ]


def test_booking_of_one_line_has_that_line(as_user, user, pads):
    booking = services.booking_place(user=user, part=pads, quantity=3, address="a", phone="12345")

    body = as_user.get(f"/api/booking/{booking.pk}").json()

    assert (body["partId"], body["partsName"], body["pricePerUnit"]) == (
        pads.pk,
        "Brake pads",
        12.5,
    )
    assert body["lines"] == [
        {
            "partId": pads.pk,
            "partsName": "Brake pads",
            "quantity": 3,
            "pricePerUnit": 12.5,
            "lineTotal": 37.5,
        }
    ]


def test_the_plain_builder_writes_what_the_serializer_writes(order):
    booking = Booking.objects.get(pk=order.pk)
    plain, drf = booking_json(booking), BookingOutputSerializer(booking).data
    assert JSONRenderer().render(plain) == JSONRenderer().render(drf)


def test_my_order_and_manage_orders_show_one_row(client, user, admin_user, order):
    client.force_login(user)
    (mine,) = island_props(client.get("/dashboard/myorder"), "my-orders")["orders"]
    client.force_login(admin_user)
    (managed,) = island_props(client.get("/dashboard/manageorders"), "manage-orders")["orders"]

    for row in (mine, managed):
        assert (row["partsName"], row["quantity"], row["totalPrice"]) == (
            "Brake pads, Rotor",
            3,
            105.0,
        )


def test_the_order_page_lists_every_line(client, user, order, pads, rotor):
    client.force_login(user)

    text = page_text(client.get(f"/dashboard/orders/{order.pk}"))

    assert "Brake pads $12.50 2 $25.00" in text
    assert "Rotor $80.00 1 $80.00" in text
    assert "Units 3 Subtotal $105.00 Shipping Free Tax $0.00 Total $105.00" in text


def test_the_payment_page_lists_every_line_and_one_total(client, user, order):
    client.force_login(user)

    text = page_text(client.get(f"/dashboard/payment/{order.pk}"))

    assert "Please pay for Brake pads, Rotor" in text
    assert "Brake pads $12.50 2 $25.00" in text
    assert "Rotor $80.00 1 $80.00" in text
    assert "Please pay: $105.00" in text


def test_the_csv_has_a_row_per_line_with_the_order_number(as_admin, order):
    one_line = BookingFactory(parts_name="Chain kit", price_per_unit=Decimal("5"), quantity=2)

    rows = csv_rows(as_admin.get("/api/bookings.csv"))[1:]

    assert [row[:8] for row in rows] == [
        [str(one_line.pk), one_line.created_at.isoformat(), one_line.email, one_line.name]
        + ["Chain kit", "2", "5.00", "10.00"],
        [str(order.pk), order.created_at.isoformat(), order.email, order.name]
        + ["Brake pads", "2", "12.50", "25.00"],
        [str(order.pk), order.created_at.isoformat(), order.email, order.name]
        + ["Rotor", "1", "80.00", "80.00"],
    ]
    assert {row[8] for row in rows} == {"unpaid"}


def test_stats_count_units_and_revenue_per_part_from_the_lines(as_admin, user, order, pads):
    services.booking_mark_paid(booking_id=order.pk, transaction_id="pi_lines")
    alone = place_lines(user, (pads, 4))
    services.booking_mark_paid(booking_id=alone.pk, transaction_id="pi_alone")

    top = as_admin.get("/api/stats").json()["topParts"]

    assert top == [
        {"partId": order.lines.last().part_id, "name": "Rotor", "units": 1, "revenue": 80.0},
        {"partId": pads.pk, "name": "Brake pads", "units": 6, "revenue": 75.0},
    ]


def test_the_mails_list_the_lines(order, mailoutbox, settings):
    settings.SITE_URL = "https://shop.example.test"
    Email.objects.all().delete()  # the mail the order wrote when placed (without SITE_URL)

    assert emails.booking_mail_placed(booking_id=order.pk) == 1
    assert outbox_send() == 1  # as the worker does once the order commits

    (mail,) = mailoutbox
    assert mail.subject == f"Order #{order.pk} placed"
    assert (
        "Parts:\n  2 × Brake pads at $12.50: $25.00\n  1 × Rotor at $80.00: $80.00\n"
        "Units:          3\nSubtotal:       $105.00\nShipping:       Free\nTax:            $0.00\n"
        "Total:          $105.00"
    ) in mail.body
    html = mail.alternatives[0][0]
    assert "2 × Brake pads at $12.50: $25.00" in html
    assert "Price per unit" not in mail.body


def test_an_expired_order_of_several_parts_points_to_all_parts(order, mailoutbox, settings):
    settings.SITE_URL = "https://shop.example.test"
    Booking.objects.filter(pk=order.pk).update(expires_at=timezone.now())
    Email.objects.all().delete()  # the placed mail

    assert emails.booking_mail_expired(booking_id=order.pk) == 1
    assert outbox_send() == 1

    assert "You can order the parts again: https://shop.example.test/allparts" in (
        mailoutbox[0].body
    )


def test_django_admin_shows_the_lines_read_only(staff_client, order):
    response = staff_client.get(f"/admin/orders/booking/{order.pk}/change/")

    assert response.status_code == 200
    (inline,) = response.context["inline_admin_formsets"]
    assert [form.original.parts_name for form in inline] == ["Brake pads", "Rotor"]
    assert not inline.has_add_permission and not inline.has_change_permission


def test_the_owners_json_is_valid(order):
    assert json.loads(JSONRenderer().render(booking_json(order)))["lines"][1]["lineTotal"] == 80.0


@pytest.mark.django_db(transaction=True)
def test_the_csv_reads_the_lines_a_chunk_at_a_time_as_it_streams(
    monkeypatch, settings, user, pads, rotor
):
    """Outside a transaction, as a server streams it: the orders' cursor stays open while
    each chunk's lines are read."""
    monkeypatch.setattr(selectors, "EXPORT_CHUNK", 2)
    settings.MAX_HELD_SHARE = 1
    placed = [place_lines(user, (pads, 1), (rotor, 1)) for _ in range(3)]
    placed.append(
        services.booking_place(user=user, part=pads, quantity=2, address="a", phone="1234")
    )

    rows = list(selectors.booking_export())

    numbers = [row[0] for row in rows]
    assert numbers == [placed[3].pk] + [b.pk for b in reversed(placed[:3]) for _ in range(2)]
    assert [row[4] for row in rows] == ["Brake pads"] + ["Brake pads", "Rotor"] * 3
