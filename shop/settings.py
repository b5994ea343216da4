"""Settings for the shop, read from the environment (names in ../shared/API.md)."""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no variable: 1/true/yes/on are yes, 0/false/no/off are no."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# --- Core -------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-key-only-for-debug-mode-never-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

SHOP_NAME = os.environ.get("SHOP_NAME", "Throttle & Gear")
# `make bench` routes its bare yardstick view at /bench/bare (never on in production).
BENCH_BARE_VIEW = env_bool("BENCH_BARE_VIEW", False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "rest_framework",
    "rest_framework_simplejwt",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.google",
    "shop",
    "accounts",
    "catalog",
    "orders",
    "reviews",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "shop.csp.ShopCSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before sessions and auth (they query the database); after the headers middleware.
    "shop.middleware.DatabaseUnavailableMiddleware",
    "shop.middleware.SessionMiddleware",  # Django's; a database failure on save is a 503
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "shop.urls"
WSGI_APPLICATION = "shop.wsgi.application"
SITE_ID = 1

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "shop.context_processors.shop",
            ],
        },
    },
]

# --- Data -------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # Redis down is not the shop down: shop/cache.py serves as an empty cache meanwhile.
    CACHES = {"default": {"BACKEND": "shop.cache.TolerantRedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions live in the database and are cached, so several app servers share them.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- Accounts ---------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
# The spec asks for one rule only: at least 6 characters, with its own message.
AUTH_PASSWORD_VALIDATORS = [{"NAME": "accounts.validators.MinimumLengthValidator"}]

LOGIN_URL = "/login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*"]
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
ACCOUNT_FORMS = {"login": "accounts.login_forms.LoginForm"}
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_USER_DISPLAY = "accounts.adapters.user_display"
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "none")
ACCOUNT_UNIQUE_EMAIL = True
# The spec shows "email already in use" to the person signing up.
ACCOUNT_PREVENT_ENUMERATION = False
# Only the spec's rule (accounts.validators.MinimumLengthValidator), with its message.
ACCOUNT_PASSWORD_MIN_LENGTH = None
ACCOUNT_PRESERVE_USERNAME_CASING = False
# Abuse limits of the pages (allauth's syntax; counted in the cache). A tripped limit answers
# 429 with templates/429.html; repeated failed sign-ins keep the form, with a 429 status.
ACCOUNT_RATE_LIMITS = {
    "login": os.environ.get("RATE_LIMIT_LOGIN", "30/m/ip"),
    "login_failed": os.environ.get("RATE_LIMIT_LOGIN_FAILED", "10/m/ip,5/5m/key"),
    "signup": os.environ.get("RATE_LIMIT_SIGNUP", "20/m/ip"),
    "reset_password": os.environ.get("RATE_LIMIT_RESET_PASSWORD", "20/m/ip,5/m/key"),
}
# Client IPs come from REMOTE_ADDR, or from X-Forwarded-For behind this many trusted proxies.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
SOCIALACCOUNT_ADAPTER = "accounts.adapters.SocialAccountAdapter"
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
SOCIALACCOUNT_LOGIN_ON_GET = False
GOOGLE_CLIENT_ID = os.environ.get("GOOGLE_CLIENT_ID", "")
GOOGLE_CLIENT_SECRET = os.environ.get("GOOGLE_CLIENT_SECRET", "")
SOCIALACCOUNT_PROVIDERS = {
    "google": {
        "SCOPE": ["profile", "email"],
        "AUTH_PARAMS": {"access_type": "online"},
        "APPS": (
            [{"client_id": GOOGLE_CLIENT_ID, "secret": GOOGLE_CLIENT_SECRET, "key": ""}]
            if GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET
            else []
        ),
    }
}

# --- API --------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework_simplejwt.authentication.JWTAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "shop.throttles.ThrottledAutoSchema",
    "EXCEPTION_HANDLER": "shop.api.exception_handler",
    "COERCE_DECIMAL_TO_STRING": False,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Abuse limits of the API (shop/throttles.py; counted in the cache): per client IP for
    # sign-up and tokens, per user for placing orders. A tripped limit answers 429.
    "DEFAULT_THROTTLE_RATES": {
        "signup": os.environ.get("THROTTLE_SIGNUP", "20/minute"),
        "token": os.environ.get("THROTTLE_TOKEN", "30/minute"),
        "token_refresh": os.environ.get("THROTTLE_TOKEN_REFRESH", "60/minute"),
        "login_failed": os.environ.get("THROTTLE_LOGIN_FAILED", "10/minute"),
        "login_failed_account": os.environ.get("THROTTLE_LOGIN_FAILED_ACCOUNT", "20/hour"),
        "orders": os.environ.get("THROTTLE_ORDERS", "30/minute"),
    },
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append(
        "rest_framework.renderers.BrowsableAPIRenderer"
    )

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(hours=1),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=7),
    "AUTH_HEADER_TYPES": ("Bearer",),
    "USER_ID_FIELD": "id",
    "SIGNING_KEY": SECRET_KEY,
}

SPECTACULAR_SETTINGS = {
    "TITLE": f"{SHOP_NAME} API",
    "DESCRIPTION": "Parts, orders, reviews and accounts of the motorcycle-parts shop.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["shop.api.drop_trailing_slash_duplicates"],
    # Swagger UI from our own static files (drf-spectacular-sidecar), not a CDN: see shop/csp.py.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
}

# --- Static files -----------------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = BASE_DIR / "media"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Without collectstatic (tests, first start) fall back to the plain file names.
WHITENOISE_MANIFEST_STRICT = False
# esbuild's names carry a content hash too (e.g. site-PSSHECOD.js): cache them for a year.
WHITENOISE_IMMUTABLE_FILE_TEST = r"^.+([.-][0-9a-fA-F]{12}|-[A-Z0-9]{8})\.[^.]+$"

# --- Security (production when DEBUG is off) --------------------------------------------

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = not DEBUG and env_bool("SECURE_SSL_REDIRECT", True)
# Cookies are HTTPS-only in production; behind a TLS proxy (SECURE_SSL_REDIRECT=0) too.
SECURE_COOKIES = not DEBUG and env_bool("SECURE_COOKIES", SECURE_SSL_REDIRECT)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_HSTS_SECONDS = 0 if DEBUG else int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
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
# shop/csp.py adds Stripe's origins (from STRIPE_JS_URL and STRIPE_API_BASE, per request) on the
# payment page, and inline styles on the API docs page (Swagger UI).
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

# --- Stripe (payments issue) ------------------------------------------------------------

STRIPE_SECRET_KEY = os.environ.get("STRIPE_SECRET_KEY", "")
STRIPE_PUBLISHABLE_KEY = os.environ.get("STRIPE_PUBLISHABLE_KEY", "")
STRIPE_WEBHOOK_SECRET = os.environ.get("STRIPE_WEBHOOK_SECRET", "")
STRIPE_API_BASE = os.environ.get("STRIPE_API_BASE", "")
STRIPE_JS_URL = os.environ.get("STRIPE_JS_URL", "https://js.stripe.com/v3/")

# --- Misc -------------------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "shop@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
