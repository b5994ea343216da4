"""Fixtures shared by every app's tests: API clients for each kind of caller."""

from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.tests.factories import AdminFactory, UserFactory
from core import background
from core.caching import versions
from tests import stripe_fake
from tests.smtp_fake import SMTPServer
from tests.stripe_fake import FakeStripe


def address_of(user) -> str:
    """A client address of `user`'s own: different people ask from different addresses (the
    fair holds count each address's holds; a test of one address says so)."""
    return f"10.{user.pk >> 16 & 255}.{user.pk >> 8 & 255}.{user.pk & 255}"


def bearer_client(user, address: str | None = None) -> APIClient:
    """An API client that sends `Authorization: Bearer <access JWT>` for `user`, from
    `address` (the user's own, address_of, unless given)."""
    client = APIClient(REMOTE_ADDR=address or address_of(user))
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user).access_token}")
    return client


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite the test database is a file, `test_<name>` beside the database's own, as
    `make run`'s is a file: the live server's threads and the background threads each open
    their own connection, as on PostgreSQL. (Django's default, one in-memory database shared
    by the threads, fails at once on a table another thread holds: "database table is
    locked".)"""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3") and db["NAME"] != ":memory:" and not db["TEST"]["NAME"]:
        name = Path(db["NAME"])
        db["TEST"]["NAME"] = str(name.with_name(f"test_{name.name}"))


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def other_user(db):
    return UserFactory()


@pytest.fixture
def admin_user(db):
    return AdminFactory()


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def as_user(user):
    return bearer_client(user)


@pytest.fixture
def as_other(other_user):
    return bearer_client(other_user)


@pytest.fixture
def as_admin(admin_user):
    return bearer_client(admin_user)


@pytest.fixture(scope="session")
def media_root(tmp_path_factory):
    """Where the tests' uploads go: a temporary folder, never the project's media/."""
    return tmp_path_factory.mktemp("media")


@pytest.fixture(scope="session")
def static_root(tmp_path_factory):
    """An empty STATIC_ROOT: the tests serve static files from the source folders (finders),
    and WhiteNoise, set up again for every test client, would otherwise index a collected
    staticfiles/ (left by `make cluster`, `make bench` or the cluster test) every time."""
    return tmp_path_factory.mktemp("static")


@pytest.fixture(autouse=True)
def test_settings(settings, media_root, static_root):
    """The tests' Django settings that no environment variable sets (the variables are in
    pyproject.toml's `env`): plain static storage (no collectstatic needed), a fast password
    hasher, uploads in a temporary folder, background work in this process."""
    settings.MEDIA_ROOT = media_root
    settings.STATIC_ROOT = static_root
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The tests' REDIS_URL is a cache, not a broker with workers: background work runs in this
    # process (core/background.py). The Celery worker test names its own broker.
    settings.CELERY_BROKER_URL = ""


@pytest.fixture
def sent_mail(mailoutbox):
    """Django's test outbox, read once the sending the mail outbox started has finished (mail
    is written in the transaction and sent after the commit, by another thread: the test's
    database must commit, `django_db(transaction=True)`)."""

    class Sent:
        def __iter__(self):
            return iter(self.all())

        def __len__(self):
            return len(self.all())

        def __getitem__(self, index):
            return self.all()[index]

        def all(self):
            assert background.wait_idle(timeout=20), "mail still being sent after 20 s"
            return list(mailoutbox)

    return Sent()


@pytest.fixture(autouse=True)
def background_work_finishes():
    """No test leaves background work (mail) running into the next one."""
    yield
    assert background.wait_idle(timeout=30), "background work still running after 30 s"


@pytest.fixture(autouse=True)
def clear_cache():
    """Rate-limit counters, kept pages and fragments must not leak from one test to the next:
    every cache is emptied, the shared one and this process's ("local", "pages"), and the
    versions this process believes are forgotten."""
    yield
    for alias in settings.CACHES:
        caches[alias].clear()
    versions.forget()


@pytest.fixture
def staff(db):
    """A Django superuser with the shop-admin role: the person behind /admin/."""
    return AdminFactory(is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture(scope="session")
def fake_stripe():
    """A localstripe server for the whole test session (started on first use)."""
    server = FakeStripe().start()
    yield server
    server.stop()


@pytest.fixture
def stripe_on(settings, fake_stripe):
    """Card payments switched on, against the fake Stripe."""
    settings.STRIPE_SECRET_KEY = stripe_fake.SECRET_KEY
    settings.STRIPE_PUBLISHABLE_KEY = stripe_fake.PUBLISHABLE_KEY
    settings.STRIPE_WEBHOOK_SECRET = stripe_fake.WEBHOOK_SECRET
    settings.STRIPE_API_BASE = fake_stripe.url
    settings.STRIPE_JS_URL = fake_stripe.js_url
    return fake_stripe


@pytest.fixture(scope="session")
def smtp_server():
    """An SMTP server (aiosmtpd) on a free loopback port for the whole test session."""
    server = SMTPServer().start()
    yield server
    server.stop()


@pytest.fixture
def mailbox(settings, smtp_server):
    """Mail goes by SMTP to the loopback server; the messages it received in this test."""
    smtp_server.messages.clear()
    smtp_server.refuse_once.clear()
    smtp_server.handler.hold = None
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = smtp_server.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    return smtp_server.messages
