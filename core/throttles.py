"""The machinery of the API's abuse limits: DRF throttles counted in the cache, with the rates
of settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (read per request, so a changed setting
applies at once). A tripped limit is DRF's 429 {"detail": "Request was throttled. Expected
available in N seconds."} with a Retry-After header; the schema documents it. Each app declares
its own limits in its throttles.py.
"""

from math import ceil

from drf_spectacular.openapi import AutoSchema
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from .api import DetailSerializer


class ShopThrottle(SimpleRateThrottle):
    """One `scope` rate per `ident` (the client IP unless a subclass says otherwise), for the
    request methods in `methods` (None: all)."""

    methods: frozenset[str] | None = None

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]

    def ident(self, request) -> str:
        return self.get_ident(request)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.ident(request)}

    def applies_to(self, request) -> bool:
        return self.methods is None or request.method in self.methods

    def allow_request(self, request, view):
        return not self.applies_to(request) or super().allow_request(request, view)


class PerUserPostThrottle(ShopThrottle):
    """POSTs per signed-in user (reading is not limited)."""

    methods = frozenset({"POST"})

    def ident(self, request) -> str:
        return f"user-{request.user.pk}"


# What a page's form says past VisitorWriteThrottle (the API says DRF's sentence).
VISITOR_WRITES_REFUSED = (
    "Too many changes from your address in a short time. Please try again in a minute."
)


class VisitorWriteThrottle(ShopThrottle):
    """Writes by visitors (not signed in) per client address, `visitor_writes`
    (THROTTLE_VISITOR_WRITES): each may make a session and rows kept for weeks (a cart, its
    lines, saved bikes), so what strangers can pile up is limited. Signed-in callers are not
    counted: an account holds one cart and one garage, each capped, and making accounts is
    limited by its own throttle. Reading is never limited."""

    scope = "visitor_writes"
    methods = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def applies_to(self, request) -> bool:
        return super().applies_to(request) and not request.user.is_authenticated


def page_wait(request, throttle: ShopThrottle) -> int | None:
    """For a page's form (no DRF view): None when `throttle` lets `request` through (and
    counts it), else the whole seconds to wait (the page answers 429 with Retry-After)."""
    if throttle.allow_request(request, None):
        return None
    return max(1, ceil(throttle.wait() or 1))


class RecordedThrottle(ShopThrottle):
    """Counts only what the view records (`record`): a failed sign-in, an order placed, a
    review written, not a request refused for a mistake; a request is refused once `scope`'s
    number of them happened within its period."""

    def allow_request(self, request, view):
        if not self.applies_to(request):
            return True
        self.key = self.get_cache_key(request, view)
        self.now = self.timer()
        self.history = self.recent(self.cache.get(self.key, []))
        return len(self.history) < self.num_requests or self.throttle_failure()

    def recent(self, history: list[float]) -> list[float]:
        return [moment for moment in history if moment > self.now - self.duration]

    def record(self, request, view) -> None:
        key = self.get_cache_key(request, view)
        self.now = self.timer()
        history = self.recent(self.cache.get(key, []))
        self.cache.set(key, [self.now, *history], self.duration)


def record(request, view, kind: type[RecordedThrottle] = RecordedThrottle) -> None:
    """Every throttle of `view` of the class `kind` counts this request."""
    for throttle in view.get_throttles():
        if isinstance(throttle, kind):
            throttle.record(request, view)


def throttled(view, method: str) -> bool:
    """Whether a ShopThrottle of `view` limits `method`."""
    return any(
        issubclass(cls, ShopThrottle) and (cls.methods is None or method in cls.methods)
        for cls in getattr(view, "throttle_classes", [])
    )


class ThrottledAutoSchema(AutoSchema):
    """drf-spectacular's schema, with the 429 answer on every operation that a limit guards."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if throttled(self.view, self.method) and "429" not in responses:
            responses["429"] = self._get_response_for_code(DetailSerializer, "429")
        return responses
