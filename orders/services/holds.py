"""Holds: how long an unpaid order holds its stock, and how much of a part one account may
hold.

An unpaid order holds units that nobody else can buy, so one account may hold unpaid at most
MAX_HELD_SHARE of a part's stock (what is on the shelf plus what that account holds), rounded
down but never below the part's minimum order quantity; the accounts seen from one client
address share one such share (counted as for one account: the holds of the account's orders
and of every order placed from that address); and a new order of a part that the account held
unpaid lapses when that earlier hold would have, so deleting an order and placing it again
never renews a hold. A paid order holds nothing: it has bought its stock.
"""

import functools
import math
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db.models import Count, Min, Q, Sum
from django.utils import timezone

from catalog.models import Part
from core.caching.statements import (
    STAND_IN_ADDRESS,
    STAND_IN_TIME,
    Statement,
    stand_in_numbers,
    stand_in_text,
)
from core.wording import counted

from ..models import Booking, HoldDeadline

HELD_SHARE_EXCEEDED = (
    "You can hold at most {count} unit of this part until you pay.",
    "You can hold at most {count} units of this part until you pay.",
)


def hold_seconds() -> int:
    return settings.ORDER_HOLD_SECONDS


@dataclass(frozen=True)
class AccountHolds:
    """What unpaid orders that still hold their stock hold now: how many orders the account
    has, and of each part asked about, the units held by the account and by its client address
    together (the fair share's count) and the earliest deadline of the account's own."""

    orders: int
    units: dict[int, int]
    until: dict[int, datetime]


def holder_filter(*, user, email: str = "") -> Q:
    """The orders that count as one shopper's for the caps and fair holds: the account's
    (`user`), or for a guest (`user` None) the guests' orders of `email` (normalised) that no
    account has joined yet. The one place this rule is written."""
    if user is not None:
        return Q(user=user)
    return Q(user__isnull=True, guest_key__isnull=False, email=email)


def account_holds(
    *,
    user,
    part_ids: Collection[int],
    client_address: str | None = None,
    now: datetime | None = None,
    email: str = "",
) -> AccountHolds:
    """The holds of `part_ids` by the account (a guest's, `user` None: by its e-mail,
    holder_filter), or placed from `client_address`, in one query
    (one row of sums) over the lines of the unpaid orders that still hold their stock,
    compiled once per process and count of parts (core.caching.statements).

    The query starts from the account's orders and the address's live holds (their indexes),
    then their lines: its cost is those holds, not how often a part was ever ordered, whatever
    the planner's statistics say.
    """
    part_ids = list(part_ids)
    guest = user is None
    values = {"part_ids": part_ids, "now": now or timezone.now()}
    values.update({"email": email} if guest else {"user": user.pk})
    if client_address:
        values["address"] = client_address
    statement = _holds_statement(len(part_ids), by_address=bool(client_address), guest=guest)
    rows = statement.run(**values)
    orders, *sums = rows[0] if rows else (0, *[None] * (2 * len(part_ids)))
    units, until = sums[0::2], sums[1::2]
    return AccountHolds(
        orders=orders,
        units={pk: held for pk, held in zip(part_ids, units, strict=True) if held},
        until={pk: when for pk, when in zip(part_ids, until, strict=True) if when},
    )


@functools.lru_cache(maxsize=128)
def _holds_statement(count: int, *, by_address: bool, guest: bool = False) -> Statement:
    (user,), part_ids = stand_in_numbers(1), stand_in_numbers(count, start=1)
    stand_ins = {"part_ids": part_ids, "now": STAND_IN_TIME}
    stand_ins.update({"email": stand_in_text("email")} if guest else {"user": user})
    if by_address:
        stand_ins["address"] = STAND_IN_ADDRESS
    address, deadline = (Booking._meta.get_field(name) for name in ("client_address", "expires_at"))
    return Statement.of(
        _holds_row,
        fields={"address": address},
        returns=(None, *[None, deadline] * count),  # orders, then units and until per part
        **stand_ins,
    )


def _holds_row(*, part_ids, now, user=None, email=None, address=None):
    """account_holds' query: the number of orders, then the units held and the account's
    earliest deadline of each part in turn (`email` instead of `user`: a guest's)."""
    own = holder_filter(user=user, email=email)
    holders = own | Q(client_address=address) if address else own
    sums = {"orders": Count("pk", distinct=True, filter=own)}
    for n, pk in enumerate(part_ids):
        on_part = Q(lines__part_id=pk)
        sums[f"units_{n}"] = Sum("lines__quantity", filter=on_part)
        sums[f"until_{n}"] = Min("expires_at", filter=on_part & own)
    holding = Booking.objects.filter(holders).unpaid_holding(now).order_by()
    # Grouped by a column they all share (unpaid): one row, none when nothing is held.
    return holding.values("paid").annotate(**sums).values_list(*sums)


def held_share() -> Decimal:
    """MAX_HELD_SHARE, exactly (Decimal, not float: 0.29 × 100 must round down to 29, not 28).
    At 1 or more it limits nothing an order could take from the shelf."""
    return Decimal(str(settings.MAX_HELD_SHARE))


def hold_limit(*, part: Part, held: int) -> int:
    """The most units of `part` one account (with its client address) may hold unpaid while
    it holds `held` of them."""
    share = held_share()
    return max(part.minimum_order_quantity, math.floor(share * (part.available_quantity + held)))


def held_share_refusal(*, part: Part, quantity: int, held: int) -> str | None:
    """Why an account that holds `held` units of `part` (with its client address) may not
    hold `quantity` more (more than its share), or None.

    Never lets an account or an address past its share under concurrency: the caller holds
    the account's row lock and the address's lock (the orders of the account, and those placed
    from the address, wait for each other) and read `held` under them (account_holds), and
    `part` is the part's locked row (catalog.stock.stock_lock_parts: other accounts' orders,
    releases and adjustments of that part wait). What may still change `held` between that
    read and the part's lock (a payment, a hold that lapsed meanwhile going back on the shelf)
    can only make the check stricter: the units counted as held are then either still held or
    counted twice, never missing. One check of the account's and the address's holds together
    is at least as strict as a check of each alone (the limit grows more slowly than `held`).
    """
    limit = hold_limit(part=part, held=held)
    if held + quantity > limit:
        return counted(limit, *HELD_SHARE_EXCEEDED)
    return None


def hold_deadline(
    *, user, holds: AccountHolds, part_ids: Collection[int], now: datetime | None = None
) -> datetime:
    """When a new order of `part_ids` by `user` lapses: when the account's earliest earlier
    hold of one of them would have (an unpaid order of it that still holds its stock, from
    `holds`, or one deleted unpaid) while that is still ahead; else ORDER_HOLD_SECONDS from
    now. One order has one hold, so a part held before makes the whole order lapse then."""
    now = now or timezone.now()
    # `holds` was read first, then the deadlines kept from deleted orders: an order deleted
    # (and its deadline kept, in the same transaction) between the two reads is seen by one.
    live = [holds.until[pk] for pk in part_ids if pk in holds.until and holds.until[pk] > now]
    part_ids = list(part_ids)
    kept_until = None
    if user is not None:  # a guest deletes no order (its key only reads and pays): none kept
        rows = _kept_statement(len(part_ids)).run(user=user.pk, part_ids=part_ids, now=now)
        kept_until = rows[0][0] if rows else None
    earlier = [*live, *([kept_until] if kept_until else [])]
    return min(earlier) if earlier else now + timedelta(seconds=hold_seconds())


@functools.lru_cache(maxsize=64)
def _kept_statement(count: int) -> Statement:
    """The earliest deadline kept for the account of one of the parts, still ahead; compiled
    once per process and count of parts (core.caching.statements)."""

    def kept(user, part_ids, now):
        kept = HoldDeadline.objects.filter(user=user, part__in=part_ids, expires_at__gt=now)
        # Grouped by the one account: one row, none when nothing is kept.
        return kept.order_by().values("user").annotate(until=Min("expires_at")).values_list("until")

    (user,), part_ids = stand_in_numbers(1), stand_in_numbers(count, start=1)
    deadline = HoldDeadline._meta.get_field("expires_at")
    return Statement.of(kept, returns=[deadline], user=user, part_ids=part_ids, now=STAND_IN_TIME)


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
