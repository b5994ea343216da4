"""Private answers (API.md): every answer that depends on who is asking carries
`Cache-Control: private, no-store` (core.middleware.PrivateAnswerMiddleware), pages served from
a session's own cache too; visitors' pages and anonymous reads keep what they had. And
X-Forwarded-Proto counts only when a proxy is configured (TRUSTED_PROXY_COUNT), in Django and in
gunicorn alike."""

import pytest
import requests
from django.test import Client

from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from scripts.servers import Gunicorn
from shop.tests.test_settings_production import PRODUCTION_ENV, manage

pytestmark = pytest.mark.django_db

MY_ORDER = "/dashboard/myorder"


def cache_control(response) -> dict[str, str]:
    """The Cache-Control header as {directive: value ("" when it has none)}."""
    directives = {}
    for item in response.get("Cache-Control", "").split(","):
        name, _, value = item.strip().partition("=")
        if name:
            directives[name.lower()] = value
    return directives


def is_private(response) -> bool:
    """private and no-store, and nothing that lets a cache keep it (public, a max-age > 0)."""
    directives = cache_control(response)
    return (
        {"private", "no-store"} <= directives.keys()
        and "public" not in directives
        and int(directives.get("max-age") or 0) == 0
        and int(directives.get("s-maxage") or 0) == 0
    )


def signed_in(user) -> Client:
    """A browser signed in as `user` that has seen a page once (its CSRF cookie is set, so
    its next pages can be kept for its session)."""
    browser = Client()
    browser.force_login(user)
    assert browser.get("/dashboard/profile").status_code == 200
    return browser


@pytest.mark.parametrize("page", ["my order", "order page"])
def test_a_signed_in_page_is_private_rendered_and_from_the_session_cache(user, page):
    order = BookingFactory(user=user)
    path = MY_ORDER if page == "my order" else order.get_absolute_url()
    browser = signed_in(user)

    rendered = browser.get(path)
    kept = browser.get(path)

    assert rendered.status_code == kept.status_code == 200
    assert rendered.templates and not kept.templates  # the second from the session's cache
    assert is_private(rendered), rendered.get("Cache-Control")
    assert is_private(kept), kept.get("Cache-Control")


@pytest.mark.parametrize("path", ["/", "/allparts", "/dashboard/profile"])
def test_any_page_a_signed_in_shopper_sees_is_private(client, user, path):
    PartFactory()
    client.get(path)  # kept for visitors, where it may be
    client.force_login(user)
    assert is_private(client.get(path))


def test_an_api_answer_to_a_bearer_token_is_private(as_user, user):
    part = PartFactory(available_quantity=10, minimum_order_quantity=1)
    me = as_user.get("/api/user/me")
    orders = as_user.get("/api/booking", {"email": user.email})
    placed = as_user.post(
        "/api/booking",
        {"partId": part.pk, "quantity": 1, "address": "1 Dock St", "phone": "0123456789"},
        format="json",
    )
    assert (me.status_code, orders.status_code, placed.status_code) == (200, 200, 201)
    for response in (me, orders, placed):
        assert is_private(response), response.get("Cache-Control")


def test_a_list_anyone_may_read_is_private_when_asked_with_a_token(anon, as_user):
    PartFactory()
    anon.get("/api/allparts")
    anon.get("/api/allparts")  # kept for visitors now
    assert is_private(as_user.get("/api/allparts"))


def test_tokens_and_sign_up_answers_are_private(anon, user):
    signup = {"name": "Ada", "email": "ada@example.com", "password": "secret1"}
    signed_up = anon.post("/api/signup", signup, format="json")
    token = anon.post(
        "/api/token", {"email": "ada@example.com", "password": "secret1"}, format="json"
    )
    assert (signed_up.status_code, token.status_code) == (201, 200)
    assert is_private(signed_up) and is_private(token)


def test_the_sign_in_page_is_private(client):
    """Its form carries a CSRF token made for this browser's cookie."""
    response = client.get("/login")
    assert response.status_code == 200
    assert is_private(response), response.get("Cache-Control")


@pytest.mark.parametrize("path", ["/", "/allparts", "part", "/api/allparts"])
def test_visitors_pages_and_anonymous_reads_are_not_private(client, path):
    part = PartFactory()
    path = part.get_absolute_url() if path == "part" else path
    rendered, kept = client.get(path), client.get(path)
    assert rendered.status_code == kept.status_code == 200
    for response in (rendered, kept):
        assert not {"private", "no-store"} & cache_control(response).keys(), path


def test_an_uploaded_image_stays_public_for_a_signed_in_shopper(client, user, settings):
    """Files that are the same for everyone keep their own caching (a year, immutable)."""
    folder = settings.MEDIA_ROOT / "parts"
    folder.mkdir(exist_ok=True)
    (folder / "private-answers.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    client.force_login(user)
    response = client.get("/media/parts/private-answers.png")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"


# --- X-Forwarded-Proto only from a configured proxy --------------------------------------

SCHEME = (
    "from django.test import RequestFactory; "
    "print(RequestFactory().get('/', HTTP_X_FORWARDED_PROTO='https').scheme)"
)


@pytest.mark.slow  # Django started again in a process of its own
@pytest.mark.parametrize(("proxies", "scheme"), [("0", "http"), ("1", "https")])
def test_django_takes_the_scheme_from_a_configured_proxy_only(proxies, scheme):
    result = manage("shell", "-c", SCHEME, **PRODUCTION_ENV, TRUSTED_PROXY_COUNT=proxies)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == scheme


@pytest.mark.slow  # gunicorn
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
