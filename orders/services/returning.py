"""Returns: a shopper sends back units of lines of a shipped order within RETURN_DAYS of its
shipping; the shop approves or rejects the return, then receives it: its lines' share of what
was paid goes back to the card at Stripe (a partial refund; the order's whole remainder when
every unit has come back) and the units go back on the shelf when the shop says so.

Each service locks the order's row first (booking_locked), then the return's: two receives of
one return refund once (the second is a 409), and a receive and a refund in full of the same
order wait for each other (whichever comes second sees the other: a receive of a refunded
order is a 409; a refund in full after returns refunds the remainder only, payments).

The money rule is refund_share's, and only its.
"""

from collections.abc import Mapping
from datetime import timedelta
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from catalog.models import StockMovement
from catalog.stock import stock_release
from core.errors import Conflict, NotFound, Rejected
from core.templatetags.money import money

from .. import emails, payments
from ..models import Booking, BookingEventKind, BookingLine, Return, ReturnLine
from ..selectors import return_units_out
from .common import ORDER_GONE, ORDER_REFUNDED, booking_locked, orders_changed
from .timeline import booking_event_add, record_event

CENT = Decimal("0.01")
NOT_SHIPPED = "This order has not shipped yet, so nothing in it can be returned"
PAST_WINDOW = "Returns are accepted within {days} days of shipping."
RETURN_GONE = "This return no longer exists"
NOT_REQUESTED = "This return was {state} already"
NOT_APPROVED = "Only an approved return can be received; this one is {state}"
LINES_REQUIRED = "Choose at least one line to return"
LINE_NOT_IN_ORDER = "This order has no part with id {part_id}"
LINE_TWICE = "Part {part_id} is listed twice"
QUANTITY_TOO_MANY = "Only {left} unit{s} of {name} can be returned"
QUANTITY_POSITIVE = "Return at least 1 unit of each line"


def return_window_ends(booking: Booking):
    """The last moment a return of `booking` may be requested (None: not shipped)."""
    if booking.shipped_at is None:
        return None
    return booking.shipped_at + timedelta(days=settings.RETURN_DAYS)


def returnable(booking: Booking, *, now=None) -> bool:
    """A return may be asked of this order now: shipped, not refunded, inside the window."""
    ends = return_window_ends(booking)
    now = now or timezone.now()
    return booking.state == Booking.State.SHIPPED and ends is not None and now <= ends


def allocate(amount: Decimal, weights: list[Decimal]) -> list[Decimal]:
    """`amount` split to the cent in proportion to `weights`, by largest remainder (ties to the
    first): the parts always add up to `amount` exactly."""
    cents = int((amount / CENT).to_integral_value())
    total = sum(weights, Decimal(0))
    if not weights or total <= 0 or cents == 0:
        return [Decimal("0.00") for _ in weights]
    exact = [Decimal(cents) * w / total for w in weights]
    parts = [int(e.to_integral_value(rounding=ROUND_FLOOR)) for e in exact]
    left = cents - sum(parts)
    by_remainder = sorted(range(len(weights)), key=lambda i: (-(exact[i] - parts[i]), i))
    for i in by_remainder[:left]:
        parts[i] += 1
    return [(Decimal(part) * CENT).quantize(CENT) for part in parts]


def all_come_back(
    *, lines: list[BookingLine], returning: Mapping[int, int], refunded: Mapping[int, int]
) -> bool:
    """Whether `returning` brings back the last units of the order's `lines` (after those
    `refunded` already): then the order is refunded in full."""
    return all(
        refunded.get(line.pk, 0) + returning.get(line.pk, 0) >= line.quantity for line in lines
    )


def refund_share(
    *,
    booking: Booking,
    lines: list[BookingLine],
    returning: Mapping[int, int],
    refunded: Mapping[int, int],
) -> Decimal:
    """What a return of `returning` (units by BookingLine id) refunds, when `refunded` (units by
    line id) came back already in earlier refunded returns: the one money rule of returns.

    - A line's value is its total less its part of the order's discount (the discount split
      over the lines in proportion to their totals, to the cent, largest remainder: the parts
      add up to the discount). When the tax was added on top of the prices (not included),
      the line's value also carries its part of the tax: the tax split over the lines' values
      and the shipping price, as it was charged on both.
    - The first k of a line's n units are worth its value × k / n rounded half up to the
      cent; a return of q units after r came back refunds what the first r + q are worth less
      what the first r are worth. So the units of a line, however they come back, add up to
      exactly its value.
    - Shipping (and its tax) is refunded only when the whole order comes back: when this
      return brings back the last units, it refunds the whole remainder of what was paid
      (total less what was refunded already).
    """
    if all_come_back(lines=lines, returning=returning, refunded=refunded):
        return max(Decimal("0.00"), booking.total_price - booking.refunded_amount)
    discounts = allocate(booking.discount, [line.line_total for line in lines])
    values = [line.line_total - discount for line, discount in zip(lines, discounts, strict=True)]
    if not booking.tax_included and booking.tax:
        taxes = allocate(booking.tax, [*values, booking.shipping_price])[: len(values)]
        values = [value + tax for value, tax in zip(values, taxes, strict=True)]
    amount = Decimal("0.00")
    for line, value in zip(lines, values, strict=True):
        quantity = returning.get(line.pk, 0)
        if not quantity:
            continue
        before = refunded.get(line.pk, 0)
        amount += _worth(value, before + quantity, line.quantity) - _worth(
            value, before, line.quantity
        )
    return amount


def _worth(value: Decimal, units: int, of: int) -> Decimal:
    return (value * units / of).quantize(CENT, rounding=ROUND_HALF_UP)


def _lines_problem(message: str):
    return ValidationError({"lines": message})


def _chosen_lines(booking: Booking, lines: list[dict]) -> dict[BookingLine, int]:
    """The order's lines the shopper named ({"partId", "quantity"} each), with the units, once
    checked against what was bought and not yet returned; ValidationError on `lines`."""
    if not lines:
        raise _lines_problem(LINES_REQUIRED)
    by_part = {line.part_id: line for line in booking.lines.filter(part__isnull=False)}
    out = return_units_out(booking.pk)
    chosen: dict[BookingLine, int] = {}
    for item in lines:
        part_id, quantity = item["partId"], item["quantity"]
        line = by_part.get(part_id)
        if line is None:
            raise _lines_problem(LINE_NOT_IN_ORDER.format(part_id=part_id))
        if line in chosen:
            raise _lines_problem(LINE_TWICE.format(part_id=part_id))
        if quantity < 1:
            raise _lines_problem(QUANTITY_POSITIVE)
        left = line.quantity - out.get(line.pk, 0)
        if quantity > left:
            raise _lines_problem(
                QUANTITY_TOO_MANY.format(
                    left=left, s="" if left == 1 else "s", name=line.parts_name
                )
            )
        chosen[line] = quantity
    return chosen


@transaction.atomic
def return_request(
    *, booking: Booking, lines: list[dict], reason: str, comment: str = ""
) -> Return:
    """The shopper returns `lines` ({"partId", "quantity"} each) of `booking` for `reason`.

    Conflict (409) when the order has not shipped (or was refunded in full); Rejected (400,
    "Returns are accepted within N days of shipping.") past RETURN_DAYS; ValidationError on
    `lines` for a part not in the order or more units than were bought and not yet returned.
    The order's row is locked, so two requests at once never return one unit twice."""
    locked = booking_locked(booking.pk)
    if locked is None:
        raise NotFound(ORDER_GONE)
    if locked.refunded_at:
        raise Conflict(ORDER_REFUNDED)
    if locked.status != Booking.Status.APPROVED or locked.shipped_at is None:
        raise Conflict(NOT_SHIPPED)
    if timezone.now() > return_window_ends(locked):
        raise Rejected(PAST_WINDOW.format(days=settings.RETURN_DAYS))
    chosen = _chosen_lines(locked, lines)
    ret = Return.objects.create(booking=locked, reason=reason, comment=comment.strip())
    ReturnLine.objects.bulk_create(
        [ReturnLine(ret=ret, booking_line=line, quantity=q) for line, q in chosen.items()]
    )
    booking_event_add(
        booking_id=locked.pk,
        kind=BookingEventKind.RETURN_REQUESTED,
        text=f"Return #{ret.pk} requested: {_units(chosen.items())} ({ret.reason_label})",
    )
    orders_changed()
    emails.return_mail_requested(return_id=ret.pk)
    return ret


def _locked_return(ret: Return) -> tuple[Booking, Return]:
    """The return's order then the return, both locked (the services' one lock order)."""
    locked_booking = booking_locked(ret.booking_id)
    locked = Return.objects.select_for_update().filter(pk=ret.pk).first()
    if locked_booking is None or locked is None:
        raise NotFound(RETURN_GONE)
    return locked_booking, locked


@transaction.atomic
def return_decide(*, ret: Return, state: str, comment: str = "") -> Return:
    """The shop approves or rejects a requested return (`state` "approved" or "rejected",
    with `comment` to the shopper); Conflict when it is no longer requested. A rejected return
    gives its units back (they may be returned again)."""
    _, locked = _locked_return(ret)
    if locked.state != Return.State.REQUESTED:
        raise Conflict(NOT_REQUESTED.format(state=locked.state))
    locked.state = state
    locked.admin_comment = comment.strip()
    locked.decided_at = timezone.now()
    locked.save(update_fields=["state", "admin_comment", "decided_at"])
    kind = {
        Return.State.APPROVED: BookingEventKind.RETURN_APPROVED,
        Return.State.REJECTED: BookingEventKind.RETURN_REJECTED,
    }[state]
    word = f": {locked.admin_comment}" if locked.admin_comment else ""
    booking_event_add(
        booking_id=locked.booking_id, kind=kind, text=f"Return #{locked.pk} {state}{word}"
    )
    orders_changed()
    emails.return_mail_decided(return_id=locked.pk)
    return locked


@transaction.atomic
def return_receive(*, ret: Return, restock: bool) -> Return:
    """The shop received an approved return: its share of what was paid goes back to the card
    at Stripe (refund_share; ProviderError, 502, when Stripe fails: nothing changes), its units
    go back on the shelf when `restock`, and it is refunded. When every unit of the order has
    come back, the order is refunded in full (its state "refunded"). Conflict when the return
    is not approved (a second receive) or the order was refunded in full meanwhile."""
    booking, locked = _locked_return(ret)
    if booking.refunded_at:
        raise Conflict(ORDER_REFUNDED)
    if locked.state != Return.State.APPROVED:
        raise Conflict(NOT_APPROVED.format(state=locked.state))
    lines = list(booking.lines.all())
    returning = dict(locked.lines.values_list("booking_line_id", "quantity"))
    refunded = return_units_out(booking.pk, states=[Return.State.REFUNDED])
    amount = refund_share(booking=booking, lines=lines, returning=returning, refunded=refunded)
    refund_id = ""
    if amount > 0 and booking.transaction_id:
        refund_id = payments.refund_part(
            booking.transaction_id,
            cents=payments.amount_in_cents(amount),
            key=f"return-{locked.pk}",
            booking_id=booking.pk,
        )
    if restock:
        _restock(booking, locked, returning)
    now = timezone.now()
    locked.state = Return.State.REFUNDED
    locked.refund_amount, locked.refund_id = amount, refund_id
    locked.restocked, locked.received_at = restock, now
    locked.save(update_fields=["state", "refund_amount", "refund_id", "restocked", "received_at"])
    booking.refunded_amount += amount
    fields = ["refunded_amount", "events"]
    text = f"Refunded {money(amount)} for return #{locked.pk}"
    record_event(booking, BookingEventKind.RETURN_REFUNDED, text, amount=amount)
    if all_come_back(lines=lines, returning=returning, refunded=refunded):
        booking.refunded_at, booking.refund_id = now, refund_id
        fields += ["refunded_at", "refund_id"]
    booking.save(update_fields=fields)
    orders_changed()
    emails.return_mail_refunded(return_id=locked.pk)
    return locked


def _units(lines) -> str:
    """ "1 × Brake pads, 2 × Chain" of (BookingLine, units) pairs."""
    return ", ".join(f"{units} × {line.parts_name}" for line, units in lines)


def _restock(booking: Booking, ret: Return, returning: Mapping[int, int]) -> None:
    """The return's units back on their parts' shelves, in part id order (placing's lock
    order); a deleted part's units have no shelf."""
    lines = booking.lines.filter(pk__in=list(returning), part__isnull=False).order_by("part_id")
    for line in lines:
        stock_release(
            part_id=line.part_id,
            quantity=returning[line.pk],
            order_id=booking.pk,
            reason=StockMovement.Reason.RECEIVED,
            note=f"Return #{ret.pk}",
        )
