"""Cart endpoints: the cart (anyone: the account's, or the visitor's session's) and checkout
(signed in). The rules are orders.cart's; these views read the input and write the answers."""

from django.conf import settings
from django.http import Http404
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog import selectors as catalog_selectors
from core.api import MAX_ID, created, errors
from core.clients import client_address
from core.fields import required

from . import cart
from .serializers import (
    MONEY,
    PART_REQUIRED,
    QUANTITY_NOT_WHOLE,
    BookingInputSerializer,
    BookingOutputSerializer,
    booking_json,
)
from .throttles import OrderThrottle

# Not personal, not secret: it tells the page's script that this browser has a cart, so the
# navbar's count is filled in without making visitors' pages personal (site.js).
COUNT_COOKIE = "cart_units"
PART_NOT_WHOLE = "partId must be a whole number"


class CartAddInputSerializer(serializers.Serializer):
    partId = serializers.IntegerField(
        error_messages={**required(PART_REQUIRED), "invalid": PART_NOT_WHOLE}
    )
    quantity = serializers.IntegerField(
        error_messages={**required("Quantity is required"), "invalid": QUANTITY_NOT_WHOLE}
    )


class CartSetInputSerializer(serializers.Serializer):
    quantity = serializers.IntegerField(
        error_messages={**required("Quantity is required"), "invalid": QUANTITY_NOT_WHOLE}
    )


class CheckoutInputSerializer(BookingInputSerializer):
    """Where the order goes, with the rules of a booking's address and phone."""

    partId = None
    partsName = None
    quantity = None


class CartLineOutputSerializer(serializers.Serializer):
    partId = serializers.IntegerField()
    name = serializers.CharField()
    img = serializers.CharField()
    url = serializers.CharField()
    price = serializers.DecimalField(**MONEY)
    quantity = serializers.IntegerField()
    lineTotal = serializers.DecimalField(**MONEY)
    minimumOrderQuantity = serializers.IntegerField()
    availableQuantity = serializers.IntegerField()
    problem = serializers.CharField(allow_null=True)
    # "Does not fit your 2019 Yamaha MT-07" (BEYOND.md): a warning that never stops checkout.
    warning = serializers.CharField(allow_null=True, default=None)


class CartOutputSerializer(serializers.Serializer):
    lines = CartLineOutputSerializer(many=True)
    count = serializers.IntegerField()
    total = serializers.DecimalField(**MONEY)


class CheckoutConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    partId = serializers.IntegerField(allow_null=True)


def cart_response(request, the_cart) -> Response:
    """The cart as every cart endpoint answers it: personal, whoever asks."""
    data = CartOutputSerializer(cart.cart_read_for(request, cart=the_cart)).data
    response = Response(data)
    patch_cache_control(response, private=True, no_store=True)
    if data["count"]:
        response.set_cookie(
            COUNT_COOKIE,
            str(data["count"]),
            max_age=settings.SESSION_COOKIE_AGE,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    elif COUNT_COOKIE in request.COOKIES:
        response.delete_cookie(COUNT_COOKIE, samesite="Lax")
    return response


def part_id_in_range(part_id: int) -> int:
    """A part id the database can hold; any other is a part that does not exist (404)."""
    if not 0 < part_id <= MAX_ID:
        raise Http404
    return part_id


class CartApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: CartOutputSerializer})
    def get(self, request):
        return cart_response(request, cart.cart_of_request(request))

    @extend_schema(
        request=CartAddInputSerializer,
        responses={200: CartOutputSerializer, **errors(400, 404, 415)},
    )
    def post(self, request):
        data = CartAddInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        part_id = part_id_in_range(data.validated_data["partId"])
        part = catalog_selectors.part_to_order(part_id=part_id)
        if part is None:
            raise Http404
        the_cart = cart.cart_of_request(request, create=True)
        cart.cart_add(cart=the_cart, part=part, quantity=data.validated_data["quantity"])
        return cart_response(request, the_cart)


class CartLineApi(APIView):
    """One line of the cart, named by its part's id."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=CartSetInputSerializer,
        responses={200: CartOutputSerializer, **errors(400, 404, 415)},
    )
    def put(self, request, pk):
        data = CartSetInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        the_cart = cart.cart_of_request(request)
        cart.cart_set(
            cart=the_cart,
            part_id=part_id_in_range(pk),
            quantity=data.validated_data["quantity"],
        )
        return cart_response(request, the_cart)

    @extend_schema(responses={200: CartOutputSerializer, **errors(404)})
    def delete(self, request, pk):
        the_cart = cart.cart_of_request(request)
        if 0 < pk <= MAX_ID:
            cart.cart_remove(cart=the_cart, part_id=pk)
        return cart_response(request, the_cart)


class CheckoutApi(APIView):
    """One order of the whole cart (signed in), limited like any order placed."""

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
        booking = cart.cart_checkout(
            user=request.user,
            address=data.validated_data["address"],
            phone=data.validated_data["phone"],
            client_address=client_address(request),
        )
        response = created(booking_json(booking), booking.pk)
        if COUNT_COOKIE in request.COOKIES:
            response.delete_cookie(COUNT_COOKIE, samesite="Lax")
        return response
