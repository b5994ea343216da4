"""Holds: how long an unpaid order holds its stock, and how much of a part one account may
hold.

An unpaid order holds units that nobody else can buy, so one account may hold unpaid at most
MAX_HELD_SHARE of a part's stock (what is on the shelf plus what that account holds), rounded
down but never below the part's minimum order quantity; and a new order of a part that the
account held unpaid lapses when that earlier hold would have, so deleting an order and placing
it again never renews a hold. A paid order holds nothing: it has bought its stock.
"""

import math
from collections.abc import Collection
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db.models import Min, Sum
from django.utils import timezone

from catalog.models import Part
from core.wording import counted

from ..models import Booking, BookingLine, HoldDeadline

HELD_SHARE_EXCEEDED = (
    "You can hold at most {count} unit of this part until you pay.",
    "You can hold at most {count} units of this part until you pay.",
)


def hold_seconds() -> int:
    return settings.ORDER_HOLD_SECONDS


def held_units(*, user, part_ids: Collection[int]) -> dict[int, int]:
    """The units of each of `part_ids` that `user`'s unpaid orders hold now (in every line of
    them), by part id; a part it holds none of is missing."""
    holding = Booking.objects.filter(user=user).unpaid_holding()
    lines = BookingLine.objects.filter(part_id__in=part_ids, booking__in=holding)
    rows = lines.values("part_id").annotate(units=Sum("quantity")).order_by()
    return {row["part_id"]: row["units"] for row in rows}


def hold_limit(*, part: Part, held: int) -> int:
    """The most units of `part` one account may hold unpaid while it holds `held` of them."""
    # Decimal, not float: 0.29 × 100 must round down to 29, not to 28.
    share = Decimal(str(settings.MAX_HELD_SHARE))
    return max(part.minimum_order_quantity, math.floor(share * (part.available_quantity + held)))


def held_share_refusal(*, part: Part, quantity: int, held: int) -> str | None:
    """Why an account that holds `held` units of `part` may not hold `quantity` more (more
    than its share), or None.

    Exact under concurrency only when nothing it reads can change until the order is written:
    the caller holds the account's row lock (the account's own orders wait for each other),
    `part` is the part's locked row (catalog.stock.stock_lock: other accounts' orders, releases
    and adjustments of that part wait too) and `held` was read under both (held_units).
    """
    limit = hold_limit(part=part, held=held)
    if held + quantity > limit:
        return counted(limit, *HELD_SHARE_EXCEEDED)
    return None


def hold_deadline(*, user, parts: Collection[Part], now: datetime | None = None) -> datetime:
    """When a new order of `parts` by `user` lapses: when the account's earliest earlier hold of
    one of them would have (an unpaid order of it that still holds its stock, or one deleted
    unpaid) while that is still ahead; else ORDER_HOLD_SECONDS from now. One order has one
    hold, so a part held before makes the whole order lapse then."""
    now = now or timezone.now()
    # The live orders first, then the deadlines kept from deleted ones: an order deleted (and
    # its deadline kept, in the same transaction) between the two reads is seen by one of them.
    ordering = BookingLine.objects.filter(part__in=parts).values("booking_id")
    live = Booking.objects.filter(user=user, pk__in=ordering).unpaid_holding(now)
    until = live.aggregate(until=Min("expires_at"))["until"]
    kept = HoldDeadline.objects.filter(user=user, part__in=parts, expires_at__gt=now)
    kept_until = kept.aggregate(until=Min("expires_at"))["until"]
    earlier = [d for d in (until, kept_until) if d]
    return min(earlier) if earlier else now + timedelta(seconds=hold_seconds())


def hold_deadline_keep(*, booking: Booking) -> None:
    """`booking` is being deleted: when it is unpaid and still holds its stock, remember when
    that hold would have lapsed, for the account's next order of each of its parts
    (hold_deadline)."""
    if booking.paid or booking.released_at or not booking.user_id:
        return
    if booking.expires_at is None or booking.expires_at <= timezone.now():
        return
    part_ids = booking.lines.filter(part__isnull=False).values_list("part_id", flat=True)
    # One row per account and part, written in one statement: two deletes at once never clash.
    # Every unpaid order of a part placed while an earlier hold of it runs carries that hold's
    # deadline or an earlier one, so the newest one written is never later than the one it
    # replaces while that one runs.
    kept = [
        HoldDeadline(user_id=booking.user_id, part_id=part_id, expires_at=booking.expires_at)
        for part_id in sorted(part_ids)
    ]
    if kept:
        HoldDeadline.objects.bulk_create(
            kept,
            update_conflicts=True,
            unique_fields=["user", "part"],
            update_fields=["expires_at"],
        )


def hold_deadlines_prune() -> int:
    """Forget the deadlines that have passed (they carry over to nothing); how many."""
    pruned, _ = HoldDeadline.objects.filter(expires_at__lte=timezone.now()).delete()
    return pruned
