from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.conf import settings
from django.db import models
from django.db.models import (
    Case,
    CharField,
    Count,
    Exists,
    Max,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from simple_history.models import HistoricalRecords

from core.templatetags.money import money

from .shipments import tracking_url


class BookingState(models.TextChoices):
    """What a shopper and the shop see of an order; derived from its fields, never stored."""

    UNPAID = "unpaid", "Unpaid"
    PENDING = "pending", "Pending"
    SHIPPED = "shipped", "Shipped"
    EXPIRED = "expired", "Expired"
    REFUNDED = "refunded", "Refunded"


def _holding(now: datetime) -> Q:
    """An unpaid order's hold still runs: its stock is not back and its time is not up."""
    return Q(released_at__isnull=True) & (Q(expires_at__isnull=True) | Q(expires_at__gt=now))


def _ended(now: datetime) -> Q:
    """An unpaid order's hold ended: its stock is back, or its time is up (not _holding)."""
    return Q(released_at__isnull=False) | Q(expires_at__lte=now)


def _state_filters(now: datetime) -> dict[str, Q]:
    """Each state as a filter at the moment `now`: Booking.state_at in SQL. They are written
    like the conditions of Booking's partial indexes, so PostgreSQL uses those."""
    return {
        BookingState.UNPAID: Q(paid=False) & _holding(now),
        BookingState.PENDING: Q(paid=True, status__isnull=True, refunded_at__isnull=True),
        BookingState.SHIPPED: Q(status=Booking.Status.APPROVED, refunded_at__isnull=True),
        BookingState.EXPIRED: Q(paid=False) & _ended(now),
        BookingState.REFUNDED: Q(refunded_at__isnull=False),
    }


class BookingQuerySet(models.QuerySet):
    """Orders by state, in SQL: the one place the state rule is written for queries, held
    equal to Booking.state_at (its Python form) by orders/tests/test_models.py. `now`
    defaults to the moment of the call."""

    def in_state(self, state: str, now: datetime | None = None):
        """The orders in `state` (a BookingState value)."""
        return self.filter(_state_filters(now or timezone.now())[state])

    def with_state(self, now: datetime | None = None):
        """Each order with its state as `state_now`, for reads that skip the model (the CSV)."""
        whens = [
            When(q, then=Value(str(s))) for s, q in _state_filters(now or timezone.now()).items()
        ]
        return self.annotate(state_now=Case(*whens, output_field=CharField()))

    def count_by_state(self, now: datetime | None = None, *, also=None) -> dict[str, int]:
        """How many of the orders are in each state, in one query; `also`: other columns
        (name: an expression with no row of its own) read by the same query, added by name."""
        states = _state_filters(now or timezone.now())
        extra = {name: Coalesce(Max(column), column) for name, column in (also or {}).items()}
        counts = self.aggregate(**{s: Count("id", filter=q) for s, q in states.items()}, **extra)
        return {**{str(s): counts[s] for s in states}, **{name: counts[name] for name in extra}}

    def unpaid_holding(self, now: datetime | None = None):
        """Unpaid orders that still hold their stock (state unpaid): what the caps count."""
        return self.in_state(BookingState.UNPAID, now)

    def lapsed(self, now: datetime | None = None):
        """Unpaid orders whose hold ran out but whose stock is not back on the shelf yet:
        what the release of lapsed holds takes (expired, not yet released)."""
        now = now or timezone.now()
        return self.filter(paid=False, released_at__isnull=True, expires_at__lte=now)

    def of_parts(self, part_ids):
        """Orders with a line of one of `part_ids` (each order once)."""
        lines = BookingLine.objects.filter(booking=OuterRef("pk"), part_id__in=part_ids)
        return self.filter(Exists(lines))

    def lapsed_of_parts(self, part_ids, now: datetime | None = None):
        """lapsed() of of_parts(part_ids): the holds an order of those parts releases first
        (the orders of lapsed_lines)."""
        now = now or timezone.now()
        return self.lapsed(now).filter(pk__in=lapsed_lines(part_ids, now).values("booking_id"))


def lapsed_lines(part_ids, now: datetime):
    """The lines of `part_ids` whose order is a lapsed hold, in one statement whose cost is
    the lapsed holds, not the parts' history.

    A lapsed hold's id lies between the smallest and the largest id of all lapsed holds
    (each read from an end of the live holds' ids, orders_booking_live_hold_ids, past the
    holds still live there): only the lines of these parts whose order id lies there can be
    one (the index of lines by part and order). Each such line's order is then looked up in
    that index by a subquery of its own: PostgreSQL runs it once per line and never turns it
    into a join, which statistics that have not seen a burst of lapsed holds yet would order
    the wrong way round (every lapsed hold walked once per line). Few holds lapse unreleased
    at a time (the worker's sweep), and then the window is a few moments of orders; 10,000
    left by a shop without a worker cost no more to find.
    """
    lapsed = Booking.objects.lapsed(now)
    its_order = lapsed.filter(pk=OuterRef("booking_id")).order_by().values("pk")[:1]
    return (
        BookingLine.objects.filter(
            part_id__in=part_ids,
            booking_id__gte=Subquery(lapsed.order_by("pk").values("pk")[:1]),
            booking_id__lte=Subquery(lapsed.order_by("-pk").values("pk")[:1]),
        )
        .annotate(lapsed_order=Subquery(its_order))
        .filter(lapsed_order__isnull=False)
    )


class BookingEventKind(models.TextChoices):
    """The steps of an order's Timeline (Booking.events)."""

    PLACED = "placed", "Placed"
    PAID = "paid", "Paid"
    SHIPPED = "shipped", "Shipped"
    REFUNDED = "refunded", "Refunded"
    RETURN_REQUESTED = "return_requested", "Return requested"
    RETURN_APPROVED = "return_approved", "Return approved"
    RETURN_REJECTED = "return_rejected", "Return rejected"
    RETURN_REFUNDED = "return_refunded", "Return refunded"
    EXPIRED = "expired", "Expired"
    NOTE = "note", "Note to the shopper"
    INTERNAL_NOTE = "internal_note", "Internal note (shop admins only)"


class Booking(models.Model):
    """A purchase order. It keeps a snapshot of what was bought, so it outlives its part."""

    class Status(models.TextChoices):
        APPROVED = "approved", "Approved"

    State = BookingState

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="bookings"
    )
    email = models.EmailField()
    name = models.CharField(max_length=150, blank=True)
    # What was bought is the order's lines (BookingLine); this is what the order costs, the
    # sum of their totals: the amount paid.
    total_price = models.DecimalField(max_digits=12, decimal_places=2)
    # The rest of what pricing.quotes.quote answered when the order was placed, kept as it
    # was (later changes to methods, rates or vouchers never change an order): total_price =
    # subtotal - discount + shipping_price (+ tax unless tax_included).
    subtotal = models.DecimalField(max_digits=12, decimal_places=2)
    discount = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    voucher_code = models.CharField(max_length=32, blank=True)  # "": no voucher
    shipping_method = models.CharField(max_length=100, blank=True)  # "": the shop had none
    shipping_price = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    shipping_eta = models.CharField(max_length=100, blank=True)
    tax = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    tax_included = models.BooleanField(default=True)
    # The address fields it ships to (accounts' <address> as a copy: the order outlives the
    # address book); None for the spec's one line of free text (`address` alone).
    ship_to = models.JSONField(null=True, blank=True)
    address = models.CharField(max_length=500)
    phone = models.CharField(max_length=20)
    paid = models.BooleanField(default=False)
    status = models.CharField(max_length=20, choices=Status.choices, null=True, blank=True)
    transaction_id = models.CharField(max_length=255, blank=True)
    payment_intent_id = models.CharField(max_length=255, blank=True)
    payment_error = models.CharField(
        max_length=500, blank=True, help_text="The last failure the payment provider reported."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    paid_at = models.DateTimeField(
        null=True, blank=True, help_text="When the payment was recorded."
    )
    expires_at = models.DateTimeField(
        null=True, blank=True, help_text="When the hold of an unpaid order on its stock lapses."
    )
    released_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the stock of this unpaid order went back on the shelf (its hold lapsed).",
    )
    refunded_at = models.DateTimeField(
        null=True, blank=True, help_text="When the payment was refunded in full."
    )
    refund_id = models.CharField(max_length=255, blank=True)
    # What went back to the card so far: the returns' partial refunds (orders.services.
    # returning), the whole total once refunded in full.
    refunded_amount = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    # How it was shipped (orders.shipments), set when the shop approves it.
    carrier = models.CharField(max_length=40, blank=True)
    tracking_number = models.CharField(max_length=64, blank=True)
    shipped_at = models.DateTimeField(
        null=True, blank=True, help_text="When the shop approved (shipped) it."
    )
    # Given at payment from InvoiceCounter, once, and kept for good (a refund keeps it): "INV-"
    # the year of payment "-" the sequence's next number. None until paid (and for a payment
    # refunded at once because the order's stock was gone: nothing was sold).
    invoice_number = models.CharField(
        max_length=32, null=True, blank=True, unique=True, editable=False
    )
    # A guest's order (placed without an account): its private key, random (services.guests),
    # which opens /orders/{id}/{key}; None for an account's order. Kept when the order joins
    # the account that verifies its e-mail, so the guest's link keeps working.
    guest_key = models.CharField(max_length=64, null=True, blank=True, editable=False)
    # Its Timeline, oldest first: {"at", "kind" (BookingEventKind), "text", "amount" (a refund's,
    # else null), "by" (the admin who wrote a note, else null)} per step, each appended by the
    # service that made it happen, under the order's row lock (services.timeline). Kept on the
    # order's own row, so every read of orders has it with no query of its own.
    events = models.JSONField(default=list, blank=True, editable=False)
    client_address = models.GenericIPAddressField(
        null=True,
        blank=True,
        help_text="The address the order was placed from: the accounts seen from one address "
        "share one share of each part while their orders hold it (fair holds).",
    )

    objects = BookingQuerySet.as_manager()
    # The lines this object was placed with (orders.services.placing), so the answer that
    # follows need not read them back; None on an order read from the database.
    placed_lines: list["BookingLine"] | None = None
    # Every save (placed, paid, approved, released, refunded, an address corrected in Django
    # admin) keeps a copy of the order with who made it and when: Django admin's History.
    # The client's address and a guest's key are set once, when the order is placed: no history
    # of them is kept (nor is the key shown to anyone but its guest). Its events are a history
    # themselves: not copied again in every version.
    history = HistoricalRecords(excluded_fields=["client_address", "guest_key", "events"])

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="orders_booking_user_newest"),
            # Manage Orders, GET /api/bookings and the CSV (orders.selectors.booking_search):
            # newest first, whole or by state; and the Overview's orders placed since a day.
            models.Index(fields=["-created_at", "-id"], name="orders_booking_newest"),
            models.Index(
                fields=["-created_at", "-id"],
                condition=models.Q(paid=False),
                name="orders_booking_unpaid_newest",  # states unpaid and expired
            ),
            models.Index(
                fields=["-created_at", "-id"],
                condition=models.Q(paid=True, status__isnull=True, refunded_at__isnull=True),
                name="orders_booking_pending_newest",
            ),
            models.Index(
                fields=["-created_at", "-id"],
                condition=models.Q(status="approved", refunded_at__isnull=True),
                name="orders_booking_shipped_newest",
            ),
            models.Index(
                fields=["-created_at", "-id"],
                condition=models.Q(refunded_at__isnull=False),
                name="orders_booking_refund_newest",
            ),
            models.Index(fields=["paid_at"], name="orders_booking_paid_at"),
            # The holds that may still need releasing: few at any time, whatever the number of
            # orders (the sweep releases the lapsed ones every minute); their ids alongside.
            models.Index(
                fields=["expires_at"],
                include=["id"],
                condition=models.Q(paid=False, released_at__isnull=True),
                name="orders_booking_live_holds",
            ),
            # The same holds by id, their deadline alongside: the window of lapsed holds'
            # ids and each candidate of it (BookingQuerySet.lapsed_of_parts), read from the
            # index alone, whatever the statistics say of how many holds lapsed.
            models.Index(
                fields=["id"],
                include=["expires_at"],
                condition=models.Q(paid=False, released_at__isnull=True),
                name="orders_booking_live_hold_ids",
            ),
            # What the accounts seen from one address hold (holds.account_holds): the live
            # holds only, so it stays small whatever the number of orders.
            models.Index(
                fields=["client_address"],
                condition=models.Q(paid=False, released_at__isnull=True),
                name="orders_booking_address_holds",
            ),
            # Guests' orders by e-mail, not yet joined to an account: the caps count them, and
            # an account that verifies the address takes them (services.guests).
            models.Index(
                fields=["email"],
                condition=models.Q(user__isnull=True, guest_key__isnull=False),
                name="orders_booking_guest_email",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(total_price__gte=0), name="orders_booking_total_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(
                    subtotal__gte=0, discount__gte=0, shipping_price__gte=0, tax__gte=0
                ),
                name="orders_booking_breakdown_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(status__isnull=True) | models.Q(status="approved", paid=True),
                name="orders_booking_approved_only_when_paid",
            ),
            models.CheckConstraint(
                condition=models.Q(refunded_at__isnull=True) | models.Q(paid=True),
                name="orders_booking_refunded_only_when_paid",
            ),
        ]

    def __str__(self):
        if self.pk is None:
            return "A new order"
        summary = self.summary
        return f"Order #{self.pk}: {summary.quantity} × {summary.parts_name}"

    def get_absolute_url(self) -> str:
        return f"/dashboard/orders/{self.pk}"

    @property
    def guest_path(self) -> str | None:
        """A guest's order's private page, `/orders/{id}/{key}`; None for an account's order.
        Only for the guest's own answers (the checkout's, the page, the mails)."""
        return f"/orders/{self.pk}/{self.guest_key}" if self.guest_key else None

    @property
    def tracking_url(self) -> str | None:
        """The carrier's page that tracks this order (orders.shipments), or None."""
        return tracking_url(self.carrier, self.tracking_number)

    @property
    def shown_lines(self) -> Iterable["BookingLine"]:
        """The order's lines: those just written when it was placed (nothing read again),
        else lines.all() (read them with prefetch_related("lines"), as the selectors do)."""
        return self.lines.all() if self.placed_lines is None else self.placed_lines

    def timeline(self, *, internal: bool = False) -> list[dict]:
        """Its events, oldest first; internal notes only when `internal` (shop admins)."""
        return [e for e in self.events if internal or e["kind"] != BookingEventKind.INTERNAL_NOTE]

    @property
    def summary(self) -> "LinesSummary":
        """What was bought, as the API's one-line fields show it (LinesSummary.of its lines)."""
        return LinesSummary.of(self.shown_lines)

    # The summary's fields, for templates, Django admin and the API's serializer.

    @property
    def part_id(self) -> int | None:
        return self.summary.part_id

    @property
    def parts_name(self) -> str:
        return self.summary.parts_name

    @property
    def quantity(self) -> int:
        return self.summary.quantity

    @property
    def price_per_unit(self) -> Decimal | None:
        return self.summary.price_per_unit

    @property
    def state(self) -> str:
        """The order's state now (a BookingState value)."""
        return self.state_at(timezone.now())

    def state_at(self, now: datetime) -> str:
        """The state at the moment `now`: BookingQuerySet's filters in Python."""
        if self.refunded_at:
            return self.State.REFUNDED
        if self.status:
            return self.State.SHIPPED
        if self.paid:
            return self.State.PENDING
        holding = self.released_at is None and (self.expires_at is None or self.expires_at > now)
        return self.State.UNPAID if holding else self.State.EXPIRED

    @property
    def price_rows(self) -> list[tuple[str, str]]:
        """The breakdown as a person reads it (the order page, the mails; Manage Orders' island
        writes the same from <booking>): "Subtotal", "Discount" with its code (when there is
        one), "Shipping" with its method ("Free" at 0), "Tax" ("Includes $X tax" when the
        prices include it), "Total"."""
        rows = [("Subtotal", money(self.subtotal))]
        if self.discount or self.voucher_code:
            code = f" ({self.voucher_code})" if self.voucher_code else ""
            rows.append((f"Discount{code}", money(-self.discount) if self.discount else "$0.00"))
        price = money(self.shipping_price) if self.shipping_price else "Free"
        rows.append(
            ("Shipping", f"{self.shipping_method}: {price}" if self.shipping_method else price)
        )
        if self.tax_included and self.tax:
            rows.append(("Tax", f"Includes {money(self.tax)} tax"))
        else:
            rows.append(("Tax", money(self.tax)))
        rows.append(("Total", money(self.total_price)))
        return rows

    @property
    def hold_expires_at(self):
        """When the hold lapses; None once paid (the order's `expiresAt` in the API)."""
        return None if self.paid else self.expires_at


class LinesSummary(NamedTuple):
    """An order's lines as the API's one-line fields of <booking> show them: an order of one
    line is that line's part, name, unit price and quantity; an order of several has the
    names joined by ", ", the total units, and no part and no unit price of its own."""

    part_id: int | None
    parts_name: str
    quantity: int
    price_per_unit: Decimal | None

    @classmethod
    def of(cls, lines: Iterable["BookingLine"]) -> "LinesSummary":
        lines = list(lines)
        only = lines[0] if len(lines) == 1 else None
        return cls(
            part_id=only.part_id if only else None,
            parts_name=", ".join(line.parts_name for line in lines),
            quantity=sum(line.quantity for line in lines),
            price_per_unit=only.price_per_unit if only else None,
        )


class BookingLine(models.Model):
    """One part of an order: a snapshot of its name and unit price, so it outlives its part."""

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="lines")
    part = models.ForeignKey(
        "catalog.Part",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="booking_lines",
        db_index=False,  # orders_bookingline_by_part starts with it
    )
    parts_name = models.CharField(max_length=200)
    price_per_unit = models.DecimalField(max_digits=10, decimal_places=2)
    quantity = models.PositiveIntegerField()
    line_total = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["id"]
        indexes = [
            # A part's lines by order: its orders (stats, a deleted part's orders), and the
            # lapsed holds of an order's parts (BookingQuerySet.lapsed_of_parts).
            models.Index(fields=["part", "booking"], name="orders_bookingline_by_part"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(quantity__gt=0), name="orders_bookingline_quantity_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(price_per_unit__gte=0, line_total__gte=0),
                name="orders_bookingline_prices_not_negative",
            ),
            # One line per part (a deleted part's lines have no link, so they never clash).
            models.UniqueConstraint(fields=["booking", "part"], name="orders_bookingline_one"),
        ]

    def __str__(self):
        return f"{self.quantity} × {self.parts_name}"


class InvoiceCounter(models.Model):
    """The invoices' one sequence: one row, whose `last` is the number given last. A payment
    takes the next number with the row locked (an UPDATE) in its own transaction, so a payment
    that rolls back gives its number back, and numbers are given in one order with no gaps."""

    last = models.PositiveBigIntegerField(default=0)

    def __str__(self):
        return f"Invoices up to {self.last}"


class PaymentEvent(models.Model):
    """A Stripe webhook event as it arrived, and what the shop did with it."""

    class Outcome(models.TextChoices):
        PAID = "paid", "Order marked paid"
        ALREADY_PAID = "already_paid", "Order was already paid"
        FAILED = "failed", "Payment failure recorded"
        IGNORED = "ignored", "Ignored"
        REJECTED = "rejected", "Rejected (does not match the order)"
        REFUNDED = "refunded", "Payment refunded (order gone, sold out or refunded)"
        ALREADY_REFUNDED = "already_refunded", "Order was already refunded"

    event_id = models.CharField(max_length=255, unique=True)
    type = models.CharField(max_length=100)
    booking = models.ForeignKey(
        Booking, on_delete=models.SET_NULL, null=True, blank=True, related_name="payment_events"
    )
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    detail = models.CharField(max_length=500, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at", "-id"]

    def __str__(self):
        return f"{self.type} {self.event_id}"


class HoldDeadline(models.Model):
    """When an unpaid order that its account deleted would have lapsed: a new order of the same
    part by the same account lapses then too, so deleting and ordering again never renews a
    hold. Written when such an order is deleted (the order is gone
    afterwards); stale once `expires_at` has passed, and pruned by the lapsed-holds sweep."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hold_deadlines"
    )
    part = models.ForeignKey(
        "catalog.Part", on_delete=models.CASCADE, related_name="hold_deadlines"
    )
    expires_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "part"], name="orders_holddeadline_one"),
        ]
        indexes = [models.Index(fields=["expires_at"], name="orders_holddeadline_expiry")]

    def __str__(self):
        return f"{self.user_id} holds part {self.part_id} until {self.expires_at:%Y-%m-%d %H:%M}"


class Cart(models.Model):
    """Parts a shopper means to order, before any stock is held: the signed-in account's (the
    same cart on every device), or a visitor's, whose id the visitor's session keeps (the
    session's key changes at sign-in, its data stays: orders.services.cart merges the two
    then). A visitor's cart is made by their first addition, never by reading."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="cart",
    )
    # The code the shopper applied (one per order): checked again when the cart is shown and
    # at checkout, where its use is counted. A voucher deleted by the owner leaves the cart.
    voucher = models.ForeignKey(
        "pricing.Voucher", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # Visitors' carts whose sessions are long gone are found by their age.
            models.Index(
                fields=["updated_at"],
                condition=models.Q(user__isnull=True),
                name="orders_cart_visitor_age",
            ),
        ]

    def __str__(self):
        return f"Cart of {self.user_id}" if self.user_id else f"Visitor's cart #{self.pk}"


class CartLine(models.Model):
    """One part in a cart, and how many. A deleted part leaves every cart (CASCADE): a cart
    holds no stock, its prices and stock are read when it is shown; the price the part had
    when it was added is kept only to tell the shopper that it changed since."""

    cart = models.ForeignKey(Cart, on_delete=models.CASCADE, related_name="lines")
    part = models.ForeignKey("catalog.Part", on_delete=models.CASCADE, related_name="cart_lines")
    quantity = models.PositiveIntegerField()
    price_when_added = models.DecimalField(max_digits=10, decimal_places=2)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["added_at", "id"]
        constraints = [
            # One line per part: adding it again (from two tabs at once too) adds to that line.
            models.UniqueConstraint(fields=["cart", "part"], name="orders_cartline_one_per_part"),
            models.CheckConstraint(
                condition=models.Q(quantity__gt=0), name="orders_cartline_quantity_positive"
            ),
        ]

    def __str__(self):
        return f"{self.quantity} × part {self.part_id}"


class Return(models.Model):
    """A shopper sends back units of lines of a shipped order (orders.services.returning):
    requested, then approved or rejected by the shop, then received and refunded (its lines'
    share of what was paid, orders.services.returning.refund_share)."""

    class Reason(models.TextChoices):
        DOESNT_FIT = "doesnt_fit", "It doesn't fit my bike"
        WRONG_PART = "wrong_part", "Wrong part"
        DAMAGED = "damaged", "Arrived damaged"
        NOT_NEEDED = "not_needed", "No longer needed"
        OTHER = "other", "Other"

    class State(models.TextChoices):
        REQUESTED = "requested", "Requested"
        APPROVED = "approved", "Approved"
        REJECTED = "rejected", "Rejected"
        REFUNDED = "refunded", "Refunded"

    # The states whose units count as returned (a rejected return gives them back).
    HOLDING = (State.REQUESTED, State.APPROVED, State.REFUNDED)

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="returns")
    reason = models.CharField(max_length=20, choices=Reason.choices)
    comment = models.CharField(max_length=1000, blank=True)
    state = models.CharField(max_length=20, choices=State.choices, default=State.REQUESTED)
    admin_comment = models.CharField(
        max_length=1000, blank=True, help_text="The shop's word to the shopper (a rejection)."
    )
    refund_amount = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    refund_id = models.CharField(max_length=255, blank=True)
    restocked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    received_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["state", "-created_at"], name="orders_return_by_state")]

    def __str__(self):
        return f"Return #{self.pk} of order #{self.booking_id}"

    @property
    def reason_label(self) -> str:
        return self.Reason(self.reason).label

    @property
    def state_label(self) -> str:
        return self.State(self.state).label


class ReturnLine(models.Model):
    """Units of one line of the order in a return."""

    ret = models.ForeignKey(Return, on_delete=models.CASCADE, related_name="lines")
    booking_line = models.ForeignKey(BookingLine, on_delete=models.CASCADE, related_name="+")
    quantity = models.PositiveIntegerField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(quantity__gt=0), name="orders_returnline_quantity_positive"
            ),
            models.UniqueConstraint(fields=["ret", "booking_line"], name="orders_returnline_one"),
        ]

    def __str__(self):
        return f"{self.quantity} × {self.booking_line.parts_name}"
