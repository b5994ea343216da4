"""The orders API's abuse limits, per signed-in user."""

from core.throttles import PerUserPostThrottle


class OrderThrottle(PerUserPostThrottle):
    """Orders placed per user."""

    scope = "orders"


class PaymentThrottle(PerUserPostThrottle):
    """Calls that reach Stripe per user: creating a PaymentIntent (POST) and confirming a
    payment (PATCH)."""

    scope = "payments"
    methods = frozenset({"POST", "PATCH"})
