"""Security: which proxies are believed, HTTPS, cookies and the Content-Security-Policy
(production when DEBUG is off)."""

from .base import DEBUG, env

# Client IPs come from REMOTE_ADDR, or from X-Forwarded-For behind this many trusted proxies.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

# X-Forwarded-Proto says https only from a proxy the shop was told of (TRUSTED_PROXY_COUNT);
# without one it is whatever the client sent. X-Forwarded-Host is never trusted.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXY_COUNT else None
SECURE_SSL_REDIRECT = not DEBUG and env.bool("SECURE_SSL_REDIRECT", default=True)
# Cookies are HTTPS-only in production; behind a TLS proxy (SECURE_SSL_REDIRECT=0) too.
SECURE_COOKIES = not DEBUG and env.bool("SECURE_COOKIES", default=SECURE_SSL_REDIRECT)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_HSTS_SECONDS = 0 if DEBUG else env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
# The CSRF cookie stays readable by the islands' script: it sends it back as X-CSRFToken.

# Content-Security-Policy (django-csp): the shop's own files only, no inline script, no eval.
# core/csp.py adds Stripe's origins (from STRIPE_JS_URL and STRIPE_API_BASE, per request) on the
# payment page, and inline styles on the API docs page (Swagger UI).
# Other pages that pay by card (their URL names): a guest's order's page.
CSP_CARD_PAYMENT_PAGES = ("guest-order",)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        # Part images may be any http(s) URL (catalog/validators.py).
        "img-src": ["'self'", "data:", "https:", "http:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        # Google sign-in posts to our own URL, which redirects to Google.
        "form-action": ["'self'", "https://accounts.google.com"],
        "frame-ancestors": ["'none'"],
    }
}
