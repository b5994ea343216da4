"""The part review form's values and bike choices (the part page's and its own page's)."""

from catalog.models import Vehicle


def form_values(own, bike: Vehicle | None) -> dict:
    """The form's values: the rider's review when they wrote one, else their bike."""
    if own is None:
        return {"rating": "", "title": "", "body": "", "vehicle": _id(bike), "fits": ""}
    return {
        "rating": str(own.rating),
        "title": own.title,
        "body": own.body,
        "vehicle": _id(own.vehicle),
        "fits": "" if own.fits is None else ("true" if own.fits else "false"),
    }


def _id(vehicle: Vehicle | None) -> str:
    return "" if vehicle is None else str(vehicle.pk)


def bike_choices(vehicles) -> list[tuple[str, str]]:
    """(id, name) of each vehicle given (None left out, each once, in order): the "Your
    bike" choices besides "Not said"."""
    seen, choices = set(), []
    for vehicle in vehicles:
        if vehicle is None or vehicle.pk in seen:
            continue
        seen.add(vehicle.pk)
        choices.append((str(vehicle.pk), vehicle.name))
    return choices
