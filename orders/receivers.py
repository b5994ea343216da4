"""orders' answers to what the catalog announces (catalog.signals): thin calls of services."""

from . import services


def withdraw_the_parts_orders(sender, part, **kwargs):
    """A part is being deleted: its unpaid orders are withdrawn first (same transaction)."""
    services.booking_withdraw_for_part(part_id=part.pk)
