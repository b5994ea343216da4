"""Celery beat's periodic work of orders (CELERY_BEAT_SCHEDULE): each task a thin call of a
service. (Order mail is written by the services into the outbox and sent by core/tasks.py.)
The worker imports this module through CELERY_IMPORTS."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from . import services


@shared_task
def release_lapsed_holds() -> int:
    """Every HOLDS_RELEASE_EVERY seconds: lapsed holds go back on the shelf, so the catalog
    shows them even when nobody orders those parts."""
    return services.booking_release_lapsed_holds()


@shared_task
def prune_visitor_carts() -> int:
    """Daily: visitors' carts whose sessions have run out are deleted."""
    return services.cart_prune_visitors(idle_for=timedelta(seconds=settings.SESSION_COOKIE_AGE))
