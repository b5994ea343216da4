"""The orders API's abuse limits, per signed-in user (a visitor: per client address)."""

from core.throttles import PerUserPostThrottle, RecordedThrottle, ShopThrottle


class OrderThrottle(PerUserPostThrottle):
    """Orders placed per user (a visitor's, a guest's order: GuestOrderThrottle)."""

    scope = "orders"

    def applies_to(self, request) -> bool:
        return super().applies_to(request) and request.user.is_authenticated


class GuestOrderThrottle(RecordedThrottle):
    """Guests' orders placed per client address (THROTTLE_GUEST_ORDERS): only an order placed
    counts (the view records it), not a form sent back with a mistake; signed-in callers are
    OrderThrottle's."""

    scope = "guest_orders"
    methods = frozenset({"POST"})

    def applies_to(self, request) -> bool:
        return super().applies_to(request) and not request.user.is_authenticated


class PaymentThrottle(PerUserPostThrottle):
    """Calls that reach Stripe per user (a visitor paying a guest's order by its key: per
    client address): creating a PaymentIntent (POST) and confirming a payment (PATCH)."""

    scope = "payments"
    methods = frozenset({"POST", "PATCH"})

    def ident(self, request) -> str:
        user = request.user
        return f"user-{user.pk}" if user.is_authenticated else self.get_ident(request)


class GuestFindThrottle(ShopThrottle):
    """ "Find my order" asked per client address (THROTTLE_GUEST_ORDERS' rate too), so the
    page cannot be used to send mail to anybody's address or to try order numbers."""

    scope = "guest_orders"
    methods = frozenset({"POST"})

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": "guest_find", "ident": self.ident(request)}


class VoucherTryThrottle(ShopThrottle):
    """Voucher codes tried on a cart, per account (a visitor: per client address), so codes
    cannot be guessed by trying them (THROTTLE_VOUCHER_TRIES)."""

    scope = "voucher_tries"
    methods = frozenset({"POST"})

    def ident(self, request) -> str:
        user = request.user
        return f"user-{user.pk}" if user.is_authenticated else self.get_ident(request)


class VoucherTryPerAddressThrottle(VoucherTryThrottle):
    """The same tries counted per client address for accounts too (THROTTLE_VOUCHER_TRIES'
    rate): accounts made one after another from one address do not each get the whole rate."""

    def get_cache_key(self, request, view):
        return self.cache_format % {
            "scope": "voucher_tries_address",
            "ident": self.get_ident(request),
        }
