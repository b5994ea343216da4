"""Guests' orders: an order placed without an account belongs to its private key (random,
GUEST_KEY_BYTES of it: at least 128 bits), which opens its page `/orders/{id}/{key}` and pays
it (orders.selectors.booking_for compares it in constant time). "Find my order" mails that
link again to the order's e-mail; and the account that verifies the same e-mail address takes
the guests' orders of it (they keep working by their key too)."""

import secrets

from allauth.account import app_settings as allauth_settings
from django.db import transaction

from core.emails import normalize_email

from .. import emails
from ..models import Booking
from .common import orders_changed, purchase_changed
from .holds import holder_filter

GUEST_KEY_BYTES = 24  # 192 bits; token_urlsafe writes 32 characters


def guest_key_new() -> str:
    """A new guest order's private key."""
    return secrets.token_urlsafe(GUEST_KEY_BYTES)


@transaction.atomic
def booking_guest_join(*, user, email: str) -> int:
    """Every guest's order of `email` (any case) that no account has joined yet now belongs
    to `user`, the account that verified that address (and shows in its My Order); how many.
    Their keys stay: the guest's links keep working."""
    if user is None or not email:
        return 0
    guests = Booking.objects.filter(holder_filter(user=None, email=normalize_email(email)))
    paid = list(guests.filter(paid=True).values_list("pk", flat=True))
    joined = guests.update(user=user)
    if joined:
        orders_changed()
    for booking in Booking.objects.filter(pk__in=paid):  # now the account's purchases
        purchase_changed(booking)
    return joined


def booking_guest_join_offer(*, address) -> bool:
    """An account was just made with `address` (allauth's EmailAddress, not verified) that
    guests' orders were placed with: the address's confirmation link is mailed to it, and
    following it joins them to the account. Whether it was mailed. allauth mails that link at
    every sign-up itself unless ACCOUNT_EMAIL_VERIFICATION is "none" (the default)."""
    if allauth_settings.EMAIL_VERIFICATION != allauth_settings.EmailVerificationMethod.NONE:
        return False
    guests = Booking.objects.filter(holder_filter(user=None, email=normalize_email(address.email)))
    if not guests.exists():
        return False
    address.send_confirmation(signup=True)
    return True


def booking_find_mail(*, order_id: int | None, email: str) -> int:
    """ "Find my order": when order `order_id` is a guest's order of `email` (any case), its
    private link is mailed to that address again; otherwise nothing happens. How many mails
    were written (the page says the same sentence either way)."""
    email = normalize_email(email)
    if order_id is None or not email:
        return 0
    found = Booking.objects.filter(pk=order_id, email=email, guest_key__isnull=False)
    if not found.exists():
        return 0
    with transaction.atomic():
        return emails.booking_mail_guest_link(booking_id=order_id)
