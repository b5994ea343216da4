"""The Add Reviews page."""

from django.contrib import messages
from django.shortcuts import redirect, render

from shop.decorators import login_required
from shop.forms import validate

from . import services
from .models import MAX_RATING, MIN_RATING
from .serializers import ReviewInputSerializer

REVIEW_ADDED = "Review Added"


@login_required
def add_review(request):
    """Add Reviews: name (pre-filled with the display name), review and ratings out of 5."""
    values, errors = {"name": request.user.get_short_name()}, {}
    if request.method == "POST":
        data, errors = validate(ReviewInputSerializer, request.POST)
        if data is not None:
            services.review_create(user=request.user, **data)
            messages.success(request, REVIEW_ADDED)
            return redirect(request.path)
        values = request.POST
    context = {
        "values": values,
        "errors": errors,
        "min_rating": MIN_RATING,
        "max_rating": MAX_RATING,
    }
    return render(request, "dashboard/review.html", context)
