"""What every page's layout needs from the catalog: the active bike the navbar names."""

from django.utils.functional import SimpleLazyObject

from .garage import garage_active_for


def garage(request):
    # Lazy: read when a template names it (the navbar does), once per request.
    return {"ACTIVE_BIKE": SimpleLazyObject(lambda: garage_active_for(request))}
