"""The catalog API's abuse limits."""

from core.throttles import ShopThrottle


class AlertThrottle(ShopThrottle):
    """Back-in-stock alerts asked per client address (THROTTLE_ALERTS), signed in or not:
    each may mail a confirmation link to any address."""

    scope = "alerts"
    methods = frozenset({"POST"})
