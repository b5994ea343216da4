"""Order shapes of the API."""

from datetime import datetime

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.validators import EMAIL_REQUIRED, validate_shop_email
from catalog.serializers import PartOutputSerializer
from core.api import MAX_ID, PageInputSerializer
from core.emails import normalize_email
from core.fields import PhoneField, required

from .models import Booking, BookingEventKind, BookingLine, LinesSummary, PaymentEvent, Return
from .selectors import ORDER_NUMBER
from .services.placing import SHIPPING_METHOD_UNKNOWN
from .shipments import shipment_json

PART_REQUIRED = "Choose a part to order"
PART_UNKNOWN = "There is no part with this id"
ORDER_UNKNOWN = "There is no order with this id"
MONEY = {"max_digits": 12, "decimal_places": 2, "coerce_to_string": False}
STATE_UNKNOWN = "State must be one of: " + ", ".join(Booking.State.values)
SEARCH_TOO_LONG = "Search words can be at most 200 characters"
QUANTITY_NOT_WHOLE = "Quantity must be a whole number"
CARRIER_TOO_LONG = "A carrier's name is at most 40 characters (UPS, USPS, FedEx, DHL or another)"
TRACKING_NUMBER_RULE = r"^\s*[A-Za-z0-9][A-Za-z0-9 -]*\s*$"
TRACKING_NUMBER_INVALID = "A tracking number is up to 64 letters, digits, spaces or dashes"
ADDRESS_REQUIRED = "Address is required"


class BookingLineOutputSerializer(serializers.ModelSerializer):
    partId = serializers.IntegerField(source="part_id", allow_null=True)
    partsName = serializers.CharField(source="parts_name")
    pricePerUnit = serializers.DecimalField(source="price_per_unit", **MONEY)
    lineTotal = serializers.DecimalField(source="line_total", **MONEY)

    class Meta:
        model = BookingLine
        fields = ["partId", "partsName", "quantity", "pricePerUnit", "lineTotal"]


class CodeOrNullField(serializers.CharField):
    """A code kept as "" when there is none, written null."""

    def to_representation(self, value):
        return value or None


class BookingShippingSerializer(serializers.Serializer):
    """How an order ships: the method's name, its price and eta as they were when placed."""

    method = serializers.CharField(source="shipping_method")
    price = serializers.DecimalField(source="shipping_price", **MONEY)
    eta = serializers.CharField(source="shipping_eta")


class BookingShipmentSerializer(serializers.Serializer):
    """How a shipped order went (orders.shipments): null until it is shipped."""

    carrier = serializers.CharField()
    trackingNumber = serializers.CharField(source="tracking_number")
    trackingUrl = serializers.URLField(allow_null=True)
    shippedAt = serializers.DateTimeField(source="shipped_at", allow_null=True)

    def to_representation(self, instance):
        return _shipment(instance)


class BookingEventOutputSerializer(serializers.Serializer):
    """One step of the order's Timeline (Booking.events)."""

    at = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=BookingEventKind.choices)
    text = serializers.CharField()

    def to_representation(self, instance):
        return event_json(instance)


class BookingOutputSerializer(serializers.ModelSerializer):
    """An order; partId, partsName, quantity and pricePerUnit are read from its lines (for one
    of several lines, partId and pricePerUnit are null, partsName the lines' names joined,
    quantity the units: orders.models.Booking)."""

    _id = serializers.IntegerField(source="pk", read_only=True)
    partId = serializers.IntegerField(source="part_id", allow_null=True)
    partsName = serializers.CharField(source="parts_name")
    pricePerUnit = serializers.DecimalField(source="price_per_unit", allow_null=True, **MONEY)
    totalPrice = serializers.DecimalField(source="total_price", **MONEY)
    subtotal = serializers.DecimalField(**MONEY)
    discount = serializers.DecimalField(**MONEY)
    voucher = CodeOrNullField(source="voucher_code", allow_null=True)
    shipping = BookingShippingSerializer(source="*")
    tax = serializers.DecimalField(**MONEY)
    taxIncluded = serializers.BooleanField(source="tax_included")
    shipTo = serializers.JSONField(source="ship_to", allow_null=True)
    shipment = BookingShipmentSerializer(source="*", allow_null=True)
    transactionId = serializers.CharField(source="transaction_id")
    invoiceNumber = serializers.CharField(source="invoice_number", allow_null=True)
    refunded = serializers.DecimalField(source="refunded_amount", **MONEY)
    status = serializers.ChoiceField(choices=Booking.Status.choices, allow_null=True)
    state = serializers.ChoiceField(choices=Booking.State.choices)
    createdAt = serializers.DateTimeField(source="created_at")
    expiresAt = serializers.DateTimeField(source="hold_expires_at", allow_null=True)
    url = serializers.CharField(source="get_absolute_url")
    lines = BookingLineOutputSerializer(many=True)
    events = BookingEventOutputSerializer(many=True, source="timeline")

    class Meta:
        model = Booking
        fields = [
            "_id",
            "email",
            "name",
            "partId",
            "partsName",
            "quantity",
            "pricePerUnit",
            "totalPrice",
            "subtotal",
            "discount",
            "voucher",
            "shipping",
            "tax",
            "taxIncluded",
            "shipTo",
            "address",
            "phone",
            "paid",
            "status",
            "shipment",
            "transactionId",
            "invoiceNumber",
            "refunded",
            "state",
            "createdAt",
            "expiresAt",
            "url",
            "lines",
            "events",
        ]


# The same shape without DRF's per-field machinery, for the hot reads (My Order, the order
# page, GET /api/booking): plain attribute reads, and DRF's own fields only where a value is
# written a particular way (dates, money). orders/tests/test_serializers.py holds it equal to
# BookingOutputSerializer in every state.
_DATETIME = serializers.DateTimeField()
_MONEY = serializers.DecimalField(**MONEY)


def _when(value):
    return None if value is None else _DATETIME.to_representation(value)


def _money(value):
    return None if value is None else _MONEY.to_representation(value)


def _shipment(booking: Booking) -> dict | None:
    shipment = shipment_json(booking)
    return None if shipment is None else {**shipment, "shippedAt": _when(shipment["shippedAt"])}


def line_json(line: BookingLine) -> dict:
    """BookingLineOutputSerializer(line).data, as a plain dict."""
    return {
        "partId": line.part_id,
        "partsName": line.parts_name,
        "quantity": line.quantity,
        "pricePerUnit": _MONEY.to_representation(line.price_per_unit),
        "lineTotal": _MONEY.to_representation(line.line_total),
    }


def event_json(event: dict) -> dict:
    """One step of Booking.events as the API shows it."""
    return {
        "at": _when(datetime.fromisoformat(event["at"])),
        "kind": event["kind"],
        "text": event["text"],
    }


def booking_json(booking: Booking, *, internal: bool = False) -> dict:
    """BookingOutputSerializer(booking).data, as a plain dict; its lines and events are read
    once (none when they were prefetched, or the order was just placed). Internal notes are
    in its events only when `internal` (an answer to a shop admin)."""
    status, state = booking.status, booking.state
    lines = booking.placed_lines
    if lines is None:
        lines = list(booking.lines.all())
    summary = LinesSummary.of(lines)
    return {
        "_id": booking.pk,
        "email": booking.email,
        "name": booking.name,
        "partId": summary.part_id,
        "partsName": summary.parts_name,
        "quantity": summary.quantity,
        "pricePerUnit": _money(summary.price_per_unit),
        "totalPrice": _MONEY.to_representation(booking.total_price),
        "subtotal": _MONEY.to_representation(booking.subtotal),
        "discount": _MONEY.to_representation(booking.discount),
        "voucher": booking.voucher_code or None,
        "shipping": {
            "method": booking.shipping_method,
            "price": _MONEY.to_representation(booking.shipping_price),
            "eta": booking.shipping_eta,
        },
        "tax": _MONEY.to_representation(booking.tax),
        "taxIncluded": booking.tax_included,
        "shipTo": booking.ship_to,
        "address": booking.address,
        "phone": booking.phone,
        "paid": booking.paid,
        "status": None if status is None else str(status),
        "shipment": _shipment(booking),
        "transactionId": booking.transaction_id,
        "invoiceNumber": booking.invoice_number,
        "refunded": _MONEY.to_representation(booking.refunded_amount),
        "state": str(state),
        "createdAt": _when(booking.created_at),
        "expiresAt": _when(booking.hold_expires_at),
        "url": booking.get_absolute_url(),
        "lines": [line_json(line) for line in lines],
        "events": [event_json(event) for event in booking.timeline(internal=internal)],
    }


def guest_booking_json(booking: Booking) -> dict:
    """booking_json for the guest's own answers (the checkout's, its key's reads and payment):
    with `guestUrl`, the order's private page, which is also its `url`. Nobody else is ever
    answered the key (not GET /api/bookings, not Manage Orders, not a joined account)."""
    guest_url = booking.guest_path
    answer = booking_json(booking)
    return {**answer, "guestUrl": guest_url, "url": guest_url or answer["url"]}


def bookings_json(bookings, *, internal: bool = False) -> list[dict]:
    """booking_json of each; read them with selectors' prefetch of their lines and events
    (one query each)."""
    return [booking_json(booking, internal=internal) for booking in bookings]


class BookingInputSerializer(serializers.Serializer):
    """What a shopper sends; names, e-mail and prices come from the server, never from here."""

    partId = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        error_messages={"min_value": PART_UNKNOWN, "max_value": PART_UNKNOWN},
    )
    partsName = serializers.CharField(required=False, allow_blank=True, write_only=True)
    # Any whole number: its bounds are the part's (orders.services.check_quantity), so 0 or -3
    # reads "Quantity must be at least N (the minimum order quantity)" as in the purchase form.
    quantity = serializers.IntegerField(
        error_messages={**required("Quantity is required"), "invalid": QUANTITY_NOT_WHOLE},
    )
    address = serializers.CharField(max_length=500, error_messages=required(ADDRESS_REQUIRED))
    phone = PhoneField()
    # The id of the shipping method (pricing); absent or null: the shop's default method.
    shippingMethod = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value", "max_string_length"), SHIPPING_METHOD_UNKNOWN
        ),
    )


class BookingQuerySerializer(serializers.Serializer):
    email = serializers.CharField(required=False, allow_blank=True)


class BookingFilterSerializer(serializers.Serializer):
    """The filters of Manage Orders, GET /api/bookings and the CSV export: `state` (one of
    Booking.State) and `q` (words matched against e-mail, name, part name, order number)."""

    state = serializers.ChoiceField(
        choices=Booking.State.choices,
        required=False,
        allow_blank=True,
        error_messages={"invalid_choice": STATE_UNKNOWN},
    )
    q = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        error_messages={"max_length": SEARCH_TOO_LONG},
    )

    def filters(self) -> dict:
        """The validated filters as orders.selectors.booking_search takes them."""
        return {
            "state": self.validated_data.get("state", ""),
            "q": self.validated_data.get("q", ""),
        }


class BookingSearchInputSerializer(PageInputSerializer, BookingFilterSerializer):
    """GET /api/bookings: the filters plus `limit` and `offset`."""


class BookingStatusInputSerializer(serializers.Serializer):
    """The spec's approve, with how the order was shipped (both optional)."""

    status = serializers.ChoiceField(
        choices=Booking.Status.choices,
        error_messages={
            **required("Status is required"),
            "invalid_choice": 'Status can only be "approved"',
        },
    )
    carrier = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=40,
        error_messages={"max_length": CARRIER_TOO_LONG, "invalid": CARRIER_TOO_LONG},
    )
    trackingNumber = serializers.RegexField(
        TRACKING_NUMBER_RULE,
        required=False,
        allow_blank=True,
        max_length=64,
        error_messages={"invalid": TRACKING_NUMBER_INVALID, "max_length": TRACKING_NUMBER_INVALID},
    )


NOTE_REQUIRED = "Write the note"
NOTE_TOO_LONG = "A note is at most 1,000 characters"


class BookingNoteInputSerializer(serializers.Serializer):
    """A shop admin's note: its text, and whether it is for shop admins only."""

    text = serializers.CharField(
        max_length=1000,
        error_messages={**required(NOTE_REQUIRED), "max_length": NOTE_TOO_LONG},
    )
    internal = serializers.BooleanField(required=False, default=False)


class PaymentIntentInputSerializer(serializers.Serializer):
    """The order to pay; a totalPrice may be sent (older clients do) and is ignored: the server
    computes every price."""

    booking = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        error_messages={
            **required("Choose the order to pay for"),
            "min_value": ORDER_UNKNOWN,
            "max_value": ORDER_UNKNOWN,
        },
    )
    totalPrice = serializers.DecimalField(
        max_digits=12, decimal_places=2, required=False, write_only=True
    )


class PaymentIntentOutputSerializer(serializers.Serializer):
    clientSecret = serializers.CharField()


class WebhookReceivedSerializer(serializers.Serializer):
    received = serializers.BooleanField()
    outcome = serializers.ChoiceField(choices=PaymentEvent.Outcome.choices)


class PaymentConfirmInputSerializer(serializers.Serializer):
    transactionId = serializers.CharField(
        max_length=255, error_messages=required("transactionId is required")
    )
    booking = serializers.JSONField(required=False, write_only=True)


class StatsQuerySerializer(serializers.Serializer):
    """`?days=N` of GET /api/stats: the last N days, today included."""

    days = serializers.IntegerField(required=False, default=30, min_value=1, max_value=365)


class RevenueDaySerializer(serializers.Serializer):
    date = serializers.DateField()
    revenue = serializers.DecimalField(**MONEY)
    orders = serializers.IntegerField()


class TopPartSerializer(serializers.Serializer):
    partId = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    units = serializers.IntegerField()
    revenue = serializers.DecimalField(**MONEY)


class MissedSearchSerializer(serializers.Serializer):
    q = serializers.CharField()
    count = serializers.IntegerField()
    lastAt = serializers.DateTimeField()


class StatsOutputSerializer(serializers.Serializer):
    revenueByDay = RevenueDaySerializer(many=True)
    ordersByState = serializers.DictField(child=serializers.IntegerField())
    topParts = TopPartSerializer(many=True)
    missedSearches = MissedSearchSerializer(many=True)
    lowStock = PartOutputSerializer(many=True)


ORDER_NUMBER_REQUIRED = "Enter your order number"
ORDER_NUMBER_INVALID = "An order number is digits, e.g. 1042"


class FindOrderInputSerializer(serializers.Serializer):
    """ "Find my order" (/orders/find): an order number ("1042" or "#1042") and an e-mail."""

    order = serializers.CharField(max_length=40, error_messages=required(ORDER_NUMBER_REQUIRED))
    email = serializers.CharField(max_length=254, error_messages=required(EMAIL_REQUIRED))

    def validate_order(self, value):
        number = ORDER_NUMBER.fullmatch(value.strip())
        if number is None or not 0 < int(number[1]) <= MAX_ID:
            raise serializers.ValidationError(ORDER_NUMBER_INVALID)
        return int(number[1])

    def validate_email(self, value):
        email = normalize_email(value)
        try:
            validate_shop_email(email)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc
        return email


REASON_UNKNOWN = "Reason must be one of: " + ", ".join(Return.Reason.values)
RETURN_STATE_UNKNOWN = "State must be one of: " + ", ".join(Return.State.values)
DECISION_UNKNOWN = 'State can only be "approved" or "rejected"'
COMMENT_TOO_LONG = "A comment is at most 1,000 characters"
RESTOCK_REQUIRED = "Say whether the units go back in stock (restock: true or false)"
LINES_REQUIRED = "Choose at least one line to return"
LINES_NOT_A_LIST = "Lines must be a list, each line with a partId and a quantity"
LINES_TOO_MANY = "A return has at most 200 lines"
RETURN_LINE_PART = "Each line needs the partId of a part of the order"
RETURN_LINE_QUANTITY = "Each line needs a quantity: a whole number of units, at least 1"


def return_json(ret: Return) -> dict:
    """`<return>`: read with its lines and their order lines (selectors.return_list)."""
    return {
        "_id": ret.pk,
        "booking": ret.booking_id,
        "lines": [
            {
                "partId": line.booking_line.part_id,
                "partsName": line.booking_line.parts_name,
                "quantity": line.quantity,
            }
            for line in ret.lines.all()
        ],
        "reason": ret.reason,
        "comment": ret.comment,
        "state": ret.state,
        "refundAmount": _money(ret.refund_amount),
        "createdAt": _when(ret.created_at),
    }


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"partId": {"type": "integer"}, "quantity": {"type": "integer"}},
            "required": ["partId", "quantity"],
        },
    }
)
class ReturnLinesField(serializers.Field):
    """The lines of a return: a list of {"partId", "quantity"} (whole numbers, at least 1);
    each problem is one message on `lines`."""

    default_error_messages = {
        "required": LINES_REQUIRED,
        "null": LINES_REQUIRED,
        "empty": LINES_REQUIRED,
        "not_a_list": LINES_NOT_A_LIST,
        "too_many": LINES_TOO_MANY,
        "part": RETURN_LINE_PART,
        "quantity": RETURN_LINE_QUANTITY,
    }

    def to_internal_value(self, data):
        if not isinstance(data, list):
            self.fail("not_a_list")
        if not data:
            self.fail("empty")
        if len(data) > 200:
            self.fail("too_many")
        return [self._line(item) for item in data]

    def _line(self, item) -> dict:
        if not isinstance(item, dict):
            self.fail("not_a_list")
        part_id, quantity = item.get("partId"), item.get("quantity")
        if not _whole(part_id) or not 1 <= part_id <= MAX_ID:
            self.fail("part")
        if not _whole(quantity) or not 1 <= quantity <= 1_000_000:
            self.fail("quantity")
        return {"partId": part_id, "quantity": quantity}

    def to_representation(self, value):
        return value


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ReturnOutputSerializer(serializers.Serializer):
    """`<return>` (for the schema; return_json writes it)."""

    _id = serializers.IntegerField()
    booking = serializers.IntegerField()
    lines = serializers.ListField(child=serializers.DictField())
    reason = serializers.ChoiceField(choices=Return.Reason.choices)
    comment = serializers.CharField()
    state = serializers.ChoiceField(choices=Return.State.choices)
    refundAmount = serializers.DecimalField(allow_null=True, **MONEY)
    createdAt = serializers.DateTimeField()


class ReturnInputSerializer(serializers.Serializer):
    """POST /api/booking/{id}/returns: the lines ({"partId", "quantity"}), a reason, a comment."""

    lines = ReturnLinesField()
    reason = serializers.ChoiceField(
        choices=Return.Reason.choices,
        error_messages={
            **required(REASON_UNKNOWN),
            "invalid_choice": REASON_UNKNOWN,
            "null": REASON_UNKNOWN,
        },
    )
    comment = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        error_messages={"max_length": COMMENT_TOO_LONG, "invalid": COMMENT_TOO_LONG},
    )


class ReturnDecisionInputSerializer(serializers.Serializer):
    """PUT /api/returns/{id}: approve, or reject with a comment to the shopper."""

    state = serializers.ChoiceField(
        choices=[Return.State.APPROVED, Return.State.REJECTED],
        error_messages={
            **required(DECISION_UNKNOWN),
            "invalid_choice": DECISION_UNKNOWN,
            "null": DECISION_UNKNOWN,
        },
    )
    comment = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        error_messages={"max_length": COMMENT_TOO_LONG, "invalid": COMMENT_TOO_LONG},
    )


class ReturnReceiveInputSerializer(serializers.Serializer):
    """POST /api/returns/{id}/receive: whether the units go back in stock."""

    restock = serializers.BooleanField(
        error_messages={
            "required": RESTOCK_REQUIRED,
            "invalid": RESTOCK_REQUIRED,
            "null": RESTOCK_REQUIRED,
        }
    )


class ReturnFilterSerializer(serializers.Serializer):
    """GET /api/returns?state=…"""

    state = serializers.ChoiceField(
        choices=Return.State.choices,
        required=False,
        allow_blank=True,
        error_messages={"invalid_choice": RETURN_STATE_UNKNOWN},
    )
