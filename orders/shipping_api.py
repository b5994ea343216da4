"""GET /api/shipping-methods for shoppers: the methods that deliver the caller's cart (or one
line of a part, for the purchase form) to a country, cheapest first, each priced for it with
the order's whole breakdown. The owner's writes on the same path are pricing.api's."""

from django.http import Http404
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from catalog import selectors as catalog_selectors
from core.api import errors
from core.fields import required
from pricing.api import ShippingMethodListApi
from pricing.serializers import COUNTRY_UNKNOWN, CountryCodeField, ShippingChoiceSerializer

from .cart_api import PART_NOT_WHOLE, part_id_in_range
from .cart_requests import cart_of_request
from .selectors.shipping import cart_priced_lines, part_priced_lines, shipping_choices
from .serializers import QUANTITY_NOT_WHOLE

QUANTITY_RULE = "quantity must be a whole number, at least 1"


class ShippingQuerySerializer(serializers.Serializer):
    country = CountryCodeField(required=False, error_messages=required(COUNTRY_UNKNOWN))
    region = serializers.CharField(required=False, allow_blank=True, max_length=100)
    partId = serializers.IntegerField(required=False, error_messages={"invalid": PART_NOT_WHOLE})
    quantity = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=1_000_000,
        error_messages={
            "invalid": QUANTITY_NOT_WHOLE,
            "min_value": QUANTITY_RULE,
            "max_value": QUANTITY_RULE,
        },
    )


class ShippingMethodsApi(ShippingMethodListApi):
    """Anyone reads the methods that deliver their order; only the owner adds one (POST)."""

    def get_permissions(self):
        if self.request.method == "GET":
            return [AllowAny()]
        return super().get_permissions()

    @extend_schema(
        parameters=[
            OpenApiParameter("country", str, description="ISO 3166-1 code (default SHOP_COUNTRY)"),
            OpenApiParameter("region", str),
            OpenApiParameter(
                "partId", int, description="price one line of this part, not the cart"
            ),
            OpenApiParameter("quantity", int, description="with partId (default its minimum)"),
        ],
        responses={200: ShippingChoiceSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request):
        query = ShippingQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        where = query.validated_data
        voucher = None
        if "partId" in where:
            part = catalog_selectors.part_to_order(part_id=part_id_in_range(where["partId"]))
            if part is None:
                raise Http404
            lines = part_priced_lines(part=part, quantity=where.get("quantity"))
        else:
            cart = cart_of_request(request)
            lines = cart_priced_lines(cart=cart)
            voucher = cart.voucher if cart is not None else None
        choices = shipping_choices(
            lines=lines,
            user=request.user,
            country=where.get("country", ""),
            region=where.get("region", ""),
            voucher=voucher,
        )
        response = Response(ShippingChoiceSerializer(choices, many=True).data)
        patch_cache_control(response, private=True, no_store=True)  # priced for the caller
        return response
