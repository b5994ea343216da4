"""Assertions shared by the API tests: the `<user>` shape and "no secrets in any answer"."""

from django.db import connection

from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD

USER_FIELDS = {"_id", "email", "name", "role", "education", "location", "phone", "linkedin"}

# psycopg refuses NUL bytes in text parameters; SQLite stores them, so the bug shows on PostgreSQL only.
ON_POSTGRES = connection.vendor == "postgresql"


def user_json(user: User, *, role: str) -> dict:
    """The API's user JSON for `user` as stored now; `role` is spelt out by the test."""
    user.refresh_from_db()
    return {
        "_id": user.pk,
        "email": user.email,
        "name": user.name,
        "role": role,
        "education": user.education,
        "location": user.location,
        "phone": user.phone,
        "linkedin": user.linkedin,
    }


def _keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def assert_no_secrets(response) -> None:
    """No password field, no stored hash and no plain test password anywhere in the answer."""
    text = response.content.decode()
    assert not [k for k in _keys(response.json()) if "password" in k.lower()], text
    assert TEST_PASSWORD not in text
    for stored in User.objects.values_list("password", flat=True):
        if stored:
            assert stored not in text
    for marker in ("pbkdf2_", "argon2", "bcrypt", "scrypt", "md5$"):
        assert marker not in text


def bearer(client, token: str):
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client
