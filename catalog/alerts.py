""" "Email me when it's back": back-in-stock alerts, their mails and what Manage Parts counts.

An alert waits for one part for one e-mail address. A signed-in rider's is live at once (the
account's address); a visitor's starts only when the signed link mailed to them is opened
(LINK_MAX_AGE). Asking is refused (409) while the part is in stock, and an address may have at
most MAX_PER_EMAIL alerts open (live, or asked within LINK_MAX_AGE); asking again for the same
part is the same alert.

When a part's stock rises from below its minimum order quantity to that or more (catalog.stock:
a stock adjustment, released holds, a cancelled or refunded order put back), `alerts_back`
runs in that change's transaction, with the part's row locked: each live alert gets one mail
("Back in stock: {part name}", a link to the part at SITE_URL, written to the outbox so it
leaves once the change commits) and ends. Asking, confirming and the mails all take the part's
row lock, so two rises that race mail each alert once, and an alert started as the stock came
back is either mailed or refused, never left waiting.
"""

from datetime import timedelta

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from core.emails import compose, normalize_email
from core.errors import Conflict, NotFound
from core.links import absolute_url
from core.outbox import outbox_queue

from .models import Part, StockAlert

STARTED = "We will e-mail you when it is back."
CHECK_MAIL = "Check your e-mail to confirm the alert."
IN_STOCK = "This part is in stock: you can order it now."
MAX_PER_EMAIL = 20
TOO_MANY = (
    f"This e-mail address already waits for {MAX_PER_EMAIL} parts, the most it may: "
    "new alerts can be asked once some of those parts are back."
)
PART_GONE = "This part is no longer sold."
LINK_MAX_AGE = timedelta(days=7)
BACK_SUBJECT = "Back in stock: {name}"
CONFIRM_SUBJECT = "Confirm your alert: {name}"
_SALT = "catalog.alerts.confirm"


class Confirmed:
    """What opening a confirmation link did (the page says it)."""

    LIVE = "live"  # the alert waits now (or already did)
    IN_STOCK = "in_stock"  # the part is back already: no alert needed
    ENDED = "ended"  # its mail went out already
    EXPIRED = "expired"
    INVALID = "invalid"


def _locked(part_id: int) -> Part:
    return Part.objects.select_for_update().defer("search_vector").get(pk=part_id)


def _open(email: str):
    """The address's alerts that count toward MAX_PER_EMAIL: not ended, and live or asked
    within LINK_MAX_AGE (an unconfirmed one past it no longer holds a place)."""
    fresh = timezone.now() - LINK_MAX_AGE
    return StockAlert.objects.filter(email=email, ended_at__isnull=True).filter(
        Q(confirmed_at__isnull=False) | Q(created_at__gte=fresh)
    )


@transaction.atomic
def stock_alert_ask(*, part_id: int, user=None, email: str = "") -> StockAlert:
    """ "Email me when it's back" on the part: a signed-in `user`'s alert (their account's
    address, live at once), or a visitor's for `email` (its confirmation link mailed).

    Raises NotFound when the part is gone, Conflict (409, IN_STOCK) while it is in
    stock, ValidationError on `email` past MAX_PER_EMAIL."""
    signed_in = user is not None and user.is_authenticated
    email = normalize_email(user.email if signed_in else email)
    try:
        part = _locked(part_id)
    except Part.DoesNotExist:
        raise NotFound(PART_GONE) from None
    if not part.is_out_of_stock:
        raise Conflict(IN_STOCK)
    now = timezone.now()
    alert = StockAlert.objects.filter(part=part, email=email, ended_at__isnull=True).first()
    if alert is None:
        if _open(email).count() >= MAX_PER_EMAIL:
            raise ValidationError({"email": TOO_MANY})
        alert = StockAlert.objects.create(part=part, email=email)
    if signed_in:
        if alert.confirmed_at is None:
            alert.confirmed_at, alert.user = now, user
            alert.save(update_fields=["confirmed_at", "user"])
        return alert
    if alert.confirmed_at is None:  # asked again: a new link, good for LINK_MAX_AGE again
        StockAlert.objects.filter(pk=alert.pk).update(created_at=now)
        _mail_confirm(alert, part)
    return alert


def confirm_token(alert: StockAlert) -> str:
    return signing.dumps(alert.pk, salt=_SALT)


@transaction.atomic
def stock_alert_confirm(*, token: str) -> tuple[str, Part | None]:
    """Opening a visitor's link: the alert goes live, unless the link is bad or expired, the
    part is back already (the alert ends: nothing to wait for) or the alert ended."""
    try:
        alert_id = signing.loads(token, salt=_SALT, max_age=LINK_MAX_AGE)
    except signing.SignatureExpired:
        return Confirmed.EXPIRED, None
    except signing.BadSignature:
        return Confirmed.INVALID, None
    if not isinstance(alert_id, int):
        return Confirmed.INVALID, None
    found = StockAlert.objects.filter(pk=alert_id).values_list("part_id", flat=True).first()
    if found is None:  # its part was deleted since
        return Confirmed.INVALID, None
    part = _locked(found)
    alert = StockAlert.objects.get(pk=alert_id)
    now = timezone.now()
    if alert.ended_at is not None:
        return Confirmed.ENDED, part
    if alert.confirmed_at is not None:
        return Confirmed.LIVE, part
    if not part.is_out_of_stock:
        StockAlert.objects.filter(pk=alert.pk).update(ended_at=now)
        return Confirmed.IN_STOCK, part
    StockAlert.objects.filter(pk=alert.pk).update(confirmed_at=now)
    return Confirmed.LIVE, part


def alerts_back(*, part: Part, before: int) -> int:
    """The locked `part`'s stock rose from `before`: when it went from below its minimum
    order quantity to that or more, each live alert gets its mail and ends (in the caller's
    transaction, under the part's lock); how many mails."""
    minimum = part.minimum_order_quantity
    if before >= minimum or part.available_quantity < minimum:
        return 0
    # An account's alert goes to the account's address now (it may have changed since).
    waiting = list(
        StockAlert.objects.filter(
            part_id=part.pk, ended_at__isnull=True, confirmed_at__isnull=False
        ).values_list("pk", "email", "user__email")
    )
    if not waiting:
        return 0
    now = timezone.now()
    StockAlert.objects.filter(pk__in=[row[0] for row in waiting], ended_at__isnull=True).update(
        ended_at=now, mailed_at=now
    )
    context = {"part": part, "part_url": absolute_url(part.get_absolute_url())}
    subject = BACK_SUBJECT.format(name=part.name)
    return outbox_queue(
        [
            compose(
                template="stock_alert_back", subject=subject, to=[now_at or email], context=context
            )
            for _, email, now_at in waiting
        ]
    )


def _mail_confirm(alert: StockAlert, part: Part) -> int:
    context = {
        "part": part,
        "part_url": absolute_url(part.get_absolute_url()),
        "confirm_url": absolute_url(f"/alerts/confirm/{confirm_token(alert)}"),
        "days": LINK_MAX_AGE.days,
    }
    subject = CONFIRM_SUBJECT.format(name=part.name)
    message = compose(
        template="stock_alert_confirm", subject=subject, to=[alert.email], context=context
    )
    return outbox_queue([message])


def waiting_counts(part_ids: list[int]) -> dict[int, int]:
    """How many live alerts wait for each of these parts (those with none left out), in one
    query: Manage Parts' "N waiting"."""
    rows = (
        StockAlert.objects.filter(
            part_id__in=part_ids, ended_at__isnull=True, confirmed_at__isnull=False
        )
        .values("part_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return {row["part_id"]: row["n"] for row in rows}
