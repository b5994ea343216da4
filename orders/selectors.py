"""Reads of orders. An order belongs to the account that placed it (the user link); the
e-mail and name on it are a snapshot, never used to decide whose it is."""

from django.db.models import Q, QuerySet

from .models import Booking


def booking_list() -> QuerySet[Booking]:
    """Every order, newest first (shop admins)."""
    return Booking.objects.order_by("-created_at", "-id")


def booking_list_of(*, user) -> QuerySet[Booking]:
    """The orders `user` placed, newest first; none when there is no such account."""
    if user is None:
        return Booking.objects.none()
    return booking_list().filter(user=user)


def booking_visible_to(user) -> QuerySet[Booking]:
    """The orders `user` may see: all for shop admins, their own for everybody else."""
    return Booking.objects.all() if user.is_shop_admin else Booking.objects.filter(user=user)


def booking_owned_by(user) -> QuerySet[Booking]:
    """The orders `user` placed: only the owner pays for an order."""
    return Booking.objects.filter(user=user)


def booking_state_filters(now) -> dict[str, Q]:
    """Each state of Booking.state as a filter, at the moment `now`."""
    lapsed = Q(released_at__isnull=False) | Q(expires_at__lte=now)
    return {
        Booking.State.UNPAID: Q(paid=False) & ~lapsed,
        Booking.State.PENDING: Q(paid=True, status__isnull=True, refunded_at__isnull=True),
        Booking.State.SHIPPED: Q(status=Booking.Status.APPROVED, refunded_at__isnull=True),
        Booking.State.EXPIRED: Q(paid=False) & lapsed,
        Booking.State.REFUNDED: Q(refunded_at__isnull=False),
    }
