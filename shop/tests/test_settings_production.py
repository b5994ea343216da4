"""Project-wide checks: production settings, migrations, the OpenAPI schema."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "prod-" + "k3y-" * 15,
    "ALLOWED_HOSTS": "shop.example.com",
    "DATABASE_URL": os.environ.get("DATABASE_URL", ""),
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """Run manage.py in a fresh interpreter with exactly the shop variables given."""
    test_only = {*PRODUCTION_ENV, "SECURE_SSL_REDIRECT", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    base = {k: v for k, v in os.environ.items() if k not in test_only}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow  # manage.py check --deploy in a process of its own
def test_check_deploy_is_clean_in_production():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    env = {**PRODUCTION_ENV, "SECRET_KEY": ""}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off." in result.stderr


@pytest.mark.django_db
def test_no_missing_migrations():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_openapi_schema_builds_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = out.read_text()
    for path in (
        "/api/allparts:",
        "/api/booking/{id}:",
        "/api/user/admin/{email}:",
        "/api/review:",
    ):
        assert path in schema


@pytest.mark.django_db
def test_schema_and_docs_pages_are_served(client):
    assert client.get("/api/schema").status_code == 200
    docs = client.get("/api/docs")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


@pytest.mark.django_db
def test_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_unknown_api_path_is_a_json_404_for_unsafe_methods_too(method):
    """Not Django's HTML CSRF page (found by fuzzing: DELETE /api/allparts/null,null was a 403)."""
    response = getattr(Client(enforce_csrf_checks=True), method)("/api/allparts/abc")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
def test_a_post_to_an_unknown_page_is_the_404_page_not_a_csrf_error():
    response = Client(enforce_csrf_checks=True).post("/no/such/page", {"x": "1"})
    assert response.status_code == 404
    assert b"WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND" in response.content


API_PATHS = [
    "/api/no-such-thing",
    "/api/booking/%0A",  # a newline, as a fuzzer sends it
    "/api/booking/%0A%0D1",
    "/api/%0A",
    "/api/allparts/%00x",
    "/api/allparts/x%09y%0B",
]


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
@pytest.mark.parametrize("path", API_PATHS)
def test_every_unknown_api_path_is_the_json_404(client, settings, debug, path):
    """Control characters too: no URL pattern matched them, so Django answered its technical
    HTML 404 (DEBUG on: the site's URLs listed) or the shop's page (DEBUG off)."""
    settings.DEBUG = debug
    response = client.get(path)

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
@pytest.mark.parametrize("path", ["/no/such/page", "/no%0Asuch", "/parts/%0A", "/%0D%0A"])
def test_every_unknown_page_is_the_shops_404_page(client, settings, debug, path):
    settings.DEBUG = debug
    response = client.get(path)

    assert response.status_code == 404
    assert b"WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND" in response.content
