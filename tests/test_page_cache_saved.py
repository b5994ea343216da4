"""Saved parts and the visitors' page cache (core.caching.pages, catalog.saved): the "Save"
buttons of cards and part pages are the same HTML for everyone (the page's script marks the
saved ones from /api/saved), so a visitor who saved parts is still served kept pages, and
nobody's saved state is ever in a kept page another person gets."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db

PATHS = ["/", "/allparts", "/allparts?page=1", "/parts/{part}"]


def visit(client, path: str) -> tuple[str, bool, int]:
    """The page's HTML, whether it was rendered now (not served kept), its query count."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return response.content.decode(), bool(response.templates), len(queries)


def saver(part) -> Client:
    """A visitor who saved `part`."""
    client = Client()
    response = client.post("/api/saved", {"partId": part.pk}, "application/json")
    assert response.json()["count"] == 1
    return client


def personal(html: str) -> list[str]:
    """Whatever in the page would say what someone saved."""
    return [mark for mark in (">Saved</button>", "aria-pressed", "data-saved") if mark in html]


@pytest.mark.parametrize("path", PATHS)
def test_a_visitor_who_saved_gets_the_same_kept_page_as_everyone(path):
    part = PartFactory(name="Chain lube")
    path = path.format(part=part.pk)
    first, _, _ = visit(Client(), path)  # kept for visitors
    a, b = saver(part), Client()
    html_a, rendered_a, queries_a = visit(a, path)
    html_b, rendered_b, _ = visit(b, path)
    assert html_a == html_b == first
    assert (rendered_a, rendered_b, queries_a) == (False, False, 0)
    assert f'data-save-part="{part.pk}"' in html_a
    assert personal(html_a) == []


@pytest.mark.parametrize("path", PATHS)
def test_a_page_rendered_for_a_visitor_who_saved_shows_nothing_of_it_to_the_next(path):
    part = PartFactory(name="Chain lube")
    path = path.format(part=part.pk)
    html_a, rendered, _ = visit(saver(part), path)  # rendered for A, then kept
    assert rendered
    html_b, rendered, _ = visit(Client(), path)
    assert (html_b, rendered) == (html_a, False)
    assert personal(html_b) == []


def test_an_accounts_saved_parts_are_not_in_its_pages_either(user):
    part = PartFactory(name="Chain lube")
    client = Client()
    client.force_login(user)
    client.post("/api/saved", {"partId": part.pk}, "application/json")
    for path in ("/allparts", f"/parts/{part.pk}"):
        html, _, _ = visit(client, path)
        assert personal(html) == [], path
    html, _, _ = visit(Client(), "/allparts")  # the cards kept in this process: no one's
    assert personal(html) == []
