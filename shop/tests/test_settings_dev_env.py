"""A development checkout: `make setup` writes .env, and manage.py works as typed with it."""

import subprocess
from pathlib import Path

import pytest

from shop.tests.test_settings_production import manage

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dotenv(tmp_path) -> Path:
    """A .env written by the Makefile's own rule, as `make setup` writes it."""
    subprocess.run(
        ["make", "-s", "-f", str(ROOT / "Makefile"), "-C", str(tmp_path), ".env"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return tmp_path / ".env"


def test_setup_writes_debug_a_fresh_secret_key_and_sqlite(dotenv, tmp_path):
    lines = dict(line.split("=", 1) for line in dotenv.read_text().splitlines() if "=" in line)

    assert lines["DEBUG"] == "1"
    assert len(lines["SECRET_KEY"]) >= 50
    assert lines["DATABASE_URL"] == "sqlite:///db.sqlite3"
    again = subprocess.run(
        ["make", "-s", "-f", str(ROOT / "Makefile"), "-C", str(tmp_path), ".env"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert dotenv.read_text().count("SECRET_KEY=") == 1
    assert lines["SECRET_KEY"] in dotenv.read_text(), again.stdout  # written once, kept


@pytest.mark.slow  # five manage.py processes
def test_operators_commands_work_with_nothing_set_by_hand(dotenv, tmp_path):
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"  # this test's own database
    env = {"ENV_FILE": str(dotenv), "DATABASE_URL": database}

    migrated = manage("migrate", "--noinput", **env)
    created = manage(
        "shell",
        "--no-imports",
        "-c",
        "from accounts.services import user_create;"
        "user_create(email='someone@example.com', name='Someone', password='secret-123')",
        **env,
    )
    promoted = manage("make_admin", "someone@example.com", **env)
    is_admin = manage(
        "shell",
        "--no-imports",
        "-c",
        "from accounts.models import User; print(User.objects.get().role)",
        **env,
    )

    assert migrated.returncode == 0, migrated.stderr
    assert created.returncode == 0, created.stderr
    assert promoted.returncode == 0, promoted.stderr
    assert is_admin.stdout.strip() == "admin"


@pytest.mark.slow  # two manage.py processes
def test_the_real_environment_wins_over_the_file(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("DEBUG=1\nSECRET_KEY=from-the-file\nSHOP_NAME=From the file\n")
    show = "from django.conf import settings; print(settings.SHOP_NAME, settings.DEBUG)"

    from_file = manage("shell", "--no-imports", "-c", show, ENV_FILE=str(dotenv))
    from_env = manage(
        "shell", "--no-imports", "-c", show, ENV_FILE=str(dotenv), SHOP_NAME="From the env"
    )

    assert from_file.stdout.strip() == "From the file True", from_file.stderr
    assert from_env.stdout.strip() == "From the env True", from_env.stderr


def test_without_a_file_production_still_needs_a_secret_key(tmp_path):
    refused = manage("check", ENV_FILE=str(tmp_path / "missing.env"), DEBUG="0")

    assert refused.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off." in refused.stderr
