"""Searches that found nothing: counted by their words (case and spacing folded) per day, by
GET /api/allparts and the /allparts page; GET /api/stats and the Overview list them."""

import logging
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from catalog.models import MissedSearch, Vehicle
from catalog.services import missed_search_count, missed_words
from catalog.tests.factories import PartFactory
from core.tests.islands import island_props

pytestmark = pytest.mark.django_db


def counted() -> dict[str, int]:
    return dict(MissedSearch.objects.values_list("words", "count"))


@pytest.fixture
def pads(db):
    return PartFactory(name="Brake pads")


def test_words_are_folded_lowercase_one_space_trimmed_and_cut():
    assert missed_words("  Brake\tPADS \n  front ") == "brake pads front"
    assert missed_words("x" * 300) == "x" * 100
    assert missed_words("a" * 99 + " b") == "a" * 99
    assert missed_words(" \t ") == ""


def test_the_api_counts_a_search_that_found_nothing(anon, pads):
    assert anon.get("/api/allparts?q=Carburettor+Jet").json() == []
    anon.get("/api/allparts", {"q": "  carburettor   JET "})
    anon.get("/api/allparts?q=brake")  # found: not counted
    anon.get("/api/allparts?category=nowhere")  # no words: not counted

    assert counted() == {"carburettor jet": 2}
    row = MissedSearch.objects.get()
    assert row.day == timezone.localdate()
    assert abs(row.last_at - timezone.now()) < timedelta(minutes=1)


def test_a_search_naming_a_bike_counts_its_words_as_asked(anon, client, pads):
    Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
    assert anon.get("/api/allparts?q=MT-07+carburettor").json() == []
    client.get("/allparts?q=mt-07+Carburettor")

    assert counted() == {"mt-07 carburettor": 2}


def test_a_search_whose_filters_leave_nothing_counts_too(anon, pads):
    anon.get("/api/allparts?q=brake&minPrice=100000")
    assert counted() == {"brake": 1}


def test_the_page_counts_a_search_that_found_nothing_each_time(client, pads):
    """A search's page (it has a query string) is never kept: every repeat is counted."""
    for _ in range(2):
        html = client.get("/allparts?q=Carburettor").content.decode()
        assert "No parts match your search." in html
    client.get("/allparts?q=brake")

    assert counted() == {"carburettor": 2}


def test_each_day_has_its_own_row(anon, pads):
    MissedSearch.objects.create(
        words="carburettor",
        day=timezone.localdate() - timedelta(days=1),
        count=5,
        last_at=timezone.now() - timedelta(days=1),
    )
    anon.get("/api/allparts?q=carburettor")

    assert sorted(MissedSearch.objects.values_list("count", flat=True)) == [1, 5]


def test_a_failure_to_count_is_logged_and_the_search_answers(anon, pads, caplog):
    with connection.cursor() as cursor:
        cursor.execute('ALTER TABLE "catalog_missedsearch" RENAME TO "missed_elsewhere"')
    try:
        with caplog.at_level(logging.ERROR, logger="catalog.services"):
            response = anon.get("/api/allparts?q=carburettor")
            assert anon.get("/api/allparts?q=brake").status_code == 200  # the connection lives
    finally:
        with connection.cursor() as cursor:
            cursor.execute('ALTER TABLE "missed_elsewhere" RENAME TO "catalog_missedsearch"')

    assert response.status_code == 200
    assert response.json() == []
    assert "Could not count a search that found nothing" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_counting_takes_one_statement(pads, django_assert_num_queries):
    """Outside a transaction (a request's), the upsert alone."""
    missed_search_count(q="carburettor")
    with django_assert_num_queries(1):
        missed_search_count(q="Carburettor")
    assert counted() == {"carburettor": 2}


@pytest.mark.django_db(transaction=True)
def test_a_page_that_found_nothing_counts_it_in_one_query_more(
    client, user, pads, django_assert_max_num_queries
):
    """Signed in (the session and the user are read), with nothing in the cache (the vehicles
    and the words' slips are read): the facets say there is nothing, so no row is read, and
    the count is the sixth query (the fifth with either kept: docs/performance.md)."""
    client.force_login(user)
    client.get("/allparts?q=carburettor")
    cache.clear()
    with django_assert_max_num_queries(6):
        assert client.get("/allparts?q=carburettor").status_code == 200
    assert counted() == {"carburettor": 2}


# --- The owner's figures ---------------------------------------------------------------------


def missed(words: str, *, days_ago: int, count: int, minutes_ago: int = 0) -> None:
    MissedSearch.objects.create(
        words=words,
        day=timezone.localdate() - timedelta(days=days_ago),
        count=count,
        last_at=timezone.now() - timedelta(days=days_ago, minutes=minutes_ago),
    )


def test_stats_list_the_20_most_frequent_over_its_days(as_admin):
    missed("carburettor", days_ago=0, count=3)
    missed("carburettor", days_ago=5, count=4)
    missed("sidecar", days_ago=1, count=6, minutes_ago=10)
    missed("old miss", days_ago=40, count=50)  # before the window
    for n in range(25):
        missed(f"rare {n:02}", days_ago=2, count=1, minutes_ago=n)

    body = as_admin.get("/api/stats").json()["missedSearches"]

    assert len(body) == 20
    assert [(r["q"], r["count"]) for r in body[:4]] == [
        ("carburettor", 7),
        ("sidecar", 6),
        ("rare 00", 1),  # the latest first among equals
        ("rare 01", 1),
    ]
    assert set(body[0]) == {"q", "count", "lastAt"}
    assert body[0]["lastAt"].startswith(str(timezone.localdate()))
    days = as_admin.get("/api/stats?days=3").json()["missedSearches"]
    assert [(r["q"], r["count"]) for r in days[:2]] == [("sidecar", 6), ("carburettor", 3)]
    assert "old miss" in [
        r["q"] for r in as_admin.get("/api/stats?days=41").json()["missedSearches"]
    ]


def test_stats_with_no_missed_search_and_no_order(as_admin):
    body = as_admin.get("/api/stats").json()
    assert body["missedSearches"] == []
    assert body["ordersByState"]["unpaid"] == 0


def test_stats_stay_within_five_queries(as_admin, django_assert_max_num_queries):
    missed("carburettor", days_ago=0, count=3)
    with django_assert_max_num_queries(5):
        assert as_admin.get("/api/stats").json()["missedSearches"][0]["q"] == "carburettor"


def test_the_overview_has_the_ten_most_frequent(client, admin_user):
    for n in range(12):
        missed(f"miss {n:02}", days_ago=0, count=20 - n)
    client.force_login(admin_user)

    props = island_props(client.get("/dashboard/overview"), "overview")
    rows = props["stats"]["missedSearches"]
    assert [(r["q"], r["count"]) for r in rows[:10]] == [
        (f"miss {n:02}", 20 - n) for n in range(10)
    ]
