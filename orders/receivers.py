"""orders' answers to what the catalog announces (catalog.signals): the catalog may not import
orders, so a signal is the only way it can tell orders that a part is going. Each receiver is
a thin call of a service."""

from django.dispatch import receiver

from catalog.signals import part_deleting

from . import services


@receiver(part_deleting, dispatch_uid="orders.withdraw")
def withdraw_the_parts_orders(sender, part, **kwargs):
    """A part is being deleted: its unpaid orders are withdrawn first (same transaction)."""
    services.booking_withdraw_for_part(part_id=part.pk)
