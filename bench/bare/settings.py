"""`startproject`'s settings, trimmed of comments; the database is the benchmark's PostgreSQL
server (BARE_DATABASE_URL, a database of its own; SHOP_DATABASE_URL, the shop's, for the
search), DEBUG off as the shop runs."""

import os
from urllib.parse import urlsplit

BASE_DIR = os.path.dirname(os.path.abspath(__file__))

SECRET_KEY = os.environ.get("SECRET_KEY", "bench-bare-project-secret-key-0123456789abcdefghij")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "bench.bare",  # the shelf and its orders (the locked row and the inserted one)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "bench.bare.urls"
WSGI_APPLICATION = "bench.bare.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _postgres(url: str) -> dict:
    parts = urlsplit(url)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": parts.path.lstrip("/"),
        "USER": parts.username or "",
        "PASSWORD": parts.password or "",
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "CONN_MAX_AGE": 60,  # as the shop keeps its connection
    }


DATABASES = {
    "default": _postgres(
        os.environ.get("BARE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_bare")
    ),
    # The shop's database, read by the search view only (the same rows the shop searches).
    "shop": _postgres(
        os.environ.get("SHOP_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/shop_bench")
    ),
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
