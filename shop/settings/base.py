"""The Django project: apps, middleware, templates, database, cache, files, background work.

The shop's settings are read from the environment (names in docs/configuration.md).

A development checkout also reads `.env` (written by `make setup`: DEBUG on, its own secret key,
the SQLite database); a variable set in the real environment always wins over it. Production
has no `.env`. ENV_FILE names another file, or none when empty (the tests set it so).
"""

import hashlib
import os
from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent

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
# `make bench` adds its bare yardstick view at /bench/bare (bench/urls.py; never in production).
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
    "django_countries",  # country codes and names (addresses, shipping methods, tax rates)
    "post_office",  # the outbox: mail written with its cause, sent by the worker (core/outbox.py)
    "allauth",
    # allauth's e-mail addresses, in their own section of Django admin (not a second "Accounts").
    "shop.apps.EmailAddressesConfig",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.google",
    "core",
    "shop",
    "accounts",
    "catalog",
    "pricing",
    "orders",
    "reviews",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Cache-Control: private, no-store on answers that depend on who asks, the page caches'
    # own answers below included.
    "core.middleware.PrivateAnswerMiddleware",
    # Pages kept whole, visitors' and a session's own, answered before everything below
    # (core/caching/pages/).
    "core.caching.pages.middleware.PageCacheMiddleware",
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
    # Last, so it sees a view's Http404 or refused body first: the shop's 404 and 400 answers
    # even with DEBUG on.
    "core.middleware.ErrorPageMiddleware",
]

ROOT_URLCONF = "bench.urls" if BENCH_BARE_VIEW else "shop.urls"
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
                "catalog.context_processors.garage",
            ],
        },
    },
]

# --- Data -------------------------------------------------------------------------------

# Unset or empty: the SQLite file of the project folder.
database = env.db_url_config(env.str("DATABASE_URL", default="") or "sqlite:///db.sqlite3")
if database["ENGINE"].endswith("sqlite3") and database["NAME"] != ":memory:":
    # A relative SQLite path (`.env` has `sqlite:///db.sqlite3`) is the project folder's.
    database["NAME"] = str(BASE_DIR / database["NAME"])
if database["ENGINE"].endswith("sqlite3"):
    # SQLite locks no row (select_for_update and core.locks do nothing there) and writes one
    # transaction at a time. Django's default transaction reads first and fails at once
    # ("database is locked", a 503) when it then writes beside another; one that takes the
    # write lock as it begins (IMMEDIATE) waits its turn, up to `timeout` seconds, so the
    # ordering rules' transactions (stock, holds, fair shares) never interleave. WAL lets
    # pages read while an order is written.
    sqlite_options = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 10,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    database["OPTIONS"] = sqlite_options | database.setdefault("OPTIONS", {})
database["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
database["CONN_HEALTH_CHECKS"] = True
DATABASES = {"default": database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
# Seconds a page or an API answer kept for visitors may be behind a committed write, whatever
# fails (API.md, "Private answers": 30): core/caching/versions.py derives how long a version
# lives and is believed from it. Lower only (the tests run servers at a few seconds).
CACHE_MAX_STALENESS = env.int("CACHE_MAX_STALENESS", default=30)
if not 2 <= CACHE_MAX_STALENESS <= 30:
    raise ImproperlyConfigured(
        f"CACHE_MAX_STALENESS must be 2 to 30 (seconds), not {CACHE_MAX_STALENESS}."
    )


def default_cache_key_prefix(database: dict) -> str:
    """A prefix of this deployment's own when none is configured: a digest of where its
    database is (server, port, name; never a password), so two shops on one Redis, or a copy
    of the shop on another database, never read each other's keys."""
    where = f"{database['HOST']}:{database['PORT']}/{database['NAME']}"
    return "shop-" + hashlib.blake2b(where.encode(), digest_size=5).hexdigest()


# Every key of this deployment starts with it (Django's KEY_PREFIX): "<prefix>:1:<key>".
CACHE_KEY_PREFIX = env.str("CACHE_KEY_PREFIX", default="") or default_cache_key_prefix(database)
# This process's copies of values kept under versions (core/caching/versions.py), never stale
# (their keys name the versions): "local" for small ones and template fragments (`{% cache …
# using="local" %}`), "pages" for visitors' whole pages (fewer: they weigh 20 to 60 KB).
LOCAL_CACHES = {
    alias: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": alias,
        "OPTIONS": {"MAX_ENTRIES": entries},
    }
    for alias, entries in (("local", 5000), ("pages", 300))
}
if REDIS_URL:
    # django-redis; Redis down is not the shop down (IGNORE_EXCEPTIONS: an empty cache), and
    # core/caching/redis.py keeps the rate limits counting in the process's memory meanwhile.
    CACHES = {
        "default": {
            "BACKEND": "core.caching.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.5,  # loopback or a LAN: Redis answers in a ms or two
                "SOCKET_TIMEOUT": 0.5,
                "RETRY_AFTER": 5,  # seconds without trying Redis after a connection failure
            },
        },
        **LOCAL_CACHES,
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        **LOCAL_CACHES,
    }

# Sessions live in the database and are cached, so several app servers share them.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

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

# --- History (django-simple-history) ----------------------------------------------------

# Parts and orders keep every saved version, with who saved it (Django admin's History). A
# version is a record, never a way back: orders and stock change only through their services.
SIMPLE_HISTORY_REVERT_DISABLED = True

# --- Misc -------------------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Links and background work ----------------------------------------------------------

# The address shoppers reach the shop at: every absolute link, in pages and mail (core/links.py).
SITE_URL = (env.str("SITE_URL", default="") or "http://127.0.0.1:8000").rstrip("/")
# Its origin is trusted for CSRF: nginx passes the Host without its port (deploy/nginx), so
# on any port but 80 and 443 the browser's Origin names a port the Host header lacks.
CSRF_TRUSTED_ORIGINS = [*CSRF_TRUSTED_ORIGINS, "://".join(urlsplit(SITE_URL)[:2])]

# Celery (shop/celery.py) on the Redis broker. Without REDIS_URL there is no broker: the same
# tasks run in a background thread of the web process once the transaction commits
# (core/background.py).
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
# Periodic work (Celery beat, `celery -A shop worker --beat`): lapsed holds back on the shelf;
# visitors' carts whose sessions have run out deleted; the outbox sent (the catch-up for mail
# a worker that died left queued: each mail is also sent right after its transaction commits).
# Nothing needs it to be correct (the next order of a part releases that part's lapsed holds
# first); it keeps the catalog's figures fresh.
CELERY_BEAT_SCHEDULE = {
    "release-lapsed-holds": {
        "task": "orders.periodic.release_lapsed_holds",
        "schedule": env.float("HOLDS_RELEASE_EVERY", default=60.0),
    },
    "prune-visitor-carts": {"task": "orders.periodic.prune_visitor_carts", "schedule": 86400.0},
    "send-outbox": {
        "task": "core.tasks.send_outbox",
        "schedule": env.float("OUTBOX_SEND_EVERY", default=60.0),
    },
}
# Modules of tasks beside each app's tasks.py (which Celery finds by itself): the periodic ones.
CELERY_IMPORTS = ["orders.periodic"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
