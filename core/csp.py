"""Content-Security-Policy: settings.CONTENT_SECURITY_POLICY for every answer, plus what two
pages need on top, worked out per request (so a changed setting, e.g. the tests' fake Stripe on
a random port, is followed):

- the pages that pay (the URL names of settings.CSP_CARD_PAYMENT_PAGES) load Stripe.js: its
  origin for scripts and frames, Stripe's API for calls;
- the API docs page (Swagger UI, served from our static files) has an inline <style> block.

404s get the policy with DEBUG on too: django-csp leaves them out then, for Django's technical
404 page (inline styles), which the project never shows (core.routing.any_path and
core.middleware.ErrorPageMiddleware answer every 404 with its own page or JSON).
"""

from dataclasses import asdict
from http import HTTPStatus
from urllib.parse import urlsplit

from csp.constants import HEADER, UNSAFE_INLINE
from csp.middleware import CSPMiddleware, PolicyParts
from csp.utils import build_policy
from django.conf import settings

STRIPE_JS_ORIGIN = "https://js.stripe.com"
STRIPE_API_ORIGIN = "https://api.stripe.com"
# Stripe's own frames: the card form's helpers and 3-D Secure pages (Stripe's CSP guide).
STRIPE_FRAMES = ["https://*.js.stripe.com", "https://hooks.stripe.com"]


def origin(url: str) -> str:
    """scheme://host[:port] of `url`, or "" when it has none."""
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def stripe_sources() -> dict[str, list[str]]:
    """Stripe.js's origin (from STRIPE_JS_URL) and the Stripe API's (STRIPE_API_BASE, else
    Stripe's own). The fake Stripe.js of the tests calls the fake API on its own origin."""
    js = origin(settings.STRIPE_JS_URL) or STRIPE_JS_ORIGIN
    api = origin(settings.STRIPE_API_BASE) or STRIPE_API_ORIGIN
    scripts = [js, "https://*.js.stripe.com"] if js == STRIPE_JS_ORIGIN else [js]
    return {
        "script-src": scripts,
        "connect-src": list(dict.fromkeys([api, js])),
        "frame-src": [js, *STRIPE_FRAMES],
    }


def swagger_ui_sources() -> dict[str, list[str]]:
    """drf-spectacular's Swagger UI page styles its body in an inline <style> block."""
    return {"style-src": [UNSAFE_INLINE]}


# URL names of the pages whose policy gets more sources, and what they get (besides the pages
# that pay: settings.CSP_CARD_PAYMENT_PAGES).
PAGE_SOURCES = {"payment": stripe_sources, "docs": swagger_ui_sources}


def extra_sources(request) -> dict[str, list[str]]:
    match = getattr(request, "resolver_match", None)
    name = match.url_name if match else None
    if name in getattr(settings, "CSP_CARD_PAYMENT_PAGES", ()):
        return stripe_sources()
    sources = PAGE_SOURCES.get(name)
    return sources() if sources else {}


class ShopCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, with the page's extra sources added to the enforced policy."""

    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        extra = {} if report_only else extra_sources(request)
        if extra:
            update = dict(parts.update or {})
            for directive, sources in extra.items():
                update[directive] = [*update.get(directive, []), *sources]
            parts.update = update
        return parts

    def process_response(self, request, response):
        if settings.DEBUG and response.status_code == HTTPStatus.NOT_FOUND:
            parts = self.get_policy_parts(request=request, response=response)
            response.headers.setdefault(HEADER, build_policy(**asdict(parts)))
        return super().process_response(request, response)
