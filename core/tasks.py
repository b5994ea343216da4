"""The kernel's background task: sending the outbox (core/outbox.py), after each transaction
that writes mail commits and every minute (Celery beat, the catch-up after a worker died)."""

from celery import shared_task

from . import outbox


@shared_task
def send_outbox() -> int:
    return outbox.outbox_send()
