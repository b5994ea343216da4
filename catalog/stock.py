"""Every change of a part's stock, and nothing else: reserve for an order (and the lock a
reservation is decided under), release it back, adjust by hand (received, written off) and the
initial stock. Every rise (an adjustment, released holds, a cancelled or refunded order put
back) tells catalog.alerts under the lock, which mails the part's back-in-stock alerts when the
part is back; a hand change that takes it below its minimum order quantity sends
catalog.signals.part_stock_low (the admins' mail, as for an order's).

Each change runs in one transaction with the part's row locked (`select_for_update`), checks
again on the locked row (stock never goes below 0: the database's CheckConstraint backs this),
writes the new figure, keeps a StockMovement (who, when, why, for which order) and makes stale
what shows that part's stock (its page and the lists: catalog.selectors' versions), nothing
else. Callers (orders, admin, the API) never write a part's stock themselves and never touch
the cache.
"""

from collections.abc import Collection, Sequence

from django.db import transaction
from django.db.models import Case, F, IntegerField, Value, When

from core.caching import versions
from core.errors import Conflict, Rejected
from core.wording import counted

from .alerts import alerts_back
from .models import Part, StockMovement
from .selectors import PARTS, part_version, parts_without_search
from .signals import part_stock_low

Reason = StockMovement.Reason

# Sentences with a count: the one form and the other, for core.wording.counted.
STOCK_CHANGED = (
    "The stock changed while you ordered: only {count} unit is left",
    "The stock changed while you ordered: only {count} units are left",
)
STOCK_BELOW_ZERO = (
    "Only {count} unit is in stock, so {taken} can't be taken away: stock can't go below 0",
    "Only {count} units are in stock, so {taken} can't be taken away: stock can't go below 0",
)
CHANGE_ZERO = "The change must be a whole number other than 0"


def _locked(part_id: int) -> Part:
    """The part's row, locked until the transaction ends (Part.DoesNotExist when gone)."""
    return Part.objects.select_for_update().defer("search_vector").get(pk=part_id)


def _move(
    *,
    part: Part,
    change: int,
    reason: str,
    note: str = "",
    order_id: int | None = None,
    by=None,
) -> StockMovement:
    """Apply `change` to the locked `part` and keep it as a movement; the caller checked it.
    A rise that brings the part back in stock mails its back-in-stock alerts."""
    before = part.available_quantity
    Part.objects.filter(pk=part.pk).update(available_quantity=F("available_quantity") + change)
    part.available_quantity += change
    versions.bump(part_version(part.pk), PARTS)
    movement = _movement(part, change=change, reason=reason, note=note, order_id=order_id, by=by)
    movement.save()
    if change > 0:
        alerts_back(part=part, before=before)
    return movement


def _movement(part: Part, *, change: int, reason: str, note: str, order_id, by) -> StockMovement:
    """The record of `change`, with the part's stock after it (`part` already counts it)."""
    return StockMovement(
        part=part,
        part_name=part.name,
        change=change,
        stock_after=part.available_quantity,
        reason=reason,
        note=note[:500],
        order_id=order_id,
        by=by if by is not None and by.is_authenticated else None,
    )


def stock_lock(*, part_id: int, quantity: int) -> Part:
    """The part's row, locked until the caller's transaction ends, with at least `quantity`
    units on the shelf: what a rule about a reservation decides on, so that nothing changes
    the stock between the decision and stock_reserve (Conflict, STOCK_CHANGED, when fewer
    units are left; Part.DoesNotExist when the part is gone)."""
    part = stock_lock_parts(part_ids=[part_id]).get(part_id)
    if part is None:
        raise Part.DoesNotExist
    if shortfall := stock_shortfall(part=part, quantity=quantity):
        raise Conflict(shortfall)
    return part


def stock_lock_parts(*, part_ids: Collection[int]) -> dict[int, Part]:
    """The rows of those parts still there, by id, locked in id order (two orders of some of
    the same parts wait for each other, never deadlock) until the caller's transaction ends,
    in one statement. Not atomic on purpose: outside a transaction the locks would end at
    once (TransactionManagementError)."""
    return {part.pk: part for part in parts_without_search(part_ids, locked=True)}


def stock_shortfall(*, part: Part, quantity: int) -> str | None:
    """Why `quantity` units cannot be reserved on the locked `part` (STOCK_CHANGED: fewer are
    left), or None when they can."""
    if quantity > part.available_quantity:
        return counted(part.available_quantity, *STOCK_CHANGED)
    return None


@transaction.atomic
def stock_reserve(
    *, part_id: int, quantity: int, order_id: int | None = None, by=None, note: str = ""
) -> Part:
    """Take `quantity` units for an order; the locked part as it is now.

    Raises Conflict (409, STOCK_CHANGED) when fewer units are left, Part.DoesNotExist when
    the part is gone.
    """
    part = stock_lock(part_id=part_id, quantity=quantity)
    stock_take_lines(lines=[(part, quantity)], order_id=order_id, by=by, note=note)
    return part


def stock_take_lines(
    *, lines: Sequence[tuple[Part, int]], order_id: int | None = None, by=None, note: str = ""
) -> None:
    """Take the units of every `(part, quantity)` of one order, each part's row locked by
    stock_lock_parts with at least `quantity` units on it, in the caller's transaction (the
    order decided on those rows: they are not read and locked again). One write of the
    parts' stock, one of their movements and one version bump, however many lines; each part
    is updated in place to its stock now."""
    if any(quantity <= 0 for _, quantity in lines):
        raise ValueError("quantity must be positive")
    # One When per part below: a second line of the same part would be lost.
    if len({part.pk for part, _ in lines}) != len(lines):
        raise ValueError("one line per part")
    taken = Case(
        *(When(pk=part.pk, then=Value(quantity)) for part, quantity in lines),
        output_field=IntegerField(),
    )
    parts = Part.objects.filter(pk__in=[part.pk for part, _ in lines])
    parts.update(available_quantity=F("available_quantity") - taken)
    versions.bump(*(part_version(part.pk) for part, _ in lines), PARTS)
    movements = []
    for part, quantity in lines:
        part.available_quantity -= quantity
        movements.append(
            _movement(
                part,
                change=-quantity,
                reason=Reason.ORDER_PLACED,
                note=note,
                order_id=order_id,
                by=by,
            )
        )
    StockMovement.objects.bulk_create(movements)


@transaction.atomic
def stock_release(
    *,
    part_id: int,
    quantity: int,
    order_id: int | None = None,
    by=None,
    reason: str = Reason.ORDER_CANCELLED,
    note: str = "",
) -> Part | None:
    """Put `quantity` units of an order back on the shelf; the part, or None when it is gone
    (then there is no shelf to put them on)."""
    return stock_release_orders(
        part_id=part_id, orders=[(order_id, quantity)], by=by, reason=reason, note=note
    )


@transaction.atomic
def stock_release_orders(
    *,
    part_id: int,
    orders: list[tuple[int | None, int]],
    by=None,
    reason: str = Reason.ORDER_CANCELLED,
    note: str = "",
) -> Part | None:
    """Put back what several orders of one part held, `(order_id, quantity)` each, under one
    lock and one write (a movement per order still names it); the part, or None when it is
    gone. Releasing many lapsed holds this way costs a few queries, not a few per order."""
    if any(quantity <= 0 for _, quantity in orders):
        raise ValueError("quantity must be positive")
    part = Part.objects.select_for_update().filter(pk=part_id).first()
    if part is None:
        return None
    total = sum(quantity for _, quantity in orders)
    before = part.available_quantity
    Part.objects.filter(pk=part.pk).update(available_quantity=F("available_quantity") + total)
    versions.bump(part_version(part.pk), PARTS)
    movements = []
    for order_id, quantity in orders:
        part.available_quantity += quantity
        movements.append(
            _movement(part, change=quantity, reason=reason, note=note, order_id=order_id, by=by)
        )
    StockMovement.objects.bulk_create(movements)
    alerts_back(part=part, before=before)  # back in stock: its alerts' mails
    return part


def stock_fell_below_minimum(*, before: int, after: int, minimum: int) -> bool:
    """The low-stock rule: a change crossed the line, from at or above the minimum order
    quantity to below it. Changes while a part stays below do not report it again; once it is
    restocked to its minimum or more, the next crossing does."""
    return after < minimum <= before


@transaction.atomic
def stock_adjust(
    *, part: Part, change: int, note: str = "", by, reason: str | None = None
) -> StockMovement:
    """Change the stock by hand by `change` units: received (+) or written off (−) unless
    another `reason` is given. `part` is refreshed to the stock now.

    Raises Rejected (400) for a change of 0, Conflict (409) when it would take the stock
    below 0 (stock is whatever it is under the lock, not what the caller last saw).
    """
    if not change:
        raise Rejected(CHANGE_ZERO)
    locked = _locked(part.pk)
    if locked.available_quantity + change < 0:
        left = locked.available_quantity
        raise Conflict(counted(left, *STOCK_BELOW_ZERO, taken=-change))
    reason = reason or (Reason.RECEIVED if change > 0 else Reason.WRITTEN_OFF)
    before = locked.available_quantity
    movement = _move(part=locked, change=change, reason=reason, note=note, by=by)
    part.available_quantity = after = locked.available_quantity
    if stock_fell_below_minimum(before=before, after=after, minimum=locked.minimum_order_quantity):
        part_stock_low.send(sender=Part, part=locked)  # the admins' mail
    return movement


def stock_initial(*, part: Part, by=None) -> StockMovement | None:
    """Keep the stock a new part was created with as its first movement (None for 0); the new
    part's service makes the cache stale."""
    if not part.available_quantity:
        return None
    return StockMovement.objects.create(
        part=part,
        part_name=part.name,
        change=part.available_quantity,
        stock_after=part.available_quantity,
        reason=Reason.INITIAL,
        by=by if by is not None and by.is_authenticated else None,
    )
