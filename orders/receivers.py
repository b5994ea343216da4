"""orders' answers to what other floors announce: the catalog may not import orders, so a
signal is the only way it can tell orders that a part is going; and every kind of sign-in
(the page, Google, sign-up, the API's with a session) sends Django's user_logged_in; and
every way an account's e-mail address becomes verified (its confirmation link, a Google
sign-up or sign-in, an address added and confirmed later, Django admin) saves allauth's
EmailAddress verified. Each receiver is a thin call of a service."""

from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver

from catalog.signals import part_deleting, part_stock_low

from . import emails, services
from .cart_requests import SESSION_KEY as CART_KEY


@receiver(part_deleting, dispatch_uid="orders.withdraw")
def withdraw_the_parts_orders(sender, part, **kwargs):
    """A part is being deleted: its unpaid orders are withdrawn first (same transaction)."""
    services.booking_withdraw_for_part(part_id=part.pk)


@receiver(part_stock_low, dispatch_uid="orders.low_stock")
def mail_the_admins_low_stock(sender, part, **kwargs):
    """A part's stock was changed by hand below its minimum order quantity: the admins' mail,
    as when an order's units take it there."""
    emails.part_mail_stock_low(part=part)


@receiver(user_logged_in, dispatch_uid="orders.merge_cart")
def merge_the_visitors_cart(sender, request, user, **kwargs):
    """A visitor signed in: their cart joins the account's. Its id is read from the session's
    data, which Django keeps when sign-in gives the session a new key."""
    session = getattr(request, "session", None)
    cart_id = session.pop(CART_KEY, None) if session is not None else None
    if cart_id is not None:
        services.cart_merge(cart_id=cart_id, user=user)


@receiver(post_save, sender=EmailAddress, dispatch_uid="orders.guest_join")
def join_the_guests_orders(sender, instance, created, **kwargs):
    """An account's address is saved verified: the guests' orders of that address join it.
    An account is made with an address not verified (a sign-up with a password): its link to
    verify it is mailed when guests' orders of it wait."""
    if instance.user_id and instance.verified:
        services.booking_guest_join(user=instance.user, email=instance.email)
    elif instance.user_id and created and instance.primary:
        services.booking_guest_join_offer(address=instance)


@receiver(email_confirmed, dispatch_uid="orders.guest_join_confirmed")
def join_the_guests_orders_confirmed(sender, request, email_address, **kwargs):
    """The same when allauth confirms an address (it saves it verified too: nothing twice)."""
    services.booking_guest_join(user=email_address.user, email=email_address.email)
