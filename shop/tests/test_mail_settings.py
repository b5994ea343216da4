"""Mail and background-work settings as a fresh process reads them from the environment."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # Django started again in a process of its own, per test

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL", "SITE_URL", "REDIS_URL")
SHOW = """
import json
from django.conf import settings
from shop import celery_app
celery_app.loader.import_default_modules()
print(json.dumps({
    "backend": settings.EMAIL_BACKEND, "host": settings.EMAIL_HOST, "port": settings.EMAIL_PORT,
    "tls": settings.EMAIL_USE_TLS, "timeout": settings.EMAIL_TIMEOUT,
    "from": settings.DEFAULT_FROM_EMAIL, "site": settings.SITE_URL,
    "broker": celery_app.conf.broker_url,
    "tasks": sorted(name for name in celery_app.tasks if name.startswith(("core.", "orders."))),
}))
"""


def settings_with(**env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in NAMES}
    shown = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SHOW],
        cwd=ROOT,
        env={**base, "ENV_FILE": "", "DEBUG": "0", "SECRET_KEY": "x" * 50, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(shown.stdout.splitlines()[-1])


def test_without_email_host_mail_is_printed_and_work_stays_in_process():
    shown = settings_with()

    assert shown["backend"] == "django.core.mail.backends.console.EmailBackend"
    assert shown["from"] == "Throttle & Gear <shop@localhost>"
    assert shown["site"] == "http://127.0.0.1:8000"
    assert shown["timeout"] == 5
    assert not shown["broker"]  # no broker: core/background.py runs tasks in-process


def test_email_host_means_smtp_and_redis_url_is_the_broker():
    shown = settings_with(
        EMAIL_HOST="smtp.example.com",
        EMAIL_PORT="587",
        EMAIL_USE_TLS="1",
        DEFAULT_FROM_EMAIL="Parts <parts@example.com>",
        SITE_URL="https://shop.example.com/",
        REDIS_URL="redis://127.0.0.1:6379/3",
    )

    assert shown["backend"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (shown["host"], shown["port"], shown["tls"]) == ("smtp.example.com", 587, True)
    assert shown["from"] == "Parts <parts@example.com>"
    assert shown["site"] == "https://shop.example.com"
    assert shown["broker"] == "redis://127.0.0.1:6379/3"
    assert shown["tasks"] == [
        "core.tasks.send_outbox",
        "orders.periodic.prune_visitor_carts",
        "orders.periodic.release_lapsed_holds",
    ]
