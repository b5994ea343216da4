"""The filters beside /allparts' grid: each facet's choices (catalog.facets) as links that
keep the rest of the page's query (the words, the other filters, the order, the bike) and
drop its page number; a chosen one's link takes its filter off again."""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import QueryDict
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from core.templatetags.money import money

from .search import PartQuery

PRICE_FIELDS = ("minPrice", "maxPrice", "priceMin", "priceMax")  # either name, both ends


@dataclass(frozen=True)
class Choice:
    label: str
    count: int
    url: str
    chosen: bool = False

    @property
    def link(self) -> SafeString:
        """The choice's link with its count (a page shows dozens: the template engine drew each
        in more time than the rest of the filters)."""
        if self.chosen:
            return format_html(CHOSEN, self.url, self.count, self.label)
        return format_html(CHOICE, self.url, self.count, self.label)


# format_html's: {0} the url, {1} the count, {2} the label.
CHOICE = (
    '<a class="link link-hover flex justify-between gap-2" href="{0}" data-count="{1}">'
    '<span class="min-w-0">{2}</span> <span class="tabular-nums">{1}</span></a>'
)
CHOSEN = (
    '<a class="link link-primary font-semibold flex justify-between gap-2" href="{0}"'
    ' aria-current="true" data-count="{1}"><span class="min-w-0">✓ {2}</span>'
    ' <span class="tabular-nums">{1}</span></a>'
)


@dataclass(frozen=True)
class Facet:
    title: str
    choices: list[Choice]


def facet_choices(facets: dict, query: PartQuery, asked: QueryDict) -> list[Facet]:
    """ "Category", "Brand", "Price" and "In stock only" with their choices, of the page whose
    query string is `asked` (`query`: what it searches). A category or brand with no choice is
    left out; a price range shows when it has parts or is chosen (to be taken off)."""
    link = _Links(asked)
    prices = [c for c in _prices(facets, query, link) if c.count or c.chosen]
    return [
        *_titled("Category", _categories(facets, query, link)),
        *_titled("Brand", _brands(facets, query, link)),
        Facet("Price", prices),
        Facet("In stock only", [_in_stock(facets, query, link)]),
    ]


def _titled(title: str, choices: list[Choice]) -> list[Facet]:
    return [Facet(title, choices)] if choices else []


class _Links:
    """Links to /allparts with the asked query string, its page number dropped, changed by
    a function of its parameters ({name: [values]}, to change in place)."""

    def __init__(self, asked: QueryDict):
        self.path = reverse("allparts")
        self.params = {name: values for name, values in asked.lists() if name != "page"}

    def __call__(self, change) -> str:
        params = dict(self.params)  # the lists are replaced, never changed
        change(params)
        return self.path + (f"?{urlencode(params, doseq=True)}" if params else "")


def search_categories(facets: dict, query: PartQuery) -> list[dict]:
    """The facets' categories ({"slug","name","count"}), and the one asked for even when the
    other filters leave it no part (still shown, to be taken off)."""
    found = facets["categories"]
    if query.category and all(row["slug"] != query.category for row in found):
        return [*found, {"slug": query.category, "name": query.category, "count": 0}]
    return found


def _categories(facets: dict, query: PartQuery, link: _Links) -> list[Choice]:
    choices = []
    for row in search_categories(facets, query):
        slug = row["slug"]
        chosen = slug == query.category

        def choose(params, slug=slug, chosen=chosen):
            params.pop("category", None)
            if not chosen:
                params["category"] = [slug]

        choices.append(Choice(row["name"], row["count"], link(choose), chosen))
    return choices


def _brands(facets: dict, query: PartQuery, link: _Links) -> list[Choice]:
    counted = {row["name"]: row["count"] for row in facets["brands"]}
    for brand in query.brands:
        counted.setdefault(brand, 0)
    choices = []
    for brand, count in counted.items():
        chosen = brand in query.brands

        def choose(params, brand=brand, chosen=chosen):
            brands = [b for b in params.get("brand", ()) if b and b != brand]
            params["brand"] = brands if chosen else [*brands, brand]

        choices.append(Choice(brand, count, link(choose), chosen))
    return choices


def _prices(facets: dict, query: PartQuery, link: _Links) -> list[Choice]:
    choices = []
    for row in facets["price"]:
        low, top = row["min"], row["max"]
        chosen = query.min_price == low and query.max_price == top
        label = f"{money(low)} and up" if top is None else f"{money(low)} – {money(top)}"

        def choose(params, low=low, top=top, chosen=chosen):
            for field in PRICE_FIELDS:
                params.pop(field, None)
            if not chosen:  # the search form's own fields: it shows and keeps them
                params["minPrice"] = [str(low)]
                if top is not None:
                    params["maxPrice"] = [str(top)]

        choices.append(Choice(label, row["count"], link(choose), chosen))
    return choices


def _in_stock(facets: dict, query: PartQuery, link: _Links) -> Choice:
    def choose(params):
        params.pop("inStock", None)
        if not query.in_stock:
            params["inStock"] = ["true"]

    return Choice("In stock", facets["inStock"], link(choose), query.in_stock)
