"""Whole-page caching for visitors without a session (core.page_cache)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.tests.factories import PartFactory
from reviews.tests.factories import ReviewFactory

pytestmark = pytest.mark.django_db


def visit(client, path: str) -> tuple[str, int]:
    """The page's text and the number of queries it took."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


@pytest.mark.parametrize("path", ["/", "/allparts", "/allparts?page=1", "/blogs", "/myportfolio"])
def test_a_second_visit_is_served_from_the_cache(client, path):
    PartFactory()
    first, _ = visit(client, path)
    again, queries = visit(client, path)
    assert (again, queries) == (first, 0)


def test_new_parts_and_reviews_show_at_once(client):
    visit(client, "/")
    PartFactory(name="Fresh clutch cable")
    ReviewFactory(review="Arrived in two days.")
    page, _ = visit(client, "/")
    assert "Fresh clutch cable" in page
    assert "Arrived in two days." in page


def test_signed_in_visitors_get_their_own_page(client, user):
    visit(client, "/")
    client.force_login(user)
    page, _ = visit(client, "/")
    assert f"{user.get_short_name()} (Sign Out)" in page


def rendered(client, path: str) -> bool:
    """Whether the page was rendered now (a cached page renders no template)."""
    return bool(client.get(path).templates)


def test_the_cache_serves_without_rendering(client):
    assert rendered(client, "/allparts")
    assert not rendered(client, "/allparts")


def test_other_query_strings_are_not_cached(client):
    rendered(client, "/allparts?utm_source=mail")
    assert rendered(client, "/allparts?utm_source=mail")


def test_a_pending_message_bypasses_the_cache(client):
    rendered(client, "/")
    client.cookies["messages"] = "pending"
    assert rendered(client, "/")


def test_api_list_is_cached_until_the_catalog_changes(client):
    PartFactory(name="Fork seal")
    assert [p["name"] for p in client.get("/api/allparts").json()] == ["Fork seal"]
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/allparts")
    assert len(queries) == 0
    PartFactory(name="Steering damper")
    assert [p["name"] for p in client.get("/api/allparts").json()] == [
        "Steering damper",
        "Fork seal",
    ]
