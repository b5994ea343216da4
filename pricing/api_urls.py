from core.routing import optional_slash

from . import api

urlpatterns = [
    *optional_slash(
        "shipping-methods", api.ShippingMethodListApi.as_view(), "shipping-method-list"
    ),
    *optional_slash(
        "shipping-methods/<int:pk>", api.ShippingMethodDetailApi.as_view(), "shipping-method-detail"
    ),
    *optional_slash("tax-rates", api.TaxRateListApi.as_view(), "tax-rate-list"),
    *optional_slash("tax-rates/<int:pk>", api.TaxRateDetailApi.as_view(), "tax-rate-detail"),
    *optional_slash("vouchers", api.VoucherListApi.as_view(), "voucher-list"),
    *optional_slash("vouchers/<int:pk>", api.VoucherDetailApi.as_view(), "voucher-detail"),
]
