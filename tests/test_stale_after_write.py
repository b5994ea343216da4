"""Every write makes stale what it changed, and nothing else (core.caching, catalog.selectors'
versions): pages kept for visitors are served again only while what they show holds, and a
listing is put together again from the cards kept for the parts that did not change.

Renders are counted on real pages (the templates Django's test client saw rendered), never
mocked: a kept page renders no template, a re-made listing renders only the changed cards."""

import re

import pytest
from django.test import Client

from catalog import services, stock
from catalog.models import Category
from catalog.tests.factories import PartFactory
from orders import services as order_services
from orders.tests.factories import BookingFactory
from reviews.tests.factories import PartReviewFactory, ReviewFactory

pytestmark = pytest.mark.django_db

CARD = "catalog/_part_card.html"
ORDER = {"address": "1 Stale Street", "phone": "+15550100"}


def visit(path: str) -> tuple[str, list[str]]:
    """A visitor's page (a new browser each time: no session) and the templates rendered."""
    response = Client().get(path)
    assert response.status_code == 200, path
    return response.content.decode(), [t.name for t in response.templates]


def kept(path: str) -> str:
    """The page, seen once, then served from the cache (nothing rendered)."""
    first, _ = visit(path)
    again, rendered = visit(path)
    assert rendered == [] and again == first, path
    return again


def cards_rendered(path: str) -> int:
    return visit(path)[1].count(CARD)


def available(page: str, part) -> str:
    """The "Available Quantity" a card or part page shows for `part`."""
    card = page.split(f'id="part-{part.pk}-name"', 1)[1]
    return re.search(r"Available Quantity: <span[^>]*>(\d+)<", card).group(1)


def json_of(part) -> dict:
    listed = Client().get("/api/allparts").json()
    return next(item for item in listed if item["_id"] == part.pk)


@pytest.fixture
def shelf():
    """Two parts, every page showing them kept: the listing, each part's page, the API list."""
    chain = PartFactory(name="Drive chain", available_quantity=12, minimum_order_quantity=1)
    pads = PartFactory(name="Brake pads", available_quantity=40, minimum_order_quantity=1)
    for path in ("/", "/allparts", chain.get_absolute_url(), pads.get_absolute_url()):
        kept(path)
    kept("/api/allparts")
    return chain, pads


def assert_only_chain_changed(chain, pads, *, stock_now: int) -> None:
    page, rendered = visit("/allparts")
    assert rendered.count(CARD) == 1  # the chain's card; the pads' was kept
    assert available(page, chain) == str(stock_now)
    assert available(page, pads) == "40"
    assert cards_rendered("/allparts") == 0  # kept whole again
    assert f"<dd>{stock_now}</dd>" in visit(chain.get_absolute_url())[0]
    _, rendered = visit(pads.get_absolute_url())
    assert rendered == []  # the other part's page stays kept
    assert json_of(chain)["availableQuantity"] == stock_now
    assert json_of(pads)["availableQuantity"] == 40


def test_an_order_placed_changes_that_parts_card_page_and_json_only(shelf, as_user):
    chain, pads = shelf
    assert "Only" not in visit("/allparts")[0]
    placed = as_user.post(
        "/api/booking", {"partId": chain.pk, "quantity": 6, **ORDER}, format="json"
    )
    assert placed.status_code == 201, placed.content
    assert_only_chain_changed(chain, pads, stock_now=6)
    assert "Only 6 left" in visit("/allparts")[0]  # the listing's stock badge


def test_an_order_deleted_puts_its_stock_back_on_that_part_only(as_user):
    chain = PartFactory(name="Drive chain", available_quantity=12, minimum_order_quantity=1)
    pads = PartFactory(name="Brake pads", available_quantity=40, minimum_order_quantity=1)
    placed = as_user.post(
        "/api/booking", {"partId": chain.pk, "quantity": 6, **ORDER}, format="json"
    )
    assert placed.status_code == 201, placed.content
    for path in ("/allparts", chain.get_absolute_url(), pads.get_absolute_url()):
        kept(path)
    kept("/api/allparts")
    assert "Only 6 left" in visit("/allparts")[0]

    assert as_user.delete(f"/api/booking/{placed.json()['_id']}").status_code == 200

    assert_only_chain_changed(chain, pads, stock_now=12)
    assert "Only" not in visit("/allparts")[0]


def test_stock_adjusted_by_hand_changes_that_part_only(shelf, admin_user):
    chain, pads = shelf
    stock.stock_adjust(part=chain, change=-9, note="damaged", by=admin_user)
    assert_only_chain_changed(chain, pads, stock_now=3)


def test_a_part_edited_changes_its_card_page_and_json_only(shelf):
    chain, pads = shelf
    services.part_update(part=chain, name="O-ring chain")
    page, rendered = visit("/allparts")
    assert rendered.count(CARD) == 1
    assert "O-ring chain" in page and "Drive chain" not in page
    assert "O-ring chain" in visit(chain.get_absolute_url())[0]
    assert visit(pads.get_absolute_url())[1] == []
    assert json_of(chain)["name"] == "O-ring chain"


def test_a_new_part_is_listed_at_once_and_other_pages_stay_kept(shelf):
    chain, pads = shelf
    PartFactory(name="Clutch lever")
    page, rendered = visit("/allparts")
    assert rendered.count(CARD) == 1  # the new part's
    assert "Clutch lever" in page and "3 parts" in page
    assert "Clutch lever" in visit("/")[0]
    assert visit(chain.get_absolute_url())[1] == []
    assert "Clutch lever" in [item["name"] for item in Client().get("/api/allparts").json()]


def test_a_deleted_part_leaves_every_list_at_once(shelf):
    chain, pads = shelf
    chain_page = chain.get_absolute_url()
    services.part_delete(part=chain)
    page, rendered = visit("/allparts")
    assert rendered.count(CARD) == 0  # the pads' card was kept
    assert "Drive chain" not in page and "1 part" in page
    assert "Drive chain" not in visit("/")[0]
    assert Client().get(chain_page).status_code == 404
    assert visit(pads.get_absolute_url())[1] == []
    assert [item["name"] for item in Client().get("/api/allparts").json()] == ["Brake pads"]


def test_a_category_renamed_shows_on_its_parts_pages_and_the_search_form():
    brakes = Category.objects.create(name="Brakes", slug="brakes")
    pads = PartFactory(name="Brake pads", category=brakes)
    kept(pads.get_absolute_url())
    kept("/allparts")
    brakes.name = "Brakes and discs"
    services.category_save(category=brakes)
    assert "Brakes and discs" in visit(pads.get_absolute_url())[0]
    page, rendered = visit("/allparts")
    assert "Brakes and discs (1)" in page
    assert rendered.count(CARD) == 0  # a card shows no category: kept
    assert Client().get("/api/allparts").json()[0]["category"]["name"] == "Brakes and discs"


def test_a_review_shows_on_the_home_page_at_once_and_leaves_the_catalog_kept(shelf):
    kept("/")
    ReviewFactory(review="Fast delivery, well packed.")
    page, rendered = visit("/")
    assert "Fast delivery, well packed." in page
    assert rendered.count(CARD) == 0  # the home page's cards were kept
    assert visit("/allparts")[1] == []  # the catalog's pages stay kept


def test_a_part_review_shows_on_that_parts_page_card_and_json_only(shelf, user):
    chain, pads = shelf
    PartReviewFactory(user=user, part=chain, rating=4, title="Quiet and strong")
    page, _ = visit(chain.get_absolute_url())
    assert "Quiet and strong" in page and "4.0 out of 5 (1 review)" in page
    assert visit(pads.get_absolute_url())[1] == []  # the other part's page stays kept
    page, rendered = visit("/allparts")
    assert rendered.count(CARD) == 1  # the chain's card, with its stars; the pads' was kept
    assert "4.0 (1)" in page
    assert json_of(chain)["rating"] == {"average": 4.0, "count": 1}


def test_a_refund_takes_verified_buyer_off_the_kept_part_page(user):
    part = PartFactory()
    booking = BookingFactory(user=user, part=part, paid_order=True)
    PartReviewFactory(user=user, part=part)
    assert "Verified buyer" in kept(part.get_absolute_url())
    order_services.booking_refund(booking=booking, outside_stripe=True)
    assert "Verified buyer" not in visit(part.get_absolute_url())[0]
