"""POST /api/checkout: one order of the whole cart (signed in), limited like any order placed.
The rules are orders.services.cart_checkout's; this view reads the input and writes the
answers."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import created, errors
from core.clients import client_address

from . import services
from .cart_api import COUNT_COOKIE, CartOutputSerializer, cart_data
from .cart_requests import cart_of_request
from .serializers import MONEY, BookingInputSerializer, BookingOutputSerializer, booking_json
from .throttles import OrderThrottle

EXPECTED_TOTAL_INVALID = "expectedTotal must be the total you were shown, in dollars (e.g. 76.50)"


class CheckoutInputSerializer(BookingInputSerializer):
    """Where the order goes, with the rules of a booking's address and phone; and the total
    the shopper was shown (optional: older clients do not send it)."""

    partId = None
    partsName = None
    quantity = None
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


class CheckoutConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    partId = serializers.IntegerField(required=False)
    cart = CartOutputSerializer(required=False)


class CheckoutApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [OrderThrottle]

    @extend_schema(
        request=CheckoutInputSerializer,
        responses={
            201: BookingOutputSerializer,
            409: CheckoutConflictSerializer,
            **errors(400, 401, 403, 415),
        },
    )
    def post(self, request):
        data = CheckoutInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # A line that cannot be had: services.LineUnavailable, a 409 {"detail", "partId"}.
        try:
            booking = services.cart_checkout(
                user=request.user,
                address=data.validated_data["address"],
                phone=data.validated_data["phone"],
                client_address=client_address(request),
                expected_total=data.validated_data.get("expectedTotal"),
                shipping_method=data.validated_data.get("shippingMethod"),
            )
        except services.PricesChanged as changed:
            # Nothing was held: the cart as it is now, at the prices an order would take.
            cart = cart_data(request, cart_of_request(request))
            return Response({"detail": changed.message, "cart": cart}, status=409)
        response = created(booking_json(booking), booking.pk)
        if COUNT_COOKIE in request.COOKIES:
            response.delete_cookie(COUNT_COOKIE, samesite="Lax")
        return response
