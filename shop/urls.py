"""Root URLs: the pages, the API under /api/, Django admin and allauth."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from shop import views
from shop.api import not_found
from shop.routing import optional_slash

api_urls = [
    *optional_slash("schema", SpectacularAPIView.as_view(), "schema"),
    *optional_slash("docs", SpectacularSwaggerView.as_view(url_name="schema"), "docs"),
    path("", include("accounts.api_urls")),
    path("", include("catalog.api_urls")),
    path("", include("orders.api_urls")),
    path("", include("reviews.api_urls")),
    re_path(r"^.*$", not_found),
]

urlpatterns = [
    path("api/", include(api_urls)),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("shop.page_urls")),
    path("", include("accounts.urls")),
    path("", include("catalog.urls")),
    path("", include("orders.urls")),
    path("", include("reviews.urls")),
    # Any other path: the spec's 404 page, with DEBUG on or off.
    re_path(r"^.*$", views.page_not_found),
]

handler404 = "shop.views.page_not_found"
