from core.routing import optional_slash

from . import cart_views, guest_views, views

urlpatterns = [
    *optional_slash("dashboard/overview", views.overview, "overview"),
    *optional_slash("dashboard/myorder", views.my_orders, "myorder"),
    *optional_slash("dashboard/manageorders", views.manage_orders, "manageorders"),
    *optional_slash("dashboard/payment/<id:pk>", views.payment, "payment"),
    *optional_slash("dashboard/orders/<id:pk>", views.order_page, "order"),
    *optional_slash("dashboard/orders/<id:pk>/invoice", views.invoice, "invoice"),
    *optional_slash("dashboard/orders/<id:pk>/returns", views.order_return, "order-return"),
    *optional_slash("dashboard/returns", views.returns_page, "returns"),
    *optional_slash("dashboard/returns/<id:pk>/approve", views.return_approve, "return-approve"),
    *optional_slash("dashboard/returns/<id:pk>/reject", views.return_reject, "return-reject"),
    *optional_slash("dashboard/returns/<id:pk>/receive", views.return_receive, "return-receive"),
    *optional_slash("dashboard/orders/<id:pk>/notes", views.order_note, "order-note"),
    *optional_slash("cart", cart_views.cart_page, "cart"),
    *optional_slash("checkout", cart_views.checkout_page, "checkout"),
    *optional_slash("orders/find", guest_views.find_order_page, "find-order"),
    *optional_slash("orders/<id:pk>/<str:key>", guest_views.guest_order_page, "guest-order"),
    *optional_slash("orders/<id:pk>/<str:key>/invoice", guest_views.guest_invoice, "guest-invoice"),
    *optional_slash(
        "orders/<id:pk>/<str:key>/returns", guest_views.guest_order_return, "guest-order-return"
    ),
]
