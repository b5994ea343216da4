from core.routing import optional_slash

from . import api, cart_api, checkout_api, shipping_api

urlpatterns = [
    *optional_slash("booking", api.BookingListApi.as_view(), "booking-list"),
    *optional_slash("bookings", api.BookingAllApi.as_view(), "booking-all"),
    *optional_slash("bookings.csv", api.BookingCsvApi.as_view(), "booking-csv"),
    *optional_slash("booking/<id:pk>", api.BookingDetailApi.as_view(), "booking-detail"),
    *optional_slash("booking/<id:pk>/refund", api.BookingRefundApi.as_view(), "booking-refund"),
    *optional_slash("booking/<id:pk>/returns", api.BookingReturnsApi.as_view(), "booking-returns"),
    *optional_slash("returns", api.ReturnListApi.as_view(), "return-list"),
    *optional_slash("returns/<id:pk>", api.ReturnDetailApi.as_view(), "return-detail"),
    *optional_slash("returns/<id:pk>/receive", api.ReturnReceiveApi.as_view(), "return-receive"),
    *optional_slash("booking/<id:pk>/notes", api.BookingNotesApi.as_view(), "booking-notes"),
    *optional_slash(
        "create-payment-intent", api.PaymentIntentApi.as_view(), "create-payment-intent"
    ),
    *optional_slash("stripe/webhook", api.StripeWebhookApi.as_view(), "stripe-webhook"),
    *optional_slash("stats", api.StatsApi.as_view(), "stats"),
    *optional_slash("cart", cart_api.CartApi.as_view(), "cart-api"),
    *optional_slash("cart/voucher", cart_api.CartVoucherApi.as_view(), "cart-voucher"),
    *optional_slash("cart/<id:pk>", cart_api.CartLineApi.as_view(), "cart-line"),
    *optional_slash("checkout", checkout_api.CheckoutApi.as_view(), "checkout-api"),
    # GET for shoppers (priced for their cart); the owner's POST is pricing.api's.
    *optional_slash(
        "shipping-methods", shipping_api.ShippingMethodsApi.as_view(), "shipping-method-list"
    ),
]
