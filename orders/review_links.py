""" "Did it fit your bike?": a shipped order's links to each of its parts' review forms (the
shipped mail's and the order's page's), the bike filled in. An order does not know a bike of
its own: the bike is the account's active one (My Garage) when the link is made, or none.

The review form is the reviews app's, a floor above: reached by its URL name, never imported."""

from urllib.parse import urlencode

from django.urls import reverse

from core.links import absolute_url

from .models import Booking

FIT_QUESTION = "Did it fit your bike?"
REVIEW_FORM = "part-review"  # reviews.urls: a part's review form, ?vehicle= fills in the bike


def fit_question_links(booking: Booking, vehicle, *, absolute: bool = False) -> list[dict]:
    """[{"name", "url"}] for each line of a shipped order whose part is still sold; none for
    another state, or an order of no account (a guest has no account to review with)."""
    if booking.state != Booking.State.SHIPPED or booking.user_id is None:
        return []
    query = "" if vehicle is None else "?" + urlencode({"vehicle": vehicle.pk})
    links = []
    for line in booking.lines.all():
        if line.part_id is None:
            continue
        url = reverse(REVIEW_FORM, args=[line.part_id]) + query
        links.append({"name": line.parts_name, "url": absolute_url(url) if absolute else url})
    return links
