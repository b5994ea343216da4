"""Cart endpoints: the cart (anyone: the account's, or the visitor's session's). The rules are
orders.services.cart's, the reads orders.selectors.cart's; these views read the input and write
the answers. Visitors' writes are limited per client address (THROTTLE_VISITOR_WRITES)."""

from django.conf import settings
from django.http import Http404
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog import selectors as catalog_selectors
from core.api import MAX_ID, errors
from core.fields import required
from core.throttles import VisitorWriteThrottle

from . import services
from .cart_requests import cart_keep, cart_of_request, cart_read_for
from .serializers import MONEY, PART_REQUIRED, QUANTITY_NOT_WHOLE
from .throttles import VoucherTryPerAddressThrottle, VoucherTryThrottle

# Not personal, not secret: it tells the page's script that this browser has a cart, so the
# navbar's count is filled in without making visitors' pages personal (site.js).
COUNT_COOKIE = "cart_units"
PART_NOT_WHOLE = "partId must be a whole number"
VOUCHER_CODE_REQUIRED = "Enter a voucher code."


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


class CartLineOutputSerializer(serializers.Serializer):
    partId = serializers.IntegerField()
    name = serializers.CharField()
    img = serializers.CharField()
    url = serializers.CharField()
    price = serializers.DecimalField(**MONEY)
    priceWhenAdded = serializers.DecimalField(**MONEY)
    quantity = serializers.IntegerField()
    lineTotal = serializers.DecimalField(**MONEY)
    minimumOrderQuantity = serializers.IntegerField()
    availableQuantity = serializers.IntegerField()
    problem = serializers.CharField(allow_null=True)
    # "The price went from $X to $Y since you added it." (API.md): a notice, not a block.
    notice = serializers.CharField(allow_null=True)
    # "Does not fit your 2019 Yamaha MT-07" (BEYOND.md): a warning that never stops checkout.
    warning = serializers.CharField(allow_null=True, default=None)


class CartVoucherOutputSerializer(serializers.Serializer):
    code = serializers.CharField()
    kind = serializers.CharField()
    value = serializers.DecimalField(**MONEY)


class CartOutputSerializer(serializers.Serializer):
    lines = CartLineOutputSerializer(many=True)
    count = serializers.IntegerField()
    subtotal = serializers.DecimalField(**MONEY)
    discount = serializers.DecimalField(**MONEY)
    voucher = CartVoucherOutputSerializer(allow_null=True)
    # The voucher's message when it no longer applies to the cart (its discount is then 0).
    voucherProblem = serializers.CharField(allow_null=True)
    total = serializers.DecimalField(**MONEY)


class CartVoucherInputSerializer(serializers.Serializer):
    code = serializers.CharField(
        trim_whitespace=True, error_messages=required(VOUCHER_CODE_REQUIRED)
    )


def cart_data(request, cart) -> dict:
    """`<cart>` for the caller, as every cart endpoint answers it."""
    return CartOutputSerializer(cart_read_for(request, cart=cart)).data


def cart_response(request, cart) -> Response:
    """The cart as every cart endpoint answers it: personal, whoever asks."""
    data = cart_data(request, cart)
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
    throttle_classes = [VisitorWriteThrottle]

    @extend_schema(responses={200: CartOutputSerializer})
    def get(self, request):
        return cart_response(request, cart_of_request(request))

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
        cart = services.cart_add(
            cart=cart_of_request(request),
            user=request.user,
            part=part,
            quantity=data.validated_data["quantity"],
        )
        cart_keep(request, cart)
        return cart_response(request, cart)


class CartLineApi(APIView):
    """One line of the cart, named by its part's id."""

    permission_classes = [AllowAny]
    throttle_classes = [VisitorWriteThrottle]

    @extend_schema(
        request=CartSetInputSerializer,
        responses={200: CartOutputSerializer, **errors(400, 404, 415)},
    )
    def put(self, request, pk):
        data = CartSetInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        cart = cart_of_request(request)
        services.cart_set(
            cart=cart, part_id=part_id_in_range(pk), quantity=data.validated_data["quantity"]
        )
        return cart_response(request, cart)

    @extend_schema(responses={200: CartOutputSerializer, **errors(404)})
    def delete(self, request, pk):
        cart = cart_of_request(request)
        if 0 < pk <= MAX_ID:
            services.cart_remove(cart=cart, part_id=pk)
        return cart_response(request, cart)


class CartVoucherApi(APIView):
    """The cart's voucher: one code per order; applying another replaces it (when it holds
    up). Visitors' tries are limited as their other cart writes are, accounts' by
    VoucherTryThrottle: codes are not to be guessed."""

    permission_classes = [AllowAny]
    throttle_classes = [VisitorWriteThrottle, VoucherTryThrottle, VoucherTryPerAddressThrottle]

    @extend_schema(
        request=CartVoucherInputSerializer,
        responses={200: CartOutputSerializer, **errors(400, 415, 429)},
    )
    def post(self, request):
        data = CartVoucherInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        cart = services.cart_voucher_apply(
            cart=cart_of_request(request), user=request.user, code=data.validated_data["code"]
        )
        cart_keep(request, cart)
        return cart_response(request, cart)

    @extend_schema(responses={200: CartOutputSerializer})
    def delete(self, request):
        cart = cart_of_request(request)
        services.cart_voucher_remove(cart=cart)
        return cart_response(request, cart)
