"""Root URLs: the pages, the API under /api/, Django admin and allauth."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from health_check.views import HealthCheckView

from accounts.views import admin_login, email
from core.api import not_found
from core.media import media_file
from core.routing import any_path, optional_slash
from shop import views

api_urls = [
    *optional_slash("schema", SpectacularAPIView.as_view(), "schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (CSP).
    *optional_slash("docs", SpectacularSwaggerSplitView.as_view(url_name="schema"), "docs"),
    path("", include("accounts.api_urls")),
    path("", include("catalog.api_urls")),
    path("", include("pricing.api_urls")),
    path("", include("orders.api_urls")),
    path("", include("reviews.api_urls")),
    any_path(not_found),
]

# Django admin wears the shop's name (templates/admin/base_site.html adds the favicon).
admin.site.site_header = f"{settings.SHOP_NAME} administration"
admin.site.site_title = f"{settings.SHOP_NAME} admin"
admin.site.index_title = "Run the shop"

# /health/ for load balancers, compose's healthcheck and the test helpers (scripts/servers.py):
# 200 when the database and the cache answer, 500 when one does not. Never cached (the view
# says so); no session is read or written. The Celery broker's check joins when Celery does.
health = HealthCheckView.as_view(
    checks=["health_check.checks.Database", "health_check.checks.Cache"]
)

urlpatterns = [
    *optional_slash("health", health, "health"),
    path("api/", include(api_urls)),
    # Staff sign in through the shop's /login (its limits hold there), not admin's own form.
    path("admin/login/", admin_login, name="admin-login"),
    path("admin/", admin.site.urls),
    # allauth's e-mail page, where only a verified address becomes the sign-in address.
    path("accounts/email/", email, name="account_email"),
    path("accounts/", include("allauth.urls")),
    path("", include("shop.page_urls")),
    path("", include("accounts.urls")),
    path("", include("catalog.urls")),
    path("", include("pricing.urls")),
    path("", include("orders.urls")),
    path("", include("reviews.urls")),
    # Uploaded part images in the local media folder (nginx serves them first where it runs).
    *(
        [path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", media_file, name="media")]
        if settings.MEDIA_URL.startswith("/") and settings.MEDIA_URL.strip("/")
        else []
    ),
    # Any other path: the shop's 404 page, with DEBUG on or off.
    any_path(views.page_not_found),
]

handler400 = "core.api.bad_request"
handler404 = "shop.views.page_not_found"
