from django.urls import path

from core.routing import optional_slash

from . import content, views

urlpatterns = [
    path("", views.home, name="home"),
    *optional_slash("blogs", views.blogs, "blogs"),
    *optional_slash("myportfolio", views.portfolio, "myportfolio"),
    *[
        route
        for page in content.TRUST_PAGES
        for route in (
            path(page.slug, views.trust_page, {"slug": page.slug}, name=page.slug),
            path(f"{page.slug}/", views.trust_page, {"slug": page.slug}),
        )
    ],
]
