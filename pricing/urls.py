from core.routing import optional_slash

from . import views

urlpatterns = [
    *optional_slash("dashboard/shipping", views.shipping, "shipping"),
    *optional_slash("dashboard/shipping/methods/<id:pk>/edit", views.method_edit, "method-edit"),
    *optional_slash(
        "dashboard/shipping/methods/<id:pk>/default", views.method_make_default, "method-default"
    ),
    *optional_slash(
        "dashboard/shipping/methods/<id:pk>/switch", views.method_switch, "method-switch"
    ),
    *optional_slash(
        "dashboard/shipping/methods/<id:pk>/delete", views.method_delete, "method-delete"
    ),
    *optional_slash("dashboard/shipping/rates", views.rate_add, "rate-add"),
    *optional_slash("dashboard/shipping/rates/<id:pk>/edit", views.rate_edit, "rate-edit"),
    *optional_slash("dashboard/shipping/rates/<id:pk>/delete", views.rate_delete, "rate-delete"),
    *optional_slash("dashboard/vouchers", views.vouchers, "vouchers"),
    *optional_slash("dashboard/vouchers/<id:pk>/edit", views.voucher_edit, "voucher-edit"),
    *optional_slash("dashboard/vouchers/<id:pk>/switch", views.voucher_switch, "voucher-switch"),
]
