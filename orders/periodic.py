"""Celery beat's periodic work of orders (CELERY_BEAT_SCHEDULE): each task a thin call of a
service. Apart from orders/tasks.py, which the services import to hand out their mail, so that
no two modules import each other; the worker imports this one through CELERY_IMPORTS."""

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
