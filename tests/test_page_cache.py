"""Whole pages kept for visitors without a session (core.caching.pages)."""

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.stock import stock_adjust
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


def rendered(client, path: str, **headers) -> bool:
    """Whether the page was rendered now (a cached page renders no template)."""
    return bool(client.get(path, **headers).templates)


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


def test_a_page_of_the_api_list_is_kept_until_the_catalog_changes(client):
    """API clients page the catalog with `limit` and `offset`: those pages are kept too; a
    search or a filter (a new query each time) never is."""
    PartFactory(name="Fork seal")
    PartFactory(name="Steering damper")
    for path in ("/api/allparts?limit=1", "/api/allparts?limit=1&offset=1"):
        first = client.get(path)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).content == first.content
        assert len(queries) == 0, path
    assert client.get("/api/allparts?limit=1&offset=1").json()[0]["name"] == "Fork seal"
    assert client.get("/api/allparts?limit=1&offset=1")["X-Total-Count"] == "2"
    PartFactory(name="Chain guard")
    assert client.get("/api/allparts?limit=1").json()[0]["name"] == "Chain guard"
    assert client.get("/api/allparts?limit=1")["X-Total-Count"] == "3"
    for path in ("/api/allparts?limit=1&q=seal", "/api/allparts?limit=1&inStock=true"):
        client.get(path)
        with CaptureQueriesContext(connection) as queries:
            client.get(path)
        assert len(queries) > 0, path


# --- Answered before the middleware (core.caching.pages.PageCacheMiddleware) --------------


@pytest.mark.parametrize("path", ["/", "/allparts", "/api/allparts"])
def test_a_kept_answer_carries_the_headers_of_a_rendered_one(client, path):
    PartFactory()
    first = client.get(path)
    again = client.get(path)
    assert again.content == first.content
    for header in (
        "Content-Type",
        "Content-Security-Policy",
        "X-Frame-Options",
        "X-Content-Type-Options",
        "Referrer-Policy",
    ):
        assert again[header] == first[header], header
    assert "Cookie" in again["Vary"]


def test_a_part_page_is_kept_and_follows_its_stock(client, admin_user):
    part = PartFactory(available_quantity=50)
    assert rendered(client, part.get_absolute_url())
    assert not rendered(client, part.get_absolute_url())
    stock_adjust(part=part, change=7, note="delivery", by=admin_user)
    page, _ = visit(client, part.get_absolute_url())
    assert "<dd>57</dd>" in page


def test_personal_pages_stay_personal(client, user, other_user):
    """Two shoppers and a visitor on one cached URL: each sees only their own page."""
    visit(client, "/")  # kept for visitors
    client.force_login(user)
    mine, _ = visit(client, "/")
    client.force_login(other_user)
    theirs, _ = visit(client, "/")
    client.logout()
    client.cookies.clear()
    visitors, _ = visit(client, "/")
    assert user.email in mine and other_user.email not in mine
    assert other_user.email in theirs and user.email not in theirs
    assert user.email not in visitors and other_user.email not in visitors


def test_a_signed_in_page_is_never_kept_for_visitors(client, user):
    client.force_login(user)
    visit(client, "/allparts")  # rendered for the shopper first
    client.logout()
    client.cookies.clear()
    page, _ = visit(client, "/allparts")
    assert user.email not in page
    assert "(Sign Out)" not in page


def test_a_bearer_token_is_checked_even_when_the_list_is_kept(client):
    PartFactory()
    client.get("/api/allparts")
    client.get("/api/allparts")  # answered from the cache now
    response = client.get("/api/allparts", HTTP_AUTHORIZATION="Bearer not-a-token")
    assert response.status_code == 401


def test_a_page_the_same_for_everyone_is_served_to_a_signed_in_person_too(client, user):
    """cache_page_for_visitors(everyone=True), the search box's suggestions: the page kept for
    a visitor answers a signed-in person without a query; a bearer token is still checked."""
    PartFactory(name="Brake pads")
    path = "/api/search/suggest?q=brake"
    kept, _ = visit(client, path)
    client.force_login(user)
    assert visit(client, path) == (kept, 0)
    response = client.get(path, HTTP_AUTHORIZATION="Bearer not-a-token")
    assert response.status_code == 401


def test_a_host_outside_allowed_hosts_is_refused_for_a_kept_page(client):
    client.get("/")
    client.get("/")
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400


def test_search_results_keep_cards_only_while_the_catalog_holds(client, admin_user):
    """Cards are kept per part and catalog version: a stock change shows at once."""
    part = PartFactory(name="Sintered brake pads", available_quantity=40)
    path = "/allparts?q=brake"
    assert '<span class="font-semibold">40</span>' in visit(client, path)[0]
    assert '<span class="font-semibold">40</span>' in visit(client, path)[0]
    stock_adjust(part=part, change=-15, note="damaged", by=admin_user)
    page, _ = visit(client, path)
    assert '<span class="font-semibold">25</span>' in page


# --- Private answers (API.md): kept per scheme and host, absolute URLs from SITE_URL --------

SITE = "https://shop.example.test"
LD_JSON = re.compile(r'<script[^>]*type="application/ld\+json">(.*?)</script>', re.S)


def product_ld(response) -> dict:
    return json.loads(LD_JSON.search(response.content.decode()).group(1))


def test_a_forged_host_and_scheme_never_reach_other_visitors(client, settings):
    """The attack of issue 20: a part page asked for with a forged Host (which ALLOWED_HOSTS
    lets through, as a production set-up with "*" did) and X-Forwarded-Proto, with no proxy
    in front; every visitor after it still gets links at SITE_URL, never at the forged host."""
    settings.ALLOWED_HOSTS = ["*"]
    settings.SITE_URL = SITE
    part = PartFactory(img="/media/parts/chain.png")
    path = part.get_absolute_url()

    forged = client.get(path, HTTP_HOST="localhost:6666", HTTP_X_FORWARDED_PROTO="https")
    visitor = client.get(path)

    for response in (visitor, forged):
        ld = product_ld(response)
        assert ld["offers"]["url"] == f"{SITE}{path}"
        assert ld["image"] == f"{SITE}/media/parts/chain.png"
        assert "localhost:6666" not in response.content.decode()


def test_a_page_kept_for_one_host_is_not_served_to_another(client, settings):
    settings.ALLOWED_HOSTS = ["shop.example.test", "www.shop.example.test"]
    assert rendered(client, "/allparts", HTTP_HOST="www.shop.example.test")
    assert not rendered(client, "/allparts", HTTP_HOST="www.shop.example.test")
    assert rendered(client, "/allparts", HTTP_HOST="shop.example.test")


def test_an_image_elsewhere_keeps_its_own_address(client, settings):
    settings.SITE_URL = SITE
    part = PartFactory(img="https://images.example.net/chain.png")
    assert product_ld(client.get(part.get_absolute_url()))["image"] == (
        "https://images.example.net/chain.png"
    )


# Every write to reviews goes through reviews.services, which makes the kept pages stale.
REVIEWS_ADMIN = "/admin/reviews/review/"


def test_a_review_posted_through_the_api_shows_at_once(client, as_user):
    visit(client, "/")
    posted = as_user.post("/api/review", {"review": "Quick and careful.", "ratings": 4}, "json")
    assert posted.status_code == 201
    assert "Quick and careful." in visit(client, "/")[0]


def test_a_review_edited_in_django_admin_shows_at_once(client, staff_client):
    review = ReviewFactory(review="Arrived in two days.")
    assert "Arrived in two days." in visit(client, "/")[0]
    fields = {"user": review.user.pk, "name": review.name, "ratings": 4}
    change = f"{REVIEWS_ADMIN}{review.pk}/change/"
    assert staff_client.post(change, {**fields, "review": "Arrived in one day."}).status_code == 302
    page, _ = visit(client, "/")
    assert "Arrived in one day." in page and "Arrived in two days." not in page


@pytest.mark.parametrize("how", ["its delete page", "the delete action"])
def test_a_review_deleted_in_django_admin_leaves_at_once(client, staff_client, how):
    review = ReviewFactory(review="Arrived in two days.")
    assert "Arrived in two days." in visit(client, "/")[0]
    if how == "its delete page":
        deleted = staff_client.post(f"{REVIEWS_ADMIN}{review.pk}/delete/", {"post": "yes"})
    else:
        action = {"action": "delete_selected", "_selected_action": [review.pk], "post": "yes"}
        deleted = staff_client.post(REVIEWS_ADMIN, action)
    assert deleted.status_code == 302
    assert "Arrived in two days." not in visit(client, "/")[0]


def test_a_view_may_keep_pages_per_its_own_query_strings(client, rf):
    """GET /api/search/suggest keeps a visitor's answer per `q` (up to 100 characters); the
    page cache keeps no other query string of that path, nor `q` elsewhere."""
    from core.caching.pages.keys import learned, may_be_kept

    PartFactory(name="Brake lever")
    short, long = "/api/search/suggest?q=brake", "/api/search/suggest?q=" + "b" * 101
    for path in (short, long, "/api/search/suggest?q=brake&x=1"):
        assert client.get(path).status_code == 200
    assert learned(False, rf.get(short)) is not None  # kept: answered before the view next time
    assert learned(False, rf.get(long)) is None
    assert not may_be_kept(rf.get("/api/search/suggest?q=brake&x=1"))
    assert not may_be_kept(rf.get("/allparts?q=brake"))
    assert may_be_kept(rf.get(short))
    _, queries = visit(client, short)
    assert queries == 0
