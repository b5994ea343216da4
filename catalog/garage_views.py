"""My Garage's page (/garage) and the bike picker's plain-form round trips.

The picker works without JavaScript: each submission fills the next select (a make's models,
then a model's years) and the last one saves the bike and makes it active. /allparts' picker is
a GET form that lands here (that page is kept for visitors: no CSRF token in it); from here on
it posts. With JavaScript (frontend/src/bike-picker.js) the selects fill from the API instead
and the bike is saved by POST /api/garage.
"""

import dataclasses

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control

from core.throttles import VISITOR_WRITES_REFUSED, VisitorWriteThrottle, page_wait

from . import garage
from .models import Vehicle
from .selectors import vehicle_makes

CHOOSE_MAKE = "Choose a make"
CHOOSE_MODEL = "Choose a model"
CHOOSE_YEAR = "Choose a year"


def _models(make: str) -> list[str]:
    models = Vehicle.objects.filter(make__iexact=make).order_by("model")
    return list(models.values_list("model", flat=True).distinct())


def _years(make: str, model: str) -> list[int]:
    vehicles = Vehicle.objects.filter(make__iexact=make, model__iexact=model).order_by("-year")
    return list(vehicles.values_list("year", flat=True))


SHOW_ALL = "all"  # /allparts?all=1: every part, though a bike is active


def bike_filter(request) -> tuple[Vehicle | None, bool]:
    """/allparts' active bike, and whether the list is to be that bike's (not when the page
    asks for every part, ?all=1, or names a bike of its own, ?fits=)."""
    bike = garage.garage_active_for(request)
    mine = bike is not None and not request.GET.get(SHOW_ALL) and not request.GET.get("fits")
    return bike, mine


def for_bike(query, bike: Vehicle):
    """The search `query` narrowed to `bike`'s parts (known to exist: no check again)."""
    return dataclasses.replace(query, fits=bike.pk)


def bike_named(bike: Vehicle | None, query) -> bool:
    """Whether the active `bike` is one of the vehicles a search's words named (a year of
    that model: its list stays the active bike's, and no other bike is offered)."""
    return bike is not None and bike.pk in query.vehicles


def picker(values) -> dict:
    """The picker's selects as far as `values` (make, model, year) go: the choices of each
    select after a valid choice in the one before, and a message for the next one to choose."""
    makes = vehicle_makes()
    make = _pick(values.get("make", ""), makes)
    models = _models(make) if make else []
    model = _pick(values.get("model", ""), models)
    years = _years(make, model) if model else []
    year = _pick(values.get("year", ""), [str(y) for y in years])
    next_step = (not make and CHOOSE_MAKE) or (not model and CHOOSE_MODEL) or ""
    next_step = next_step or (not year and CHOOSE_YEAR) or ""
    return {
        "makes": makes,
        "models": models,
        "years": years,
        "make": make,
        "model": model,
        "year": year,
        "next_step": next_step,
    }


def _pick(value: str, choices) -> str:
    """The choice `value` names (whatever its case), or ""."""
    value = str(value).strip().casefold()
    return next((str(c) for c in choices if str(c).casefold() == value), "")


def garage_page(request):
    """GET: the saved bikes and the picker (a make and model chosen on /allparts filled in).
    POST: "Make active" or "Remove" a saved bike, or a step of the picker; a visitor's posts
    are limited as the API's writes are (THROTTLE_VISITOR_WRITES): past it, the page again
    with a message, 429, nothing changed."""
    caller = {"user": request.user, "session": request.session}
    values = request.POST if request.method == "POST" else request.GET
    errors = {}
    wait = page_wait(request, VisitorWriteThrottle()) if request.method == "POST" else None
    if wait is not None:
        response = _render(request, values, {"throttle": [VISITOR_WRITES_REFUSED]}, status=429)
        response["Retry-After"] = str(wait)
        return response
    if request.method == "POST":
        try:
            if "activate" in request.POST:
                garage.garage_activate(**caller, vehicle_id=_id(request.POST["activate"]))
                return redirect("garage")
            if "remove" in request.POST:
                garage.garage_remove(**caller, vehicle_id=_id(request.POST["remove"]))
                return redirect("garage")
        except ValidationError as refusal:
            errors = refusal.message_dict
    choice = picker(values)
    if request.method == "POST" and not errors and choice["year"]:
        vehicle = Vehicle.objects.filter(
            make__iexact=choice["make"], model__iexact=choice["model"], year=choice["year"]
        ).first()
        if vehicle is not None:  # (deleted since the years were read: choose again)
            garage.garage_add(**caller, vehicle_id=vehicle.pk)
            return redirect("allparts")
    return _render(request, values, errors, choice=choice)


def _render(request, values, errors: dict, *, choice: dict | None = None, status: int = 200):
    """The page: the caller's garage, the picker as far as `values` go, `errors` above them."""
    caller = {"user": request.user, "session": request.session}
    context = {
        "garage": garage.garage_read(**caller),
        "picker": choice if choice is not None else picker(values),
        "asked": any(values.get(name) for name in ("make", "model", "year")),
        "errors": errors,
        "max_bikes": garage.MAX_BIKES,
    }
    response = render(request, "catalog/garage.html", context, status=status)
    patch_cache_control(response, private=True, no_store=True)
    return response


def _id(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        return 0
