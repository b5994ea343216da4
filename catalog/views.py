"""Catalog pages: All Parts, the purchase page, and the admin's Manage Parts and Add parts."""

from dataclasses import replace
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST
from rest_framework.exceptions import ValidationError

from core.api import get_or_404
from core.caching import versions
from core.caching.pages import cache_page_for_visitors
from core.errors import ShopError
from core.island_props import island_props
from core.links import absolute_url
from core.page_forms import handle_form, validate
from core.page_guards import shop_admin_required

from . import alerts, garage, garage_views, selectors, services, stock
from .bike_words import with_bike
from .facet_links import facet_choices, search_categories
from .facets import FacetedSearch, part_facets
from .fitment_serializers import (
    CONFIRM_NEW_BIKE,
    FitmentRowAddInputSerializer,
    FitmentRowInputSerializer,
    new_bike_named,
)
from .models import Part, PartNumber
from .part_page import part_page_sections
from .search import SORT_LABELS, PartQuery, part_queryset, part_search
from .serializers import (
    PartEditSerializer,
    PartInputSerializer,
    PartOutputSerializer,
    PartSearchInputSerializer,
    StockChangeInputSerializer,
    numbers_clean,
)

SEARCH_FIELDS = ("q", "category", "minPrice", "maxPrice", "inStock", "sort", "fits")
FILTER_FIELDS = ("brand", "priceMin", "priceMax")  # the filters' links' (not in the form)


@cache_page_for_visitors(selectors.CATALOG, selectors.PARTS, selectors.VEHICLES)
def allparts(request):
    """All Parts: 24 cards a page (?page=N); newest first, or what the search form and the
    filters beside the grid ask (the same parameters as GET /api/allparts, `fits` a vehicle's
    id included); with an active bike, only the parts that fit it (?all=1: every part), each
    card with its fit badge. The filters' counts (catalog.facets) count the grid too."""
    number = request.GET.get("page", 1)
    version = versions.current(selectors.CATALOG)  # the count's and the categories'
    form = _form_values(request.GET)
    bike, bikes_parts = garage_views.bike_filter(request)
    search = PartSearchInputSerializer(data=request.GET)
    asked = any(form.values()) or any(request.GET.get(f) for f in FILTER_FIELDS) or bikes_parts
    searching = asked and search.is_valid()
    query, offer, not_fitting = PartQuery(), None, None  # a bad search: every part
    if searching:
        query, named = with_bike(search.part_query())
        if named is not None and not garage_views.bike_named(bike, query):
            offer, bikes_parts = named, False  # the bike in the words, not the active one
    grid = garage_views.for_bike(query, bike) if searching and bikes_parts else query
    if searching and query.words and not bikes_parts:  # the rows and their counts: one read
        found = FacetedSearch(grid)
        page = selectors.page_of(found, page=number, count_in_rows=True)
        facets = found.facets
    else:
        facets = part_facets(grid)
        if not searching:
            page = selectors.part_page(page=number, version=version, count=facets["total"])
        elif bikes_parts and query.words:  # "N parts match but do not fit …": in one query
            page, not_fitting = selectors.fitting_page(
                part_queryset(query), bike.pk, order=query.order, page=number
            )
        else:
            found = part_search(grid) if facets["total"] else Part.objects.none()  # no read
            page = selectors.page_of(found, page=number, count=partial(int, facets["total"]))
    misfit_bike, show_them = None, ""  # "N parts match but do not fit your {bike}": its link
    if not_fitting:  # the active bike's
        misfit_bike, show_them = bike, _query_string(request.GET, all="1")
    elif offer is not None and page.count == 0 and query.words:  # none fits the bike named
        not_fitting = part_queryset(replace(query, vehicles=())).count()
        misfit_bike, show_them = offer, _query_string(request.GET, q=query.q)
    if searching and form["q"] and page.count == 0 and not not_fitting:
        services.missed_search_count(q=form["q"])  # as asked (a search's page is never kept)
    all_fit = bikes_parts or (bike is not None and form["fits"] == str(bike.pk))
    garage.with_fit_badges(page.items, bike, all_fit=all_fit)
    context = {
        "bike": bike,
        # "Shop for your 2019 Yamaha MT-07?": a bike in the words that is not the active one.
        "offer": offer,
        "not_fitting": not_fitting,
        "misfit_bike": misfit_bike,
        "show_them": show_them,
        "showing_all": bike is not None and not bikes_parts,
        # Kept for visitors, the makes cost nothing twice; a signed-in page (5 queries) leaves
        # them to the picker's script, or to /garage's round trip without it.
        "picker": garage_views.picker({}) if not request.user.is_authenticated else {},
        "page": page,
        "ellipsis": Paginator.ELLIPSIS,
        "asked": asked,
        "searching": searching,
        "form": form,
        "brands_asked": [b for b in request.GET.getlist("brand") if b],
        "errors": search.errors if asked else {},
        # A search's: its own counts (the facets'). Else read by the template only when the
        # form is not kept (a callable: called there).
        "categories": search_categories(facets, grid)
        if searching
        else partial(selectors.category_list, version=version),
        "catalog_version": version,
        "sorts": SORT_LABELS,
        "query": _query_string(request.GET),
        # Drawn once, shown twice (the phones' drawer, the column beside the grid).
        "filters": render_to_string(
            "catalog/_facets.html", {"filters": facet_choices(facets, grid, request.GET)}
        ),
    }
    return render(request, "catalog/allparts.html", context)


def _query_string(asked, **changes) -> str:
    """The page's query string without its page number, with `changes` made."""
    query_string = asked.copy()
    query_string.pop("page", None)
    for name, value in changes.items():
        query_string[name] = value
    return query_string.urlencode()


def _form_values(asked) -> dict[str, str]:
    """The search form's fields as asked (a price range asked as priceMin/priceMax shows in
    its boxes, and is kept by its next search)."""
    form = {field: asked.get(field, "") for field in SEARCH_FIELDS}
    form["minPrice"] = form["minPrice"] or asked.get("priceMin", "")
    form["maxPrice"] = form["maxPrice"] or asked.get("priceMax", "")
    return form


@cache_page_for_visitors(selectors.CATEGORIES, selectors.PART)
def part(request, pk):
    """A part's public page: details, part number, stock, the way to order it, the bikes it
    fits (kept with the page: a change of fitment bumps the part's version), and its
    schema.org data."""
    part = get_or_404(selectors.with_numbers_column(Part.objects.select_related("category")), pk)
    selectors.numbers_from_column([part])
    vehicles = [] if part.universal else selectors.part_vehicles(part_id=pk)
    bike = garage.garage_active_for(request)
    # The fit badge from the vehicles just read (no query of its own).
    fits = part.universal or (bike is not None and any(v.pk == bike.pk for v in vehicles))
    part.fit_badge, part.fit_ok = garage.fit_badge(part, bike, fits=fits), fits
    context = {
        "part": part,
        "product": product_ld(part),
        "fitment": selectors.fitment_lines(vehicles),
    }
    part_page_sections(request, part, context)  # the riders' reviews (reviews.apps)
    return render(request, "catalog/part.html", context)


def product_ld(part: Part) -> dict:
    """schema.org's Product for search engines: name, image, price in USD, availability, the
    riders' rating; its links at SITE_URL (the page is kept for every visitor: never the request's Host)."""
    availability = "OutOfStock" if part.is_out_of_stock else "InStock"
    product = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": part.name,
        "image": absolute_url(part.img) if part.img else None,
        "description": part.description,
        "category": part.category.name if part.category else None,
        "mpn": part.part_number or None,  # the manufacturer's part number
        "offers": {
            "@type": "Offer",
            "price": str(part.price),
            "priceCurrency": "USD",
            "availability": f"https://schema.org/{availability}",
            "url": absolute_url(part.get_absolute_url()),
        },
    }
    if part.rating_count:  # the riders' rating (their reviews: the reviews app's section)
        product["aggregateRating"] = {
            "@type": "AggregateRating",
            "ratingValue": str(part.rating_average),
            "reviewCount": part.rating_count,
            "bestRating": 5,
            "worstRating": 1,
        }
    return product


@login_required
def purchase(request, pk):
    """The part's details and the purchase-form island (it posts to /api/booking)."""
    part = get_or_404(Part.objects.select_related("category"), pk)
    props = island_props(
        part=PartOutputSerializer(part).data,
        user={"name": request.user.get_full_name(), "email": request.user.email},
    )
    return render(request, "catalog/purchase.html", {"part": part, "props": props})


PART_DELETED = "Part deleted"
PARTS_ADDED = "Parts Added"
PART_UPDATED = "Part updated"
FITMENT_UPDATED = "Fitment updated"
STOCK_ADJUSTED = "Stock updated"


@shop_admin_required
def manage_parts(request):
    """Manage Parts: the parts as cards with their stock and a Delete button, newest first,
    24 a page (?page=N) as on All Parts; "N waiting" on those with live back-in-stock alerts
    (one query for the page)."""
    page = selectors.part_page(page=request.GET.get("page", 1))
    waiting = alerts.waiting_counts([part.pk for part in page.items])
    for part in page.items:
        part.waiting = waiting.get(part.pk, 0)
    context = {"page": page, "ellipsis": Paginator.ELLIPSIS}
    return render(request, "dashboard/manageparts.html", context)


@require_POST
@shop_admin_required
def delete_part(request, pk):
    try:
        services.part_delete(part=get_or_404(Part.objects, pk))
    except ShopError as refusal:  # e.g. Stripe unreachable while its unpaid orders are withdrawn
        messages.error(request, refusal.message)
    else:
        messages.success(request, PART_DELETED)
    return redirect("manageparts")


@shop_admin_required
def add_parts(request):
    """Add product: the API's part rules, then part_create."""
    done, context = handle_form(
        request,
        PartInputSerializer,
        save=lambda data: services.part_create(**data, by=request.user),
        success=PARTS_ADDED,
    )
    if done:
        return done
    context["categories"] = selectors.category_list()
    return render(request, "dashboard/addparts.html", context)


@shop_admin_required
def edit_part(request, pk):
    """Edit a part: every field but its stock (that is Adjust stock), the API's rules; and the
    bikes it fits ("Fits these bikes": its own forms, `form=fitment`)."""
    part = get_or_404(Part.objects.select_related("category"), pk)
    if request.method == "POST" and request.POST.get("form") == "fitment":
        return edit_fitment(request, part)
    if request.method == "POST" and request.POST.get("form") == "numbers":
        return edit_numbers(request, part)

    def save(data):
        if "partNumber" in request.POST:  # an emptied box clears it (a blank is "not given")
            data.setdefault("part_number", "")
        if "brand" in request.POST:  # an emptied box clears it
            data.setdefault("brand", "")
        if "weight" in request.POST:  # an emptied box is 0, "not given"
            data.setdefault("weight", 0)
        services.part_update(part=part, **data)

    done, context = handle_form(
        request,
        PartEditSerializer,
        save=save,
        success=PART_UPDATED,
        initial=part_form_values(part),
    )
    if done:
        return done
    return edit_part_page(request, part, context)


NUMBERS_UPDATED = "Other numbers updated"
EMPTY_NUMBER_ROWS = 3  # rows to type new numbers in


def edit_part_page(
    request, part: Part, context: dict, fitment: dict | None = None, numbers: dict | None = None
):
    vehicles = selectors.part_vehicles(part_id=part.pk)
    if numbers is None:
        rows = [
            {"number": n.number, "kind": n.kind, "brand": n.brand} for n in part.other_numbers.all()
        ]
        numbers = {"rows": rows, "errors": {}}
    numbers["rows"] = numbers["rows"] + [{}] * EMPTY_NUMBER_ROWS
    context.update(
        numbers=numbers,
        kinds=PartNumber.Kind.choices,
        part=part,
        categories=selectors.category_list(),
        fitment_rows=[
            {
                "make": make,
                "model": model,
                "first": first,
                "last": last,
                "years": selectors.year_range(first, last),
            }
            for make, model, first, last in selectors.fitment_runs(vehicles)
        ],  # fmt: skip
        makes=selectors.vehicle_makes(),
        fitment=fitment or {"values": {}, "errors": {}},
    )
    return render(request, "dashboard/editpart.html", context)


def edit_fitment(request, part: Part):
    """ "Fits these bikes" on Edit part: the "Universal fit" box, or a make and model in a
    range of years added or removed (vehicles created as needed)."""
    action = request.POST.get("action")
    if action == "universal":
        services.part_update(part=part, universal=request.POST.get("universal") == "true")
    else:
        rules = FitmentRowAddInputSerializer if action == "add" else FitmentRowInputSerializer
        data, errors = validate(rules, request.POST)
        if data is None or action not in ("add", "remove"):
            fitment = {
                "values": request.POST,
                "errors": errors,
                "confirm_new": confirm_new(errors),
            }
            context = {"values": part_form_values(part), "errors": {}}
            return edit_part_page(request, part, context, fitment)
        change = services.fitment_add if action == "add" else services.fitment_remove
        change(part=part, **data)
    messages.success(request, FITMENT_UPDATED)
    return redirect(request.path)


def edit_numbers(request, part: Part):
    """ "Also known as" on Edit part: the part's other numbers, one row each (number, kind,
    brand; a row without a number is left out), replacing the stored ones by the API's rules."""
    post = request.POST
    rows = [
        {"number": number, "kind": kind, "brand": brand}
        for number, kind, brand in zip(
            post.getlist("number"), post.getlist("kind"), post.getlist("brand"), strict=False
        )
        if number.strip()
    ]
    try:
        cleaned = numbers_clean(rows)
    except ValidationError as invalid:
        context = {"values": part_form_values(part), "errors": {}}
        numbers = {"rows": rows, "errors": invalid.detail}
        return edit_part_page(request, part, context, numbers=numbers)
    services.part_numbers_set(part=part, numbers=cleaned)
    messages.success(request, NUMBERS_UPDATED)
    return redirect(request.path)


def confirm_new(errors: dict[str, list[str]]) -> str:
    """ "Add a new bike: Zundapp KS 50" when "Add" was refused for making a bike the shop does
    not know (the bike its message names): the editor then shows it as a box to tick (the
    script asks with confirm())."""
    bike = new_bike_named([*errors.get("make", []), *errors.get("model", [])])
    return CONFIRM_NEW_BIKE.format(bike=bike) if bike else ""


def part_form_values(part: Part) -> dict:
    """The part as its form shows it (the API's field names)."""
    return {
        "name": part.name,
        "price": part.price,
        "minimumOrderQuantity": part.minimum_order_quantity,
        "description": part.description,
        "img": part.img,
        "category": part.category.slug if part.category else "",
        "partNumber": part.part_number,
        "brand": part.brand,
        "weight": part.weight,
    }


@shop_admin_required
def adjust_stock(request, pk):
    """Adjust stock: units received (+N) or written off (−N), with a reason, through the
    catalog's stock service (the part's row is locked; the change is kept as a movement)."""
    part = get_or_404(Part.objects, pk)

    def save(data):
        stock.stock_adjust(part=part, change=data["change"], note=data["reason"], by=request.user)

    try:
        done, context = handle_form(
            request, StockChangeInputSerializer, save=save, success=STOCK_ADJUSTED
        )
    except ShopError as refusal:  # e.g. a write-off of more than is on the shelf
        done, context = None, {"values": request.POST, "errors": {"change": [refusal.message]}}
    if done:
        return done
    context["part"] = part
    return render(request, "dashboard/adjuststock.html", context)
