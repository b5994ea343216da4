"""SQL queries per request: at most 5 on every page and main API read, and the same number
with 3 parts in the catalog as with 60 (no query per part, whatever the catalog's size).

Each request is measured after a first one (which fills the per-process caches, such as
django.contrib.sites' current site) and with the shared cache emptied: the worst case a
running server sees, nothing cached and the session read from the database.
"""

import json

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from accounts.tests.factories import AdminFactory, UserFactory
from bench.lib.routes import API_READS, PAGES
from catalog.models import GarageBike, Vehicle
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders.tests.factories import BookingFactory
from reviews.tests.factories import PartReviewFactory, ReviewFactory
from tests import stripe_fake

pytestmark = pytest.mark.django_db

MAX_QUERIES = 5
SMALL, LARGE = 3, 60


class Shop:
    """A small shop: parts, reviews, a shopper with orders, an admin; clients for each."""

    def __init__(self):
        self.parts = PartFactory.create_batch(SMALL)
        ReviewFactory.create_batch(3)
        self.user, self.admin = UserFactory(), AdminFactory()
        self.orders = [BookingFactory(user=self.user, part=part) for part in self.parts]
        BookingFactory(user=self.user, part=self.parts[0], paid_order=True)
        mt07 = Vehicle.objects.create(make="Yamaha", model="MT-07", year=2019)
        GarageBike.objects.create(user=self.user, vehicle=mt07, active=True)
        # The part's riders' reviews: the shopper's (a verified buyer's, with the bike) and
        # others'.
        PartReviewFactory(user=self.user, part=self.parts[0], vehicle=mt07, fits=True)
        PartReviewFactory.create_batch(2, part=self.parts[0], vehicle=mt07, fits=False)
        self.names = {
            "part": self.parts[0].pk,
            "order": self.orders[0].pk,
            "email": self.user.email,
        }

    def grow(self, size: int) -> None:
        PartFactory.create_batch(size - len(self.parts))

    def page_client(self, who: str) -> Client:
        client = Client()
        if who != "visitor":
            client.force_login(self.user if who == "user" else self.admin)
        return client

    def api_client(self, who: str) -> APIClient:
        if who == "visitor":
            return APIClient()
        return bearer_client(self.user if who == "user" else self.admin)


@pytest.fixture
def shop():
    return Shop()


@pytest.fixture
def count_queries(django_assert_max_num_queries):
    """The queries of one GET (at most MAX_QUERIES), made with nothing in the cache."""

    def count(client, path: str, status: int, most: int = MAX_QUERIES) -> int:
        client.get(path)
        cache.clear()
        with django_assert_max_num_queries(most) as queries:
            response = client.get(path)
        assert response.status_code == status, path
        return len(queries)

    return count


def _ids(routes):
    return [f"{who}:{path}" for who, path, _ in routes]


@pytest.mark.parametrize(("who", "path", "status"), PAGES, ids=_ids(PAGES))
def test_page_queries_are_few_and_constant_in_the_catalog_size(
    shop, count_queries, who, path, status
):
    client, url = shop.page_client(who), path.format(**shop.names)
    small = count_queries(client, url, status)
    shop.grow(LARGE)
    assert count_queries(client, url, status) == small


def test_payment_page_with_the_card_form_is_constant_too(shop, count_queries, settings):
    settings.STRIPE_SECRET_KEY = stripe_fake.SECRET_KEY
    settings.STRIPE_PUBLISHABLE_KEY = stripe_fake.PUBLISHABLE_KEY
    client, url = shop.page_client("user"), "/dashboard/payment/{order}".format(**shop.names)
    small = count_queries(client, url, 200)
    assert 'data-island="payment"' in client.get(url).content.decode()
    shop.grow(LARGE)
    assert count_queries(client, url, 200) == small


@pytest.mark.parametrize(("who", "path", "status"), API_READS, ids=_ids(API_READS))
def test_api_read_queries_are_few_and_constant_in_the_catalog_size(
    shop, count_queries, who, path, status
):
    client, url = shop.api_client(who), path.format(**shop.names)
    small = count_queries(client, url, status)
    shop.grow(LARGE)
    assert count_queries(client, url, status) == small


@pytest.mark.parametrize("who", ["visitor", "user"])
@pytest.mark.parametrize("q", ["brake", "mt07 brake pads", "2019 mt-07 chain"])
def test_a_search_with_an_active_bike_and_a_bike_in_the_words_is_constant_too(
    shop, count_queries, who, q
):
    """ "N parts match but do not fit your …" counts the matches once more, beside the
    filters' counts of the bike's parts: one query over MAX_QUERIES with nothing in the cache
    (the vehicles and the words' slips are kept: docs/performance.md). The words find parts
    (a search that found nothing is counted: test_services_missed_searches)."""
    from catalog import services
    from catalog.tests.factories import PartFactory

    PartFactory(name="Brake pads", universal=True)
    PartFactory(name="Drive chain", universal=True)

    mt07 = services.vehicle_get_or_create(make="Yamaha", model="MT-07", year=2019)
    services.vehicle_get_or_create(make="Kawasaki", model="Z900", year=2020)
    client = shop.page_client(who)
    client.post("/api/garage", {"vehicle": mt07.pk}, "application/json")
    url = f"/allparts?q={q}"
    small = count_queries(client, url, 200, most=MAX_QUERIES + 1)
    shop.grow(LARGE)
    assert count_queries(client, url, 200, most=MAX_QUERIES + 1) == small


@pytest.mark.parametrize("who", ["visitor", "user"])
def test_a_bike_in_the_words_that_no_match_fits_is_constant_too(shop, count_queries, who):
    """ "z900 sprocket": the words' matches counted once more when none fits the bike named
    ("1 part matches but does not fit your 2020 Kawasaki Z900"), as for an active bike."""
    from catalog import services
    from catalog.tests.factories import PartFactory

    sprocket = PartFactory(name="Front sprocket")
    services.vehicle_get_or_create(make="Kawasaki", model="Z900", year=2020)
    services.fitment_add(part=sprocket, make="Yamaha", model="MT-07", year_from=2019, year_to=2019)
    client = shop.page_client(who)
    url = "/allparts?q=z900 sprocket"
    small = count_queries(client, url, 200, most=MAX_QUERIES + 1)
    page = client.get(url).content.decode()
    assert "1 part matches but does not fit your 2020 Kawasaki Z900" in page
    shop.grow(LARGE)
    assert count_queries(client, url, 200, most=MAX_QUERIES + 1) == small


def test_a_part_page_with_reviews_and_fit_confirmed_for_a_visitors_bike(shop, count_queries):
    """The reviews, their verified buyers and "Fit confirmed by N riders of …" for the active
    bike come in one query with the page's own."""
    client = shop.page_client("visitor")
    vehicle = Vehicle.objects.get(make="Yamaha", model="MT-07", year=2019)
    client.post("/api/garage", {"vehicle": vehicle.pk}, "application/json")
    url = "/parts/{part}".format(**shop.names)
    small = count_queries(client, url, 200)
    assert "Fit confirmed by 1 rider of the 2019 Yamaha MT-07" in client.get(url).content.decode()
    shop.grow(LARGE)
    assert count_queries(client, url, 200) == small


@pytest.mark.parametrize("who", ["visitor", "user"])
@pytest.mark.parametrize("path", ["/saved", "/api/saved"])
def test_saved_parts_are_few_queries_however_many_are_saved(
    shop, count_queries, settings, who, path
):
    """The page and the API read the saved parts in one query (the API their other numbers
    in one more), whether 3 are saved or 60."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {  # a visitor's 60 saves within the limit
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "visitor_writes": "1000/minute"},
    }
    client = shop.page_client(who) if path == "/saved" else shop.api_client(who)

    def save_all():
        for part in shop.parts:
            body = json.dumps({"partId": part.pk})
            client.post("/api/saved", body, content_type="application/json")

    save_all()
    small = count_queries(client, path, 200)
    shop.grow(LARGE)
    shop.parts = list(PartFactory._meta.model.objects.all())
    save_all()
    assert client.get("/api/saved").json()["count"] == LARGE
    assert count_queries(client, path, 200) == small
