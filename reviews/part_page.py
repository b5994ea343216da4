"""The riders' reviews on a part's page (a section catalog's part page asks for: catalog.
part_page): the rating's reviews, "Fit confirmed by N riders of …" for the active bike, and
for a signed-in rider the form to write (or change) theirs. One query.

A visitor's part page is kept for every visitor with the same active bike (the page cache's
variant): it holds nothing personal but the fit line of that bike; the form (with its CSRF
token) is only on a signed-in rider's page, which is never kept."""

from catalog.garage import garage_active_for

from . import selectors
from .forms import bike_choices, form_values

LD_REVIEWS = 5  # the newest reviews in the JSON-LD Product


def fit_confirmed_text(count: int, vehicle) -> str:
    riders = "1 rider" if count == 1 else f"{count} riders"
    return f"Fit confirmed by {riders} of the {vehicle.name}"


def reviews_section(request, part, context: dict) -> None:
    bike = garage_active_for(request)
    user = request.user if request.user.is_authenticated else None
    rows = selectors.part_page_reviews(
        part_id=part.pk, user=user, vehicle_id=None if bike is None else bike.pk
    )
    own = next((r for r in rows if r.mine), None)
    shown = sorted(
        (r for r in rows if not r.hidden), key=lambda r: (r.created_at, r.pk), reverse=True
    )[: selectors.PART_REVIEWS_SHOWN]
    confirmed = rows[0].fit_confirmed if rows and bike is not None else 0
    section = {
        "reviews": shown,
        "more": part.rating_count > len(shown),
        "fit_confirmed": fit_confirmed_text(confirmed, bike) if confirmed else "",
    }
    if user is not None:
        section["form"] = {
            "values": form_values(own, bike),
            "errors": {},
            "bikes": bike_choices([own.vehicle if own else None, bike]),
            "editing": own is not None,
        }
    context["reviews_section"] = section
    context["part_sections"].append("reviews/_part_reviews.html")
    if shown:
        context["product"]["review"] = [review_ld(r) for r in shown[:LD_REVIEWS]]


def review_ld(review) -> dict:
    """schema.org's Review of a part review (escaped with the page's JSON-LD: ld_json)."""
    return {
        "@type": "Review",
        "name": review.title,
        "reviewBody": review.body,
        "author": {"@type": "Person", "name": review.name},
        "datePublished": review.created_at.date().isoformat(),
        "reviewRating": {
            "@type": "Rating",
            "ratingValue": review.rating,
            "bestRating": 5,
            "worstRating": 1,
        },
    }
