"""Search finds a part by any of its other numbers (OEM, superseded, aftermarket), on
PostgreSQL (catalog.search's SQL) and SQLite (the QuerySet) alike."""

import pytest
from django.db import connection

from catalog import services
from catalog.search import PartQuery, part_queryset, part_search
from catalog.tests.factories import PartFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def parts(db):
    old = PartFactory(name="Oil filter (old stock)", part_number="15410-MFJ-D00")
    filter_ = PartFactory(name="Oil filter", part_number="HF204", brand="HiFlo")
    services.part_numbers_set(
        part=filter_,
        numbers=[
            {"number": "15410-MFJ-D01", "kind": "oem", "brand": "Honda"},
            {"number": "15410-MFJ-D00-X", "kind": "superseded", "brand": "Honda"},
            {"number": "KN-204", "kind": "aftermarket", "brand": "K&N"},
        ],
    )
    services.part_numbers_set(
        part=old, numbers=[{"number": "12311-MT4-000", "kind": "superseded", "brand": "Honda"}]
    )
    PartFactory(name="Chain", part_number="520VX3")  # found by none of them
    return {"old": old, "filter": filter_}


def names(client, q):
    response = client.get("/api/allparts", {"q": q})
    assert response.status_code == 200
    return [p["name"] for p in response.json()]


@pytest.mark.parametrize("q", ["12311mt4000", "12311-MT4-000", "12311 mt4 000", " 12311-mt4000 "])
def test_another_number_finds_its_part_whatever_the_case_spaces_and_dashes(anon, parts, q):
    assert names(anon, q) == ["Oil filter (old stock)"]


def test_an_aftermarket_number_finds_its_part(anon, parts):
    assert names(anon, "kn204") == ["Oil filter"]


def test_an_exact_other_number_ranks_above_a_part_number_it_begins(anon, parts):
    # "15410-MFJ-D00" is old's own number and begins filter's superseded "15410-MFJ-D00-X".
    assert names(anon, "15410-MFJ-D00") == ["Oil filter (old stock)", "Oil filter"]
    # filter's OEM number exactly: filter first, though "oil filter" words match both.
    assert names(anon, "15410mfjd01") == ["Oil filter"]


def test_a_superseded_number_finds_the_part_first(anon, parts):
    found = names(anon, "15410-MFJ-D00-X")
    assert found[0] == "Oil filter"


def test_a_prefix_of_another_number_finds_the_part(anon, parts):
    assert set(names(anon, "15410-MFJ")) == {"Oil filter (old stock)", "Oil filter"}
    assert names(anon, "kn-2") == []  # under 4 characters: no prefix


@pytest.mark.parametrize("length", [1, 3, 4, 99, 100, 101, 200])
def test_a_query_of_any_length_is_never_a_500(anon, parts, length):
    assert anon.get("/api/allparts", {"q": "1-%_\\" * length}).status_code in (200, 400)
    assert anon.get("/api/allparts", {"q": "x" * length}).status_code in (200, 400)


@pytest.mark.postgres(reason="PartSearch is SQL written for PostgreSQL")
@pytest.mark.parametrize(
    "q", ["12311mt4000", "15410-MFJ-D00", "15410mfjd01", "15410-MFJ", "kn204", "oil 15410"]
)
def test_the_written_sql_finds_what_the_queryset_finds_by_other_numbers(parts, q):
    query = PartQuery(q=q)
    assert connection.vendor == "postgresql"
    expected = [p.pk for p in part_queryset(query)]
    assert [p.pk for p in part_search(query)[0:None]] == expected
    assert expected  # each finds something


def test_the_search_ranks_other_numbers_as_part_numbers_on_either_database(parts):
    exact = list(part_queryset(PartQuery(q="12311-MT4-000")))
    assert [p.pk for p in exact] == [parts["old"].pk]
    assert exact[0].rank >= 1000  # EXACT_NUMBER
    prefix = list(part_queryset(PartQuery(q="KN-20")))
    assert [p.pk for p in prefix] == [parts["filter"].pk]
    assert 100 <= prefix[0].rank < 1000  # NUMBER_PREFIX
