from core.routing import optional_slash

from . import views

urlpatterns = [
    *optional_slash("dashboard/shipping", views.shipping, "shipping"),
    *optional_slash("dashboard/shipping/methods/<int:pk>/edit", views.method_edit, "method-edit"),
    *optional_slash(
        "dashboard/shipping/methods/<int:pk>/default", views.method_make_default, "method-default"
    ),
    *optional_slash(
        "dashboard/shipping/methods/<int:pk>/switch", views.method_switch, "method-switch"
    ),
    *optional_slash(
        "dashboard/shipping/methods/<int:pk>/delete", views.method_delete, "method-delete"
    ),
    *optional_slash("dashboard/shipping/rates", views.rate_add, "rate-add"),
    *optional_slash("dashboard/shipping/rates/<int:pk>/edit", views.rate_edit, "rate-edit"),
    *optional_slash("dashboard/shipping/rates/<int:pk>/delete", views.rate_delete, "rate-delete"),
    *optional_slash("dashboard/vouchers", views.vouchers, "vouchers"),
    *optional_slash("dashboard/vouchers/<int:pk>/edit", views.voucher_edit, "voucher-edit"),
    *optional_slash("dashboard/vouchers/<int:pk>/switch", views.voucher_switch, "voucher-switch"),
]
