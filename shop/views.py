"""The shop's own pages: home, blogs, portfolio, the trust pages and the 404 page."""

from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from catalog.garage import garage_active_for, with_fit_badges
from catalog.selectors import CATALOG, PARTS, newest_parts
from core.caching.pages import cache_page_for_visitors
from reviews.selectors import REVIEWS, newest_reviews
from shop import content

HOME_PARTS = 6  # the home page shows 6 parts


@cache_page_for_visitors(CATALOG, PARTS, REVIEWS)
def home(request):
    return render(
        request,
        "pages/home.html",
        {
            "slides": content.SLIDES,
            "parts": with_fit_badges(newest_parts(HOME_PARTS), garage_active_for(request)),
            "quality_intro": content.QUALITY_INTRO,
            "quality_points": content.QUALITY_POINTS,
            "environment_intro": content.ENVIRONMENT_INTRO,
            "environment_points": content.ENVIRONMENT_POINTS,
            "summary_intro": content.BUSINESS_SUMMARY_INTRO,
            "summary": content.BUSINESS_SUMMARY,
            "reviews": newest_reviews(content.HOME_REVIEWS),
        },
    )


@cache_page_for_visitors()
def blogs(request):
    return render(
        request, "pages/blogs.html", {"intro": content.BLOG_INTRO, "posts": content.BLOG_POSTS}
    )


@cache_page_for_visitors()
def portfolio(request):
    return render(request, "pages/portfolio.html", {"me": content.PORTFOLIO})


TRUST_PAGES = {page.slug: page for page in content.TRUST_PAGES}


@cache_page_for_visitors()
def trust_page(request, slug: str):
    """Shipping & returns, Privacy, Terms, Contact: the owner's words from shop/content/trust.py."""
    return render(request, "pages/trust.html", {"page": TRUST_PAGES[slug]})


@csrf_exempt  # any method on an unknown path is a 404, never a CSRF refusal
def page_not_found(request, exception=None):
    return render(request, "404.html", status=404)
