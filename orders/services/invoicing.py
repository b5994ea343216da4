"""Invoice numbers: one sequence with no gaps, given at payment ("INV-2026-000123").

A number is taken in its payment's own transaction, with the counter's one row locked until
that transaction ends (its UPDATE locks the row on PostgreSQL and takes SQLite's one write
lock), so payments take numbers one at a time, and a payment that rolls back gives its number
back. The sequence does not restart each year (API.md: "one sequence with no gaps"): the year
in a number is its payment's, the count runs on. The counter's row is the last lock a payment
takes (after the order's and its parts'), so it is held only while the payment commits.
"""

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ..models import Booking, InvoiceCounter

INVOICE_FORMAT = "INV-{year}-{number:06d}"
COUNTER_ID = 1  # InvoiceCounter's one row


def invoice_number_take(*, paid_at: datetime) -> str:
    """The sequence's next number, for a payment at `paid_at`, in the caller's transaction."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("An invoice number needs its payment's")
    counter = InvoiceCounter.objects.filter(pk=COUNTER_ID)
    if not counter.update(last=F("last") + 1):
        _counter_create()
        counter.update(last=F("last") + 1)
    number = counter.values_list("last", flat=True).get()
    return INVOICE_FORMAT.format(year=timezone.localtime(paid_at).year, number=number)


def _counter_create() -> None:
    """The counter's row when there is none (the migration makes it; a database emptied by
    hand, or by tests, has none): it starts after the numbers given, which are as many as the
    last of them (one sequence from 1, with no gaps, of paid orders, which are never deleted).
    Two payments making it at once make it once: the second waits, then finds it there."""
    given = Booking.objects.filter(invoice_number__isnull=False).count()
    InvoiceCounter.objects.bulk_create(
        [InvoiceCounter(pk=COUNTER_ID, last=given)], ignore_conflicts=True
    )
