"""The filters beside /allparts' grid: each facet's choices (catalog.facets) as links that
keep the rest of the page's query (the words, the other filters, the order, the bike) and
drop its page number; a chosen one's link takes its filter off again."""

from dataclasses import dataclass

from django.http import QueryDict
from django.urls import reverse

from core.templatetags.money import money

from .search import PartQuery

PRICE_FIELDS = ("minPrice", "maxPrice", "priceMin", "priceMax")  # either name, both ends


@dataclass(frozen=True)
class Choice:
    label: str
    count: int
    url: str
    chosen: bool = False


def facet_choices(facets: dict, query: PartQuery, asked: QueryDict) -> dict:
    """{"categories", "brands", "prices": [Choice], "in_stock": Choice} of the page whose
    query string is `asked` (`query`: what it searches)."""
    return {
        "categories": _categories(facets, query, asked),
        "brands": _brands(facets, query, asked),
        "prices": _prices(facets, query, asked),
        "in_stock": _in_stock(facets, query, asked),
    }


def _link(asked: QueryDict, change) -> str:
    params = asked.copy()
    params.pop("page", None)
    change(params)
    return reverse("allparts") + (f"?{params.urlencode()}" if params else "")


def search_categories(facets: dict, query: PartQuery) -> list[dict]:
    """The facets' categories ({"slug","name","count"}), and the one asked for even when the
    other filters leave it no part (still shown, to be taken off)."""
    found = facets["categories"]
    if query.category and all(row["slug"] != query.category for row in found):
        return [*found, {"slug": query.category, "name": query.category, "count": 0}]
    return found


def _categories(facets: dict, query: PartQuery, asked: QueryDict) -> list[Choice]:
    choices = []
    for row in search_categories(facets, query):
        slug = row["slug"]
        chosen = slug == query.category

        def choose(params, slug=slug, chosen=chosen):
            params.pop("category", None)
            if not chosen:
                params["category"] = slug

        choices.append(Choice(row["name"], row["count"], _link(asked, choose), chosen))
    return choices


def _brands(facets: dict, query: PartQuery, asked: QueryDict) -> list[Choice]:
    counted = {row["name"]: row["count"] for row in facets["brands"]}
    for brand in query.brands:
        counted.setdefault(brand, 0)
    choices = []
    for brand, count in counted.items():
        chosen = brand in query.brands

        def choose(params, brand=brand, chosen=chosen):
            brands = [b for b in params.getlist("brand") if b and b != brand]
            params.setlist("brand", brands if chosen else [*brands, brand])

        choices.append(Choice(brand, count, _link(asked, choose), chosen))
    return choices


def _prices(facets: dict, query: PartQuery, asked: QueryDict) -> list[Choice]:
    choices = []
    for row in facets["price"]:
        low, top = row["min"], row["max"]
        chosen = query.min_price == low and query.max_price == top
        label = f"{money(low)} and up" if top is None else f"{money(low)} – {money(top)}"

        def choose(params, low=low, top=top, chosen=chosen):
            for field in PRICE_FIELDS:
                params.pop(field, None)
            if not chosen:  # the search form's own fields: it shows and keeps them
                params["minPrice"] = str(low)
                if top is not None:
                    params["maxPrice"] = str(top)

        choices.append(Choice(label, row["count"], _link(asked, choose), chosen))
    return choices


def _in_stock(facets: dict, query: PartQuery, asked: QueryDict) -> Choice:
    def choose(params):
        params.pop("inStock", None)
        if not query.in_stock:
            params["inStock"] = "true"

    return Choice("In stock", facets["inStock"], _link(asked, choose), query.in_stock)
