"""The shop's own pages: home, blogs, portfolio and the 404 page."""

from django.shortcuts import render


def home(request):
    return render(request, "pages/home.html")


def blogs(request):
    return render(request, "pages/blogs.html")


def portfolio(request):
    return render(request, "pages/portfolio.html")


def page_not_found(request, exception=None):
    return render(request, "404.html", status=404)
