"""Hostile request bodies (API.md, "General rules"): JSON nested deeper than 50 levels or
larger than 2 MB answers a JSON 400 `{"detail": …}` on every API endpoint, never a 500 and
never Django's HTML 400 page."""

import json

import pytest
from rest_framework.test import APIClient

from core.parsers import MAX_JSON_DEPTH, json_depth

pytestmark = pytest.mark.django_db

PUBLIC_POSTS = ["/api/token", "/api/signup", "/api/token/refresh"]
SIGNED_IN = [("post", "/api/review"), ("post", "/api/booking"), ("put", "/api/users/{email}")]
BIG = 2_700_000  # over 2.5 MiB: more than Django's own default limit too


def client() -> APIClient:
    anon = APIClient()
    anon.raise_request_exception = False
    return anon


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def assert_json_400(response) -> None:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json", response["Content-Type"]
    assert set(response.json()) == {"detail"}


@pytest.mark.parametrize("path", PUBLIC_POSTS)
def test_1500_levels_deep_is_a_json_400(path):
    response = client().post(path, data=nested(1500), content_type="application/json")
    assert_json_400(response)
    assert "nested" in response.json()["detail"]


@pytest.mark.parametrize("path", PUBLIC_POSTS)
def test_deep_objects_too(path):
    body = '{"a":' * 60 + "1" + "}" * 60
    assert_json_400(client().post(path, data=body, content_type="application/json"))


def test_fifty_levels_are_still_read():
    """At the limit the body is parsed as usual (here: a field error, not a refusal)."""
    password = json.loads(nested(MAX_JSON_DEPTH - 1))  # 49 lists in the object: 50 levels
    body = json.dumps({"name": "A", "email": "a@example.com", "password": password})
    response = client().post("/api/signup", data=body, content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) == {"password"}


@pytest.mark.parametrize("path", PUBLIC_POSTS)
def test_body_over_2_mb_is_a_json_400(path):
    body = json.dumps({"email": "a" * BIG, "password": "x", "refresh": "y", "name": "z"})
    response = client().post(path, data=body, content_type="application/json")
    assert_json_400(response)
    assert "large" in response.json()["detail"]


@pytest.mark.parametrize(("method", "path"), SIGNED_IN)
def test_signed_in_endpoints_refuse_them_too(as_user, user, method, path):
    as_user.raise_request_exception = False
    send = getattr(as_user, method)
    url = path.format(email=user.email)
    assert_json_400(send(url, data=nested(1500), content_type="application/json"))
    assert_json_400(send(url, data='"' + "a" * BIG + '"', content_type="application/json"))


def test_big_body_read_by_django_under_api_is_json_not_the_html_page(db):
    """A body over 2 MB read whole by Django (DATA_UPLOAD_MAX_MEMORY_SIZE: here the Stripe
    webhook, which needs the raw bytes for the signature) is refused before the view gets
    it: under /api/ that refusal is JSON too."""
    body = json.dumps({"type": "payment_intent.succeeded", "pad": "a" * BIG})
    response = client().post(
        "/api/stripe/webhook",
        data=body,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE="t=1,v1=0",
    )
    assert_json_400(response)


@pytest.mark.parametrize("path", ["/api/signup", "/api/review", "/api/cart"])
def test_with_debug_on_a_big_body_is_json_too_not_the_debug_page(settings, as_user, path):
    """`make run` serves with DEBUG on: Django's refusal of a body it will not read is then
    its technical page (the settings listed), unless the shop answers it first."""
    settings.DEBUG = True
    as_user.raise_request_exception = False
    body = json.dumps({"name": "a" * BIG, "review": "b", "ratings": 5})
    response = as_user.post(path, data=body, content_type="application/json")
    assert_json_400(response)


@pytest.mark.parametrize("debug", [False, True])
def test_big_form_body_on_a_page_stays_the_shops_page(settings, client, user, debug):
    """A page's form over 2 MB is the shop's 400 page, with DEBUG on too (never Django's
    technical page, which lists the settings)."""
    settings.DEBUG = debug
    client.force_login(user)
    client.raise_request_exception = False
    body = "review=" + "a" * BIG
    response = client.post(
        "/dashboard/review", data=body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert b"DATA_UPLOAD_MAX_MEMORY_SIZE" not in response.content


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        (b"1", 0),
        (b"[]", 1),
        (b'{"a": [1, {"b": []}]}', 4),
        (b'["[[[[", "\\"[[["]', 1),  # brackets inside strings (and escaped quotes) don't count
        (nested(1500).encode(), 1500),
    ],
)
def test_json_depth(text, depth):
    assert json_depth(text) == depth
