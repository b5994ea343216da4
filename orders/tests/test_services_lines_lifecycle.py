"""Everything that happens to an order of several lines happens to all of them: expiry, delete,
refund, a late payment, a part deleted, the hold kept after a delete."""

from decimal import Decimal

import pytest

from catalog.models import Part, StockMovement
from catalog.services import part_delete
from catalog.tests.factories import PartFactory
from core.outbox import outbox_send
from orders import emails, services
from orders.models import Booking, HoldDeadline, PaymentEvent
from orders.tests.stripe_helpers import pay
from orders.tests.test_holds import lapse
from orders.tests.test_payments_no_charge_for_nothing import refunded_cents, start, succeeded
from orders.tests.test_services_placing_lines import place_lines

pytestmark = pytest.mark.django_db


def stock(*parts) -> tuple[int, ...]:
    return tuple(Part.objects.get(pk=part.pk).available_quantity for part in parts)


@pytest.fixture
def pads():
    return PartFactory(
        name="Brake pads", price=Decimal("10.00"), available_quantity=10, minimum_order_quantity=1
    )


@pytest.fixture
def rotor():
    return PartFactory(
        name="Rotor", price=Decimal("30.00"), available_quantity=6, minimum_order_quantity=1
    )


@pytest.fixture
def order(user, pads, rotor) -> Booking:
    booking = place_lines(user, (pads, 2), (rotor, 3))
    assert stock(pads, rotor) == (8, 3)
    return booking


def test_a_lapsed_order_gives_back_every_line_in_the_sweep(order, pads, rotor):
    lapse(order)

    assert services.booking_release_lapsed_holds() == 1

    assert stock(pads, rotor) == (10, 6)
    order.refresh_from_db()
    assert order.state == Booking.State.EXPIRED
    back = StockMovement.objects.filter(order_id=order.pk, change__gt=0)
    assert sorted(back.values_list("part_id", "change")) == sorted([(pads.pk, 2), (rotor.pk, 3)])


def test_an_order_of_one_of_its_parts_releases_the_whole_lapsed_order(
    order, other_user, pads, rotor
):
    """The next shopper of the rotor gets it at once, and the pads come back with it."""
    lapse(order)

    services.booking_place(user=other_user, part=rotor, quantity=3, address="a", phone="12345")

    assert stock(pads, rotor) == (10, 3)
    order.refresh_from_db()
    assert order.released_at is not None


def test_an_order_releases_only_the_lapsed_orders_with_a_line_of_its_parts(
    order, user, other_user, pads, rotor
):
    """Orders of one line are found by their part, orders of several by their lines: an
    order of another part releases neither kind, an order of the pads only this one."""
    fluid, lever = (PartFactory(available_quantity=5, minimum_order_quantity=1) for _ in range(2))
    of_fluid = services.booking_place(user=user, part=fluid, quantity=1, address="a", phone="12345")
    lapse(order)
    lapse(of_fluid)

    place_lines(other_user, (lever, 1))
    assert Booking.objects.filter(released_at__isnull=False).count() == 0

    place_lines(other_user, (pads, 1), (lever, 1))
    released = Booking.objects.filter(released_at__isnull=False)
    assert list(released.values_list("pk", flat=True)) == [order.pk]
    assert stock(pads, rotor, fluid) == (9, 6, 4)


def test_deleting_an_order_gives_back_every_line(order, pads, rotor):
    assert services.booking_cancel(booking=order) is True

    assert stock(pads, rotor) == (10, 6)
    assert not Booking.objects.filter(pk=order.pk).exists()


def test_deleting_keeps_the_hold_for_each_part(order, user, pads, rotor):
    services.booking_cancel(booking=order)

    kept = HoldDeadline.objects.filter(user=user)
    assert sorted(kept.values_list("part_id", flat=True)) == sorted([pads.pk, rotor.pk])
    again = services.booking_place(user=user, part=pads, quantity=1, address="a", phone="12345")
    assert again.expires_at == order.expires_at


def test_a_refund_gives_back_every_line(order, pads, rotor):
    services.booking_mark_paid(booking_id=order.pk, transaction_id="pi_lines")

    services.booking_refund(booking=order, outside_stripe=True)

    assert stock(pads, rotor) == (10, 6)
    assert order.state == Booking.State.REFUNDED


def test_a_refund_of_a_shipped_order_keeps_the_stock_sold(order, pads, rotor):
    services.booking_mark_paid(booking_id=order.pk, transaction_id="pi_lines")
    services.booking_approve(booking=order)

    services.booking_refund(booking=order, outside_stripe=True)

    assert stock(pads, rotor) == (8, 3)


def test_fair_holds_count_the_units_in_every_order_line(order, user, settings, rotor):
    settings.MAX_HELD_SHARE = 0.5  # 3 of the rotor held, 3 left: at most 3

    with pytest.raises(services.LineUnavailable) as refused:
        services.booking_place_lines(user=user, lines=[(rotor.pk, 1)], address="a", phone="12345")
    assert refused.value.reason == "You can hold at most 3 units of this part until you pay."


def test_deleting_a_part_withdraws_the_order_and_gives_back_the_other_lines(
    order, pads, rotor, mailoutbox
):
    part_delete(part=rotor)

    order.refresh_from_db()
    assert order.state == Booking.State.EXPIRED
    assert stock(pads) == (10,)
    assert list(order.lines.order_by("parts_name").values_list("parts_name", "part_id")) == [
        ("Brake pads", pads.pk),
        ("Rotor", None),
    ]
    # The deletion wrote the mail into the outbox; sent as the worker does after the commit.
    assert outbox_send() == 2  # the order's placed mail, and this one
    withdrawn = emails.WITHDRAWN_SUBJECT.format(id=order.pk)
    (mail,) = [m for m in mailoutbox if m.subject == withdrawn]
    assert "we no longer sell Rotor, so we have cancelled your unpaid order for it." in mail.body
    assert "2 × Brake pads at $10.00: $20.00" in mail.body


class TestLatePayment:
    """A payment that comes after the order's hold lapsed takes every line's stock again, or
    none of it and is refunded in full."""

    def test_it_takes_every_line_again_when_enough_is_left(
        self, stripe_on, anon, as_user, order, pads, rotor
    ):
        intent_id = start(as_user, order)
        lapse(order)
        services.booking_release_lapsed_holds()
        pay(intent_id)

        response = succeeded(anon, intent_id, "evt_lines_late_ok")

        assert response.json()["outcome"] == PaymentEvent.Outcome.PAID
        assert stock(pads, rotor) == (8, 3)
        assert refunded_cents(intent_id) == 0

    def test_one_line_short_refunds_it_and_takes_nothing(
        self, settings, stripe_on, anon, as_user, other_user, order, pads, rotor
    ):
        settings.MAX_HELD_SHARE = 1
        intent_id = start(as_user, order)
        lapse(order)
        services.booking_place(
            user=other_user, part=rotor, quantity=6, address="a", phone="12345"
        )  # releases the lapsed order and takes every rotor
        pay(intent_id)

        response = succeeded(anon, intent_id, "evt_lines_late_short")

        assert response.json()["outcome"] == PaymentEvent.Outcome.REFUNDED
        order.refresh_from_db()
        assert order.state == Booking.State.REFUNDED
        assert refunded_cents(intent_id) == 11000
        assert stock(pads, rotor) == (10, 0)
