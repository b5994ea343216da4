"""A search's page and its filters' counts read together (catalog.facets.FacetedSearch): the
same parts, in the same order, and the same counts as part_search and part_facets read one
after the other, in one statement on PostgreSQL."""

from decimal import Decimal

import pytest

from catalog.facets import FacetedSearch, facets_of
from catalog.search import PartQuery, part_search
from catalog.tests.test_facets import shelf  # noqa: F401 (the fixture its tests use)
from catalog.tests.test_views_facets import choices
from core.paging import page_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("shelf")]

QUERIES = [
    PartQuery(q="brake"),
    PartQuery(q="brake pads", in_stock=True),
    PartQuery(q="chain", brands=("DID",), max_price=Decimal("100")),
    PartQuery(q="brake", category="brakes", brands=("EBC", "Brembo")),
    PartQuery(q="brake", min_price=Decimal("20"), max_price=Decimal("250"), sort="price"),
    PartQuery(q="brake", sort="-price"),
    PartQuery(q="brakes chain", sort="name"),
    PartQuery(q="brake", sort="newest", in_stock=True, category="brakes"),
    PartQuery(q="nothing-like-it"),
    PartQuery(q="brakes", category="chains"),
]


def names(parts) -> list[str]:
    return [part.name for part in parts]


@pytest.mark.parametrize("query", QUERIES, ids=repr)
@pytest.mark.parametrize(("start", "stop"), [(0, 24), (0, 2), (2, 4), (30, 54)])
def test_the_rows_and_counts_are_those_read_apart(query, start, stop):
    found = FacetedSearch(query)
    parts, total = found.read(start, stop, with_total=True)

    assert names(parts) == names(part_search(query)[start:stop])
    assert found.facets == facets_of(query)
    assert total == found.facets["total"]
    assert all(part.category is None or part.category.slug for part in parts)


def test_a_page_past_the_end_is_the_last_page():
    query = PartQuery(q="brake")
    page = page_of(FacetedSearch(query), page=9, per_page=3, count_in_rows=True)

    assert page.count == 7 and page.number == 3
    assert names(page.items) == names(part_search(query)[6:9])


@pytest.mark.postgres(reason="SQLite reads the counts and the rows in two statements")
def test_the_page_and_its_counts_are_one_statement(django_assert_num_queries):
    query = PartQuery(q="brake", brands=("EBC",), in_stock=True)
    query.spellings  # the words' slips are read (and kept) first  # noqa: B018
    with django_assert_num_queries(1):
        parts, total = FacetedSearch(query).read(0, 24, with_total=True)
    assert (names(parts), total) == (["Brake pads front"], 1)


def test_the_search_page_shows_the_rows_and_counts_read_together(client):
    page = client.get("/allparts?q=brake&brand=EBC&inStock=true").content.decode()

    assert 'role="status">1 part<' in page
    assert "Brake pads front" in page and "Brake pads rear" not in page
    counts = {label: choice["count"] for label, choice in choices(page).items()}
    assert counts["EBC"] == 1 and counts["Brembo"] == 1 and counts["In stock"] == 1
