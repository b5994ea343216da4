"""The kernel's background task: sending the outbox (core/outbox.py, where it is defined, so
the outbox schedules it without importing this module), after each transaction that writes
mail commits and every minute (Celery beat, the catch-up after a worker died)."""

from .outbox import send_outbox

__all__ = ["send_outbox"]
