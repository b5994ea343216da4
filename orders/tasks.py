"""Background tasks of orders: each one is a thin call of orders/emails.py or a service.

They are dispatched after the order's transaction commits by core/background.py: to the
Celery workers when there is a broker (REDIS_URL), else in a thread of the web process. Under
a worker, a mail server that is down or times out is retried a few times, with backoff.
"""

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from . import emails, services

RETRY = {"autoretry_for": (OSError,), "retry_backoff": 10, "retry_jitter": False, "max_retries": 3}


@shared_task(**RETRY)
def send_booking_placed(*, booking_id: int) -> int:
    return emails.booking_mail_placed(booking_id=booking_id)


@shared_task(**RETRY)
def send_booking_paid(*, booking_id: int) -> int:
    return emails.booking_mail_paid(booking_id=booking_id)


@shared_task(**RETRY)
def send_booking_paid_to_admins(*, booking_id: int) -> int:
    return emails.booking_mail_paid_admins(booking_id=booking_id)


@shared_task(**RETRY)
def send_booking_shipped(*, booking_id: int) -> int:
    return emails.booking_mail_shipped(booking_id=booking_id)


@shared_task(bind=True, max_retries=RETRY["max_retries"])
def send_bookings_expired(self, *, booking_ids: list[int]) -> int:
    """A batch of lapsed holds, one mail each. A mail that fails does not hold up the others;
    the task then retries those alone (with backoff), so nobody is told twice."""
    sent, failed, error = 0, [], None
    for booking_id in booking_ids:
        try:
            sent += emails.booking_mail_expired(booking_id=booking_id)
        except OSError as exc:
            failed.append(booking_id)
            error = exc
    if failed:
        countdown = RETRY["retry_backoff"] * 2**self.request.retries
        raise self.retry(exc=error, kwargs={"booking_ids": failed}, countdown=countdown)
    return sent


@shared_task(**RETRY)
def send_booking_refunded(*, booking_id: int) -> int:
    return emails.booking_mail_refunded(booking_id=booking_id)


@shared_task(**RETRY)
def send_booking_withdrawn(*, booking_id: int, part_name: str | None = None) -> int:
    return emails.booking_mail_withdrawn(booking_id=booking_id, part_name=part_name)


@shared_task(**RETRY)
def send_low_stock(*, booking_id: int, before: int, part_id: int | None = None) -> int:
    return emails.part_mail_low_stock(booking_id=booking_id, before=before, part_id=part_id)


@shared_task
def release_lapsed_holds() -> int:
    """Celery beat, every HOLDS_RELEASE_EVERY seconds: lapsed holds go back on the shelf, so
    the catalog shows them even when nobody orders those parts."""
    return services.booking_release_lapsed_holds()


@shared_task
def prune_visitor_carts() -> int:
    """Celery beat, daily: visitors' carts whose sessions have run out are deleted."""
    return services.cart_prune_visitors(idle_for=timedelta(seconds=settings.SESSION_COOKIE_AGE))
