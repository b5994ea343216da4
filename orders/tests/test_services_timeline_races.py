"""Notes written at once on one order, on a real database with real row locks: every one is
kept (each step is appended under the order's row lock, never over another)."""

import threading

import pytest
from django.db import connections

from orders import services
from orders.models import Booking
from orders.tests.factories import BookingFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WRITERS = 8


def test_notes_written_at_once_are_all_kept(admin_user):
    booking = BookingFactory()
    start = threading.Barrier(WRITERS)
    errors = []

    def write(n):
        try:
            start.wait()
            services.booking_note_add(
                booking=booking, text=f"note {n}", internal=False, by=admin_user
            )
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    texts = sorted(event["text"] for event in Booking.objects.get(pk=booking.pk).events)
    assert texts == sorted(f"note {n}" for n in range(WRITERS))
