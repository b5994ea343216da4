"""The settings in production: `check --deploy` clean, no start without a SECRET_KEY, no model
change without its migration. `manage` runs manage.py as an operator would (other tests use it)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

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
