"""reviews' answers to what the floors below announce: orders may not import reviews, so it
says when an order's payment changed (paid, refunded, a guest's order joined an account)."""

from django.dispatch import receiver

from orders.signals import booking_purchase_changed

from . import services


@receiver(booking_purchase_changed, dispatch_uid="reviews.verified_buyer")
def the_authors_purchase_changed(sender, booking, part_ids, **kwargs):
    """ "Verified buyer" and the fit answers of the account's reviews of these parts."""
    services.part_reviews_purchase_changed(user_id=booking.user_id, part_ids=part_ids)
