"""`{% part_card part heading %}`: a part's card (catalog/_part_card.html), rendered once per
part and catalog version in each process.

A card shows only the part's own fields, so the same part at the same catalog version always
makes the same card; the page passes the version it read before loading its parts
(`catalog_version`), so a card kept under it can only be stale once that version is, and the
catalog's version changes with every write (catalog.services, catalog.stock), on every app
server at once. Without a version the card is rendered afresh.
"""

from django import template
from django.template.loader import get_template

from core.versioned_cache import LocalMemory

register = template.Library()

CARD = "catalog/_part_card.html"
cards = LocalMemory(4096)  # about 1.5 KB each
CARD_SECONDS = 300


@register.simple_tag(takes_context=True)
def part_card(context, part, heading: str = "h2") -> str:
    version = context.get("catalog_version")
    if not version:
        return _render(part, heading)
    key = f"{version}:{part.pk}:{heading}"
    card = cards.get(key)
    if card is None:
        card = _render(part, heading)
        cards.set(key, card, CARD_SECONDS)
    return card


def _render(part, heading: str) -> str:
    return get_template(CARD).render({"part": part, "heading": heading})
