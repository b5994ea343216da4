"""Reads of orders."""

from django.db.models import QuerySet

from .models import Booking


def booking_list(*, email: str | None = None) -> QuerySet[Booking]:
    """Orders newest first; only those placed under `email` when given."""
    bookings = Booking.objects.order_by("-created_at", "-id")
    return bookings.filter(email=email) if email else bookings


def booking_visible_to(user) -> QuerySet[Booking]:
    """The orders `user` may see: all for shop admins, their own for everybody else."""
    return Booking.objects.all() if user.is_shop_admin else Booking.objects.filter(user=user)


def booking_owned_by(user) -> QuerySet[Booking]:
    """The orders `user` placed: only the owner pays for an order."""
    return Booking.objects.filter(user=user)
