"""What orders tell the apps above them (which it may not import): an order's payment changed
(paid, refunded in full, or a paid guest's order joined an account), inside the transaction
that changed it. reviews keeps "Verified buyer" on the order's parts' pages up to date."""

from django.dispatch import Signal

# sender=Booking, booking=<the order>, part_ids=<its lines' parts>
booking_purchase_changed = Signal()
