"""Fixtures shared by every app's tests: API clients for each kind of caller."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.tests.factories import AdminFactory, UserFactory


def bearer_client(user) -> APIClient:
    """An API client that sends `Authorization: Bearer <access JWT>` for `user`."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user).access_token}")
    return client


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


@pytest.fixture(autouse=True)
def test_settings(settings):
    """Plain static storage (no collectstatic needed) and a fast password hasher."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def clear_cache():
    """Rate-limit counters and cached fragments must not leak from one test to the next."""
    yield
    cache.clear()


@pytest.fixture
def staff(db):
    """A Django superuser with the shop-admin role: the person behind /admin/."""
    return AdminFactory(is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client
