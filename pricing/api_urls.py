from core.routing import optional_slash

from . import api

# /api/shipping-methods itself is routed by orders (orders.shipping_api): shoppers' GET is
# priced for their cart, which pricing, below orders, cannot read.
urlpatterns = [
    *optional_slash(
        "shipping-methods/<id:pk>", api.ShippingMethodDetailApi.as_view(), "shipping-method-detail"
    ),
    *optional_slash("tax-rates", api.TaxRateListApi.as_view(), "tax-rate-list"),
    *optional_slash("tax-rates/<id:pk>", api.TaxRateDetailApi.as_view(), "tax-rate-detail"),
    *optional_slash("vouchers", api.VoucherListApi.as_view(), "voucher-list"),
    *optional_slash("vouchers/<id:pk>", api.VoucherDetailApi.as_view(), "voucher-detail"),
]
