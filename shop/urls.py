"""Root URLs: the API under /api/, Django admin, allauth; pages come with the pages issue."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from shop.api import api_path, not_found

api_urls = [
    *api_path("schema", SpectacularAPIView.as_view(), "schema"),
    *api_path("docs", SpectacularSwaggerView.as_view(url_name="schema"), "docs"),
    path("", include("accounts.urls")),
    path("", include("catalog.urls")),
    path("", include("orders.urls")),
    path("", include("reviews.urls")),
    re_path(r"^.*$", not_found),
]

urlpatterns = [
    path("api/", include(api_urls)),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
]
