"""Invoice numbers (orders.services.invoicing): one sequence with no gaps, given in the
payment's transaction by every way of paying, once; kept by a refund; none for a late payment
refunded at once because its stock was gone."""

import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from catalog.tests.factories import PartFactory
from orders import services
from orders.models import Booking, InvoiceCounter
from orders.services import invoice_number_take
from orders.tests.factories import BookingFactory
from orders.tests.stripe_helpers import intent_id_of, pay
from orders.tests.test_holds import lapse
from orders.tests.test_payments_no_charge_for_nothing import start, succeeded

pytestmark = pytest.mark.django_db

FORMAT = re.compile(r"INV-(\d{4})-(\d{6,})")


def sequence_number(invoice_number: str) -> int:
    return int(FORMAT.fullmatch(invoice_number)[2])


def last_given() -> int:
    """The number given last: the counter's, or (no counter yet) how many were given."""
    counter = InvoiceCounter.objects.first()
    return counter.last if counter else Booking.objects.exclude(invoice_number=None).count()


def paid(booking) -> Booking:
    assert services.booking_mark_paid(booking_id=booking.pk, transaction_id=f"pi_{booking.pk}")
    return Booking.objects.get(pk=booking.pk)


@pytest.fixture
def part(db):
    return PartFactory(price=Decimal("20.00"), minimum_order_quantity=1, available_quantity=5)


@pytest.fixture
def order(user, part):
    return services.booking_place(user=user, part=part, quantity=2, address="a", phone="12345")


def test_an_unpaid_order_has_no_number(order):
    assert Booking.objects.get(pk=order.pk).invoice_number is None


def test_paying_gives_the_year_of_payment_and_the_next_number_in_six_digits(order):
    booking = paid(order)
    year, number = FORMAT.fullmatch(booking.invoice_number).groups()
    assert int(year) == booking.paid_at.year == timezone.now().year
    assert len(number) == 6
    assert last_given() == int(number)


def test_orders_paid_one_after_another_get_consecutive_numbers():
    orders = [BookingFactory() for _ in range(3)]
    numbers = [sequence_number(paid(booking).invoice_number) for booking in orders]
    assert numbers == [numbers[0], numbers[0] + 1, numbers[0] + 2]


def test_the_number_is_given_once_however_often_the_payment_is_recorded(order):
    first = paid(order).invoice_number
    assert not services.booking_mark_paid(booking_id=order.pk, transaction_id="pi_again")
    assert Booking.objects.get(pk=order.pk).invoice_number == first
    following = paid(BookingFactory())
    assert sequence_number(following.invoice_number) == sequence_number(first) + 1


def test_the_sequence_runs_on_into_a_new_year():
    with transaction.atomic():
        december = invoice_number_take(paid_at=datetime(2026, 12, 31, 23, 59, tzinfo=UTC))
        january = invoice_number_take(paid_at=datetime(2027, 1, 1, 0, 0, tzinfo=UTC))
    assert december.startswith("INV-2026-")
    assert january.startswith("INV-2027-")
    assert sequence_number(january) == sequence_number(december) + 1


def test_a_payment_that_rolls_back_gives_its_number_back(order):
    before = last_given()

    with pytest.raises(RuntimeError), transaction.atomic():
        paid(order)
        raise RuntimeError("the payment's transaction fails after the number was taken")

    assert Booking.objects.get(pk=order.pk).invoice_number is None
    assert last_given() == before
    assert sequence_number(paid(order).invoice_number) == before + 1


@pytest.mark.django_db(transaction=True)
def test_a_number_is_only_taken_in_a_transaction():
    with pytest.raises(transaction.TransactionManagementError):
        invoice_number_take(paid_at=timezone.now())


def test_with_no_counter_the_sequence_starts_after_the_numbers_given(order):
    given = [BookingFactory(paid_order=True).invoice_number for _ in range(2)]
    InvoiceCounter.objects.all().delete()
    assert Booking.objects.exclude(invoice_number=None).count() == 2

    booking = paid(order)

    assert sequence_number(booking.invoice_number) == 3
    assert booking.invoice_number not in given
    assert InvoiceCounter.objects.get().last == 3


def test_a_refunded_order_keeps_its_number(order):
    number = paid(order).invoice_number

    services.booking_refund(booking=order, outside_stripe=True)

    booking = Booking.objects.get(pk=order.pk)
    assert booking.state == Booking.State.REFUNDED
    assert booking.invoice_number == number


def test_the_patch_confirmation_gives_a_number(stripe_on, as_user, order):
    intent_id = intent_id_of(services.booking_start_payment(booking=order))
    pay(intent_id)
    response = as_user.patch(
        f"/api/booking/{order.pk}", {"transactionId": intent_id}, format="json"
    )
    assert response.status_code == 200
    number = response.json()["invoiceNumber"]
    assert FORMAT.fullmatch(number)
    assert Booking.objects.get(pk=order.pk).invoice_number == number


def test_the_webhook_gives_a_number_once(stripe_on, anon, as_user, order):
    intent_id = start(as_user, order)
    pay(intent_id)
    assert succeeded(anon, intent_id, "evt_invoice").status_code == 200
    number = Booking.objects.get(pk=order.pk).invoice_number
    assert FORMAT.fullmatch(number)

    assert succeeded(anon, intent_id, "evt_invoice_again").status_code == 200
    assert Booking.objects.get(pk=order.pk).invoice_number == number
    assert last_given() == sequence_number(number)


def test_a_late_payment_that_takes_its_stock_again_gets_a_number(stripe_on, anon, as_user, order):
    intent_id = start(as_user, order)
    lapse(order)
    services.booking_release_lapsed_holds()
    pay(intent_id)
    assert succeeded(anon, intent_id, "evt_late_ok").status_code == 200
    booking = Booking.objects.get(pk=order.pk)
    assert booking.state == Booking.State.PENDING
    assert FORMAT.fullmatch(booking.invoice_number)


def test_a_late_payment_refunded_because_the_stock_is_gone_gets_none(
    settings, stripe_on, anon, as_user, other_user, order, part
):
    settings.MAX_HELD_SHARE = 1  # one shopper may take every unit
    before = last_given()
    intent_id = start(as_user, order)
    lapse(order)
    services.booking_place(user=other_user, part=part, quantity=5, address="a", phone="12345")
    pay(intent_id)

    assert succeeded(anon, intent_id, "evt_late_gone").status_code == 200

    booking = Booking.objects.get(pk=order.pk)
    assert booking.state == Booking.State.REFUNDED
    assert booking.invoice_number is None
    assert last_given() == before
