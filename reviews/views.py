"""The Add Reviews page."""

from math import ceil

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from core.page_forms import handle_form

from . import services
from .models import MAX_RATING, MIN_RATING
from .serializers import ReviewInputSerializer
from .throttles import ReviewThrottle

REVIEW_ADDED = "Review Added"
TOO_MANY_REVIEWS = "You have posted a lot of reviews lately. Please try again later."


@login_required
def add_review(request):
    """Add Reviews: name (pre-filled with the display name), review and ratings out of 5;
    reviews posted are limited as the API's (THROTTLE_REVIEWS): past it, the form again with
    429."""
    throttle = ReviewThrottle()
    if not throttle.allow_request(request, None):
        messages.error(request, TOO_MANY_REVIEWS)
        response = render_form(request, {"values": request.POST, "errors": {}}, status=429)
        response["Retry-After"] = str(max(1, ceil(throttle.wait() or 1)))
        return response
    done, context = handle_form(
        request,
        ReviewInputSerializer,
        save=lambda data: _review_create(request, throttle, data),
        success=REVIEW_ADDED,
        initial={"name": request.user.get_short_name()},
    )
    return done or render_form(request, context)


def _review_create(request, throttle: ReviewThrottle, data: dict):
    review = services.review_create(user=request.user, **data)
    throttle.record(request, None)  # only a review posted counts
    return review


def render_form(request, context: dict, status: int = 200):
    context = {**context, "min_rating": MIN_RATING, "max_rating": MAX_RATING}
    return render(request, "dashboard/review.html", context, status=status)
