"""The orders API's abuse limits, per signed-in user."""

from core.throttles import PerUserPostThrottle, ShopThrottle


class OrderThrottle(PerUserPostThrottle):
    """Orders placed per user."""

    scope = "orders"


class PaymentThrottle(PerUserPostThrottle):
    """Calls that reach Stripe per user: creating a PaymentIntent (POST) and confirming a
    payment (PATCH)."""

    scope = "payments"
    methods = frozenset({"POST", "PATCH"})


class VoucherTryThrottle(ShopThrottle):
    """Voucher codes tried on a cart, per account (a visitor: per client address), so codes
    cannot be guessed by trying them (THROTTLE_VOUCHER_TRIES)."""

    scope = "voucher_tries"
    methods = frozenset({"POST"})

    def ident(self, request) -> str:
        user = request.user
        return f"user-{user.pk}" if user.is_authenticated else self.get_ident(request)
