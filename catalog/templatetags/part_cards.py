"""`{% part_card part heading %}`: a part's card (catalog/_part_card.html), rendered once per
part and catalog version in each process; `{% part_cards parts heading %}`: the cards of a list,
one a line (a tag per list, not a loop of tags: a page of 24 cards drew a sixth of its time
from the loop).

A card shows only the part's own fields, so the same part at the same catalog version always
makes the same card; the page passes the version it read before loading its parts
(`catalog_version`), so a card kept under it can only be stale once that version is, and the
catalog's version changes with every write (catalog.services, catalog.stock), on every app
server at once. Without a version the card is rendered afresh.
"""

from django import template
from django.template.loader import get_template
from django.utils.safestring import mark_safe

from core.versioned_cache import LocalMemory

register = template.Library()

CARD = "catalog/_part_card.html"
cards = LocalMemory(4096)  # about 1.5 KB each
CARD_SECONDS = 300
CARD_BREAK = "\n      "  # between two cards of a list: a line, indented as in allparts.html


@register.simple_tag(takes_context=True)
def part_card(context, part, heading: str = "h2") -> str:
    return _card(part, heading, context.get("catalog_version"))


@register.simple_tag(takes_context=True)
def part_cards(context, parts, heading: str = "h2") -> str:
    version = context.get("catalog_version")
    return mark_safe(CARD_BREAK.join(_card(part, heading, version) for part in parts))


def _card(part, heading: str, version: str | None) -> str:
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
