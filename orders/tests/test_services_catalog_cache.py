"""Orders change stock: the cached catalog must show the new figure at once."""

import re
from html.parser import HTMLParser

from catalog.tests.factories import PartFactory


class PartCards(HTMLParser):
    """The text of each part card (`<article>`) of a page, as a reader sees it."""

    def __init__(self):
        super().__init__()
        self.cards: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            if self.depth == 0:
                self.cards.append("")
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == "article" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.cards[-1] += data


def available_on_allparts(client, part) -> int:
    """The "Available Quantity" that /allparts shows on the card of `part`."""
    parser = PartCards()
    parser.feed(client.get("/allparts").content.decode())
    (card,) = [c for c in parser.cards if part.name in c]
    (shown,) = re.findall(r"Available Quantity:\s*(\d+)", card)
    return int(shown)


def test_placing_and_cancelling_an_order_updates_the_cached_catalog(client, as_user):
    part = PartFactory(name="Chain lube", minimum_order_quantity=1, available_quantity=10)
    assert available_on_allparts(client, part) == 10
    order = {"partId": part.pk, "quantity": 4, "address": "1 Dock St", "phone": "12345"}
    booking = as_user.post("/api/booking", order, format="json").json()
    assert available_on_allparts(client, part) == 6
    as_user.delete(f"/api/booking/{booking['_id']}")
    assert available_on_allparts(client, part) == 10


def test_a_new_review_shows_on_the_home_page_at_once(client, as_user):
    client.get("/")
    as_user.post("/api/review", {"review": "Spot-on fitment.", "ratings": 5}, format="json")
    assert "Spot-on fitment." in client.get("/").content.decode()
