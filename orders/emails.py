"""The order e-mails: composed from templates/emails/ (HTML with a plain-text part), in the
shop's name, with links from SITE_URL, and written into the outbox (core/outbox.py) in the
transaction of the change that causes them: a change that rolls back mails nothing, and the
worker sends them once it commits (a thread of the web process without a broker).

The services call these inside their transaction; each reads what it needs again, so it
mails what is stored, and writes nothing when the order or part is gone. Each returns how many
mails it wrote.
"""

import logging
from collections.abc import Iterable

from django.core.mail import EmailMultiAlternatives
from django.db.models import Q, Sum

from accounts.models import User
from catalog.garage import garage_active
from catalog.stock import stock_fell_below_minimum
from core.background import is_muted
from core.emails import compose
from core.links import absolute_url
from core.outbox import outbox_queue
from core.templatetags.money import money

from .models import Booking, BookingLine, Return
from .review_links import FIT_QUESTION, fit_question_links

logger = logging.getLogger(__name__)

PLACED_SUBJECT = "Order #{id} placed"
PAID_SUBJECT = "Order #{id} paid: your receipt"
SHIPPED_SUBJECT = "Order #{id} shipped"
EXPIRED_SUBJECT = "Order #{id} expired: it was not paid in time"
REFUNDED_SUBJECT = "Order #{id} refunded"
WITHDRAWN_SUBJECT = "Order #{id} cancelled: the part is no longer sold"
GUEST_LINK_SUBJECT = "Order #{id}: your link to it"
RETURN_REQUESTED_SUBJECT = "Order #{id}: return #{ret} requested"
RETURN_APPROVED_SUBJECT = "Order #{id}: return #{ret} approved, send the parts back"
RETURN_REJECTED_SUBJECT = "Order #{id}: return #{ret} rejected"
RETURN_REFUNDED_SUBJECT = "Order #{id}: return #{ret} refunded, {amount}"
ADMIN_PAID_SUBJECT = "New paid order: Order #{id}, {total}"
ADMIN_LOW_STOCK_SUBJECT = "Low stock: {name} ({available} left, minimum order {minimum})"


def booking_mail_placed(*, booking_id: int | None = None, booking: Booking | None = None) -> int:
    """To the shopper: what was ordered, the total and a link to pay. `booking` is the order
    just placed, as its transaction holds it (its user and placed lines: nothing read again)."""
    if booking is None:
        booking = _booking(booking_id)
    elif is_muted():
        return 0
    if booking is None:
        return 0
    guest_url = _guest_url(booking)
    pay_url = guest_url or absolute_url(f"/dashboard/payment/{booking.pk}")
    context = {"booking": booking, "pay_url": pay_url, "guest_url": guest_url}
    return _queue([_shopper_message(booking, "booking_placed", PLACED_SUBJECT, context)])


def booking_mail_guest_link(*, booking_id: int) -> int:
    """To a guest ("Find my order"): the private link of its order again."""
    booking = _booking(booking_id)
    if booking is None or not booking.guest_key:
        return 0
    context = {"booking": booking, "guest_url": absolute_url(booking.guest_path)}
    return _queue([_shopper_message(booking, "booking_guest_link", GUEST_LINK_SUBJECT, context)])


def _guest_url(booking: Booking) -> str | None:
    """A guest's order's private page, while no account has it (then: None, My Order)."""
    return absolute_url(booking.guest_path) if booking.guest_key and not booking.user_id else None


def _orders_url(booking: Booking) -> str:
    """Where the shopper sees the order: My Order, or a guest's order's private page."""
    return _guest_url(booking) or absolute_url("/dashboard/myorder")


def booking_mail_paid(*, booking_id: int) -> int:
    """To the shopper: the receipt, with the transaction id and a link to the invoice."""
    booking = _booking(booking_id)
    if booking is None or not booking.paid:
        return 0
    context = {
        "booking": booking,
        "orders_url": _orders_url(booking),
        "invoice_url": _invoice_url(booking) if booking.invoice_number else None,
    }
    return _queue([_shopper_message(booking, "booking_paid", PAID_SUBJECT, context)])


def booking_mail_shipped(*, booking_id: int) -> int:
    """To the shopper: the order is approved, i.e. shipped."""
    booking = _booking(booking_id)
    if booking is None or booking.state != Booking.State.SHIPPED:
        return 0
    bike = None if booking.user is None else garage_active(user=booking.user, session={})
    context = {
        "booking": booking,
        "orders_url": _orders_url(booking),
        "fit_question": FIT_QUESTION,
        "fit_links": fit_question_links(booking, bike, absolute=True),
    }
    return _queue([_shopper_message(booking, "booking_shipped", SHIPPED_SUBJECT, context)])


def booking_mail_expired(*, booking_id: int) -> int:
    """To the shopper: the hold lapsed unpaid; the units are back on sale."""
    if is_muted():
        return 0
    return bookings_mail_expired(bookings=_bookings([booking_id]))


def bookings_mail_expired(*, bookings: Iterable[Booking]) -> int:
    """booking_mail_expired for a batch of lapsed holds, as read with their user and lines
    (select_related("user"), prefetch_related("lines")): written at once."""
    if is_muted():
        return 0
    return _queue(
        [
            _shopper_message(
                booking,
                "booking_expired",
                EXPIRED_SUBJECT,
                {
                    "booking": booking,
                    "part_url": _again_url(booking),
                    "orders_url": _orders_url(booking),
                },
            )
            for booking in bookings
            if booking.state == Booking.State.EXPIRED
        ]
    )


def _again_url(booking: Booking) -> str:
    """Where the shopper orders again: the part's page for an order of one part still sold,
    All Parts otherwise."""
    part_id = booking.summary.part_id
    return absolute_url(f"/parts/{part_id}" if part_id else "/allparts")


def booking_mail_refunded(*, booking_id: int) -> int:
    """To the shopper: the order's whole total went back to their card (or, after returns
    refunded part of it, the rest: `refunded_now`)."""
    booking = _booking(booking_id)
    if booking is None or booking.state != Booking.State.REFUNDED:
        return 0
    returns = booking.returns.filter(state=Return.State.REFUNDED)
    before = returns.aggregate(sum=Sum("refund_amount"))["sum"] or 0
    context = {
        "booking": booking,
        "orders_url": _orders_url(booking),
        "refunded_now": booking.total_price - before,
        "refunded_before": before,
    }
    return _queue([_shopper_message(booking, "booking_refunded", REFUNDED_SUBJECT, context)])


def _invoice_url(booking: Booking) -> str:
    guest_url = _guest_url(booking)
    return (
        f"{guest_url}/invoice"
        if guest_url
        else absolute_url(f"/dashboard/orders/{booking.pk}/invoice")
    )


def return_mail_requested(*, return_id: int) -> int:
    """To the shopper: their return was asked for; the shop will answer."""
    return _return_mail(return_id, "return_requested", RETURN_REQUESTED_SUBJECT)


def return_mail_decided(*, return_id: int) -> int:
    """To the shopper: the shop approved the return (send the parts back) or rejected it
    (with its comment)."""
    ret = _return(return_id)
    if ret is None or ret.state not in (Return.State.APPROVED, Return.State.REJECTED):
        return 0
    approved = ret.state == Return.State.APPROVED
    subject = RETURN_APPROVED_SUBJECT if approved else RETURN_REJECTED_SUBJECT
    return _return_mail(return_id, f"return_{ret.state}", subject, ret=ret)


def return_mail_refunded(*, return_id: int) -> int:
    """To the shopper: the return was received and its amount went back to their card."""
    ret = _return(return_id)
    if ret is None or ret.state != Return.State.REFUNDED:
        return 0
    return _return_mail(return_id, "return_refunded", RETURN_REFUNDED_SUBJECT, ret=ret)


def _return(return_id: int) -> Return | None:
    if is_muted():
        return None
    return (
        Return.objects.select_related("booking", "booking__user")
        .prefetch_related("lines__booking_line")
        .filter(pk=return_id)
        .first()
    )


def _return_mail(return_id: int, template: str, subject: str, ret: Return | None = None) -> int:
    ret = ret or _return(return_id)
    if ret is None:
        return 0
    booking = ret.booking
    # {id} is the order's, filled in by _shopper_message.
    subject = subject.replace("{ret}", str(ret.pk))
    subject = subject.replace("{amount}", money(ret.refund_amount or 0))
    context = {
        "booking": booking,
        "ret": ret,
        # A guest's order is seen on its private page only.
        "order_url": _guest_url(booking) or absolute_url(booking.get_absolute_url()),
    }
    return _queue([_shopper_message(booking, template, subject, context)])


def booking_mail_withdrawn(*, booking_id: int, part_name: str | None = None) -> int:
    """To the shopper: a part of the order (`part_name`; the order's parts when None) was
    taken out of the shop, so the unpaid order was cancelled."""
    booking = _booking(booking_id)
    if booking is None or booking.paid:
        return 0
    context = {
        "booking": booking,
        "part_name": part_name or booking.parts_name,
        "parts_url": absolute_url("/allparts"),
    }
    return _queue([_shopper_message(booking, "booking_withdrawn", WITHDRAWN_SUBJECT, context)])


def booking_mail_paid_admins(*, booking_id: int) -> int:
    """To every shop admin: an order has just been paid and waits for approval."""
    booking = _booking(booking_id)
    if booking is None or not booking.paid:
        return 0
    subject = ADMIN_PAID_SUBJECT.format(id=booking.pk, total=money(booking.total_price))
    context = {"booking": booking, "manage_url": absolute_url("/dashboard/manageorders")}
    return _queue(_admin_messages("admin_booking_paid", subject, context))


def part_mail_low_stock(*, booking_id: int, before: int, part_id: int | None = None) -> int:
    """To every shop admin, when this order's line of `part_id` (its first line when None)
    took that part's stock from `before` across the part's minimum order quantity. A cancelled
    order (its stock is back) reports nothing."""
    if is_muted():
        return 0
    lines = BookingLine.objects.select_related("part").filter(booking_id=booking_id)
    line = (lines if part_id is None else lines.filter(part_id=part_id)).first()
    part = line.part if line else None
    if part is None:
        return 0
    after = before - line.quantity
    if not stock_fell_below_minimum(
        before=before, after=after, minimum=part.minimum_order_quantity
    ):
        return 0
    return _low_stock_mail(part, available=after)


def part_mail_stock_low(*, part) -> int:
    """To every shop admin: `part`'s stock was changed by hand across its minimum order
    quantity (catalog.signals.part_stock_low); `part` has its stock now."""
    if is_muted():
        return 0
    return _low_stock_mail(part, available=part.available_quantity)


def _low_stock_mail(part, *, available: int) -> int:
    subject = ADMIN_LOW_STOCK_SUBJECT.format(
        name=part.name, available=available, minimum=part.minimum_order_quantity
    )
    context = {
        "part": part,
        "available": available,
        "part_url": absolute_url(part.get_absolute_url()),
        "manage_url": absolute_url("/dashboard/manageparts"),
    }
    return _queue(_admin_messages("admin_low_stock", subject, context))


def admin_addresses() -> list[str]:
    """Shop admins (role admin, or superusers) who are active and have an address."""
    admins = User.objects.filter(Q(role=User.Role.ADMIN) | Q(is_superuser=True), is_active=True)
    return list(admins.exclude(email="").order_by("email").values_list("email", flat=True))


def _bookings(booking_ids: list[int]):
    return (
        Booking.objects.select_related("user").prefetch_related("lines").filter(pk__in=booking_ids)
    )


def _booking(booking_id: int) -> Booking | None:
    """The order as stored; None when it is gone, or no mail is to be written (muted)."""
    if is_muted():
        return None
    booking = _bookings([booking_id]).first()
    if booking is None:
        logger.info("Order #%s is gone: no mail", booking_id)
    return booking


def _shopper_message(booking: Booking, template: str, subject: str, context: dict):
    # The account's address now (it may have changed since); the order's snapshot otherwise.
    to = booking.user.email if booking.user and booking.user.email else booking.email
    return compose(
        template=template, subject=subject.format(id=booking.pk), to=[to], context=context
    )


def _admin_messages(template: str, subject: str, context: dict) -> list[EmailMultiAlternatives]:
    """One message per admin, so no admin sees the others' addresses."""
    return [
        compose(template=template, subject=subject, to=[address], context=context)
        for address in admin_addresses()
    ]


def _queue(messages: list[EmailMultiAlternatives]) -> int:
    return outbox_queue(messages)
