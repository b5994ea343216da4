"""Settings for the shop, read from the environment (names in docs/configuration.md).

A development checkout also reads `.env` (written by `make setup`: DEBUG on, its own secret key,
the SQLite database); a variable set in the real environment always wins over it. Production
has no `.env`. ENV_FILE names another file, or none when empty (the tests set it so).
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
ENV_FILE = os.environ.get("ENV_FILE", str(BASE_DIR / ".env"))
if ENV_FILE and Path(ENV_FILE).is_file():
    environ.Env.read_env(ENV_FILE)  # never overwrites a variable that is already set


# --- Core -------------------------------------------------------------------------------

DEBUG = env.bool("DEBUG", default=False)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-key-only-for-debug-mode-never-in-production"

ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

SHOP_NAME = env.str("SHOP_NAME", default="Throttle & Gear")
# The footer's social links (label: address), each shown only when its address is set.
SOCIAL_LINKS = {
    "Facebook": env.str("SOCIAL_FACEBOOK_URL", default=""),
    "Instagram": env.str("SOCIAL_INSTAGRAM_URL", default=""),
    "YouTube": env.str("SOCIAL_YOUTUBE_URL", default=""),
    "X": env.str("SOCIAL_X_URL", default=""),
}
# `make bench` routes its bare yardstick view at /bench/bare (never on in production).
BENCH_BARE_VIEW = env.bool("BENCH_BARE_VIEW", default=False)

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
    "rest_framework_simplejwt.token_blacklist",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "health_check",  # /health/ (shop/urls.py)
    "simple_history",  # who changed a part or an order, and when (Django admin's History)
    "allauth",
    # allauth's e-mail addresses, in their own section of Django admin (not a second "Accounts").
    "shop.apps.EmailAddressesConfig",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.google",
    "core",
    "shop",
    "accounts",
    "catalog",
    "orders",
    "reviews",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Cache-Control: private, no-store on answers that depend on who asks, the page caches'
    # own answers below included.
    "core.middleware.PrivateAnswerMiddleware",
    # Pages kept whole, answered before everything below: visitors' (core/page_cache.py) and
    # a session's own (core/personal_pages.py).
    "core.page_cache.VisitorPageMiddleware",
    "core.personal_pages.PersonalPageMiddleware",
    "core.csp.ShopCSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before sessions and auth (they query the database); after the headers middleware.
    "core.middleware.DatabaseUnavailableMiddleware",
    "core.middleware.RetryAfterMiddleware",  # every 429 page says when to come back
    "core.middleware.SessionMiddleware",  # Django's; a database failure on save is a 503
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The request's user becomes the "changed by" of the history records saved meanwhile (the
    # API's bearer user too: DRF hands its authenticated user to the request).
    "simple_history.middleware.HistoryRequestMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, so it sees a view's Http404 first: the shop's 404 page even with DEBUG on.
    "core.middleware.NotFoundPageMiddleware",
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
            # {% url %} worked out once per process (core/templatetags/fast_url.py).
            "builtins": ["core.templatetags.fast_url"],
        },
    },
]

# --- Data -------------------------------------------------------------------------------

# Unset or empty: the SQLite file of the project folder.
database = env.db_url_config(env.str("DATABASE_URL", default="") or "sqlite:///db.sqlite3")
if database["ENGINE"].endswith("sqlite3") and database["NAME"] != ":memory:":
    # A relative SQLite path (`.env` has `sqlite:///db.sqlite3`) is the project folder's.
    database["NAME"] = str(BASE_DIR / database["NAME"])
if database["ENGINE"] == "django.db.backends.postgresql":
    database["ENGINE"] = "core.db"  # Django's, health-checked without a round trip
database["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
database["CONN_HEALTH_CHECKS"] = True
DATABASES = {"default": database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # Redis down is not the shop down: core/tolerant_cache.py serves as an empty cache meanwhile,
    # except for the rate limits, which count in the process's memory.
    CACHES = {
        "default": {"BACKEND": "core.tolerant_cache.TolerantRedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions live in the database and are cached, so several app servers share them.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- Accounts ---------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    # allauth's, signing in by the account's own e-mail only (not by a pending, unverified one).
    "accounts.backends.AuthenticationBackend",
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
ACCOUNT_FORMS = {
    "login": "accounts.login_forms.LoginForm",
    "add_email": "accounts.email_forms.ChangeEmailForm",
}
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
# allauth's mails say the shop's name (not django.contrib.sites' "example.com"); their links
# start with SITE_URL (accounts/adapters.py).
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SHOP_NAME}] "
ACCOUNT_USER_DISPLAY = "accounts.adapters.user_display"
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="none")
ACCOUNT_UNIQUE_EMAIL = True
# The password-reset page answers the same whether the address has an account or not. Sign-up
# still says "An account with this email already exists" (the spec): with e-mail verification
# not "mandatory", allauth lets uniqueness win over enumeration prevention on sign-up.
ACCOUNT_PREVENT_ENUMERATION = True
# A new sign-in address counts only once verified: allauth mails a link to it, and until that
# link is followed the old address stays the account's (and the only one that signs in).
ACCOUNT_CHANGE_EMAIL = True
# Only the spec's rule (accounts.validators.MinimumLengthValidator), with its message.
ACCOUNT_PASSWORD_MIN_LENGTH = None
ACCOUNT_PRESERVE_USERNAME_CASING = False
# Abuse limits of the pages (allauth's syntax; counted in the cache). A tripped limit answers
# 429 with templates/429.html; repeated failed sign-ins keep the form, with a 429 status.
# login_failed's "key" is the e-mail and the client address together (accounts/adapters.py).
ACCOUNT_RATE_LIMITS = {
    "login": env.str("RATE_LIMIT_LOGIN", default="30/m/ip"),
    "login_failed": env.str("RATE_LIMIT_LOGIN_FAILED", default="10/m/ip,5/5m/key"),
    "signup": env.str("RATE_LIMIT_SIGNUP", default="20/m/ip"),
    "reset_password": env.str("RATE_LIMIT_RESET_PASSWORD", default="20/m/ip,5/m/key"),
}
# Client IPs come from REMOTE_ADDR, or from X-Forwarded-For behind this many trusted proxies.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
SOCIALACCOUNT_ADAPTER = "accounts.adapters.SocialAccountAdapter"
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
SOCIALACCOUNT_LOGIN_ON_GET = False
GOOGLE_CLIENT_ID = env.str("GOOGLE_CLIENT_ID", default="")
GOOGLE_CLIENT_SECRET = env.str("GOOGLE_CLIENT_SECRET", default="")
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
        # simplejwt's, plus revoked token families (accounts/tokens.py)
        "accounts.authentication.ShopJWTAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's JSON parser, refusing bodies over 2 MB or nested deeper than 50 levels (400).
    "DEFAULT_PARSER_CLASSES": ["core.parsers.ShopJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "core.throttles.ThrottledAutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "COERCE_DECIMAL_TO_STRING": False,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Abuse limits of the API (core/throttles.py; counted in the cache): per client IP for
    # sign-up and tokens, per user for placing orders and posting reviews. A tripped limit answers 429.
    "DEFAULT_THROTTLE_RATES": {
        "signup": env.str("THROTTLE_SIGNUP", default="20/minute"),
        "token": env.str("THROTTLE_TOKEN", default="30/minute"),
        "token_refresh": env.str("THROTTLE_TOKEN_REFRESH", default="60/minute"),
        "login_failed": env.str("THROTTLE_LOGIN_FAILED", default="10/minute"),
        # per e-mail and client address: others' failures never lock the owner out
        "login_failed_account": env.str("THROTTLE_LOGIN_FAILED_ACCOUNT", default="20/hour"),
        "orders": env.str("THROTTLE_ORDERS", default="30/minute"),
        "reviews": env.str("THROTTLE_REVIEWS", default="5/hour"),
        # Calls that reach Stripe (create-payment-intent, the payment PATCH), per user.
        "payments": env.str("THROTTLE_PAYMENTS", default="20/minute"),
    },
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append(
        "rest_framework.renderers.BrowsableAPIRenderer"
    )

# Tokens (API.md, "Tokens and sign-in"; accounts/tokens.py): access tokens live 15 minutes,
# refresh tokens 7 days and are used once (rotated, the used one blacklisted); a changed
# password makes every earlier token answer 401 (CHECK_REVOKE_TOKEN), as do revoked families.
SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=15),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=7),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "CHECK_REVOKE_TOKEN": True,
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
    "PREPROCESSING_HOOKS": ["core.api.drop_trailing_slash_duplicates"],
    # Swagger UI from our own static files (drf-spectacular-sidecar), not a CDN: see core/csp.py.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
}

# Form and JSON bodies over 2 MB are refused (400; JSON under /api/, see core.api.bad_request).
# Uploaded files do not count: part images may be up to 5 MB (catalog/images.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# A request carrying a file is refused whole (400) past 5 MB of file and 2 MB of fields, before
# any of it is read (core/uploads.py); nginx's client_max_body_size says the same (8m).
FILE_UPLOAD_MAX_BODY_SIZE = 7 * 1024 * 1024
FILE_UPLOAD_HANDLERS = [
    "core.uploads.BoundedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# --- Static files -----------------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploaded files (part images, catalog/images.py) go through Django's storage API: the local
# media folder by default, served at MEDIA_URL by nginx where it runs in front (deploy/nginx)
# and by the app itself otherwise (core/media.py); an S3-compatible bucket (django-storages)
# when AWS_STORAGE_BUCKET_NAME is set. Stored files keep their URL: the part's `img` holds it.
MEDIA_URL = env.str("MEDIA_URL", default="/media/")
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(BASE_DIR / "media")))
AWS_STORAGE_BUCKET_NAME = env.str("AWS_STORAGE_BUCKET_NAME", default="")
if AWS_STORAGE_BUCKET_NAME:
    media_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": AWS_STORAGE_BUCKET_NAME,
            # Unset: boto3's own chain (its environment variables, ~/.aws, an instance role).
            "access_key": env.str("AWS_ACCESS_KEY_ID", default="") or None,
            "secret_key": env.str("AWS_SECRET_ACCESS_KEY", default="") or None,
            "region_name": env.str("AWS_S3_REGION_NAME", default="") or None,
            # Another S3-compatible service (MinIO, R2, …); unset: AWS.
            "endpoint_url": env.str("AWS_S3_ENDPOINT_URL", default="") or None,
            # A CDN or the bucket's public host name for the files' URLs.
            "custom_domain": env.str("AWS_S3_CUSTOM_DOMAIN", default="") or None,
            "location": env.str("AWS_LOCATION", default="media"),
            # A part keeps its image's URL: plain public URLs, never signed ones that expire.
            "querystring_auth": False,
            "file_overwrite": False,
        },
    }
else:
    media_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": media_storage,
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

STRIPE_SECRET_KEY = env.str("STRIPE_SECRET_KEY", default="")
STRIPE_PUBLISHABLE_KEY = env.str("STRIPE_PUBLISHABLE_KEY", default="")
STRIPE_WEBHOOK_SECRET = env.str("STRIPE_WEBHOOK_SECRET", default="")
STRIPE_API_BASE = env.str("STRIPE_API_BASE", default="")
STRIPE_JS_URL = env.str("STRIPE_JS_URL", default="https://js.stripe.com/v3/")

# --- Orders -----------------------------------------------------------------------------

# How long an unpaid order holds its stock, and how many unpaid, unexpired orders one
# account may have at once (one account must never freeze the catalogue).
ORDER_HOLD_SECONDS = env.int("ORDER_HOLD_SECONDS", default=1800)
MAX_UNPAID_ORDERS = env.int("MAX_UNPAID_ORDERS", default=5)
# The share of a part's stock (shelf + what the account holds) one account may hold unpaid.
try:
    MAX_HELD_SHARE = env.float("MAX_HELD_SHARE", default=0.5)
except ValueError:
    MAX_HELD_SHARE = None
if MAX_HELD_SHARE is None or not 0 < MAX_HELD_SHARE <= 1:
    raise ImproperlyConfigured(
        "MAX_HELD_SHARE must be a number above 0 and at most 1 (a share of a part's stock, "
        f"e.g. 0.5), not {env.str('MAX_HELD_SHARE')!r}."
    )

# --- History (django-simple-history) ----------------------------------------------------

# Parts and orders keep every saved version, with who saved it (Django admin's History). A
# version is a record, never a way back: orders and stock change only through their services.
SIMPLE_HISTORY_REVERT_DISABLED = True

# --- Misc -------------------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Mail and background work -----------------------------------------------------------

# SMTP when EMAIL_HOST is set; otherwise mail is printed to the console.
EMAIL_HOST = env.str("EMAIL_HOST", default="")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
# A mail server that hangs holds a background thread or worker this long, never a request.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=5)
EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    default=(
        "django.core.mail.backends.smtp.EmailBackend"
        if EMAIL_HOST
        else "django.core.mail.backends.console.EmailBackend"
    ),
)
# A bare address is sent in the shop's name (orders/emails.py).
# Empty counts as unset (compose passes the variables through, empty unless given).
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="") or f"{SHOP_NAME} <shop@localhost>"
# The address shoppers reach the shop at: every absolute link, in pages and mail (core/links.py).
SITE_URL = (env.str("SITE_URL", default="") or "http://127.0.0.1:8000").rstrip("/")
# Its origin is trusted for CSRF: nginx passes the Host without its port (deploy/nginx), so
# on any port but 80 and 443 the browser's Origin names a port the Host header lacks.
CSRF_TRUSTED_ORIGINS = [*CSRF_TRUSTED_ORIGINS, "://".join(urlsplit(SITE_URL)[:2])]

# Celery (shop/celery.py) on the Redis broker. Without REDIS_URL there is no broker: the same
# tasks run in a background thread of the web process once the transaction commits
# (orders/background.py).
CELERY_BROKER_URL = REDIS_URL
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A broker that is down costs a request well under a second, then the work runs in-process.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
# Periodic work (Celery beat, `celery -A shop worker --beat`): lapsed holds back on the shelf.
# Nothing needs it to be correct (the next order of a part releases that part's lapsed holds
# first); it keeps the catalog's figures fresh.
CELERY_BEAT_SCHEDULE = {
    "release-lapsed-holds": {
        "task": "orders.tasks.release_lapsed_holds",
        "schedule": env.float("HOLDS_RELEASE_EVERY", default=60.0),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
