"""Finding parts: words, a category, a price range, "in stock only" and an order.

On PostgreSQL the words are matched with full-text search (English stemming, so case and word
forms do not matter), weighted so that a match in the name ranks above one in the category,
which ranks above one in the description. The weighted vector is stored on each part and kept
by the database (`Part.search_vector`, migration 0005), with a GIN index; a part matches when
any of the words is in it (its rank is above 0), ranked by `ts_rank` of all the words. On SQLite (the embedded default) each word is
matched as a substring of the name, the category or the description, name matches first.
"""

import re
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection
from django.db.models import (
    BooleanField,
    Case,
    F,
    FloatField,
    IntegerField,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.expressions import RawSQL

from .models import Part
from .selectors import PART_LIST_FIELDS

SORTS = {
    "newest": ("-created_at", "-id"),
    "relevance": ("-rank", "-created_at", "-id"),
    "price": ("price", "id"),
    "-price": ("-price", "id"),
    "name": ("name", "id"),
}
SORT_LABELS = {
    "newest": "Newest",
    "price": "Price: low to high",
    "-price": "Price: high to low",
    "name": "Name",
}
WORDS = re.compile(r"\w+")


@dataclass(frozen=True)
class PartQuery:
    """What a shopper asks the catalog for; empty fields ask for nothing."""

    q: str = ""
    category: str = ""
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    in_stock: bool = False
    sort: str = ""

    @property
    def order(self) -> tuple[str, ...]:
        """The sort asked for, else relevance for words and newest without."""
        sort = self.sort or ("relevance" if self.words else "newest")
        return SORTS["newest" if sort == "relevance" and not self.words else sort]

    @property
    def words(self) -> list[str]:
        return WORDS.findall(self.q.lower())[:10]

    @property
    def reads_every_match(self) -> bool:
        """Matching words reads every part (and ranks the matches): a page of results then
        counts them on the same query. Without words a count of its own is cheaper than
        numbering every part for a page of 24."""
        return bool(self.words)


def part_search(query: PartQuery) -> QuerySet[Part]:
    """The parts that match `query`, in its order (with `rank` when words were given)."""
    parts = Part.objects.select_related("category").only(*PART_LIST_FIELDS, "created_at")
    if query.category:
        parts = parts.filter(category__slug=query.category)
    if query.min_price is not None:
        parts = parts.filter(price__gte=query.min_price)
    if query.max_price is not None:
        parts = parts.filter(price__lte=query.max_price)
    if query.in_stock:
        parts = parts.filter(available_quantity__gte=F("minimum_order_quantity"))
    if query.words:
        parts = _matching(parts, query.words)
    else:
        parts = parts.annotate(rank=Value(0, output_field=IntegerField()))
    return parts.order_by(*query.order)


# Written as SQL rather than SearchRank/SearchQuery expressions: the same SQL, without
# compiling a tree of expressions in Python on every search.
_QUERY = "plainto_tsquery('english'::regconfig, %s)"
_RANK = f'ts_rank("catalog_part"."search_vector", {_QUERY})'
# Any word (the GIN index answers it), then a rank above 0: the same parts as a rank above 0
# alone, which is what a search has always matched.
_MATCH = (
    f""""catalog_part"."search_vector" @@ replace({_QUERY}::text, '&', '|')::tsquery"""
    f" AND {_RANK} > 0"
)


def _matching(parts: QuerySet[Part], words: list[str]) -> QuerySet[Part]:
    if connection.vendor == "postgresql":
        text = " ".join(words)
        return parts.annotate(rank=RawSQL(_RANK, (text,), output_field=FloatField())).filter(
            RawSQL(_MATCH, (text, text), output_field=BooleanField())
        )
    return _matching_substrings(parts, words)


def _matching_substrings(parts: QuerySet[Part], words: list[str]) -> QuerySet[Part]:
    """SQLite: every word (or its stem without a plural ending) in a field; name matches
    rank first."""
    in_name = Q()
    for word in words:
        stem = _stem(word)
        in_any = (
            Q(name__icontains=stem)
            | Q(description__icontains=stem)
            | Q(category__name__icontains=stem)
        )
        parts = parts.filter(in_any)
        in_name &= Q(name__icontains=stem)
    return parts.annotate(
        rank=Case(When(in_name, then=Value(2)), default=Value(1), output_field=IntegerField())
    )


def _stem(word: str) -> str:
    """A rough English stem for the fallback: "brakes" → "brake", "batteries" → "batter"."""
    for ending in ("ies", "es", "s"):
        if len(word) > len(ending) + 2 and word.endswith(ending):
            return word[: -len(ending)]
    return word
