"""A part's review form: its own page (the shipped mail's "Did it fit your bike?" links here,
`?vehicle=` filling in the bike), and where the part page's form posts. Without JavaScript:
POST, then back to the part page with a message, or the form again with its field messages."""

from math import ceil

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from catalog.garage import garage_read
from catalog.models import Part
from catalog.selectors import vehicle_get
from core.api import get_or_404
from core.errors import ShopError
from core.page_forms import validate

from . import selectors, services
from .forms import bike_choices, form_values
from .serializers import PartReviewInputSerializer
from .throttles import PartReviewThrottle

REVIEW_ADDED = "Review Added"
REVIEW_UPDATED = "Review updated"
TOO_MANY_REVIEWS = "You have written a lot of reviews lately. Please try again later."


@login_required
def part_review_form(request, pk: int):
    part = get_or_404(Part.objects.only("id", "name", "img"), pk)
    own = selectors.part_review_of(user=request.user, part_id=pk)
    found = garage_read(user=request.user, session=request.session)
    asked = vehicle_get(request.GET.get("vehicle", "")) if request.GET.get("vehicle") else None
    bikes = bike_choices([own.vehicle if own else None, asked, found.active, *found.vehicles])
    if request.method != "POST":
        values = form_values(own, asked or found.active)
        if own is None and asked is not None:
            values["vehicle"] = str(asked.pk)
        return _page(request, part, own, values, {}, bikes)
    throttle = PartReviewThrottle()
    if not throttle.allow_request(request, None):
        messages.error(request, TOO_MANY_REVIEWS)
        response = _page(request, part, own, request.POST, {}, bikes, status=429)
        response["Retry-After"] = str(max(1, ceil(throttle.wait() or 1)))
        return response
    data, errors = validate(PartReviewInputSerializer, request.POST)
    if data is None:
        return _page(request, part, own, request.POST, errors, bikes, status=400)
    try:
        if own is None:
            services.part_review_create(user=request.user, part=part, **data)
        else:
            services.part_review_update(review=own, **data)
    except ShopError as refusal:  # a second post of a new review at the same moment
        messages.error(request, refusal.message)
        return redirect(part.get_absolute_url())
    throttle.record(request, None)  # only a review written counts
    messages.success(request, REVIEW_ADDED if own is None else REVIEW_UPDATED)
    return redirect(part.get_absolute_url() + "#reviews")


def _page(request, part, own, values, errors, bikes, status: int = 200):
    form = {"values": values, "errors": errors, "bikes": bikes, "editing": own is not None}
    context = {"part": part, "form": form}
    return render(request, "reviews/part_review.html", context, status=status)
