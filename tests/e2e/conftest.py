"""Browser tests: Playwright driving Debian's Chromium against Django's live_server."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(settings.BASE_DIR) / "test-artifacts"
HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(items):
    """Every test in this folder is a browser test: marked `e2e` (`make test-fast` leaves them out)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium with no network of its own (never a downloaded browser)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}: `make test` installs it when run as root; "
            "otherwise run: sudo apt-get update && sudo apt-get install -y chromium",
            pytrace=False,
        )
    args = {k: v for k, v in browser_type_launch_args.items() if k != "channel"}
    return {**args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.fixture(autouse=True)
def _e2e_db(transactional_db):
    """live_server serves from another thread: data must be committed to be seen."""


@pytest.fixture(scope="session")
def base_url(live_server):
    """pytest-playwright resolves page.goto("/path") against the live server."""
    return live_server.url


@pytest.fixture
def site(page, base_url):
    """The browser page of a test, with a short default timeout."""
    page.set_default_timeout(10_000)
    page.base_url = base_url
    return page


def sign_in(page, user) -> None:
    """Give the browser a signed-in session cookie for `user` (no login form round trip)."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": page.base_url}]
    )


def shot(page, name: str) -> None:
    """Leave a full-page screenshot in test-artifacts/ for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    safe = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-")
    page.screenshot(path=ARTIFACTS / f"{safe}.png", full_page=True)
