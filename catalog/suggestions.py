"""What the search box suggests as one types (GET /api/search/suggest): the parts `q` finds,
in the order a search ranks them (catalog.search: one ranking rule), the categories its words
name and the bikes it names (catalog.bike_words) or begins.

An answer is the same for everyone who asks: answers are kept per `q` under every version
what they show changes with (the parts and their order, categories, vehicles, fitment), so no
kept answer outlives a change of the catalog.
"""

import hashlib

from django.urls import reverse
from rest_framework.renderers import JSONRenderer

from core.caching import versions

from . import bike_words, selectors
from .fitment_serializers import VehicleSerializer
from .models import Vehicle
from .search import PartQuery, part_search, stem
from .serializers import SuggestedPartSerializer

MAX_PARTS, MAX_CATEGORIES, MAX_BIKES = 6, 3, 3
# A word of two letters finds a category only where a word of its name begins with it: "br"
# finds Brakes, not every name with "br" inside; a letter alone finds none.
SHORT_WORD = 3
EMPTY = b'{"parts":[],"categories":[],"bikes":[]}'
# Everything an answer shows: its parts (names, prices, numbers, order), their categories,
# the bikes and which parts fit them.
SHOWN = (
    selectors.CATALOG,
    selectors.PARTS,
    selectors.CATEGORIES,
    selectors.VEHICLES,
    selectors.FITMENT,
)


def suggest_body(q: str) -> bytes:
    """The JSON answer for `q` (as SuggestInputSerializer.q_of folds it: "" suggests nothing),
    kept."""
    if not q:
        return EMPTY
    digest = hashlib.sha256(q.encode()).hexdigest()[:32]
    return versions.get_or_set(f"catalog:suggest:{digest}", lambda: _body(q), names=SHOWN)


def _body(q: str) -> bytes:
    named = bike_words.bike_in(q)
    query = bike_words.narrowed(PartQuery(q=q), named)
    found = query.words or named is not None  # no words: nothing to rank (not every part)
    parts = part_search(query)[0:MAX_PARTS] if found else []
    answer = {
        "parts": SuggestedPartSerializer(parts, many=True).data,
        "categories": categories_named(query.words),
        "bikes": VehicleSerializer(bikes_named(q, named), many=True).data,
    }
    return JSONRenderer().render(answer)


def categories_named(words: list[str]) -> list[dict]:
    """The categories (by name) whose names hold one of `words` (or its stem); a word of two
    letters, where a word of the name begins with it."""
    if not words:
        return []
    url = reverse("allparts")
    found = [
        {"slug": c.slug, "name": c.name, "url": f"{url}?category={c.slug}"}
        for c in selectors.category_list()
        if any(_names(c.name.casefold(), word) for word in words)
    ]
    return found[:MAX_CATEGORIES]


def _names(name: str, word: str) -> bool:
    if len(word) < 2:
        return False
    if len(word) < SHORT_WORD:
        return any(part.startswith(word) for part in name.split())
    return stem(word) in name


def bikes_named(q: str, named: bike_words.BikeWords | None) -> list[Vehicle]:
    """The bikes the words name (newest first), else those whose model (or make and model)
    begins with them."""
    if named is not None:
        rows = list(named.rows)
    else:
        typed = bike_words.key(q)
        if len(typed) < 2:
            return []
        rows = [
            row
            for model_key, rows in bike_words.models().items()
            for row in rows
            if model_key.startswith(typed) or (bike_words.key(row[2]) + model_key).startswith(typed)
        ]
    rows.sort(key=lambda row: (-row[0], row[1]))
    return [Vehicle(pk=pk, make=make, model=model, year=year) for year, pk, make, model in rows][
        :MAX_BIKES
    ]
