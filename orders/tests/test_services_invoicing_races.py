"""Invoice numbers under payments at once, on a real database with real row locks: one
sequence, no gaps, no duplicates, even when some of the payments roll back."""

import threading

import pytest
from django.db import connections, transaction

from orders import services
from orders.models import Booking, InvoiceCounter
from orders.tests.factories import BookingFactory
from orders.tests.test_services_invoicing import sequence_number

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads racing on real row locks, seconds each
]

PAYMENTS = 16
FAILING = 5  # payments whose transaction rolls back after the number was taken


class PaymentFailed(Exception):
    pass


def test_orders_paid_at_once_get_consecutive_numbers_with_no_gaps_and_no_duplicates():
    before = [BookingFactory(paid_order=True).invoice_number for _ in range(2)]
    orders = [BookingFactory() for _ in range(PAYMENTS)]
    failing = {booking.pk for booking in orders[:FAILING]}
    start = threading.Barrier(PAYMENTS)
    answers, errors = [], []

    def pay(booking):
        try:
            start.wait()
            with transaction.atomic():
                answers.append(
                    services.booking_mark_paid(
                        booking_id=booking.pk, transaction_id=f"pi_race_{booking.pk}"
                    )
                )
                if booking.pk in failing:
                    raise PaymentFailed
        except PaymentFailed:
            pass
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=pay, args=(booking,)) for booking in orders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert answers == [True] * PAYMENTS
    paid = Booking.objects.filter(pk__in=[booking.pk for booking in orders], paid=True)
    assert set(paid.values_list("pk", flat=True)) == {b.pk for b in orders} - failing
    numbers = sorted(
        sequence_number(number) for number in paid.values_list("invoice_number", flat=True)
    )
    first = sequence_number(max(before)) + 1
    assert numbers == list(range(first, first + PAYMENTS - FAILING))
    assert InvoiceCounter.objects.get().last == numbers[-1]
    assert Booking.objects.filter(pk__in=failing).exclude(invoice_number=None).count() == 0
