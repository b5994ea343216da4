"""Abuse limits of the API: DRF throttles counted in the cache, with the rates of
settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (read per request, so a changed setting
applies at once). A tripped limit is DRF's 429 {"detail": "Request was throttled. Expected
available in N seconds."} with a Retry-After header; the schema documents it.
"""

import hashlib

from drf_spectacular.openapi import AutoSchema
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from core.emails import normalize_email

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


class SignupThrottle(ShopThrottle):
    """Sign-ups per client IP."""

    scope = "signup"


class TokenThrottle(ShopThrottle):
    """Sign-in attempts (successful or not) per client IP."""

    scope = "token"


class TokenRefreshThrottle(ShopThrottle):
    """Token refreshes per client IP."""

    scope = "token_refresh"


class PerUserPostThrottle(ShopThrottle):
    """POSTs per signed-in user (reading is not limited)."""

    methods = frozenset({"POST"})

    def ident(self, request) -> str:
        return f"user-{request.user.pk}"


class OrderThrottle(PerUserPostThrottle):
    """Orders placed per user."""

    scope = "orders"


class ReviewThrottle(PerUserPostThrottle):
    """Reviews posted per user (THROTTLE_REVIEWS), by the API and by the Add Review page."""

    scope = "reviews"


class PaymentThrottle(PerUserPostThrottle):
    """Calls that reach Stripe per user: creating a PaymentIntent (POST) and confirming a
    payment (PATCH)."""

    scope = "payments"
    methods = frozenset({"POST", "PATCH"})


class FailureThrottle(ShopThrottle):
    """Counts failures only: a request is refused once `scope`'s number of failures happened
    within its period; the view calls `record_failure` when an attempt fails."""

    def allow_request(self, request, view):
        if not self.applies_to(request):
            return True
        self.key = self.get_cache_key(request, view)
        self.now = self.timer()
        self.history = self.recent(self.cache.get(self.key, []))
        return len(self.history) < self.num_requests or self.throttle_failure()

    def recent(self, history: list[float]) -> list[float]:
        return [moment for moment in history if moment > self.now - self.duration]

    def record_failure(self, request, view) -> None:
        key = self.get_cache_key(request, view)
        self.now = self.timer()
        history = self.recent(self.cache.get(key, []))
        self.cache.set(key, [self.now, *history], self.duration)


class LoginFailuresPerIP(FailureThrottle):
    """Failed sign-ins per client IP."""

    scope = "login_failed"


class LoginFailuresPerAccountAndIP(FailureThrottle):
    """Failed sign-ins per e-mail address from one client IP: a guesser elsewhere never locks
    the account's owner out (API.md, "Tokens and sign-in"); the per-IP limit bounds the rest."""

    scope = "login_failed_account"

    def ident(self, request) -> str:
        data = request.data if isinstance(request.data, dict) else {}
        email = normalize_email(str(data.get("email") or ""))
        return hashlib.sha256(f"{email}|{self.get_ident(request)}".encode()).hexdigest()


def record_login_failure(request, view) -> None:
    for throttle in view.get_throttles():
        if isinstance(throttle, FailureThrottle):
            throttle.record_failure(request, view)


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
