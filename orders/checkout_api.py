"""POST /api/checkout: one order of the whole cart, limited like any order placed: the
account's, or a visitor's (a guest's order of its `email`, answered with its private page
`guestUrl`). The rules are orders.services.cart_checkout's; this view reads the input and
writes the answers."""

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import validators as account_validators
from accounts.serializers import AddressInputSerializer
from core.api import MAX_ID, created, errors
from core.clients import client_address
from core.emails import normalize_email
from core.fields import PhoneField, required
from core.phones import PHONE_REQUIRED
from core.throttles import record

from . import services
from .cart_api import COUNT_COOKIE, CartOutputSerializer, cart_data
from .cart_requests import SESSION_KEY, cart_of_request
from .serializers import (
    ADDRESS_REQUIRED,
    MONEY,
    BookingInputSerializer,
    BookingOutputSerializer,
    booking_json,
    guest_booking_json,
)
from .services.ship_to import ADDRESS_UNKNOWN
from .throttles import GuestOrderThrottle, OrderThrottle

EXPECTED_TOTAL_INVALID = "expectedTotal must be the total you were shown, in dollars (e.g. 76.50)"


class CheckoutInputSerializer(BookingInputSerializer):
    """Where the order goes: one of the account's addresses (`addressId`), a new one
    (`shipTo`, saved with `saveAddress`), or the spec's free-text `address` and `phone`, with
    the rules of a booking's; the shipping method; and the total the shopper was shown
    (optional: older clients do not send it)."""

    partId = None
    partsName = None
    quantity = None
    address = serializers.CharField(
        max_length=500, required=False, error_messages=required(ADDRESS_REQUIRED)
    )
    phone = PhoneField(required=False)
    addressId = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value", "max_string_length"), ADDRESS_UNKNOWN
        ),
    )
    shipTo = AddressInputSerializer(required=False)
    saveAddress = serializers.BooleanField(required=False, default=False)
    # A visitor's (a guest's order): where its mails go; ignored for an account's order.
    email = serializers.CharField(
        max_length=254, required=False, error_messages=required(account_validators.EMAIL_REQUIRED)
    )
    expectedTotal = serializers.DecimalField(
        **MONEY,
        required=False,
        allow_null=True,
        error_messages=dict.fromkeys(
            (
                "invalid",
                "max_digits",
                "max_decimal_places",
                "max_whole_digits",
                "max_string_length",
            ),
            EXPECTED_TOTAL_INVALID,
        ),
    )

    def validate_email(self, value):
        email = normalize_email(value)
        try:
            account_validators.validate_shop_email(email)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc
        return email

    def validate(self, data):
        guest = not self.context["request"].user.is_authenticated
        if guest and "email" not in data:
            raise serializers.ValidationError({"email": [account_validators.EMAIL_REQUIRED]})
        if guest and "addressId" in data:  # a visitor has no address book
            raise serializers.ValidationError({"addressId": [ADDRESS_UNKNOWN]})
        if "addressId" in data or "shipTo" in data:
            return data
        missing = {
            name: [message]
            for name, message in (("address", ADDRESS_REQUIRED), ("phone", PHONE_REQUIRED))
            if not data.get(name)
        }
        if missing:
            raise serializers.ValidationError(missing)
        return data


def ship_to_of(user, data: dict) -> services.ShipTo:
    """Where the checkout's order goes, as the payload says (a saved address first)."""
    if "addressId" in data:
        return services.ship_to_saved(user=user, address_id=data["addressId"])
    if "shipTo" in data:
        return services.ship_to_new(fields=data["shipTo"])
    return services.ship_to_text(address=data["address"], phone=data["phone"])


class CheckoutConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    partId = serializers.IntegerField(required=False)
    voucher = serializers.CharField(required=False)
    cart = CartOutputSerializer(required=False)


class CheckoutApi(APIView):
    """Signed in: the account's order. A visitor: a guest's order of its `email`, at most
    THROTTLE_GUEST_ORDERS placed per client address (orders placed count, not forms sent
    back with a mistake)."""

    permission_classes = [AllowAny]
    throttle_classes = [OrderThrottle, GuestOrderThrottle]

    @extend_schema(
        request=CheckoutInputSerializer,
        responses={
            201: BookingOutputSerializer,
            409: CheckoutConflictSerializer,
            **errors(400, 403, 415),
        },
    )
    def post(self, request):
        data = CheckoutInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        guest = not request.user.is_authenticated
        # A line that cannot be had: services.LineUnavailable, a 409 {"detail", "partId"}; a
        # voucher that no longer applies: VoucherNoLongerApplies, 409 {"detail", "voucher"}.
        try:
            booking = services.cart_checkout(
                user=None if guest else request.user,
                ship=ship_to_of(request.user, fields),
                client_address=client_address(request),
                expected_total=fields.get("expectedTotal"),
                shipping_method=fields.get("shippingMethod"),
                save_address=fields["saveAddress"],
                cart_id=request.session.get(SESSION_KEY) if guest else None,
                email=fields.get("email", "") if guest else "",
            )
        except services.PricesChanged as changed:
            # Nothing was held: the cart as it is now, at the prices an order would take.
            cart = cart_data(request, cart_of_request(request))
            return Response({"detail": changed.message, "cart": cart}, status=409)
        if guest:
            record(request, self, GuestOrderThrottle)
        answer = guest_booking_json(booking) if guest else booking_json(booking)
        response = created(answer, booking.pk)
        if COUNT_COOKIE in request.COOKIES:
            response.delete_cookie(COUNT_COOKIE, samesite="Lax")
        return response
