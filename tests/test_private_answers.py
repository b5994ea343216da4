"""X-Forwarded-Proto counts only when a proxy is configured (TRUSTED_PROXY_COUNT), in Django
and in gunicorn alike."""

import pytest
import requests

from scripts.servers import Gunicorn
from shop.tests.test_project import PRODUCTION_ENV, manage

# --- X-Forwarded-Proto only from a configured proxy --------------------------------------

SCHEME = (
    "from django.test import RequestFactory; "
    "print(RequestFactory().get('/', HTTP_X_FORWARDED_PROTO='https').scheme)"
)


@pytest.mark.parametrize(("proxies", "scheme"), [("0", "http"), ("1", "https")])
def test_django_takes_the_scheme_from_a_configured_proxy_only(proxies, scheme):
    result = manage("shell", "-c", SCHEME, **PRODUCTION_ENV, TRUSTED_PROXY_COUNT=proxies)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == scheme


@pytest.mark.parametrize(("proxies", "scheme"), [("0", "http"), ("1", "https")])
def test_gunicorn_takes_the_scheme_from_a_configured_proxy_only(tmp_path, proxies, scheme):
    """deploy/gunicorn.conf.py: gunicorn itself believes X-Forwarded-Proto from loopback
    unless told otherwise; a WSGI app that echoes the scheme shows what the shop would see."""
    env = {"PATH": "/usr/bin:/bin", "TRUSTED_PROXY_COUNT": proxies}
    server = Gunicorn(
        env=env, log=tmp_path / "gunicorn.log", workers=1, app="tests.wsgi_scheme", health="/"
    )
    with server:
        answer = requests.get(server.url, headers={"X-Forwarded-Proto": "https"}, timeout=10)
    assert answer.text == scheme
