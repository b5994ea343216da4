"""The All Parts page: cards, pagination, queries, no island."""

import html
import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import Part
from catalog.selectors import PARTS_PER_PAGE
from catalog.tests.factories import PartFactory
from core.templatetags.islands import dist_url, manifest
from core.tests.islands import page_text

pytestmark = pytest.mark.django_db

PURCHASE_LINK = re.compile(r'<a href="/purchaseintent/(\d+)"[^>]*>Purchase  Now </a>')


def purchase_ids(response) -> list[int]:
    return [int(pk) for pk in PURCHASE_LINK.findall(response.content.decode())]


def module_scripts(response) -> list[str]:
    return re.findall(r'<script type="module" src="([^"]+)"', response.content.decode())


def page_links(response) -> list[str]:
    nav = re.search(r'<nav aria-label="Pages of parts".*?</nav>', response.content.decode(), re.S)
    return re.findall(r'href="([^"]*)"', nav.group(0)) if nav else []


class TestCards:
    def test_heading_and_grid(self, client):
        PartFactory()
        response = client.get("/allparts")
        assert response.status_code == 200
        body = response.content.decode()
        assert re.search(r"<h1[^>]*>Motor Bike Parts</h1>", body)
        assert 'class="grid grid-cols-1 lg:grid-cols-3' in body

    def test_a_card_shows_every_field_of_the_spec(self, client):
        part = PartFactory(
            name="Racing chain 520",
            img="/static/img/parts/chain-sprocket-kit.svg",
            description="Gold X-ring chain, 120 links.",
            price=Decimal("7"),
            minimum_order_quantity=3,
            available_quantity=41,
        )
        response = client.get("/allparts")
        body, text = response.content.decode(), page_text(response)
        img = re.search(r'<img src="/static/img/parts/chain-sprocket-kit.svg"[^>]*>', body)
        assert img, body
        for attribute in (
            'alt="Racing chain 520"',
            'width="400"',
            'height="300"',
            'loading="lazy"',
        ):
            assert attribute in img.group(0)
        assert "Racing chain 520" in text
        assert "Gold X-ring chain, 120 links." in text
        assert "Price per unit: $7.00" in text
        assert "Minimum Order Quantity: 3" in text
        assert "Available Quantity: 41" in text
        assert purchase_ids(response) == [part.pk]
        assert f'href="/purchaseintent/{part.pk}" class="btn' in body

    def test_price_has_two_decimals(self, client):
        PartFactory(price=Decimal("1234.5"))
        assert "Price per unit: $1,234.50" in page_text(client.get("/allparts"))

    def test_a_part_without_an_image_shows_the_placeholder(self, client):
        PartFactory(name="Mystery bolt", img="")
        body = client.get("/allparts").content.decode()
        assert re.search(
            r'<img src="/static/img/parts/placeholder.svg" alt="Mystery bolt"', body
        ), body

    def test_names_and_descriptions_are_escaped(self, client):
        PartFactory(name="<script>alert(1)</script>", description="Fits <b>all</b> bikes")
        body = client.get("/allparts").content.decode()
        assert "<script>alert(1)</script>" not in body
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
        assert "Fits &lt;b&gt;all&lt;/b&gt; bikes" in body

    def test_newest_first(self, client):
        older, newer = PartFactory(), PartFactory()
        assert purchase_ids(client.get("/allparts")) == [newer.pk, older.pk]

    def test_empty_catalog(self, client):
        response = client.get("/allparts")
        assert response.status_code == 200
        assert "No parts are listed yet." in page_text(response)
        assert page_links(response) == []

    def test_trailing_slash_works_too(self, client):
        PartFactory()
        assert client.get("/allparts/").status_code == 200

    def test_title_and_meta_description(self, client):
        body = client.get("/allparts").content.decode()
        assert f"<title>Motor Bike Parts · {html.escape(settings.SHOP_NAME)}</title>" in body
        assert re.search(r'<meta name="description" content="[^"]*motorcycles[^"]*">', body)


class TestPagination:
    @pytest.fixture
    def parts(self, db):
        """Two pages: 24 and 1, newest first."""
        return list(reversed(PartFactory.create_batch(PARTS_PER_PAGE + 1)))

    def test_one_page_has_no_pagination_links(self, client):
        PartFactory.create_batch(PARTS_PER_PAGE)
        response = client.get("/allparts")
        assert len(purchase_ids(response)) == PARTS_PER_PAGE
        assert page_links(response) == []
        assert "Pages of parts" not in response.content.decode()

    def test_first_page_holds_24_and_links_to_page_2(self, client, parts):
        response = client.get("/allparts")
        assert purchase_ids(response) == [p.pk for p in parts[:PARTS_PER_PAGE]]
        assert page_links(response) == ["/allparts", "?page=2", "?page=2"]
        assert 'aria-current="page" href="/allparts">1<' in response.content.decode()

    def test_page_2_holds_the_rest(self, client, parts):
        response = client.get("/allparts?page=2")
        assert response.status_code == 200
        assert purchase_ids(response) == [parts[-1].pk]
        assert page_links(response) == ["/allparts", "/allparts", "?page=2"]
        assert "<title>Motor Bike Parts, page 2 ·" in response.content.decode()

    @pytest.mark.parametrize("value", ["abc", "", "1.5", "%00", "２x", "1e3", "None"])
    def test_a_page_that_is_not_a_number_is_the_first(self, client, parts, value):
        response = client.get("/allparts", {"page": value})
        assert response.status_code == 200
        assert purchase_ids(response)[0] == parts[0].pk

    @pytest.mark.parametrize("value", ["0", "-1", "-0", "-99999999999999999999", "-" + "9" * 5000])
    def test_a_page_below_one_is_the_first(self, client, parts, value):
        response = client.get("/allparts", {"page": value})
        assert response.status_code == 200
        assert purchase_ids(response)[0] == parts[0].pk

    @pytest.mark.parametrize(
        "value", ["3", "+3", " 999 ", "00003", "99999999999999999999", "9" * 5000]
    )
    def test_a_page_beyond_the_end_is_the_last(self, client, parts, value):
        response = client.get("/allparts", {"page": value})
        assert response.status_code == 200
        assert purchase_ids(response) == [parts[-1].pk]

    def test_many_pages_elide_the_middle(self, client):
        template = PartFactory.build()
        Part.objects.bulk_create(
            Part(name=f"Part {n}", price=template.price, available_quantity=1)
            for n in range(PARTS_PER_PAGE * 19 + 1)
        )  # 20 pages
        body = client.get("/allparts?page=10").content.decode()
        links = re.findall(r'<(a|span) class="join-item btn[^"]*"[^>]*>(.*?)</\1>', body)
        labels = [re.sub(r"<[^>]+>", "", inner) for _, inner in links]
        assert labels == [
            *["« Previous", "1", "…", "8", "9", "10", "11", "12", "…", "20", "Next »"]
        ]


class TestQueries:
    def queries(self, client, path) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path).status_code == 200
        return len(ctx)

    def cold_queries(self, client, path) -> int:
        """Queries of a visit with nothing cached yet."""
        cache.clear()
        return self.queries(client, path)

    def test_four_queries_whatever_the_catalog_size(self, client):
        PartFactory()
        # The count, one page, the categories, the bike picker's makes.
        assert self.cold_queries(client, "/allparts") == 4
        PartFactory.create_batch(PARTS_PER_PAGE * 3)
        assert self.cold_queries(client, "/allparts") == 4
        assert self.cold_queries(client, "/allparts?page=3") == 4

    def test_a_repeat_visit_is_served_from_the_cache(self, client):
        PartFactory.create_batch(3)
        self.queries(client, "/allparts")
        assert self.queries(client, "/allparts") == 0

    def test_a_new_part_shows_at_once(self, client):
        PartFactory(name="Old stock")
        assert b"Old stock" in client.get("/allparts").content
        PartFactory(name="Brand new part")
        assert b"Brand new part" in client.get("/allparts").content

    def test_constant_for_a_signed_in_visitor(self, client, user):
        client.force_login(user)
        PartFactory()
        small = self.queries(client, "/allparts")
        PartFactory.create_batch(PARTS_PER_PAGE * 2)
        assert self.queries(client, "/allparts") == small


def test_no_island_only_the_site_script_and_the_bike_pickers(client):
    PartFactory()
    response = client.get("/allparts")
    scripts = [dist_url(manifest()[name]["file"]) for name in ("site", "bike-picker")]
    assert module_scripts(response) == scripts
    assert "data-island" not in response.content.decode()
