"""Orders change stock: the cached catalog must show the new figure at once."""

from catalog.tests.factories import PartFactory


def available_on_allparts(client, part) -> str:
    page = client.get("/allparts").content.decode()
    card = page[page.index(part.name) :]
    return card[card.index("Available Quantity") :][:80]


def test_placing_and_cancelling_an_order_updates_the_cached_catalog(client, as_user):
    part = PartFactory(name="Chain lube", minimum_order_quantity=1, available_quantity=10)
    assert "10" in available_on_allparts(client, part)
    order = {"partId": part.pk, "quantity": 4, "address": "1 Dock St", "phone": "12345"}
    booking = as_user.post("/api/booking", order, format="json").json()
    assert "6" in available_on_allparts(client, part)
    as_user.delete(f"/api/booking/{booking['_id']}")
    assert "10" in available_on_allparts(client, part)


def test_a_new_review_shows_on_the_home_page_at_once(client, as_user):
    client.get("/")
    as_user.post("/api/review", {"review": "Spot-on fitment.", "ratings": 5}, format="json")
    assert "Spot-on fitment." in client.get("/").content.decode()
