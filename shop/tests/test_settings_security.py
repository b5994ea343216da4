"""Security headers of every answer: Content-Security-Policy (django-csp, core/csp.py), nosniff,
Referrer-Policy, frame denial; and the production cookie flags."""

import json

import pytest

from orders.tests.factories import BookingFactory
from shop.tests.test_settings_production import PRODUCTION_ENV, manage

pytestmark = pytest.mark.django_db

SHOP_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:", "https:", "http:"],
    "connect-src": ["'self'"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'", "https://accounts.google.com"],
    "frame-ancestors": ["'none'"],
}
STRIPE_DIRECTIVES = {"script-src", "connect-src", "frame-src"}


def policy(response) -> dict[str, list[str]]:
    """The Content-Security-Policy header as {directive: [sources]}."""
    directives = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


@pytest.mark.parametrize("path", ["/", "/allparts", "/login", "/no-such-page", "/api/allparts"])
def test_every_answer_has_the_shop_policy(client, path):
    assert policy(client.get(path)) == SHOP_POLICY


@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
@pytest.mark.parametrize(
    "path", ["/no-such-page", "/parts/999999", "/parts/%0A", "/api/no-such-thing", "/api/%0A"]
)
def test_every_404_has_the_shop_policy(client, settings, debug, path):
    """The shop's 404 page and the API's JSON 404, also with DEBUG on (make run): django-csp
    leaves out 404s then, for Django's technical page, which the shop never shows."""
    settings.DEBUG = debug
    response = client.get(path)

    assert response.status_code == 404
    assert policy(response) == SHOP_POLICY


def test_signed_in_pages_have_the_shop_policy(client, user):
    client.force_login(user)
    assert policy(client.get("/dashboard/myorder")) == SHOP_POLICY


def test_no_inline_script_nor_eval_is_ever_allowed(client, user, stripe_on):
    booking = BookingFactory(user=user)
    client.force_login(user)
    for path in ("/", f"/dashboard/payment/{booking.pk}", "/api/docs"):
        directives = policy(client.get(path))
        scripts = directives["script-src"]
        assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, path
        assert not [source for source in scripts if source.startswith("'nonce-")], path


def test_payment_page_allows_the_fake_stripe_of_the_settings(client, user, stripe_on):
    booking = BookingFactory(user=user)
    client.force_login(user)
    response = client.get(f"/dashboard/payment/{booking.pk}")
    assert response.status_code == 200
    assert stripe_on.js_url.encode() in response.content  # the page loads this Stripe.js
    directives = policy(response)
    assert directives["script-src"] == ["'self'", stripe_on.url]
    assert directives["connect-src"] == ["'self'", stripe_on.url]
    assert directives["frame-src"] == [
        stripe_on.url,
        "https://*.js.stripe.com",
        "https://hooks.stripe.com",
    ]
    unchanged = {k: v for k, v in directives.items() if k not in STRIPE_DIRECTIVES}
    assert unchanged == {k: v for k, v in SHOP_POLICY.items() if k not in STRIPE_DIRECTIVES}


def test_payment_page_allows_real_stripe(client, user, settings):
    settings.STRIPE_SECRET_KEY = "sk_test_x"
    settings.STRIPE_PUBLISHABLE_KEY = "pk_test_x"
    settings.STRIPE_API_BASE = ""
    settings.STRIPE_JS_URL = "https://js.stripe.com/v3/"
    booking = BookingFactory(user=user)
    client.force_login(user)
    directives = policy(client.get(f"/dashboard/payment/{booking.pk}"))
    assert directives["script-src"] == [
        "'self'",
        "https://js.stripe.com",
        "https://*.js.stripe.com",
    ]
    assert directives["connect-src"] == [
        "'self'",
        "https://api.stripe.com",
        "https://js.stripe.com",
    ]
    assert directives["frame-src"] == [
        "https://js.stripe.com",
        "https://*.js.stripe.com",
        "https://hooks.stripe.com",
    ]


def test_other_pages_do_not_allow_stripe(client, user, stripe_on):
    client.force_login(user)
    for path in ("/", "/dashboard/myorder", "/dashboard/profile"):
        directives = policy(client.get(path))
        assert directives["script-src"] == ["'self'"], path
        assert "frame-src" not in directives, path


def test_api_docs_run_from_our_static_files_without_inline_script(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "cdn." not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "<script>" not in html  # every script has a src
    directives = policy(response)
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'", "'unsafe-inline'"]  # Swagger UI's <style>
    script = client.get("/api/docs?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")


@pytest.mark.parametrize("path", ["/", "/api/allparts", "/no-such-page"])
def test_browser_hardening_headers(client, path):
    response = client.get(path)
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


COOKIE_FLAGS = (
    "from django.conf import settings as s; import json; print(json.dumps({"
    "'session_secure': s.SESSION_COOKIE_SECURE, 'csrf_secure': s.CSRF_COOKIE_SECURE,"
    "'session_httponly': s.SESSION_COOKIE_HTTPONLY, 'session_samesite': s.SESSION_COOKIE_SAMESITE,"
    "'csrf_samesite': s.CSRF_COOKIE_SAMESITE, 'hsts': s.SECURE_HSTS_SECONDS}))"
)


def production_cookie_flags(**env: str) -> dict:
    result = manage("shell", "-c", COOKIE_FLAGS, **PRODUCTION_ENV, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # Django started again in a process of its own
@pytest.mark.parametrize(
    "env", [{}, {"SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "1"}], ids=["https", "tls-proxy"]
)
def test_production_cookies_are_secure_httponly_and_samesite(env):
    assert production_cookie_flags(**env) == {
        "session_secure": True,
        "csrf_secure": True,
        "session_httponly": True,
        "session_samesite": "Lax",
        "csrf_samesite": "Lax",
        "hsts": 31536000,
    }
