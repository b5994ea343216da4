"""orders' answers to what the catalog announces (catalog.signals): thin calls of services."""

from core.caching import versions

from . import selectors, services


def withdraw_the_parts_orders(sender, part, **kwargs):
    """A part is being deleted: its unpaid orders are withdrawn first (same transaction)."""
    services.booking_withdraw_for_part(part_id=part.pk)


def orders_changed(**kwargs):
    """An order was saved or deleted: the cached counts and figures of orders are stale.

    Queryset updates send no signal. The one the services make, marking lapsed holds released,
    changes no count or figure: an unpaid order is expired once its hold lapses, released or not.
    """
    versions.bump(selectors.CACHE)
