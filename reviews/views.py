"""The Add Reviews page."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from core.page_forms import handle_form

from . import services
from .models import MAX_RATING, MIN_RATING
from .serializers import ReviewInputSerializer

REVIEW_ADDED = "Review Added"


@login_required
def add_review(request):
    """Add Reviews: name (pre-filled with the display name), review and ratings out of 5."""
    done, context = handle_form(
        request,
        ReviewInputSerializer,
        save=lambda data: services.review_create(user=request.user, **data),
        success=REVIEW_ADDED,
        initial={"name": request.user.get_short_name()},
    )
    if done:
        return done
    context.update(min_rating=MIN_RATING, max_rating=MAX_RATING)
    return render(request, "dashboard/review.html", context)
