"""The owner's API of shipping methods, tax rates and vouchers (admins only): each write goes
through pricing.services; bad input is a 400 per field, named as in the payload."""

from contextlib import contextmanager

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.serializers import DeletedCountSerializer
from core.api import errors, get_or_404
from core.permissions import IsShopAdmin

from . import selectors, services
from .models import ShippingMethod, TaxRate
from .serializers import (
    PAYLOAD_NAMES,
    ShippingMethodInputSerializer,
    ShippingMethodOutputSerializer,
    TaxRateInputSerializer,
    TaxRateOutputSerializer,
    VoucherInputSerializer,
    VoucherOutputSerializer,
)


@contextmanager
def payload_errors():
    """A service's refusal (Django's ValidationError, by model field) as the API's 400, by
    the payload's field names."""
    try:
        yield
    except DjangoValidationError as refusal:
        if not hasattr(refusal, "error_dict"):
            raise ValidationError({"non_field_errors": refusal.messages}) from None
        raise ValidationError(
            {
                PAYLOAD_NAMES.get(field, field): messages
                for field, messages in refusal.message_dict.items()
            }  # fmt: skip
        ) from None


def valid(serializer_class, request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def deleted() -> Response:
    return Response({"deletedCount": 1})


# --- Shipping methods ---------------------------------------------------------------------


def method_body(method: ShippingMethod) -> dict:
    return ShippingMethodOutputSerializer(selectors.method_get(method.pk)).data


class ShippingMethodListApi(APIView):
    """The owner adds methods here. (GET ?country=, the methods that deliver a shopper's cart,
    priced for it, needs the cart: orders.shipping_api extends this view with it and routes
    the path.)"""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=ShippingMethodInputSerializer,
        responses={201: ShippingMethodOutputSerializer, **errors(400, 401, 403, 415)},
    )
    def post(self, request):
        fields = valid(ShippingMethodInputSerializer, request)
        with payload_errors():
            method = services.shipping_method_create(**fields)
        return Response(method_body(method), status=status.HTTP_201_CREATED)


class ShippingMethodDetailApi(APIView):
    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=ShippingMethodInputSerializer,
        responses={200: ShippingMethodOutputSerializer, **errors(400, 401, 403, 404, 415)},
    )
    def put(self, request, pk):
        method = get_or_404(ShippingMethod.objects, pk)
        fields = valid(ShippingMethodInputSerializer, request)
        with payload_errors():
            services.shipping_method_update(method=method, **fields)
        return Response(method_body(method))

    @extend_schema(responses={200: DeletedCountSerializer, **errors(400, 401, 403, 404)})
    def delete(self, request, pk):
        method = get_or_404(ShippingMethod.objects, pk)
        with payload_errors():
            services.shipping_method_delete(method=method)
        return deleted()


# --- Tax rates ----------------------------------------------------------------------------


class TaxRateListApi(APIView):
    permission_classes = [IsShopAdmin]

    @extend_schema(responses={200: TaxRateOutputSerializer(many=True), **errors(401, 403)})
    def get(self, request):
        return Response(TaxRateOutputSerializer(selectors.tax_rate_list(), many=True).data)

    @extend_schema(
        request=TaxRateInputSerializer,
        responses={201: TaxRateOutputSerializer, **errors(400, 401, 403, 415)},
    )
    def post(self, request):
        fields = valid(TaxRateInputSerializer, request)
        with payload_errors():
            rate = services.tax_rate_create(**fields)
        return Response(TaxRateOutputSerializer(rate).data, status=status.HTTP_201_CREATED)


class TaxRateDetailApi(APIView):
    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=TaxRateInputSerializer,
        responses={200: TaxRateOutputSerializer, **errors(400, 401, 403, 404, 415)},
    )
    def put(self, request, pk):
        tax_rate = get_or_404(TaxRate.objects, pk)
        fields = valid(TaxRateInputSerializer, request)
        with payload_errors():
            services.tax_rate_update(tax_rate=tax_rate, **fields)
        return Response(TaxRateOutputSerializer(tax_rate).data)

    @extend_schema(responses={200: DeletedCountSerializer, **errors(401, 403, 404)})
    def delete(self, request, pk):
        services.tax_rate_delete(tax_rate=get_or_404(TaxRate.objects, pk))
        return deleted()


# --- Vouchers -----------------------------------------------------------------------------


def voucher_body(pk: int) -> dict:
    return VoucherOutputSerializer(selectors.voucher_list().get(pk=pk)).data


class VoucherListApi(APIView):
    permission_classes = [IsShopAdmin]

    @extend_schema(responses={200: VoucherOutputSerializer(many=True), **errors(401, 403)})
    def get(self, request):
        return Response(VoucherOutputSerializer(selectors.voucher_list(), many=True).data)

    @extend_schema(
        request=VoucherInputSerializer,
        responses={201: VoucherOutputSerializer, **errors(400, 401, 403, 415)},
    )
    def post(self, request):
        fields = valid(VoucherInputSerializer, request)
        with payload_errors():
            voucher = services.voucher_create(**fields)
        return Response(voucher_body(voucher.pk), status=status.HTTP_201_CREATED)


class VoucherDetailApi(APIView):
    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=VoucherInputSerializer,
        responses={200: VoucherOutputSerializer, **errors(400, 401, 403, 404, 415)},
    )
    def put(self, request, pk):
        voucher = get_or_404(selectors.voucher_list(), pk)
        fields = valid(VoucherInputSerializer, request)
        with payload_errors():
            services.voucher_update(voucher=voucher, **fields)
        return Response(voucher_body(voucher.pk))

    @extend_schema(responses={200: DeletedCountSerializer, **errors(401, 403, 404)})
    def delete(self, request, pk):
        services.voucher_delete(voucher=get_or_404(selectors.voucher_list(), pk))
        return deleted()
