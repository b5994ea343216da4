"""The Add Reviews page."""

from django.shortcuts import render

from shop.decorators import login_required


@login_required
def add_review(request):
    return render(request, "dashboard/review.html")
