"""Whether a voucher applies: the one check the cart, the quote and the checkout's use (under
the voucher's lock) all make, with the six messages of the API word for word."""

from datetime import datetime
from decimal import Decimal
from functools import reduce
from operator import or_

from django.db.models import Count, Q
from django.utils import timezone

from core.emails import normalize_email
from core.errors import Rejected
from core.templatetags.money import money

from .models import Voucher, VoucherUse

NOT_VALID = "This code is not valid."
NOT_YET = "This code is not active yet."
EXPIRED = "This code has expired."
SPEND_MORE = "Spend {amount} more to use this code."
USED_UP = "This code has been used up."
ALREADY_USED = "You have already used this code."


class VoucherRefused(Rejected):
    """The code does not apply to this order: its message is one of the six above."""


def voucher_find(code: str) -> Voucher | None:
    """The voucher of `code`, whatever its case (switched off or not), or None."""
    code = (code or "").strip()
    if not code or len(code) > 32:
        return None
    return Voucher.objects.filter(code__iexact=code).first()


def voucher_check(
    *,
    voucher: Voucher | None,
    subtotal: Decimal,
    user=None,
    email: str = "",
    at: datetime | None = None,
) -> Voucher:
    """`voucher` if it applies to goods worth `subtotal` bought by `user` (or, for a guest,
    `email`) at `at` (now); else VoucherRefused with the reason a shopper reads."""
    if voucher is None or not voucher.active:
        raise VoucherRefused(NOT_VALID)
    at = at or timezone.now()
    if voucher.starts_at is not None and at < voucher.starts_at:
        raise VoucherRefused(NOT_YET)
    if voucher.ends_at is not None and at >= voucher.ends_at:
        raise VoucherRefused(EXPIRED)
    if subtotal < voucher.min_subtotal:
        raise VoucherRefused(SPEND_MORE.format(amount=money(voucher.min_subtotal - subtotal)))
    if voucher.usage_limit is None and not voucher.once_per_customer:
        return voucher
    total, mine = _uses(voucher, user=user, email=email)
    if voucher.usage_limit is not None and total >= voucher.usage_limit:
        raise VoucherRefused(USED_UP)
    if voucher.once_per_customer and mine:
        raise VoucherRefused(ALREADY_USED)
    return voucher


def _uses(voucher: Voucher, *, user, email: str) -> tuple[int, int]:
    """How many uses the voucher has, and how many of them are this customer's (the account's,
    or the e-mail's: a guest, or the account's own address used as a guest), in one query."""
    customer = []
    if user is not None and user.is_authenticated:
        customer.append(Q(user=user))
        email = email or user.email
    if email:
        customer.append(Q(email__iexact=normalize_email(email)))
    counts = {"total": Count("id")}
    if customer:
        counts["mine"] = Count("id", filter=reduce(or_, customer))
    found = VoucherUse.objects.filter(voucher=voucher).aggregate(**counts)
    return found["total"], found.get("mine", 0)
