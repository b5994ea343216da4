"""Saved parts: the parts a shopper keeps for later, each with its price when saved, so that
/saved can say "Price dropped" when it is lower now.

An account's saved parts are kept in the database (SavedPart rows); a visitor's in their
session, under SAVED: {part id: [price when saved, when saved (ISO 8601)]}, oldest first. At
every sign-in the visitor's saved parts join the account's (saved_parts_merge, on
user_logged_in: catalog.receivers), as the garage and the cart do.

No page kept for visitors shows them: the "Save" buttons on cards and part pages are the same
for everyone, and the page's script marks the saved ones "Saved" after reading /api/saved
(docs/features.md, "Saved parts"). So a write bumps no cached version.

Each service takes the caller as `user` (None or an anonymous user: a visitor) and `session`,
and answers the saved parts as they now are, the latest saved first. A bad request is a
ValidationError naming its field (the API's 400, the page's message).
"""

from datetime import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from core.api import MAX_ID

from .models import Part, SavedPart

SAVED = "saved_parts"  # a visitor's session: {"<part id>": ["<price>", "<ISO time>"]}
MAX_SAVED = 100

PART_REQUIRED = "partId is required"
PART_NOT_WHOLE = "partId must be a whole number"
UNKNOWN_PART = "There is no part with this id."
SAVED_FULL = f"You can save at most {MAX_SAVED} parts: remove one first."


def _account(user):
    """The account whose saved parts they are, or None for a visitor (their session's)."""
    return user if user is not None and user.is_authenticated else None


def _parts():
    return Part.objects.select_related("category").defer("search_vector")


def _saved(part: Part, price: Decimal, at: datetime) -> Part:
    part.saved_price, part.saved_at = price, at
    part.price_dropped = part.price < price
    return part


# --- Reads ------------------------------------------------------------------------------------


def saved_parts_read(*, user, session) -> list[Part]:
    """The caller's saved parts, the latest saved first: each Part with `saved_price`,
    `saved_at` and `price_dropped` (its price now is lower than when saved). One query. A
    deleted part leaves every list."""
    account = _account(user)
    if account is not None:
        rows = SavedPart.objects.filter(user=account).select_related("part__category")
        rows = rows.defer("part__search_vector")
        return [_saved(row.part, row.saved_price, row.created_at) for row in rows]
    kept = session.get(SAVED) or {}
    if not kept:
        return []
    found = _parts().in_bulk([int(pk) for pk in kept])
    return [
        _saved(found[int(pk)], Decimal(price), datetime.fromisoformat(at))
        for pk, (price, at) in reversed(kept.items())
        if int(pk) in found
    ]


# --- Writes -----------------------------------------------------------------------------------


def _part(part_id) -> Part:
    part = _parts().filter(pk=part_id).first() if 0 < part_id <= MAX_ID else None
    if part is None:
        raise ValidationError({"partId": [UNKNOWN_PART]})
    return part


def _lock_account(account) -> None:
    """Serialise the account's writes (two tabs saving a 101st part at once)."""
    list(get_user_model().objects.select_for_update().filter(pk=account.pk).values_list("pk"))


def saved_part_add(*, user, session, part_id: int) -> list[Part]:
    """Save the part at its price now (at most MAX_SAVED parts); a part saved already keeps
    the price it was first saved at."""
    part = _part(part_id)
    account = _account(user)
    if account is None:
        kept = dict(session.get(SAVED) or {})
        if str(part.pk) not in kept:
            if len(kept) >= MAX_SAVED:  # parts deleted since leave room
                there = Part.objects.filter(pk__in=[int(pk) for pk in kept]).values_list("pk")
                there = {str(pk) for (pk,) in there}
                kept = {pk: value for pk, value in kept.items() if pk in there}
            if len(kept) >= MAX_SAVED:
                raise ValidationError({"partId": [SAVED_FULL]})
            kept[str(part.pk)] = [str(part.price), timezone.now().isoformat()]
            session[SAVED] = kept
        return saved_parts_read(user=user, session=session)
    with transaction.atomic():
        _lock_account(account)
        rows = SavedPart.objects.filter(user=account)
        if not rows.filter(part=part).exists():
            if rows.count() >= MAX_SAVED:
                raise ValidationError({"partId": [SAVED_FULL]})
            SavedPart.objects.create(user=account, part=part, saved_price=part.price)
    return saved_parts_read(user=user, session=session)


def saved_part_remove(*, user, session, part_id: int) -> list[Part]:
    """Forget the part (nothing to do when it is not saved, or there is no such part)."""
    account = _account(user)
    if account is None:
        kept = session.get(SAVED) or {}
        if str(part_id) in kept:
            session[SAVED] = {pk: value for pk, value in kept.items() if pk != str(part_id)}
    elif 0 < part_id <= MAX_ID:
        SavedPart.objects.filter(user=account, part_id=part_id).delete()
    return saved_parts_read(user=user, session=session)


def saved_parts_merge(*, user, session) -> None:
    """At sign-in: the visitor's saved parts join the account's (while there is room, the
    earliest saved first); a part both saved keeps the earlier saved price; the session
    forgets them."""
    kept = session.pop(SAVED, None) or {}
    account = _account(user)
    if account is None or not kept:
        return
    visitors = {
        int(pk): (Decimal(price), datetime.fromisoformat(at)) for pk, (price, at) in kept.items()
    }
    with transaction.atomic():
        _lock_account(account)
        existing = set(Part.objects.filter(pk__in=visitors).values_list("pk", flat=True))
        rows = {row.part_id: row for row in SavedPart.objects.filter(user=account)}
        for pk, (price, at) in visitors.items():
            row = rows.get(pk)
            if row is not None and at < row.created_at:  # the visitor saved it first
                row.saved_price, row.created_at = price, at
                row.save(update_fields=["saved_price", "created_at"])
        room = MAX_SAVED - len(rows)
        new = [pk for pk in visitors if pk in existing and pk not in rows][: max(room, 0)]
        SavedPart.objects.bulk_create(
            [
                SavedPart(
                    user=account,
                    part_id=pk,
                    saved_price=visitors[pk][0],
                    created_at=visitors[pk][1],
                )
                for pk in new
            ]
        )
