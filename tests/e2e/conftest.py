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


@pytest.hookimpl(wrapper=True)  # around every other implementation of the hook
def pytest_collection_modifyitems(items):
    """Every test in this folder is a browser test: marked `e2e` before `-m` deselects (`make
    test-fast` leaves them out), and run last, after pytest-django has ordered the tests by
    their database use. Playwright's sync API keeps its event loop running in this thread from
    the first browser test to the end of the session, and Django refuses `async_to_sync` in a
    thread with a running loop (django-health-check's /health/ uses it): a test of the server
    after a browser test would fail for the wrong reason."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)
    result = yield
    items.sort(key=lambda item: HERE in item.path.parents)
    return result


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


AXE = Path(settings.BASE_DIR) / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


@pytest.fixture
def axe_page(browser, base_url):
    """A page whose context bypasses CSP, so axe's script can be injected."""
    context = browser.new_context(bypass_csp=True, base_url=base_url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = base_url
    yield page
    context.close()


def axe_findings(page) -> list[str]:
    """axe's serious and critical findings on the page as it is now, one line each."""
    page.wait_for_load_state("networkidle")
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => await axe.run(document)")
    return [
        f"{page.url}: {v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(node["target"][0] for node in v["nodes"][:3])
        for v in results["violations"]
        if v["impact"] in BLOCKING
    ]


def findings(page, path: str, width: int) -> list[str]:
    """axe_findings on `path` at `width` px."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(path)
    return [f"@{width}px {line}" for line in axe_findings(page)]


def demo_methods(countries=("US", "GB")):
    """The demo's shipping methods (API.md "Addresses, shipping and tax"): "Standard" (free,
    the default) and "Express" ($14.99), delivering to `countries`."""
    from pricing.tests import factories  # the app's, only once a test asks (Django is set up)

    standard = factories.method(
        "Standard", countries=countries, eta="3–5 business days", is_default=True
    )
    express = factories.method(
        "Express", countries=countries, bands=[(100_000, "14.99")], eta="1–2 business days"
    )
    return standard, express


def saved_address(user, **fields):
    """A saved address of `user` (the first is the default): Rosa Rider's in Springfield, IL."""
    from accounts.addresses import address_create

    where = {
        "full_name": "Rosa Rider",
        "line1": "7 Gear Lane",
        "city": "Springfield",
        "region": "IL",
        "postcode": "62701",
        "country": "US",
        "phone": "+12175550100",
    }
    return address_create(owner=user, **{**where, **fields})


SAVED_LINE = "Rosa Rider, 7 Gear Lane, Springfield, IL 62701, United States of America"


def breakdown(scope) -> dict[str, str]:
    """The money rows under `scope` as a person reads them: {"Subtotal": "$49.00", …} from its
    description list's terms and their definitions."""
    return dict(
        zip(
            scope.locator("dt").all_inner_texts(),
            scope.locator("dd").all_inner_texts(),
            strict=True,
        )
    )


def total_of(scope):
    """The amount of the "Total" row under `scope`."""
    term = scope.locator("dt").filter(has_text=re.compile(r"^\s*Total\s*$"))
    return term.locator("xpath=following-sibling::dd[1]")
