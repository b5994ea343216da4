"""Order endpoints: placing, listing, deleting, approving and refunding orders, paying for
them (the PaymentIntent, the confirmation, Stripe's webhook), the CSV export and the figures."""

from django.core.exceptions import ValidationError
from django.http import Http404, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.selectors import user_get_by_email
from catalog import selectors as catalog_selectors
from catalog.models import Part
from catalog.serializers import DeletedCountSerializer
from core.api import created, errors, get_or_404, page_response, with_count
from core.clients import client_address
from core.emails import normalize_email
from core.permissions import IsShopAdmin, require_self_or_admin

from . import exports, payments, selectors, services, webhooks
from .serializers import (
    PART_REQUIRED,
    PART_UNKNOWN,
    BookingEventOutputSerializer,
    BookingFilterSerializer,
    BookingInputSerializer,
    BookingNoteInputSerializer,
    BookingOutputSerializer,
    BookingQuerySerializer,
    BookingSearchInputSerializer,
    BookingStatusInputSerializer,
    PaymentConfirmInputSerializer,
    PaymentIntentInputSerializer,
    PaymentIntentOutputSerializer,
    ReturnDecisionInputSerializer,
    ReturnFilterSerializer,
    ReturnInputSerializer,
    ReturnOutputSerializer,
    ReturnReceiveInputSerializer,
    StatsOutputSerializer,
    StatsQuerySerializer,
    WebhookReceivedSerializer,
    booking_json,
    bookings_json,
    event_json,
    guest_booking_json,
    return_json,
)
from .stats import shop_stats
from .throttles import OrderThrottle, PaymentThrottle


def part_to_order(data: dict) -> Part:
    """The part the order names: by partId, or by a partsName exactly one part has (400 on
    partId otherwise)."""
    part = catalog_selectors.part_to_order(
        part_id=data.get("partId"), name=data.get("partsName") or ""
    )
    if part is None:
        raise ValidationError({"partId": PART_UNKNOWN if "partId" in data else PART_REQUIRED})
    return part


class IsAuthenticatedOrGuestKey(BasePermission):
    """Signed in, or sending a guest's order's key (`?key=…`): the order is then that key's
    (selectors.booking_for), else 404."""

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated) or "key" in request.GET


GUEST_KEY = OpenApiParameter(
    "key",
    str,
    required=False,
    description="A guest's order's private key (its page /orders/{id}/{key}): the order is "
    "that key's, no account needed; a wrong key is a 404.",
)


def guest_key_of(request) -> str | None:
    """The guest's key the request sends (`?key=…`), or None."""
    return request.GET.get("key")


def booking_of_request(request, pk: int, *, own: bool = False):
    """The order `pk` of this request (selectors.booking_for: by its key, else the asker's;
    with `own`, only its owner's), else 404."""
    booking = selectors.booking_for(user=request.user, pk=pk, key=guest_key_of(request), own=own)
    if booking is None:
        raise Http404
    return booking


def answer_of(request, booking) -> dict:
    """The order as the asker gets it: with its private page when asked by its key (never
    its internal notes), else as booking_json answers the asker (a shop admin: with them)."""
    if guest_key_of(request):
        return guest_booking_json(booking)
    return booking_json(booking, internal=request.user.is_shop_admin)


class BookingListApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [OrderThrottle]

    @extend_schema(
        parameters=[BookingQuerySerializer],
        responses={200: BookingOutputSerializer(many=True), **errors(400, 401, 403)},
    )
    def get(self, request):
        query = BookingQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        email = normalize_email(query.validated_data.get("email") or request.user.email)
        require_self_or_admin(request, email)
        # The orders of the account that has this address now, not of the address string.
        owner = request.user if email == request.user.email else user_get_by_email(email)
        bookings = selectors.booking_list_of(user=owner)
        return Response(bookings_json(bookings))

    @extend_schema(
        request=BookingInputSerializer,
        responses={
            201: with_count(BookingOutputSerializer, "insertedId"),
            **errors(400, 401, 403, 409, 415),
        },
    )
    def post(self, request):
        data = BookingInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        booking = services.booking_place(
            user=request.user,
            part=part_to_order(fields),
            quantity=fields["quantity"],
            address=fields["address"],
            phone=fields["phone"],
            client_address=client_address(request),
            shipping_method=fields.get("shippingMethod"),
        )
        return created(booking_json(booking), booking.pk)


def admin_bookings_json(bookings) -> list[dict]:
    """bookings_json for a shop admin: internal notes in their events."""
    return bookings_json(bookings, internal=True)


class BookingAllApi(APIView):
    """Every order, newest first; `state`, `q`, `limit` and `offset` (X-Total-Count)."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        parameters=[BookingSearchInputSerializer],
        responses={200: BookingOutputSerializer(many=True), **errors(400, 401, 403)},
    )
    def get(self, request):
        query = BookingSearchInputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        filters = query.filters()
        bookings = selectors.booking_search(**filters)
        total = selectors.booking_count(**filters)
        return page_response(
            bookings, BookingOutputSerializer, query, total=total, write=admin_bookings_json
        )


class BookingCsvApi(APIView):
    """The orders of GET /api/bookings (same filters) as a CSV file, streamed as it is read."""

    permission_classes = [IsShopAdmin]

    def perform_content_negotiation(self, request, force=False):
        # The file is text/csv whatever the client accepts; error bodies are JSON (never 406).
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        parameters=[BookingFilterSerializer],
        responses={(200, "text/csv"): OpenApiTypes.STR, **errors(400, 401, 403)},
    )
    def get(self, request):
        query = BookingFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = selectors.booking_export(**query.filters())
        response = StreamingHttpResponse(
            exports.csv_chunks(rows), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = 'attachment; filename="orders.csv"'
        return response


class BookingDetailApi(APIView):
    """An order: read (its owner, a shop admin, or anyone with a guest's order's `?key=`),
    deleted (its owner or a shop admin; a guest's key reads and pays, nothing else), approved
    (shop admins), paid (its owner, or its guest's key)."""

    permission_classes = [IsAuthenticatedOrGuestKey]
    throttle_classes = [PaymentThrottle]  # only the payment PATCH reaches Stripe this often

    def get_booking(self, request, pk):
        """Other users' orders answer 404: their existence is not revealed. A guest's key
        opens nothing here (it reads and pays: booking_of_request)."""
        booking = selectors.booking_for(user=request.user, pk=pk)
        if booking is None:
            raise Http404
        return booking

    @extend_schema(
        parameters=[GUEST_KEY], responses={200: BookingOutputSerializer, **errors(401, 404)}
    )
    def get(self, request, pk):
        booking = booking_of_request(request, pk)
        return Response(answer_of(request, booking))

    @extend_schema(
        responses={200: DeletedCountSerializer, **errors(401, 403, 404, 409, 502, 503)},
    )
    def delete(self, request, pk):
        """Unpaid orders only, for everyone: its PaymentIntent is cancelled at Stripe first."""
        booking = self.get_booking(request, pk)
        deleted = services.booking_cancel(booking=booking)
        return Response({"deletedCount": int(deleted)})

    @extend_schema(
        request=BookingStatusInputSerializer,
        responses={
            200: with_count(BookingOutputSerializer, "modifiedCount"),
            **errors(400, 401, 403, 404, 409, 415),
        },
    )
    def put(self, request, pk):
        if not request.user.is_authenticated:
            raise Http404  # a guest's key approves nothing
        self.check_admin(request)
        booking = self.get_booking(request, pk)
        data = BookingStatusInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        modified = services.booking_approve(
            booking=booking,
            carrier=data.validated_data.get("carrier", ""),
            tracking_number=data.validated_data.get("trackingNumber", ""),
        )
        answer = booking_json(booking, internal=True)
        return Response({**answer, "modifiedCount": int(modified)})

    @extend_schema(
        parameters=[GUEST_KEY],
        request=PaymentConfirmInputSerializer,
        responses={
            200: BookingOutputSerializer,
            **errors(400, 401, 403, 404, 409, 415, 502, 503),
        },
    )
    def patch(self, request, pk):
        """After a card payment: paid once Stripe confirms the PaymentIntent paid this order."""
        booking = booking_of_request(request, pk, own=True)
        data = PaymentConfirmInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        transaction_id = data.validated_data["transactionId"]
        booking = services.booking_confirm_payment(booking=booking, transaction_id=transaction_id)
        return Response(answer_of(request, booking))

    def check_admin(self, request):
        if not IsShopAdmin().has_permission(request, self):
            self.permission_denied(request, message=IsShopAdmin.message)


class BookingRefundApi(APIView):
    """A shop admin refunds a paid order in full (Stripe first, then the order and stock)."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=None,
        responses={200: BookingOutputSerializer, **errors(401, 403, 404, 409, 502, 503)},
    )
    def post(self, request, pk):
        booking = get_or_404(selectors.booking_list(), pk)
        booking = services.booking_refund(booking=booking)
        return Response(booking_json(booking, internal=True))


class BookingNotesApi(APIView):
    """A shop admin's note on an order's Timeline: to its shopper, or internal."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=BookingNoteInputSerializer,
        responses={201: BookingEventOutputSerializer, **errors(400, 401, 403, 404, 415)},
    )
    def post(self, request, pk):
        booking = get_or_404(selectors.booking_list(), pk)
        data = BookingNoteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = services.booking_note_add(booking=booking, by=request.user, **data.validated_data)
        return Response(event_json(event), status=status.HTTP_201_CREATED)


class PaymentIntentApi(APIView):
    """The PaymentIntent of an order of the asker's own, or of a guest's order by `?key=`."""

    permission_classes = [IsAuthenticatedOrGuestKey]
    throttle_classes = [PaymentThrottle]

    @extend_schema(
        parameters=[GUEST_KEY],
        request=PaymentIntentInputSerializer,
        responses={
            200: PaymentIntentOutputSerializer,
            **errors(400, 401, 403, 404, 409, 415, 502, 503),
        },
    )
    def post(self, request):
        data = PaymentIntentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        booking = booking_of_request(request, data.validated_data["booking"], own=True)
        return Response({"clientSecret": services.booking_start_payment(booking=booking)})


class StripeWebhookApi(APIView):
    """Stripe's events, trusted only with a valid Stripe-Signature on the raw body."""

    authentication_classes = []
    permission_classes = []

    @extend_schema(
        request=None, responses={200: WebhookReceivedSerializer, **errors(400, 502, 503)}
    )
    def post(self, request):
        signature = request.headers.get("Stripe-Signature", "")
        try:
            event = payments.webhook_event(request.body, signature)
        except ValueError:
            return Response({"detail": "Invalid signature."}, status=status.HTTP_400_BAD_REQUEST)
        record = webhooks.payment_event_handle(event)
        return Response({"received": True, "outcome": record.outcome})


class StatsApi(APIView):
    """The owner's figures: revenue per day, orders by state, top parts, low stock."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        parameters=[StatsQuerySerializer],
        responses={200: StatsOutputSerializer, **errors(400, 401, 403)},
    )
    def get(self, request):
        query = StatsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(StatsOutputSerializer(shop_stats(days=query.validated_data["days"])).data)


def booking_of_shopper(request, pk: int):
    """The order `pk` as its shopper acts on it (returns): a guest's by its key (`?key=`), else
    the signed-in account's own order; anyone else's, or none, is a 404 (its existence is not
    revealed), neither key nor account a 401."""
    if guest_key_of(request) is None and not request.user.is_authenticated:
        raise NotAuthenticated()
    return booking_of_request(request, pk, own=True)


def _return_of(pk: int):
    return get_or_404(selectors.return_list(), pk)


def _return_answer(ret, status_code=status.HTTP_200_OK) -> Response:
    """`<return>` as stored now (its lines read again)."""
    return Response(return_json(_return_of(ret.pk)), status=status_code)


class BookingReturnsApi(APIView):
    """The shopper returns lines of a shipped order within RETURN_DAYS of its shipping."""

    permission_classes = [AllowAny]  # booking_of_shopper decides (401, 404)

    @extend_schema(
        request=ReturnInputSerializer,
        responses={201: ReturnOutputSerializer, **errors(400, 401, 404, 409, 415)},
    )
    def post(self, request, pk):
        booking = booking_of_shopper(request, pk)
        data = ReturnInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        ret = services.return_request(
            booking=booking,
            lines=[dict(line) for line in fields["lines"]],
            reason=fields["reason"],
            comment=fields.get("comment", ""),
        )
        return _return_answer(ret, status.HTTP_201_CREATED)


class ReturnListApi(APIView):
    """Every return, newest first; `state` narrows them."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        parameters=[ReturnFilterSerializer],
        responses={200: ReturnOutputSerializer(many=True), **errors(400, 401, 403)},
    )
    def get(self, request):
        query = ReturnFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        returns = selectors.return_list(state=query.validated_data.get("state", ""))
        return Response([return_json(ret) for ret in returns])


class ReturnDetailApi(APIView):
    """The shop approves or rejects a requested return."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=ReturnDecisionInputSerializer,
        responses={200: ReturnOutputSerializer, **errors(400, 401, 403, 404, 409, 415)},
    )
    def put(self, request, pk):
        ret = _return_of(pk)
        data = ReturnDecisionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ret = services.return_decide(
            ret=ret,
            state=data.validated_data["state"],
            comment=data.validated_data.get("comment", ""),
        )
        return _return_answer(ret)


class ReturnReceiveApi(APIView):
    """The shop received an approved return: its share is refunded at Stripe, the units go
    back in stock when `restock`."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=ReturnReceiveInputSerializer,
        responses={200: ReturnOutputSerializer, **errors(400, 401, 403, 404, 409, 415, 502, 503)},
    )
    def post(self, request, pk):
        ret = _return_of(pk)
        data = ReturnReceiveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ret = services.return_receive(ret=ret, restock=data.validated_data["restock"])
        return _return_answer(ret)
